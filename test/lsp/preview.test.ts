// cloudConfigMerge/preview through the built server, over files in a temporary workspace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient } from '../support/lspClient';
import { runCli } from '../support/cli';
import { MakeMimeRequest, MakeMimeResult, PreviewRequest, PreviewParams, PreviewResult, previewBody, previewLines } from '../../server/src/protocol';
import { unwrapHeader } from '../../server/src/engine/render/previewText';
import { APPEND_LISTS, mime } from './fixtures';

let client: LspClient;
let root: string;
let workspace: string;
let outside: string;
const uri = (...parts: string[]) => pathToFileURL(path.join(workspace, ...parts)).href;

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return pathToFileURL(file).href;
}

const BASE = '#cloud-config\npackages:\n  - nginx\nruncmd:\n  - echo base\n';
const APP = `#cloud-config\nmerge_how: ${APPEND_LISTS}\npackages:\n  - git\nruncmd:\n  - echo app\n`;

function preview(params: PreviewParams): Promise<PreviewResult> {
  return client.request<PreviewResult>(PreviewRequest.method, params);
}

/** The preview line whose text is `text` (the first one after the body marker). */
function lineOf(result: PreviewResult, text: string): number {
  const lines = result.text.split('\n');
  const start = lines.indexOf('# ---- what cloud-init writes ----');
  const at = lines.indexOf(text, start);
  assert.ok(at > start, `'${text}' in the preview body`);
  return at;
}

