// Fates in the files of a set, as an editor receives them (issue 14): diagnostics with related
// information on values that are replaced, deleted, lost, overridden or in a dropped part; inlay
// hints on appended lists; live updates when another file of the set is edited (unsaved text);
// set files, cloud.cfg.d folders and open previews as sets; nothing for files outside any set.
// The merged results behind these fates were checked with the oracle (oracle.py --mode userdata /
// confd / boot on the same files); test/oracle/fates.diff.ts checks fates on random sets.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Diagnostic, DiagnosticSeverity, InlayHint } from 'vscode-languageserver-protocol';
import { LspClient, applyEdits } from '../support/lspClient';
import { runUserData } from '../../server/src/engine/userdata/run';
import { toCanonicalJson } from '../../server/src/engine/py/json';

const BASE = '#cloud-config\npackages: [curl, git]\nruncmd:\n  - echo base\nusers: {a: 1}\n';
const APP = '#cloud-config\nmerge_how: dict(no_replace)+list(append)\npackages: [vim]\nruncmd: [echo x]\n';
const OVERRIDE = '#cloud-config\nmerge_how: dict(replace)\nruncmd: [echo 3]\n';
const FILES: Record<string, string> = {
  '10-base.yaml': BASE,
  '20-app.yaml': APP,
  '30-app.yaml': OVERRIDE,
  '40-bad.yaml': '#cloud-config\nmerge_how: list(append)\npackages: [nano]\n',
  '50-del.yaml': '#cloud-config\nmerge_how: dict(allow_delete,no_replace)+list()\nusers: null\n',
  'outside.yaml': '#cloud-config\nruncmd: [echo alone]\n',
  'vendor.yaml': '#cloud-config\nruncmd: [echo vendor]\nntp: {enabled: true}\n',
  'boot-user.yaml': '#cloud-config\nruncmd: [echo user]\n',
  'cloud-config-merge.yaml': 'sets:\n  web:\n    files: ["[0-9]*.yaml"]\n  boot:\n    mode: boot\n    files: [boot-user.yaml]\n    vendor: vendor.yaml\n',
  'etc/cloud/cloud.cfg.d/10-b.cfg': 'ntp: {enabled: false}\n',
  'etc/cloud/cloud.cfg.d/90-a.cfg': 'ntp: {enabled: true}\n',
  'etc/cloud/cloud.cfg.d/50-c.cfg': 'runcmd: [echo c]\n',
  'etc/cloud/cloud.cfg.d/95-d.cfg': 'runcmd: [echo d]\n',
  'bad/cloud.cfg.d/10-x.cfg': 'merge_how: "list(append"\nruncmd: [a]\n',
  'bad/cloud.cfg.d/20-y.cfg': 'runcmd: [b]\n',
  'loose/one.yaml': '#cloud-config\nruncmd: [echo one]\n',
  'loose/two.yaml': '#cloud-config\nmerge_how: dict(replace)\nruncmd: [echo two]\n',
  'pair/a.cfg': '#cloud-config\nruncmd: [a]\n',
  'pair/b.cfg': '#cloud-config\nruncmd: [b]\n',
};

let dir: string;
let client: LspClient;
const uri = (name: string) => pathToFileURL(join(dir, name)).href;
const fates = (ds: Diagnostic[]) => ds.filter((d) => String(d.code).startsWith('fate-'));
const codes = (ds: Diagnostic[]) => fates(ds).map((d) => `${d.code}@${d.range.start.line}`).sort();

async function settled(name: string, match: (ds: Diagnostic[]) => boolean): Promise<Diagnostic[]> {
  const log = () => client.diagnosticsLog(uri(name));
  const last = log().at(-1);
  if (last && match(last.diagnostics)) return last.diagnostics;
  return (await client.waitForDiagnostics(uri(name), log().length, (p) => match(p.diagnostics))).diagnostics;
}

function hints(name: string): Promise<InlayHint[]> {
  return client.request<InlayHint[]>('textDocument/inlayHint', { textDocument: { uri: uri(name) }, range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } } }).then((h) => h ?? []);
}

