// The boot plan in the editor (issue 29), as a client receives it over LSP: the pitfalls of a cloud-config
// as diagnostics on the value (a file alone, and the files of a set), the quick fixes that add
// `defer: true` and `- default`, the hover of a top-level key (which module reads it, in which stage, how
// often, on this image), completion that says which keys no module of the image reads, and the preview's
// "Boot plan" section. The plans were checked with the oracle (../shared/oracle/plan.py, ubuntu, current).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Diagnostic, DiagnosticSeverity, MarkupContent } from 'vscode-languageserver-protocol';
import { LspClient, applyEdits } from '../support/lspClient';

const OWNER = '#cloud-config\nusers:\n  - default\n  - name: app\nwrite_files:\n  - path: /etc/app.conf\n    owner: app\n    content: x\n';
const NO_DEFAULT = '#cloud-config\nusers:\n  - name: app\nyum_repos: {epel: {baseurl: "http://x"}}\n';
const SET_A = '#cloud-config\nusers: [default, web]\n';
const SET_B = '#cloud-config\nwrite_files:\n  - {path: /srv/index.html, owner: web}\n';

let dir: string;
let client: LspClient;
const uri = (name: string) => pathToFileURL(join(dir, name)).href;
const plans = (ds: Diagnostic[]) => ds.filter((d) => String(d.code).startsWith('plan-'));

describe('the boot plan in the editor', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ccm-plan-lsp-'));
    for (const [name, text] of Object.entries({ 'owner.yaml': OWNER, 'alone.yaml': NO_DEFAULT, '10-a.yaml': SET_A, '20-b.yaml': SET_B, 'cloud-config-merge.yaml': 'sets:\n  web:\n    files: [10-a.yaml, 20-b.yaml]\n' })) writeFileSync(join(dir, name), text);
    client = await LspClient.start({ workspaceFolders: [dir] });
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('an owner created later: an error on the owner, and the quick fix adds defer: true', async () => {
    const ds = plans(await client.open(uri('owner.yaml'), OWNER));
    assert.deepEqual(ds.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character]), [['plan-owner-created-later', DiagnosticSeverity.Error, 6, 4]]);
    assert.match(String(ds[0].message), /^owner app: user app is created by users_groups \(init stage, once-per-instance\) after write_files .* \(our boot-plan check, for ubuntu with cloud-init current\)$/);
    const actions = await client.codeActions(uri('owner.yaml'), ds[0].range, ds);
    const fix = actions.find((a) => a.title.startsWith('Add defer: true'));
    assert.ok(fix?.edit?.changes);
    const fixed = applyEdits(OWNER, fix.edit.changes[uri('owner.yaml')]);
    assert.equal(fixed, OWNER.replace('    owner: app', '    defer: true\n    owner: app'));
    client.change(uri('owner.yaml'), fixed);
    const after = await client.waitForDiagnostics(uri('owner.yaml'), undefined, (p) => !plans(p.diagnostics).length);
    assert.deepEqual(plans(after.diagnostics), []);
  });

  test('users without default and a key no module of the image reads: warnings; the fix adds - default', async () => {
    const ds = plans(await client.open(uri('alone.yaml'), NO_DEFAULT));
    assert.deepEqual(ds.map((d) => [d.code, d.severity, d.range.start.line]).sort(), [['plan-key-not-read', DiagnosticSeverity.Warning, 3], ['plan-no-default-user', DiagnosticSeverity.Warning, 1]]);
    assert.match(String(ds.find((d) => d.code === 'plan-key-not-read')!.message), /no module of this image reads yum_repos: yum_add_repo is in none of this image's module lists/);
    const users = ds.find((d) => d.code === 'plan-no-default-user')!;
    const fix = (await client.codeActions(uri('alone.yaml'), users.range, ds)).find((a) => a.title.startsWith('Add - default'));
    assert.equal(applyEdits(NO_DEFAULT, fix!.edit!.changes![uri('alone.yaml')]), NO_DEFAULT.replace('  - name: app', '  - default\n  - name: app'));
  });

  test('in a set, the pitfall of the merged result is on the file that writes the value', async () => {
    await client.open(uri('10-a.yaml'), SET_A);
    const ds = plans(await client.open(uri('20-b.yaml'), SET_B));
    assert.deepEqual(ds.map((d) => [d.code, d.range.start.line]), [['plan-owner-created-later', 2]]);
    assert.match(String(ds[0].message), /owner web: user web is created by users_groups/);
  });

  test('hover on a top-level key: the module that reads it, its stage and how often, on this image', async () => {
    await client.open(uri('alone.yaml'), NO_DEFAULT);
    const yum = await client.hover(uri('alone.yaml'), { line: 3, character: 2 });
    assert.match((yum?.contents as MarkupContent).value, /\*\*Boot plan\*\* \(cloud-init current, ubuntu, the ubuntu cloud.cfg\): \*\*no module of this image reads this key\*\*:\n- \*\*yum_add_repo\*\*: in none of this image's module lists, so it never runs/);
    const users = await client.hover(uri('alone.yaml'), { line: 1, character: 2 });
    assert.match((users?.contents as MarkupContent).value, /read by\n- \*\*users_groups\*\*, init stage, once per instance, runs when this key is set/);
  });

  test('completion offers keys no module of the image reads last, saying so', async () => {
    const text = '#cloud-config\nyu\n';
    await client.open(uri('typing.yaml'), text);
    const items = await client.completion(uri('typing.yaml'), { line: 1, character: 2 });
    const yum = items.find((i) => i.label === 'yum_repos');
    assert.match(String(yum?.detail), /^not read on ubuntu \(cloud-init current\): yum_add_repo is in none of this image's module lists/);
    assert.ok(String(yum?.sortText).startsWith('y'));
    const runcmd = items.find((i) => i.label === 'runcmd');
    assert.doesNotMatch(String(runcmd?.detail), /not read/);
  });

  test("the preview's Boot plan section: each module that runs, with the place of the key that activated it", async () => {
    const result = await client.request<{ text: string; headerSections?: Array<{ kind: string; line: number; endLine: number }> }>('cloudConfigMerge/preview', { mode: 'user-data', files: [uri('owner.yaml')] });
    const section = result.headerSections?.find((s) => s.kind === 'plan');
    assert.ok(section, 'a plan section');
    const lines = result.text.split('\n').slice(section.line, section.endLine + 1).join('\n');
    assert.match(lines, /^# Boot plan on cloud-init current .*distro ubuntu/);
    assert.match(lines, /# {3}init: write_files, activated by write_files at .*owner\.yaml:5/);
    assert.match(lines, /# {3}Reboot runs again: init:bootcmd|# {3}Reboot runs again: init:growpart/);
  });
});
