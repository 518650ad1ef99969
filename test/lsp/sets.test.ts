// The set file (cloud-config-merge.yaml) as an editor meets it (issue 27): a set saved from the preview
// under a name YAML 1.1 reads as something else (`on`, `yes`, `1`, `null`) reads back as that name; a set's
// instance data renders templates as the preview and the CLI render them (Python's json: 20-digit ints
// exact, `1.0` a float); globs and paths stay inside the workspace folder unless allowed, a set merges at
// most limits.maxSetFiles files, and a glob reaching the whole disk never stalls the server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { LspClient } from '../support/lspClient';
import { runCliIn } from '../support/cli';

const FILES: Record<string, string> = {
  'parts/10-base.yaml': '#cloud-config\nruncmd: [echo base]\n',
  'parts/20-app.yaml': '#cloud-config\nmerge_how: dict(replace)\nruncmd: [echo app]\n',
  'tpl/10-template.yaml': '## template: jinja\n#cloud-config\nruncmd: [{{ v1.x }}, {{ v1.y }}]\n',
  'tpl/20-over.yaml': '#cloud-config\nmerge_how: dict(no_replace)+list()+str()\nruncmd: [echo over]\n',
  'tpl/instance.json': '{"v1": {"x": 12345678901234567890, "y": 1.0}}\n',
  'many/1.yaml': '#cloud-config\nhostname: a\n',
  'many/2.yaml': '#cloud-config\nhostname: b\n',
  'many/3.yaml': '#cloud-config\nhostname: c\n',
  'cloud-config-merge.yaml': 'sets:\n  tpl:\n    files: [tpl/10-template.yaml, tpl/20-over.yaml]\n    instanceData: tpl/instance.json\n',
};