describe('fates in the files of a set', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ccm-fates-lsp-'));
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

  test('a set file: each fate where the value is written, with the other value as related information', async () => {
    const base = await client.open(uri('10-base.yaml'), BASE);
    assert.deepEqual(codes(base), ['fate-deleted@4', 'fate-replaced@3']);
    const replaced = fates(base).find((d) => d.code === 'fate-replaced')!;
    assert.equal(replaced.severity, DiagnosticSeverity.Information);
    assert.equal(replaced.message, "replaced by `runcmd` of 30-app.yaml:3 (that part's spec: dict(replace))");
    assert.deepEqual(replaced.relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[uri('30-app.yaml'), 2]]);
    const deleted = fates(base).find((d) => d.code === 'fate-deleted')!;
    assert.equal(deleted.severity, DiagnosticSeverity.Warning);
    assert.equal(deleted.relatedInformation?.[0].location.uri, uri('50-del.yaml'));

    const app = await client.open(uri('20-app.yaml'), APP);
    assert.deepEqual(codes(app), ['fate-lost@2', 'fate-lost@3']);
    assert.match(String(fates(app)[0].message), /^lost: dict\(no_replace\) keeps the existing value; a list is only merged with recurse_list .*so 10-base\.yaml:2 keeps its value$/);
    const bad = await client.open(uri('40-bad.yaml'), FILES['40-bad.yaml']);
    assert.deepEqual(fates(bad).map((d) => [d.code, d.message]), [['fate-dropped', 'this whole part is dropped: its spec list(append) has no dict() to merge a mapping with']]);
  });

  test('editing one part updates the fates in the other open parts (unsaved text counts), and the hints', async () => {
    await settled('10-base.yaml', (ds) => codes(ds).includes('fate-replaced@3'));
    await client.open(uri('30-app.yaml'), OVERRIDE);
    // 30-app now appends its runcmd instead of replacing base's: base's value survives.
    client.change(uri('30-app.yaml'), '#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nruncmd: [echo 3]\n');
    const base = await settled('10-base.yaml', (ds) => !codes(ds).includes('fate-replaced@3'));
    assert.deepEqual(codes(base), ['fate-deleted@4']);
    const appended = await hints('30-app.yaml');
    assert.deepEqual(appended.map((h) => [h.position.line, h.label]), [[2, 'appended after 10-base.yaml:4']]);
    assert.match(String(appended[0].tooltip), /appended after the items of 10-base\.yaml:4 \(this part's spec: dict\(no_replace,recurse_list\)\+list\(append\)\)/);
    client.change(uri('30-app.yaml'), OVERRIDE);
    await settled('10-base.yaml', (ds) => codes(ds).includes('fate-replaced@3'));
    assert.deepEqual(await hints('30-app.yaml'), []);
  });

  test('a file outside any set gets no fates and no hints', async () => {
    const outside = await client.open(uri('outside.yaml'), FILES['outside.yaml']);
    assert.deepEqual(fates(outside), []);
    assert.deepEqual(await hints('outside.yaml'), []);
  });

  test('boot: vendor-data values that user-data overrides', async () => {
    const vendor = await client.open(uri('vendor.yaml'), FILES['vendor.yaml']);
    const overridden = fates(vendor);
    assert.deepEqual(overridden.map((d) => [d.code, d.range.start.line, d.severity]), [['fate-overridden', 1, DiagnosticSeverity.Information]]);
    assert.match(String(overridden[0].message), /^overridden by user-data: `runcmd` of boot-user\.yaml:2 wins over vendor-data/);
    assert.equal(overridden[0].relatedInformation?.[0].location.uri, uri('boot-user.yaml'));
  });

  test('without a set file entry, a cloud.cfg.d folder is a set: the first drop-in by name wins', async () => {
    const lost = await client.open(uri('etc/cloud/cloud.cfg.d/10-b.cfg'), FILES['etc/cloud/cloud.cfg.d/10-b.cfg']);
    assert.deepEqual(fates(lost).map((d) => [d.code, d.relatedInformation?.[0].location.uri]), [['fate-lost', uri('etc/cloud/cloud.cfg.d/90-a.cfg')]]);
    assert.deepEqual(fates(await client.open(uri('etc/cloud/cloud.cfg.d/90-a.cfg'), FILES['etc/cloud/cloud.cfg.d/90-a.cfg'])), []);
  });

  test('a drop-in whose list is lost gets the specs that keep both, as a merge_how at its top', async () => {
    const c = await client.open(uri('etc/cloud/cloud.cfg.d/50-c.cfg'), FILES['etc/cloud/cloud.cfg.d/50-c.cfg']);
    const lost = fates(c).find((d) => d.code === 'fate-lost')!;
    assert.match(String(lost.message), /so cloud\.cfg\.d\/95-d\.cfg:1 keeps its value$/);
    const fixes = (await client.codeActions(uri('etc/cloud/cloud.cfg.d/50-c.cfg'), lost.range, [lost], ['quickfix'])).filter((a) => a.title.startsWith('Keep both'));
    // What oracle.py --mode confd gives with each spec in 50-c.cfg: runcmd [echo d, echo c] and [echo c, echo d].
    assert.deepEqual(fixes.map((a) => a.title), [
      "Keep both: merge_how 'list(append)+dict(no_replace,recurse_array)+str()' in cloud.cfg.d/50-c.cfg → runcmd: ['echo d', 'echo c']",
      "Keep both: merge_how 'list(prepend)+dict(no_replace,recurse_array)+str()' in cloud.cfg.d/50-c.cfg → runcmd: ['echo c', 'echo d']",
    ]);
    assert.equal(applyEdits(FILES['etc/cloud/cloud.cfg.d/50-c.cfg'], fixes[0].edit!.changes![uri('etc/cloud/cloud.cfg.d/50-c.cfg')]), "merge_how: 'list(append)+dict(no_replace,recurse_array)+str()'\nruncmd: [echo c]\n");
  });

  test('a set cloud-init cannot merge says so once in each open file, instead of fates', async () => {
    const ds = await client.open(uri('bad/cloud.cfg.d/20-y.cfg'), FILES['bad/cloud.cfg.d/20-y.cfg']);
    assert.deepEqual(ds.filter((d) => d.code === 'set-not-merged').map((d) => [d.range.start.line, d.severity, d.message]), [
      [0, DiagnosticSeverity.Information, `The fates of the ${join(dir, 'bad/cloud.cfg.d')} folder (confd) cannot be shown: cloud-init fails: ValueError: Matcher identifier 'list(append' is not in the right format`],
    ]);
    assert.deepEqual(fates(ds), []);
  });

  test('an open preview is a set while it is open', async () => {
    const one = await client.open(uri('loose/one.yaml'), FILES['loose/one.yaml']);
    assert.deepEqual(fates(one), [], 'in no set yet');
    await client.connection.sendNotification('cloudConfigMerge/previewSet', { id: 'preview-1', preview: { mode: 'user-data', files: [uri('loose/one.yaml'), uri('loose/two.yaml')] } });
    const replaced = await settled('loose/one.yaml', (ds) => fates(ds).length > 0);
    assert.deepEqual(codes(replaced), ['fate-replaced@1']);
    await client.connection.sendNotification('cloudConfigMerge/previewSet', { id: 'preview-1', preview: null });
    await settled('loose/one.yaml', (ds) => fates(ds).length === 0);
  });

  test('quick fixes keep both values: each title shows the merged result, the edit is the deciding part\'s merge_how', async () => {
    const base = await settled('10-base.yaml', (ds) => codes(ds).includes('fate-replaced@3'));
    const replaced = fates(base).find((d) => d.code === 'fate-replaced')!;
    const actions = await client.codeActions(uri('10-base.yaml'), replaced.range, [replaced], ['quickfix']);
    const show = actions.find((a) => a.title === 'Show `runcmd` in the merged preview');
    assert.deepEqual(show?.command?.arguments, [{ mode: 'user-data', files: ['10-base.yaml', '20-app.yaml', '30-app.yaml', '40-bad.yaml', '50-del.yaml'].map(uri) }, 'runcmd']);
    assert.equal(show?.command?.command, 'cloudConfigMerge.showInPreview');
    const fixes = actions.filter((a) => a.title.startsWith('Keep both'));
    assert.deepEqual(fixes.map((a) => a.title), [
      "Keep both: merge_how 'list(append)+dict(no_replace,recurse_array)+str()' in 30-app.yaml → runcmd: ['echo base', 'echo 3']",
      "Keep both: merge_how 'list(prepend)+dict(no_replace,recurse_array)+str()' in 30-app.yaml → runcmd: ['echo 3', 'echo base']",
    ]);
    // The edit touches only the spec's value in the part that replaced the list.
    const edits = fixes[0].edit!.changes![uri('30-app.yaml')];
    const fixed = applyEdits(OVERRIDE, edits);
    assert.equal(fixed, "#cloud-config\nmerge_how: 'list(append)+dict(no_replace,recurse_array)+str()'\nruncmd: [echo 3]\n");
    // What cloud-init 22.4 makes of the set with the fix applied (oracle.py --mode userdata 10-base.yaml
    // 20-app.yaml 30-app.yaml 40-bad.yaml 50-del.yaml, 30-app.yaml fixed): the title's value.
    const ORACLE = { packages: ['curl', 'git'], runcmd: ['echo base', 'echo 3'] };
    const merged = runUserData(['10-base.yaml', '20-app.yaml', '30-app.yaml', '40-bad.yaml', '50-del.yaml'].map((n) => ({ name: n, bytes: Buffer.from(n === '30-app.yaml' ? fixed : FILES[n]) })), { version: '22.4' });
    assert.deepEqual(JSON.parse(toCanonicalJson(merged.result).text), ORACLE);
    // Applied in the editor, the fate is gone from the base part.
    client.change(uri('30-app.yaml'), fixed);
    await settled('10-base.yaml', (ds) => !codes(ds).includes('fate-replaced@3'));
    client.change(uri('30-app.yaml'), OVERRIDE);
    await settled('10-base.yaml', (ds) => codes(ds).includes('fate-replaced@3'));
  });

  test('no fix where no spec keeps both (a later part still replaces the value)', async () => {
    const app = await settled('20-app.yaml', (ds) => codes(ds).includes('fate-lost@3'));
    const lostRuncmd = fates(app).find((d) => d.code === 'fate-lost' && d.range.start.line === 3)!;
    const actions = await client.codeActions(uri('20-app.yaml'), lostRuncmd.range, [lostRuncmd], ['quickfix']);
    assert.deepEqual(actions.filter((a) => a.title.startsWith('Keep both')), []);
  });

  test('setOf names the saved set of a file; saveSet adds a set to cloud-config-merge.yaml and keeps its comments', async () => {
    const set = await client.request<{ name: string; mode: string; files: string[] } | null>('cloudConfigMerge/setOf', { uri: uri('20-app.yaml') });
    assert.deepEqual(set, { name: 'web', mode: 'user-data', files: ['10-base.yaml', '20-app.yaml', '30-app.yaml', '40-bad.yaml', '50-del.yaml'].map(uri) });
    assert.equal(await client.request('cloudConfigMerge/setOf', { uri: uri('outside.yaml') }), null);
    const current = '# our sets\nsets:\n  web: # the web tier\n    files: ["[0-9]*.yaml"]\n';
    const saved = await client.request<{ uri: string; text: string }>('cloudConfigMerge/saveSet', { name: 'loose', mode: 'user-data', files: [uri('loose/one.yaml'), uri('loose/two.yaml')], currentText: current });
    assert.equal(saved.uri, uri('cloud-config-merge.yaml'));
    assert.equal(saved.text, '# our sets\nsets:\n  web: # the web tier\n    files: ["[0-9]*.yaml"]\n  loose:\n    files:\n      - loose/one.yaml\n      - loose/two.yaml\n');
    const fresh = await client.request<{ text: string }>('cloudConfigMerge/saveSet', { name: 'b', mode: 'boot', files: [uri('boot-user.yaml')], boot: { vendor: uri('vendor.yaml') }, currentText: '' });
    assert.equal(fresh.text, 'sets:\n  b:\n    mode: boot\n    files:\n      - boot-user.yaml\n    vendor: vendor.yaml\n');
    const replaced = await client.request<{ text: string }>('cloudConfigMerge/saveSet', { name: 'web', mode: 'user-data', files: [uri('loose/one.yaml')], currentText: '# our sets\nsets:\n  web:\n    files: [a.yaml]\n  # keep this\n  other:\n    files: [b.yaml]\n' });
    assert.equal(replaced.text, '# our sets\nsets:\n  web:\n    files:\n      - loose/one.yaml\n  # keep this\n  other:\n    files: [b.yaml]\n');
    assert.deepEqual(await client.request('cloudConfigMerge/saveSet', { name: 'bad name', mode: 'user-data', files: [uri('outside.yaml')] }), { error: 'A set name is letters, digits, ".", "_" or "-", starting with a letter or digit.' });
  });

  test('the set file itself: what cannot be read and globs that match nothing, where they are written', async () => {
    const text = 'sets:\n  web:\n    files: ["[0-9]*.yaml"]\n    mode: userdata\n  typo:\n    files: ["[0-9]*.yaml", nothing-*.yaml]\n';
    const ds = await client.open(uri('cloud-config-merge.yaml'), text);
    assert.deepEqual(ds.map((d) => [d.code, d.severity, d.range.start.line, d.message]), [
      ['set-file', DiagnosticSeverity.Error, 3, 'set web: mode is one of user-data, confd, boot, chef'],
      ['set-file-unmatched', DiagnosticSeverity.Warning, 5, 'set typo: no file matches nothing-*.yaml'],
    ]);
    // On the glob that matches nothing, not on the set's name (issue 42).
    const lines = text.split('\n');
    const unmatched = ds[1].range;
    assert.equal(lines[unmatched.start.line].slice(unmatched.start.character, unmatched.end.character), 'nothing-*.yaml');
    client.close(uri('cloud-config-merge.yaml'));
  });

  test('a set whose mode changes in the set file (same files) shows the fates of the new mode, not the old analysis', async () => {
    const sets = (mode: string) => `sets:\n  pair:\n    mode: ${mode}\n    files: [pair/a.cfg, pair/b.cfg]\n`;
    await client.open(uri('cloud-config-merge.yaml'), sets('user-data'));
    const a = await client.open(uri('pair/a.cfg'), FILES['pair/a.cfg']);
    // user-data: b.cfg's runcmd replaces a.cfg's.
    assert.deepEqual(codes(a), ['fate-replaced@1']);
    client.change(uri('cloud-config-merge.yaml'), sets('confd'));
    // confd: b.cfg, merged first, has the highest priority: a.cfg's value is lost to it, not replaced.
    const lost = await settled('pair/a.cfg', (ds) => !codes(ds).includes('fate-replaced@1'));
    assert.deepEqual(codes(lost), ['fate-lost@1']);
    for (const name of ['pair/a.cfg', 'cloud-config-merge.yaml']) client.close(uri(name));
  });

  test('a problem cloud-init schema --system reports on the merged result shows on the part that wrote it, once', async () => {
    // Each part is valid alone; str(append) joins 'reboot' and 's' into 'reboots', which cloud-init's schema
    // rejects (oracle.py --mode schema --merged: power_state.mode: 'reboots' is not one of [...]).
    await client.open(uri('loose/one.yaml'), '#cloud-config\npower_state: {mode: reboot}\n');
    await client.connection.sendNotification('cloudConfigMerge/previewSet', { id: 'preview-2', preview: { mode: 'user-data', files: [uri('loose/one.yaml'), uri('loose/two.yaml')] } });
    await client.open(uri('loose/two.yaml'), '#cloud-config\nmerge_how: dict(no_replace,recurse_str)+list(append)+str(append)\npower_state: {mode: s}\n');
    const one = await settled('loose/one.yaml', (ds) => ds.some((d) => d.code === 'merged-schema-error'));
    const merged = one.filter((d) => d.code === 'merged-schema-error');
    assert.deepEqual(merged.map((d) => [d.range.start.line, d.severity, d.message]), [[1, DiagnosticSeverity.Warning, "in the merged result, cloud-init's schema reports: power_state.mode: 'reboots' is not one of ['poweroff', 'reboot', 'halt']"]]);
    assert.equal(merged[0].relatedInformation?.[0].location.uri, uri('loose/one.yaml'));
    // The second part's own schema check reports 's' already; the merged result's problem is not repeated there.
    const two = await settled('loose/two.yaml', (ds) => ds.some((d) => d.code === 'schema-error'));
    assert.deepEqual(two.filter((d) => d.code === 'merged-schema-error'), []);
    await client.connection.sendNotification('cloudConfigMerge/previewSet', { id: 'preview-2', preview: null });
    // A part wrong by itself: its own schema diagnostic says it, the merged result's identical one is left out.
    client.change(uri('20-app.yaml'), '#cloud-config\nmerge_how: dict(no_replace)+list(append)\npackages: [vim]\nruncmd: [echo x]\nntp: {enabled: "yes"}\n');
    const app = await settled('20-app.yaml', (ds) => ds.some((d) => d.code === 'schema-error'));
    assert.deepEqual(app.filter((d) => String(d.message).includes("ntp.enabled: 'yes' is not of type 'boolean'")).map((d) => d.code), ['schema-error']);
  });

  test('a merged result with more schema problems than the editor looks for: the parts of the set say where the check stopped', async () => {
    const items = Array.from({ length: 12_000 }, (_, i) => `  - {a: ${i}}\n`).join('');
    // Open, not saved: the set reads the editors' text.
    await client.open(uri('loose/big.yaml'), `#cloud-config\nruncmd:\n${items}`);
    await client.open(uri('loose/small.yaml'), '#cloud-config\nhostname: web\n');
    await client.connection.sendNotification('cloudConfigMerge/previewSet', { id: 'preview-3', preview: { mode: 'user-data', files: [uri('loose/big.yaml'), uri('loose/small.yaml')] } });
    const two = await settled('loose/small.yaml', (ds) => ds.some((d) => d.code === 'limit-exceeded'));
    assert.deepEqual(two.filter((d) => d.code === 'limit-exceeded').map((d) => [d.range.start.line, d.severity, d.message]), [
      [0, DiagnosticSeverity.Warning, "The check of the merged result against cloud-init's schema stopped after 10000 problems: `cloud-config-merge --check` lists them all."],
    ]);
    await client.connection.sendNotification('cloudConfigMerge/previewSet', { id: 'preview-3', preview: null });
    await settled('loose/small.yaml', (ds) => !ds.some((d) => d.code === 'limit-exceeded'));
    client.close(uri('loose/big.yaml'));
    client.close(uri('loose/small.yaml'));
  });
});