describe('preview', () => {
  before(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-preview-')));
    workspace = path.join(root, 'workspace');
    outside = path.join(root, 'elsewhere');
    write(path.join(workspace, 'parts', '01-base.yaml'), BASE);
    write(path.join(workspace, 'parts', '02-app.yaml'), APP);
    write(path.join(outside, 'secrets.yaml'), '#cloud-config\nchpasswd: {expire: false}\n');
    client = await LspClient.start({ workspaceFolders: [workspace] });
  });
  after(async () => {
    await client.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('the header\'s links (part files, file:line places) come placed from the server', async () => {
    const typo = write(path.join(workspace, 'parts', '03-typo.yaml'), '#cloud-config\nmerge_how: list(apend)+dict(no_replace,recurse_list)+str()\npackages: [htop]\n');
    const result = await preview({ mode: 'user-data', files: [uri('parts', '01-base.yaml'), uri('parts', '02-app.yaml'), typo] });
    const lines = result.text.split('\n');
    const shown = (result.headerLinks ?? []).map((l) => ({ text: lines[l.line].slice(l.character, l.endCharacter), uri: l.target.uri, line: l.target.line }));
    assert.deepEqual(shown.slice(0, 3), [
      { text: 'parts/01-base.yaml', uri: uri('parts', '01-base.yaml'), line: 0 },
      { text: 'parts/02-app.yaml', uri: uri('parts', '02-app.yaml'), line: 0 },
      { text: 'parts/03-typo.yaml', uri: typo, line: 0 },
    ]);
    // packages[0] 'nginx' at parts/01-base.yaml:3: replaced by parts/03-typo.yaml:3
    assert.ok(shown.some((l) => l.text === 'parts/01-base.yaml:3' && l.uri === uri('parts', '01-base.yaml') && l.line === 2), JSON.stringify(shown));
    assert.ok(shown.some((l) => l.text === 'parts/03-typo.yaml:3' && l.uri === typo && l.line === 2), JSON.stringify(shown));
    const body = lines.indexOf('# ---- what cloud-init writes ----');
    assert.ok((result.headerLinks ?? []).every((l) => l.line < body), 'only in the header');
  });

  test('a merged result with more schema problems than the editor looks for: the header lists 100 and says where the check stopped', async () => {
    const items = Array.from({ length: 12_000 }, (_, i) => `  - {a: ${i}}\n`).join('');
    const big = write(path.join(workspace, 'parts', 'big.yaml'), `#cloud-config\nruncmd:\n${items}`);
    const result = await preview({ mode: 'user-data', files: [big] });
    const header = unwrapHeader(result.text).split('\n');
    const at = header.findIndex((l) => l.startsWith('# Schema:'));
    assert.equal(header[at], '# Schema: cloud-init rejects the merged result (10000 errors, 0 deprecations before the check stopped at 10000 problems):');
    assert.equal(header[at + 101], '#   … and 9900 more, and the problems the check did not look for (`cloud-config-merge --check` lists them all)');
  });

  test('two parts merged as cloud-init merges them, with provenance mapped to URIs', async () => {
    const result = await preview({ mode: 'user-data', files: [uri('parts', '01-base.yaml'), uri('parts', '02-app.yaml')] });
    assert.equal(result.failure, undefined);
    assert.deepEqual(result.problems, []);
    assert.ok(result.text.slice(0, result.bodyStart).endsWith('\n# ---- what cloud-init writes ----\n'), 'the body follows the header');
    assert.match(previewBody(result), /^#cloud-config\n\n# from 2 files\n# part-001\n# part-002\n\n---\npackages:\n- nginx\n- git\nruncmd:\n- echo base\n- echo app\n\.\.\.\n$/);
    assert.deepEqual(
      result.parts.map((p) => [p.file, p.status, p.spec]),
      [
        [uri('parts', '01-base.yaml'), 'merged', 'dict(replace)+list()+str() (default)'],
        [uri('parts', '02-app.yaml'), 'merged', `${APPEND_LISTS} (merge_how)`],
      ],
    );
    const git = previewLines(result.lineMap).find((l) => l.path === 'packages[1]');
    assert.ok(git);
    assert.equal(git.line, lineOf(result, '- git'));
    assert.deepEqual(git.source, { uri: uri('parts', '02-app.yaml'), line: 3, character: 4, endLine: 3, endCharacter: 7 });
    const base = previewLines(result.lineMap).find((l) => l.path === 'runcmd[0]');
    assert.equal(base?.source?.uri, uri('parts', '01-base.yaml'));
    assert.match(unwrapHeader(result.text), /parts\/02-app\.yaml: merged with list\(append\)/);
  });

  test('an open editor’s unsaved text is used', async () => {
    const app = uri('parts', '02-app.yaml');
    client.openNoWait(app, APP.replace('echo app', 'echo unsaved'));
    try {
      const result = await preview({ mode: 'user-data', files: [uri('parts', '01-base.yaml'), app] });
      assert.match(previewBody(result), /- echo unsaved\n/);
      assert.doesNotMatch(previewBody(result), /echo app/);
    } finally {
      client.close(app);
    }
  });

  test('files kept from an earlier preview are read again once changed on disk, even to the same size', async () => {
    // Parts last modified an hour ago: the server keeps their bytes between previews.
    const anHourAgo = new Date(Date.now() - 3600_000);
    const file = path.join(workspace, 'kept', 'part.yaml');
    const part = write(file, '#cloud-config\nruncmd:\n  - echo one\n');
    utimesSync(file, anHourAgo, anHourAgo);
    assert.match(previewBody(await preview({ mode: 'user-data', files: [part] })), /- echo one\n/);
    assert.match(previewBody(await preview({ mode: 'user-data', files: [part] })), /- echo one\n/);
    writeFileSync(file, '#cloud-config\nruncmd:\n  - echo two\n');
    utimesSync(file, anHourAgo, anHourAgo);
    assert.match(previewBody(await preview({ mode: 'user-data', files: [part] })), /- echo two\n/);
    rmSync(file);
    const gone = await preview({ mode: 'user-data', files: [part] });
    assert.match(gone.problems.join('\n'), /kept\/part\.yaml: cannot be read/);
    assert.doesNotMatch(previewBody(gone), /echo/);
  });

  test('a missing file is reported in problems and in the text, and the rest is still merged', async () => {
    const result = await preview({ mode: 'user-data', files: [uri('parts', '01-base.yaml'), uri('parts', 'renamed.yaml')] });
    assert.equal(result.problems.length, 1);
    assert.match(result.problems[0], /parts\/renamed\.yaml: cannot be read \(no such file\)/);
    assert.match(result.text.split('\n')[1], /^# Problem: parts\/renamed\.yaml: cannot be read/);
    assert.match(previewBody(result), /- echo base/);
    assert.equal(previewLines(result.lineMap).find((l) => l.path === 'runcmd[0]')?.line, lineOf(result, '- echo base'), 'line numbers account for the problem lines');
  });

  test('a URI that is neither open nor a file is a problem, not a crash', async () => {
    const result = await preview({ mode: 'user-data', files: ['untitled:Untitled-1'] });
    assert.match(result.problems[0], /untitled:Untitled-1: cannot be read/);
    const open = 'untitled:Untitled-2';
    client.openNoWait(open, APP);
    try {
      const fromEditor = await preview({ mode: 'user-data', files: [open] });
      assert.deepEqual(fromEditor.problems, []);
      assert.equal(previewLines(fromEditor.lineMap).find((l) => l.path === 'runcmd[0]')?.source?.uri, open);
    } finally {
      client.close(open);
    }
  });

  test('Build MIME, then its result (an untitled plain-text editor, never saved) previews as its parts do', async () => {
    const files = [uri('parts', '01-base.yaml'), uri('parts', '02-app.yaml')];
    const built = await client.request<MakeMimeResult>(MakeMimeRequest.method, { files, encoding: 'mime' });
    assert.deepEqual(built.problems, []);
    const untitled = 'untitled:Untitled-7';
    client.openNoWait(untitled, built.text, 'plaintext');
    try {
      const result = await preview({ mode: 'user-data', files: [untitled] });
      assert.deepEqual(result.problems, []);
      assert.equal(previewBody(result).replace(/^# (01-base|02-app)\.yaml$/gm, '# NAME'), previewBody(await preview({ mode: 'user-data', files })).replace(/^# part-00\d$/gm, '# NAME'));
      assert.equal(previewLines(result.lineMap).find((l) => l.path === 'runcmd[1]')?.source?.uri, untitled, 'provenance points into the untitled editor');
      // Named as its tab is, and its places linked there.
      assert.match(result.text, /^# {3}1\. 01-base\.yaml \(text\/cloud-config\) from Untitled-7: merged/m);
      const lines = result.text.split('\n');
      const link = (result.headerLinks ?? []).find((l) => lines[l.line].slice(l.character, l.endCharacter) === 'Untitled-7');
      assert.equal(link?.target.uri, untitled);
    } finally {
      client.close(untitled);
    }
  });

  test('the header wraps at the width the client asks for; its sections, problems included, and the data\'s folds come placed', async () => {
    const files = [uri('parts', '01-base.yaml'), uri('parts', 'gone.yaml'), uri('parts', '02-app.yaml')];
    const wide = await preview({ mode: 'user-data', files });
    const result = await preview({ mode: 'user-data', files, headerWidth: 60 });
    const lines = result.text.split('\n');
    const body = lines.indexOf('# ---- what cloud-init writes ----');
    assert.ok(wide.text.split('\n').slice(0, body).some((l) => l.length > 60));
    for (const line of lines.slice(0, body)) assert.ok(line.length <= 60, `${line.length}: ${line}`);
    assert.equal(unwrapHeader(result.text), unwrapHeader(wide.text));
    const sections = result.headerSections ?? [];
    assert.deepEqual(sections.map((s) => s.kind), ['problems', 'parts', 'lost', 'plan']);
    assert.match(lines[sections[0].line], /^# Problem: parts\/gone\.yaml: cannot be read/);
    assert.equal(lines[sections[1].line], '# Parts, in the order cloud-init reads them:');
    assert.match(lines[sections[2].line], /^# What this merge lost/);
    assert.match(lines[sections[3].line], /^# Boot plan on cloud-init current/);
    assert.equal(sections[3].endLine, body - 1);
    const folds = result.dataFolds ?? [];
    const at = folds.indexOf(lines.indexOf('runcmd:'));
    assert.ok(at >= 0 && at % 2 === 0, 'runcmd: starts a fold');
    assert.deepEqual(lines.slice(folds[at], folds[at + 1] + 1), ['runcmd:', '- echo base', '- echo app']);
    // Nonsense widths are bounded, not obeyed.
    const tiny = await preview({ mode: 'user-data', files, headerWidth: -5 });
    for (const line of tiny.text.split('\n').slice(0, tiny.text.split('\n').indexOf('# ---- what cloud-init writes ----'))) assert.ok(line.length <= 40, line);
  });

  test('compare: one part left out', async () => {
    const result = await preview({ mode: 'user-data', files: [uri('parts', '01-base.yaml'), uri('parts', '02-app.yaml')], exclude: 1 });
    assert.match(previewBody(result), /# from 1 files\n# part-001\n/);
    assert.doesNotMatch(previewBody(result), /nginx/);
  });

  test('a multipart file with Merge-Type headers', async () => {
    const file = write(
      path.join(workspace, 'mime', 'user-data.txt'),
      mime([
        { headers: [`Merge-Type: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd:\n  - echo one\n' },
        { headers: [`Merge-Type: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd:\n  - echo two\n' },
      ]),
    );
    const result = await preview({ mode: 'user-data', files: [file] });
    assert.match(previewBody(result), /runcmd:\n- echo one\n- echo two\n/);
    const two = previewLines(result.lineMap).find((l) => l.path === 'runcmd[1]');
    assert.equal(two?.source?.uri, file);
    assert.equal(two?.source?.line, 20, 'the line inside the multipart file');
  });

  describe('#include', () => {
    test('a workspace file is read', async () => {
      const include = write(path.join(workspace, 'include.txt'), `#include\nfile://${path.join(workspace, 'parts', '02-app.yaml')}\n`);
      const result = await preview({ mode: 'user-data', files: [include] });
      assert.equal(result.failure, undefined);
      assert.match(previewBody(result), /- echo app/);
      assert.equal(previewLines(result.lineMap).find((l) => l.path === 'runcmd[0]')?.source?.uri, uri('parts', '02-app.yaml'));
      assert.deepEqual(result.sources, [include, uri('parts', '02-app.yaml')], 'the include target is a source: editing it changes the preview');
    });

    test('sources: an include target that is missing or outside the workspace is listed too (creating or allowing it changes the preview)', async () => {
      // (A failed #include stops cloud-init's whole user-data, so one target per file.)
      const missing = write(path.join(workspace, 'include-missing.txt'), `#include\n${path.join(workspace, 'not-yet.yaml')}\n`);
      assert.deepEqual((await preview({ mode: 'user-data', files: [missing] })).sources, [missing, pathToFileURL(path.join(workspace, 'not-yet.yaml')).href]);
      const secret = write(path.join(workspace, 'include-outside.txt'), `#include\nfile://${path.join(outside, 'secrets.yaml')}\n`);
      assert.deepEqual((await preview({ mode: 'user-data', files: [secret] })).sources, [secret, pathToFileURL(path.join(outside, 'secrets.yaml')).href]);
    });

    test('a file outside the workspace is not read unless allowed', async () => {
      const include = write(path.join(workspace, 'include-outside.txt'), `#include\n${path.join(outside, 'secrets.yaml')}\n`);
      const refused = await preview({ mode: 'user-data', files: [include] });
      assert.match(refused.problems.join('\n'), /outside the workspace folders/);
      assert.match(refused.failure ?? '', /cloud-init fails before merging anything/);
      assert.doesNotMatch(refused.text, /chpasswd/);
      client.settings = { includes: { allowOutsideWorkspace: true } };
      await client.changeSettings(client.settings);
      try {
        const allowed = await preview({ mode: 'user-data', files: [include] });
        assert.equal(allowed.failure, undefined);
        assert.match(previewBody(allowed), /chpasswd:/);
      } finally {
        await client.changeSettings({});
      }
    });

    test('a file:// URL is opened as cloud-init opens it: never URL-decoded (as the CLI reads it)', async () => {
      write(path.join(workspace, 'a%20b', 'inc.yaml'), '#cloud-config\nfrom: percent-twenty\n');
      write(path.join(workspace, 'a b', 'inc.yaml'), '#cloud-config\nfrom: space\n');
      const include = write(path.join(workspace, 'include-percent.txt'), `#include\nfile://${workspace}/a%20b/inc.yaml\n`);
      const result = await preview({ mode: 'user-data', files: [include] });
      assert.equal(result.failure, undefined);
      assert.match(previewBody(result), /from: percent-twenty/);
      const cli = runCli([fileURLToPath(include)]);
      assert.equal(cli.code, 0, cli.stderr);
      assert.match(cli.stdout, /from: percent-twenty/);
    });

    test('a URL is never fetched: reported as unreachable with what cloud-init would do', async () => {
      const include = write(path.join(workspace, 'include-url.txt'), '#include\nhttps://config.example.com/user-data.yaml\n');
      const result = await preview({ mode: 'user-data', files: [include] });
      assert.match(result.problems.join('\n'), /https:\/\/config\.example\.com\/user-data\.yaml: not fetched .*processes none of this user-data/);
      assert.match(result.failure ?? '', /cloud-init fails before merging anything/);
      assert.equal(previewBody(result), '');
    });
  });

  describe('system configuration', () => {
    test('cloud.cfg.d drop-ins in cloud-init’s order (the alphabetically last wins)', async () => {
      const a = write(path.join(workspace, 'etc', 'cloud', 'cloud.cfg.d', '10-a.cfg'), 'ntp:\n  servers: [a.example.com]\nruncmd: [from-a]\n');
      const b = write(path.join(workspace, 'etc', 'cloud', 'cloud.cfg.d', '20-b.cfg'), 'ntp:\n  servers: [b.example.com]\n');
      const result = await preview({ mode: 'confd', files: [a, b] });
      assert.match(previewBody(result), /ntp:\n {4}servers:\n {4}- b\.example\.com\n/);
      assert.equal(previewLines(result.lineMap).find((l) => l.path === 'runcmd[0]')?.source?.uri, a);
      assert.deepEqual(result.parts.map((p) => p.file), [b, a]);
    });

    test('boot mode: user-data over cloud.cfg', async () => {
      const cfg = write(path.join(workspace, 'etc', 'cloud', 'cloud.cfg'), 'runcmd: [from-image]\npackages: [openssh-server]\n');
      const result = await preview({ mode: 'boot', files: [uri('parts', '01-base.yaml')], boot: { cloudCfg: cfg } });
      assert.equal(result.failure, undefined);
      assert.match(previewBody(result), /packages:\n- nginx\n/);
      assert.match(previewBody(result), /runcmd:\n- echo base\n/);
    });

    test('a missing boot layer is a problem', async () => {
      const result = await preview({ mode: 'boot', files: [uri('parts', '01-base.yaml')], boot: { vendor: uri('vendor-data.txt') } });
      assert.match(result.problems.join('\n'), /vendor-data\.txt: cannot be read/);
    });
  });

  test('the limits settings apply to the preview, and hitting one names the setting', async () => {
    const three = write(path.join(workspace, 'limits', 'three.mime'), mime(['#cloud-config\na: 1\n', '#cloud-config\nb: 1\n', '#cloud-config\nc: 1\n'].map((body) => ({ body }))));
    const big = write(path.join(workspace, 'limits', 'big.yaml'), '#cloud-config\n' + 'k: v\n'.repeat(300));
    try {
      await client.changeSettings({ limits: { maxParts: 2, maxFileBytes: 1000 } });
      const parts = await preview({ mode: 'user-data', files: [three] });
      assert.match(unwrapHeader(parts.text), /more than 2 user-data parts \(limit maxParts = 2\)/);
      assert.match(unwrapHeader(parts.text), /setting cloudConfigMerge\.limits\.maxParts/);
      const size = await preview({ mode: 'user-data', files: [big] });
      assert.match(size.problems.join('\n'), /big\.yaml: cannot be read \(1514 bytes, over the limit maxFileBytes = 1000 \(setting cloudConfigMerge\.limits\.maxFileBytes\)\)/);
    } finally {
      await client.changeSettings({});
    }
    const within = await preview({ mode: 'user-data', files: [three, big] });
    assert.deepEqual(within.problems, []);
    assert.match(within.text, /^c: 1$/m);
  });

  test('an unknown mode is said in the preview, never merged some other way', async () => {
    const result = await preview({ mode: 'bogus' as PreviewParams['mode'], files: [uri('parts', '01-base.yaml')] });
    assert.equal(result.failure, 'unknown preview mode "bogus" (expected user-data, handler, confd, boot, chef)');
    assert.equal(previewBody(result), '');
    assert.match(result.text, /^# Cloud-Config Merge preview\n# unknown preview mode "bogus"/);
  });

  test('malformed parameters answer an empty preview instead of failing', async () => {
    const result = await preview({ mode: 'user-data', files: [] });
    assert.deepEqual(result.problems, []);
    assert.match(result.text, /\(none\)/);
  });
});

test('chef mode: role and environment files deep-merge, with provenance into the JSON files', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-chef-'));
  writeFileSync(path.join(dir, 'base.json'), '{\n  "chef_type": "role",\n  "default_attributes": {"pkgs": [1, 2], "tags": ["a", "2"]}\n}\n');
  writeFileSync(path.join(dir, 'web.json'), '{\n  "chef_type": "role",\n  "default_attributes": {"pkgs": [3], "tags": ["!merge:2"]}\n}\n');
  const client = await LspClient.start({ workspaceFolders: [dir] });
  try {
    const files = ['base.json', 'web.json'].map((f) => pathToFileURL(path.join(dir, f)).href);
    const result = await client.connection.sendRequest<PreviewResult>(PreviewRequest.method, { mode: 'chef', files });
    assert.equal(previewBody(result), '---\npkgs:\n- 1\n- 2\n- 3\ntags:\n- a\n...\n');
    const three = previewLines(result.lineMap).find((l) => l.path === 'pkgs[2]');
    assert.equal(three?.source?.uri, files[1]);
    assert.equal(three?.source?.line, 2);
  } finally {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
