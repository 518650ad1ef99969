// Nothing from the workspace is executed, nothing is fetched, and #include stays inside the
// workspace unless the user allows more. Spies (spy.ts) replace every way Node has to run a
// program, open a connection, resolve a name or compile code; the inputs try all of them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runUserData } from '../../server/src/engine/userdata/run';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { main, readInput } from '../../server/src/cli/main';
import { fileIncludeResolver } from '../../server/src/node/includes';
import { PreviewRequest, PreviewResult, previewLines } from '../../server/src/protocol';
import { LspClient } from '../support/lspClient';
import { installSpies, SPY_MARKER } from './spy';
import { mime } from './corpus';
import { tempDir } from './harness';

const CC = '#cloud-config\n';

/** Inputs that would run something, fetch something or write MARKER if anything were executed. */
function hostileInputs(marker: string): Record<string, string> {
  const touch = `touch ${marker}`;
  return {
    'part-handler.mime': mime([
      { headers: 'Content-Type: text/part-handler', body: `#part-handler\ndef list_types():\n    return ["text/cloud-config"]\ndef handle_part(data, ctype, filename, payload):\n    open("${marker}", "w").write("pwned")\n` },
      { headers: 'Content-Type: text/cloud-config', body: `${CC}a: 1` },
    ]),
    'boothook.txt': `#cloud-boothook\n#!/bin/sh\n${touch}\n`,
    'script.sh': `#!/bin/sh\n${touch}\ncurl http://169.254.169.254/latest/meta-data/\n`,
    'scripts.mime': mime([
      { headers: 'Content-Type: text/x-shellscript', body: `#!/bin/sh\n${touch}` },
      { headers: 'Content-Type: text/x-shellscript-per-boot', body: `#!/bin/sh\n${touch}` },
      { headers: 'Content-Type: text/cloud-boothook', body: `#!/bin/sh\n${touch}` },
      { headers: 'Content-Type: text/part-handler', body: `import os\nos.system("${touch}")` },
    ]),
    'jinja.j2': [
      '## template: jinja',
      '#cloud-config',
      `a: "{{ cycler.__init__.__globals__.os.popen('${touch}').read() }}"`,
      `b: "{{ self._TemplateReference__context.cycler.__init__.__globals__.os.system('${touch}') }}"`,
      `c: "{{ lipsum.__globals__['os'].popen('id').read() }}"`,
      `d: "{{ ''.__class__.__mro__[1].__subclasses__() }}"`,
      `e: "{{ namespace.__init__.__globals__.__builtins__.eval('__import__(\\'os\\').system(\\'${touch}\\')') }}"`,
      `f: "{{ joiner.__init__.__globals__.os.system('${touch}') }}"`,
      '',
    ].join('\n'),
    'jinja-rendered-script.j2': `## template: jinja\n#!/bin/sh\n${touch}\n`,
    'yaml-tags.yaml': `${CC}a: !!python/object/apply:os.system ["${touch}"]\n`,
    'yaml-tags2.yaml': `${CC}a: !!python/name:os.system\nb: !!python/object/new:subprocess.Popen [["${touch}"]]\n`,
    'commands.yaml': `${CC}runcmd: [["sh", "-c", "${touch}"]]\nbootcmd: ["${touch}"]\nwrite_files: [{path: "${marker}", content: pwned}]\n`,
    'mergers.yaml': `${CC}merge_how: "os()+child_process()+x/../../../tmp/evil()+__import__()+m_list(append)+dict()"\na: 1\n`,
    'mergers-list.yaml': `${CC}merge_how: [{name: "../../../../tmp/evil", settings: []}, {name: "/tmp/evil", settings: []}, {name: dict, settings: []}]\na: 1\n`,
    'remote.txt': '#include\nhttp://127.0.0.1:9/a\nhttps://127.0.0.1:9/b\nhttp://169.254.169.254/latest/user-data\nftp://127.0.0.1/c\nhttp://[::1]:9/d\n#include-once https://example.invalid/e\n',
    'remote.mime': mime([
      { headers: 'Content-Type: text/x-include-url', body: 'https://127.0.0.1:9/x' },
      { headers: 'Content-Type: text/x-include-once-url', body: 'http://127.0.0.1:9/y' },
    ]),
    'archive.txt': `#cloud-config-archive\n- {type: text/part-handler, content: "import os\\nos.system('${touch}')"}\n- {type: text/x-include-url, content: "http://127.0.0.1:9/z"}\n- {type: text/x-shellscript, content: "#!/bin/sh\\n${touch}"}\n`,
  };
}