describe('#include in the parts of a set', () => {
  let root: string;
  let outside: string;
  let includeClient: LspClient;
  const at = (name: string) => pathToFileURL(join(root, name)).href;
  const OVER = '#cloud-config\nmerge_how: dict(no_replace)+list()\nruncmd: [echo over]\n';

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'ccm-fates-include-'));
    outside = mkdtempSync(join(tmpdir(), 'ccm-fates-outside-'));
    writeFileSync(join(outside, 'elsewhere.yaml'), '#cloud-config\nruncmd: [echo elsewhere]\n');
    const files: Record<string, string> = {
      'parts/base.yaml': '#cloud-config\npackages: [git]\nruncmd: [echo base]\n',
      '10-include.txt': `#include\n${join(root, 'parts/base.yaml')}\n`,
      '20-over.yaml': OVER,
      '30-outside.txt': `#include\n${join(outside, 'elsewhere.yaml')}\n`,
      '40-over.yaml': OVER,
      '50-remote.txt': '#include\nhttps://example.invalid/user-data\n',
      '60-over.yaml': OVER,
      'cloud-config-merge.yaml': 'sets:\n  local:\n    files: [10-include.txt, 20-over.yaml]\n  outside:\n    files: [30-outside.txt, 40-over.yaml]\n  remote:\n    files: [50-remote.txt, 60-over.yaml]\n',
    };
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), text);
    }
    includeClient = await LspClient.start({ workspaceFolders: [root] });
  });
  after(async () => {
    await includeClient.stop();
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  test('a local file a part includes is read as the preview reads it: its values have fates, linked to it', async () => {
    // oracle.py --mode userdata 10-include.txt 20-over.yaml: runcmd stays [echo base] (dict(no_replace)).
    const over = await includeClient.open(at('20-over.yaml'), OVER);
    assert.deepEqual(over.filter((d) => d.code === 'set-not-merged'), []);
    const lost = fates(over);
    assert.deepEqual(lost.map((d) => [d.code, d.range.start.line]), [['fate-lost', 2]]);
    assert.match(String(lost[0].message), /parts\/base\.yaml:3 keeps its value$/);
    assert.deepEqual(lost[0].relatedInformation?.map((r) => [r.location.uri, r.location.range.start.line]), [[at('parts/base.yaml'), 2]]);
  });

  test("editing the included file (unsaved) updates the fates of the set's parts", async () => {
    await includeClient.open(at('parts/base.yaml'), '#cloud-config\npackages: [git]\nruncmd: [echo base]\n');
    const since = includeClient.diagnosticsLog(at('20-over.yaml')).length;
    includeClient.change(at('parts/base.yaml'), '#cloud-config\npackages: [git]\n');
    const after = await includeClient.waitForDiagnostics(at('20-over.yaml'), since, (p) => fates(p.diagnostics).length === 0);
    assert.deepEqual(fates(after.diagnostics), []);
    includeClient.close(at('parts/base.yaml'));
  });

  test('a file outside the workspace folders is not read (as in the preview): the set says why it is not merged', async () => {
    const over = await includeClient.open(at('40-over.yaml'), OVER);
    const notMerged = over.filter((d) => d.code === 'set-not-merged').map((d) => String(d.message));
    assert.equal(notMerged.length, 1, JSON.stringify(over));
    assert.match(notMerged[0], /^The fates of set outside \(user-data\) cannot be shown: cloud-init processes none of this user-data: .*elsewhere\.yaml is outside the workspace folders; not read \(setting cloudConfigMerge\.includes\.allowOutsideWorkspace\)/);
    assert.deepEqual(fates(over), []);
  });

  test('a URL is never fetched: the set says so', async () => {
    const over = await includeClient.open(at('60-over.yaml'), OVER);
    const notMerged = over.filter((d) => d.code === 'set-not-merged').map((d) => String(d.message));
    assert.equal(notMerged.length, 1, JSON.stringify(over));
    assert.match(notMerged[0], /https:\/\/example\.invalid\/user-data: not fetched \(the editor never fetches URLs\)/);
  });
});