describe('the set file', () => {
  let dir: string;
  let client: LspClient;
  const uri = (name: string) => pathToFileURL(join(dir, name)).href;
  const setFile = () => uri('cloud-config-merge.yaml');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ccm-sets-lsp-'));
    for (const [name, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    client = await LspClient.start({ workspaceFolders: [dir] });
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a set saved as `on`, `yes`, `1`, `null` or `true` is that set when read back: no problem in the set file, and its files know it', async () => {
    let text = '# our sets\n';
    for (const name of ['on', 'yes', 'No', '1', 'null', 'true', 'y']) {
      const saved = await client.request<{ uri: string; text: string } | { error: string }>('cloudConfigMerge/saveSet', {
        name,
        mode: 'user-data',
        files: [uri('parts/10-base.yaml'), uri('parts/20-app.yaml')],
        currentText: text,
      });
      assert.ok('text' in saved, JSON.stringify(saved));
      text = saved.text;
    }
    writeFileSync(join(dir, 'cloud-config-merge.yaml'), text);
    try {
      const ds = await client.open(setFile(), text);
      assert.deepEqual(ds, []);
      const set = await client.request<{ name: string; files: string[] } | null>('cloudConfigMerge/setOf', { uri: uri('parts/20-app.yaml') });
      assert.deepEqual(set, { name: 'on', mode: 'user-data', files: [uri('parts/10-base.yaml'), uri('parts/20-app.yaml')] });
      // The CLI reads the same file the same way.
      const cli = runCliIn(['--set', 'on', '--format', 'json'], dir);
      assert.equal(cli.stderr, '');
      assert.deepEqual(JSON.parse(cli.stdout), { runcmd: ['echo app'] });
    } finally {
      client.close(setFile());
      writeFileSync(join(dir, 'cloud-config-merge.yaml'), FILES['cloud-config-merge.yaml']);
    }
  });

  test("a set's own image decides every check of its files: their own schema, the merged result's, the status (issue 36, item 3)", async () => {
    const part = 'img/source.yaml';
    mkdirSync(join(dir, 'img'), { recursive: true });
    const text = '#cloud-config\nwrite_files:\n - path: /etc/x\n   source:\n     uri: https://example.com/x\n';
    writeFileSync(join(dir, part), text);
    writeFileSync(join(dir, 'cloud-config-merge.yaml'), 'sets:\n  old:\n    files: [img/source.yaml]\n    image: debian-12\n');
    try {
      const ds = await client.open(uri(part), text);
      // The file is in a set on Debian 12: its own check is cloud-init 22.4's, which rejects `source` (said once,
      // on the file; the merged result's same problem is not said again).
      assert.deepEqual(ds.filter((d) => /'source' was unexpected/.test(String(d.message))).map((d) => d.code), ['schema-error']);
      const info = await client.request<{ image?: { id: string; version: string; distro: string; set?: string } }>('cloudConfigMerge/documentInfo', { uri: uri(part) });
      assert.deepEqual([info.image?.id, info.image?.version, info.image?.distro, info.image?.set], ['debian-12', '22.4', 'debian', 'set old']);
      // Its preview (the set's files, as saved) is checked on the set's image too; the file with another is not.
      const previewOf = (files: string[]) => client.request<{ text: string }>('cloudConfigMerge/preview', { mode: 'user-data', files });
      const rejected = /^# Schema: cloud-init 22\.4 rejects the merged result/m;
      assert.match((await previewOf([uri(part)])).text, rejected);
      writeFileSync(join(dir, 'img/other.yaml'), '#cloud-config\nhostname: x\n');
      const other = (await previewOf([uri(part), uri('img/other.yaml')])).text;
      assert.doesNotMatch(other, rejected);
      assert.match(other, /^# Boot plan on cloud-init current/m);
      client.close(uri(part));
      writeFileSync(join(dir, 'cloud-config-merge.yaml'), 'sets:\n  old:\n    files: [img/source.yaml]\n');
      const now = await client.open(uri(part), text);
      assert.deepEqual(now.filter((d) => /'source' was unexpected/.test(String(d.message))), []);
    } finally {
      client.close(uri(part));
      writeFileSync(join(dir, 'cloud-config-merge.yaml'), FILES['cloud-config-merge.yaml']);
    }
  });

  test("a set's instance data renders its templates as the CLI renders them: 12345678901234567890 stays exact, 1.0 a float", async () => {
    // The template's runcmd is kept (dict(no_replace)): the fix that keeps both shows the merged result.
    const over = await client.open(uri('tpl/20-over.yaml'), FILES['tpl/20-over.yaml']);
    const lost = over.find((d) => d.code === 'fate-lost') as Diagnostic;
    assert.ok(lost, JSON.stringify(over));
    const titles = (await client.codeActions(uri('tpl/20-over.yaml'), lost.range, [lost], ['quickfix'])).map((a) => a.title).filter((t) => t.startsWith('Keep both'));
    assert.deepEqual(titles, [
      "Keep both: merge_how 'list(append)+dict(no_replace,recurse_array)+str()' in tpl/20-over.yaml → runcmd: [12345678901234567890, 1.0, 'echo over']",
      "Keep both: merge_how 'list(prepend)+dict(no_replace,recurse_array)+str()' in tpl/20-over.yaml → runcmd: ['echo over', 12345678901234567890, 1.0]",
    ]);
    // The CLI merges the set with the same values.
    const cli = runCliIn(['--set', 'tpl'], dir);
    assert.equal(cli.stderr, '');
    assert.match(cli.stdout, /^runcmd:\n- 12345678901234567890\n- 1\.0\n/m);
    client.close(uri('tpl/20-over.yaml'));
  });

  test('a glob over the whole disk: the server answers at once, and the set file says the glob is outside the workspace folders', async () => {
    const text = "sets:\n  all:\n    files: ['**/*', '../../../../../../**']\n";
    const started = Date.now();
    const since = client.diagnosticsLog(setFile()).length;
    client.openNoWait(setFile(), text);
    const published = await client.waitForDiagnostics(setFile(), since, (p) => p.diagnostics.length > 0, 10_000);
    const outside = published.diagnostics.find((d) => String(d.message).includes('is outside'));
    assert.ok(outside, JSON.stringify(published.diagnostics));
    assert.equal(outside.severity, DiagnosticSeverity.Error);
    assert.equal(outside.message, 'set all: ../../../../../../** is outside the workspace folders, not read (setting cloudConfigMerge.includes.allowOutsideWorkspace)');
    assert.deepEqual([outside.range.start, outside.range.end], [{ line: 2, character: 20 }, { line: 2, character: 42 }]);
    // A part of the workspace (which `**/*` lists) gets its diagnostics, and a hover answers, promptly.
    const part = await client.open(uri('parts/10-base.yaml'), FILES['parts/10-base.yaml']);
    assert.ok(Array.isArray(part));
    const hover = await client.hover(uri('parts/10-base.yaml'), { line: 1, character: 2 });
    assert.ok(hover);
    assert.ok(Date.now() - started < 8000, `answered after ${Date.now() - started} ms`);
    client.close(uri('parts/10-base.yaml'));
    client.close(setFile());
  });

  test('allowed outside the workspace, a glob over the whole disk stops at the listing budget, said where it is written', async () => {
    await client.changeSettings({ includes: { allowOutsideWorkspace: true } });
    const text = "sets:\n  all:\n    files: ['../../../../../../**/*.yaml']\n";
    const started = Date.now();
    const since = client.diagnosticsLog(setFile()).length;
    client.openNoWait(setFile(), text);
    const published = await client.waitForDiagnostics(setFile(), since, (p) => p.diagnostics.some((d) => String(d.message).includes('stopped after')), 10_000);
    assert.ok(Date.now() - started < 8000);
    const stopped = published.diagnostics.find((d) => String(d.message).includes('stopped after')) as Diagnostic;
    assert.equal(stopped.message, 'set all: listing the folders of ../../../../../../**/*.yaml stopped after 20000 entries or 300 ms: name a narrower folder (the set is not merged)');
    assert.equal(stopped.range.start.line, 2);
    client.close(setFile());
    await client.changeSettings({});
  });

  test('a set of more files than limits.maxSetFiles is not merged, and the set file names the limit', async () => {
    await client.changeSettings({ limits: { maxSetFiles: 2 } });
    const text = "sets:\n  many:\n    files: ['many/*.yaml']\n";
    const since = client.diagnosticsLog(setFile()).length;
    client.openNoWait(setFile(), text);
    const ds = (await client.waitForDiagnostics(setFile(), since, (p) => p.diagnostics.length > 0)).diagnostics;
    assert.deepEqual(
      ds.map((d) => [d.range.start.line, d.severity, d.message]),
      [[1, DiagnosticSeverity.Error, 'set many: 3 files, more than the limit maxSetFiles = 2 (setting cloudConfigMerge.limits.maxSetFiles): the set is not merged']],
    );
    client.close(setFile());
    await client.changeSettings({});
  });
});