describe('security: nothing is executed or fetched (in-process, spied)', () => {
  let root: { dir: string; cleanup: () => void };
  let files: Record<string, string>;
  let marker: string;
  before(() => {
    root = tempDir();
    marker = path.join(root.dir, 'MARKER');
    files = hostileInputs(marker);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root.dir, name), text);
  });
  after(() => root.cleanup());

  /** Runs f with every spy installed; returns what they caught. */
  function spied(f: () => void): string[] {
    const caught: string[] = [];
    const restore = installSpies((what) => caught.push(what));
    try {
      f();
    } catch (e) {
      caught.push(`threw: ${(e as Error).message}`);
    } finally {
      restore();
    }
    return caught;
  }

  test('the spies catch what they are meant to catch', () => {
    const caught = spied(() => {
      for (const f of [
        () => require('node:child_process').execSync('true'),
        () => require('node:net').connect(9, '127.0.0.1'),
        () => require('node:https').get('https://127.0.0.1:9/'),
        () => require('node:dns').lookup('example.com', () => {}),
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- what the spy must catch
        () => new Function('return 1'),
        () => require('node:vm').runInThisContext('1'),
        () => (globalThis as { fetch: (u: string) => unknown }).fetch('http://127.0.0.1:9/'),
      ]) {
        try {
          f();
        } catch {
          /* refused */
        }
      }
    });
    assert.deepEqual(caught, ['child_process.execSync', 'net.connect', 'https.get', 'dns.lookup', 'new Function', 'vm.runInThisContext', 'fetch']);
  });

  test('the engine, the preview and the linter on every input', () => {
    for (const [name, text] of Object.entries(files)) {
      const bytes = Buffer.from(text);
      const includes = fileIncludeResolver([], readInput, (p) => readInput(p, { regularOnly: true }));
      const caught = spied(() => {
        for (const failure of ['error', 'skip'] as const) runUserData([{ name, bytes }], { includes, onIncludeFailure: failure, instanceData: { v1: { instance_id: 'i-1' } } });
        for (const mode of ['user-data', 'handler', 'confd', 'boot'] as const) buildPreview(mode, [{ name, bytes }], { includes, onIncludeFailure: 'skip' });
        analyzeDocument(text, path.join(root.dir, name));
      });
      assert.deepEqual(caught, [], `${name}: ${caught.join('; ')}`);
    }
    assert.ok(!existsSync(marker), 'something wrote the marker file');
  });

  test('the CLI in every mode and format', () => {
    const inputs = Object.keys(files).map((n) => path.join(root.dir, n));
    const runs: string[][] = [];
    for (const format of ['yaml', 'json', 'report', 'preview']) {
      for (const input of inputs) runs.push(['--format', format, '--include-missing', 'skip', input]);
      runs.push(['--format', format, '--mode', 'handler', ...inputs]);
      runs.push(['--format', format, '--mode', 'boot', '--vendor', inputs[0], ...inputs]);
    }
    runs.push(['--mode', 'confd', ...inputs], ['--mode', 'system', ...inputs.filter((i) => i.endsWith('.yaml'))]);
    let output = '';
    const caught = spied(() => {
      for (const argv of runs) main(argv, { stdout: (t) => (output += t), stderr: (t) => (output += t) });
    });
    assert.deepEqual(caught, []);
    assert.ok(!existsSync(marker), 'something wrote the marker file');
    assert.doesNotMatch(output, /uid=\d+/, 'a command ran');
    assert.doesNotMatch(output, /internal error/);
  });

  test('jinja: no attribute of a Python object is reachable (current: the sandbox refuses it; 22.4: this tool says it cannot reproduce it)', () => {
    // current cloud-init renders in Jinja2's sandbox: SecurityError, caught, the part is ignored with cloud-init's own warning.
    const run = runUserData([{ name: 'jinja.j2', bytes: Buffer.from(files['jinja.j2']) }], { instanceData: {}, version: 'current' });
    assert.equal(run.reports[0].disposition, 'jinja-ignored', run.reports[0].note);
    assert.match(run.reports[0].note, /access to attribute '__init__' of '\w+' object is unsafe/);
    assert.equal(run.reports[0].jinja?.rendered, undefined);
    assert.equal(run.result, null);
    // 22.4 renders Python objects (a plain Environment): not reproducible, and said so in the tool's words.
    const old = runUserData([{ name: 'jinja.j2', bytes: Buffer.from(files['jinja.j2']) }], { instanceData: {}, version: '22.4' });
    assert.equal(old.reports[0].disposition, 'jinja-not-reproduced', old.reports[0].note);
    assert.match(old.reports[0].note, /^this tool cannot reproduce the Python attribute '__\w+__'/);
    assert.equal(old.result, null);
    for (const version of ['current', '22.4'] as const) {
      for (const expr of ["''.__class__.__mro__[1].__subclasses__()", 'lipsum.__globals__', 'range.__self__', '(1).__class__.__base__', "config.__class__.__init__.__globals__['os']"]) {
        const one = runUserData([{ name: 't', bytes: Buffer.from(`## template: jinja\n#cloud-config\na: "{{ ${expr} }}"\n`) }], { instanceData: {}, version });
        assert.doesNotMatch(one.cloudConfigTxt, /class|function|module|built-in/, `${expr}: ${one.cloudConfigTxt}`);
        assert.ok(['jinja-ignored', 'jinja-not-reproduced', 'merged'].includes(one.reports[0].disposition), `${version} ${expr}: ${one.reports[0].note}`);
      }
    }
  });

  test('the engine has no code that evaluates strings or starts processes', () => {
    // A static check of the built engine and CLI (the custom-merger loader is the one require of user code).
    const { readdirSync, statSync } = require('node:fs') as typeof import('node:fs');
    const rootDir = path.resolve(__dirname, '..', '..', '..', 'server', 'src');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = path.join(dir, name);
        if (statSync(p).isDirectory()) walk(p);
        else if (p.endsWith('.ts')) {
          const text = readFileSync(p, 'utf8');
          for (const [re, what] of [
            [/(^|[^.\w$])eval\s*\((?!n: Node)/m, 'eval('],
            [/new\s+Function\s*\(/, 'new Function('],
            [/\bFunction\s*\(\s*['"`]/, 'Function("...")'],
            [/from\s+['"](node:)?child_process['"]|require\(\s*['"](node:)?child_process['"]\s*\)/, 'child_process'],
            [/from\s+['"](node:)?(vm|http|https|http2|net|tls|dgram)['"]/, 'vm/network module'],
            [/\bfetch\s*\(/, 'fetch('],
          ] as Array<[RegExp, string]>) {
            if (re.test(text)) offenders.push(`${path.relative(rootDir, p)}: ${what}`);
          }
        }
      }
    };
    walk(rootDir);
    assert.deepEqual(offenders, []);
  });
});

describe('security: the language server (spied in its own process)', () => {
  let ws: { dir: string; cleanup: () => void };
  let workspace: string;
  let outside: string;
  let marker: string;
  let includeCount = 0;
  const SECRET = 'TOP-SECRET-VALUE-4711';
  const includeFiles = () => Array.from({ length: includeCount }, (_, i) => `include-${i}.txt`);

  before(() => {
    ws = tempDir();
    workspace = path.join(ws.dir, 'workspace');
    outside = path.join(ws.dir, 'outside');
    mkdirSync(workspace);
    mkdirSync(outside);
    marker = path.join(ws.dir, 'MARKER');
    writeFileSync(path.join(outside, 'secret.yaml'), `${CC}secret: ${SECRET}\n`);
    writeFileSync(path.join(workspace, 'inside.yaml'), `${CC}inside: 1\n`);
    symlinkSync(outside, path.join(workspace, 'link-dir'));
    symlinkSync(path.join(outside, 'secret.yaml'), path.join(workspace, 'link.yaml'));
    writeFileSync(path.join(workspace, 'evil_merger.js'), `require('fs').writeFileSync(${JSON.stringify(marker)}, 'pwned');\nexports.Merger = class { _on_list(a) { return a; } };\n`);
    for (const [name, text] of Object.entries(hostileInputs(marker))) writeFileSync(path.join(workspace, name), text);
    const includes = [
      path.join(outside, 'secret.yaml'),
      pathToFileURL(path.join(outside, 'secret.yaml')).href,
      `file://localhost${path.join(outside, 'secret.yaml')}`,
      `FILE://${path.join(outside, 'secret.yaml')}`,
      `${workspace}/../outside/secret.yaml`,
      `file://${workspace}/%2e%2e/outside/secret.yaml`,
      path.join(workspace, 'link-dir', 'secret.yaml'),
      path.join(workspace, 'link.yaml'),
      '/proc/self/environ',
      'secret.yaml',
      '../outside/secret.yaml',
      'http://127.0.0.1:9/x',
      'https://169.254.169.254/latest/user-data',
    ];
    // One file per target: the first include cloud-init cannot read stops everything (ERROR_ON_USER_DATA_FAILURE).
    includes.forEach((target, i) => writeFileSync(path.join(workspace, `include-${i}.txt`), `#include\n${target}\n${path.join(workspace, 'inside.yaml')}\n`));
    includeCount = includes.length;
  });
  after(() => ws.cleanup());

  async function withServer(settings: Record<string, unknown>, f: (client: LspClient) => Promise<void>): Promise<string> {
    const spy = path.join(__dirname, 'spy.js');
    const client = await LspClient.start({ workspaceFolders: [workspace], settings, env: { NODE_OPTIONS: `--require ${spy}`, CCM_SECURITY_SPY: '1' } });
    try {
      await f(client);
    } finally {
      await client.stop();
    }
    return client.stderr;
  }

  const preview = (client: LspClient, files: string[]) =>
    client.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files: files.map((f) => pathToFileURL(path.join(workspace, f)).href) });

  test('#include stays inside the workspace and never fetches; nothing runs', async () => {
    const stderr = await withServer({ customMergers: { evil: 'evil_merger.js' } }, async (client) => {
      for (const file of includeFiles()) {
        const result = await preview(client, [file]);
        const where = `${file}: ${readFileSync(path.join(workspace, file), 'utf8')}\n${result.text}`;
        assert.doesNotMatch(result.text + JSON.stringify(previewLines(result.lineMap)), new RegExp(SECRET), `a file outside the workspace was read: ${where}`);
        assert.doesNotMatch(result.text, /PATH=|HOME=/, `/proc/self/environ was read: ${where}`);
        // cloud-init never URL-decodes a file:// path: `%2e%2e` is a directory of that name inside the workspace (absent here).
        const refusal = readFileSync(path.join(workspace, file), 'utf8').includes('%2e%2e') ? /%2e%2e\/outside\/secret\.yaml: cannot be read \(no such file\)/ : /outside the workspace folders, not read|not fetched \(the editor never fetches URLs\)/;
        assert.match(result.problems.join('\n'), refusal, where);
      }
      // Every hostile input through the preview and the editor features.
      for (const name of Object.keys(hostileInputs(marker))) {
        const uri = pathToFileURL(path.join(workspace, name)).href;
        await client.open(uri, readFileSync(path.join(workspace, name), 'utf8'));
        await client.hover(uri, { line: 1, character: 3 });
        await client.completion(uri, { line: 1, character: 3 });
        await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } });
        await preview(client, [name]);
      }
    });
    assert.ok(!stderr.includes(SPY_MARKER), stderr);
    assert.ok(!existsSync(marker), 'something in the workspace was executed');
  });

  test('allowOutsideWorkspace: local files outside are read (only local files: URLs are still not fetched)', async () => {
    const stderr = await withServer({ includes: { allowOutsideWorkspace: true } }, async (client) => {
      const texts: string[] = [];
      for (const file of includeFiles()) texts.push((await preview(client, [file])).text);
      // The absolute paths, file:// URLs, '..' and symlinks reach the file; relative names and URLs do not.
      assert.ok(texts.filter((t) => t.includes(SECRET)).length >= 6, texts.join('\n=====\n'));
      assert.ok(texts.some((t) => /https:\/\/169\.254\.169\.254\/latest\/user-data: not fetched/.test(t)));
    });
    assert.ok(!stderr.includes(SPY_MARKER), stderr);
  });
});

describe('security: the language server and devices', () => {
  test(
    '#include /dev/zero with allowOutsideWorkspace: the preview must refuse a device, not read it forever',
    async () => {
      const ws = tempDir();
      try {
        writeFileSync(path.join(ws.dir, 'devzero.txt'), '#include\n/dev/zero\n');
        const client = await LspClient.start({ workspaceFolders: [ws.dir], settings: { includes: { allowOutsideWorkspace: true } } });
        try {
          const answer = client.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files: [pathToFileURL(path.join(ws.dir, 'devzero.txt')).href] });
          const result = await Promise.race([answer, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
          assert.ok(result, 'no answer within 10 s');
          assert.match(result.problems.join('\n'), /\/dev\/zero/);
        } finally {
          client.process.kill('SIGKILL');
          client.connection.dispose();
        }
      } finally {
        ws.cleanup();
      }
    },
  );
});