describe('fates in a #cloud-config-archive of a set', () => {
  const ARCHIVE = [
    '#cloud-config-archive',
    '- content: |',
    '    #cloud-config',
    '    runcmd: [echo one]',
    '- content: "#cloud-config\\nruncmd: [echo two]\\nntp: {enabled: true}\\n"',
    '- content: |',
    '    #cloud-config',
    '    ntp: {enabled: false}',
    '',
  ].join('\n');
  let archiveDir: string;
  let archiveClient: LspClient;
  before(async () => {
    archiveDir = mkdtempSync(join(tmpdir(), 'ccm-fates-archive-'));
    writeFileSync(join(archiveDir, 'archive.yaml'), ARCHIVE);
    writeFileSync(join(archiveDir, 'cloud-config-merge.yaml'), 'sets:\n  archive:\n    files: [archive.yaml]\n');
    archiveClient = await LspClient.start({ workspaceFolders: [archiveDir] });
  });
  after(async () => {
    await archiveClient.stop();
    rmSync(archiveDir, { recursive: true, force: true });
  });

  test("values of a `content: |` entry are diagnosed on their lines; those of an escaped content (placed only in the decoded entry) are not put on the archive's lines", async () => {
    const archiveUri = pathToFileURL(join(archiveDir, 'archive.yaml')).href;
    archiveClient.openNoWait(archiveUri, ARCHIVE);
    const found = await archiveClient.waitForDiagnostics(archiveUri, 0, (p) => fates(p.diagnostics).length > 0);
    // entry 1's runcmd (line 3) is replaced by entry 2's; entry 2's ntp is replaced by entry 3's, but it
    // has no line in the archive: no diagnostic at line 2 (its line in the decoded entry)
    assert.deepEqual(fates(found.diagnostics).map((d) => `${d.code}@${d.range.start.line}`), ['fate-replaced@3']);
    const related = fates(found.diagnostics)[0].relatedInformation ?? [];
    assert.deepEqual(related.map((r) => [r.location.range.start.line, /\(position in the decoded part part-002: line 2\)$/.test(r.message)]), [[0, true]]);
  });
});

describe('an open preview reordered (Change Merge Order)', () => {
  // What the client sends: a preview is a set while a tab shows it. Reordering opens the reordered
  // preview (its own id: its URI holds the order) and then closes the old one's tab.
  const BASE_YAML = '#cloud-config\nhostname: base\ntimezone: UTC\npackages: [curl]\n';
  const WEB_YAML = '#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nhostname: web\ntimezone: Europe/Berlin\npackages: [nginx]\n';
  let root: string;
  let lsp: LspClient;
  const at = (name: string) => pathToFileURL(join(root, name)).href;
  const previewId = (files: string[]) => `cloud-config-merge-preview:/Merged user-data (2 files).yaml?${JSON.stringify({ mode: 'user-data', files })}`;
  const setPreview = (id: string, files: string[] | null) => lsp.connection.sendNotification('cloudConfigMerge/previewSet', { id, preview: files && { mode: 'user-data', files } });
  /** What the user sees in 20-web.yaml: fate diagnostics and hints, `line: message` (1-based), sorted. */
  const shown = async (ds: Diagnostic[]) => {
    const hs = (await lsp.request<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri: at('20-web.yaml') }, range: { start: { line: 0, character: 0 }, end: { line: 100, character: 0 } } })) ?? [];
    return [...fates(ds).map((d) => `${d.range.start.line + 1}: ${String(d.message)}`), ...hs.map((h) => `${h.position.line + 1}: ${String(h.label)}`)].sort();
  };
  /**
   * Does what the client does, then waits until 20-web.yaml's latest diagnostics (with the hints) show
   * exactly `expected`; fails with what it last showed.
   */
  const step = async (action: () => unknown, expected: string[]) => {
    const uri = at('20-web.yaml');
    const from = lsp.diagnosticsLog(uri).length;
    await action();
    let last: string[] = [];
    const deadline = Date.now() + 10000;
    while (Date.now() < deadline) {
      const seen = lsp.diagnosticsLog(uri).length;
      const latest = lsp.diagnosticsLog(uri)[seen - 1];
      if (seen > from && JSON.stringify((last = await shown(latest.diagnostics))) === JSON.stringify(expected)) return;
      // the next publish after the one just looked at (one may have come while the hints were asked)
      await lsp.waitForDiagnostics(uri, seen, () => true, Math.max(1, deadline - Date.now())).catch(() => undefined);
    }
    assert.deepEqual(last, expected);
  };
  const OLD_ORDER = ['hostname', 'timezone', 'packages'].map((key, i) => `${i + 3}: replaced by \`${key}\` of base.yaml:${i + 2} (that part's spec: dict(replace)+list()+str() (default))`);
  const spec = "(this part's spec: dict(no_replace,recurse_list)+list(append))";
  const NEW_ORDER = [
    `3: lost: dict(no_replace) keeps the existing value; a string is only merged with recurse_str ${spec}, so base.yaml:2 keeps its value`,
    `4: lost: dict(no_replace) keeps the existing value; a string is only merged with recurse_str ${spec}, so base.yaml:3 keeps its value`,
    '5: appended after base.yaml:4',
  ];

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'ccm-fates-reorder-'));
    writeFileSync(join(root, 'base.yaml'), BASE_YAML);
    writeFileSync(join(root, '20-web.yaml'), WEB_YAML);
    lsp = await LspClient.start({ workspaceFolders: [root] });
  });
  after(async () => {
    await lsp.stop();
    rmSync(root, { recursive: true, force: true });
  });

  test('the part shows the fates of the new order only, through an edit and a reopening, and none once it closes', async () => {
    const oldOrder = [at('20-web.yaml'), at('base.yaml')];
    const newOrder = [at('base.yaml'), at('20-web.yaml')];
    await lsp.open(at('20-web.yaml'), WEB_YAML);
    await step(() => setPreview(previewId(oldOrder), oldOrder), OLD_ORDER);
    // Change Merge Order: the reordered preview's tab opens, then the old one's closes.
    await step(async () => {
      await setPreview(previewId(newOrder), newOrder);
      await setPreview(previewId(oldOrder), null);
    }, NEW_ORDER);
    // An unsaved edit (20-web.yaml replaces, so none of its values is lost), then undone.
    await step(() => lsp.change(at('20-web.yaml'), WEB_YAML.replace('dict(no_replace,recurse_list)+list(append)', 'dict(replace)+list()')), []);
    await step(() => lsp.change(at('20-web.yaml'), WEB_YAML), NEW_ORDER);
    // Closed and opened again.
    lsp.close(at('20-web.yaml'));
    await step(() => lsp.open(at('20-web.yaml'), WEB_YAML), NEW_ORDER);
    // The preview closed: 20-web.yaml is in no set.
    await step(() => setPreview(previewId(newOrder), null), []);
  });
});
