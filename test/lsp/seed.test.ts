// Issue 30: a NoCloud seed's meta-data in the editor: the server takes a file named meta-data for one
// (documentInfo) and publishes what NoCloud makes of it; the cloud the user-data goes to, in the preview.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocumentInfoRequest, DocumentInfoResult, PartOrderRequest, PartOrderResult, PreviewRequest, PreviewResult, SaveSetRequest, SaveSetResult, SetOfRequest, SetOfResult, previewBody } from '../../server/src/protocol';
import { LspClient, fixtureUri } from '../support/lspClient';
import { runCliIn } from '../support/cli';

let client: LspClient;
before(async () => {
  client = await LspClient.start();
});
after(async () => {
  await client.stop();
});

test('meta-data with instance_id: kind meta-data, a warning on the key naming the default id', async () => {
  const uri = fixtureUri('seed-1/meta-data');
  const diagnostics = await client.open(uri, 'instance_id: iid-01\nlocal-hostname: web-01\n');
  assert.deepEqual(diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]), [['meta-data-ignored-key', 0, 0, 11]]);
  assert.match(String(diagnostics[0].message), /every instance seeded this way gets the same id 'nocloud'/);
  const info = await client.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri });
  assert.equal(info.kind, 'meta-data');
});

test('cloudConfigMerge.cloud: the preview header holds the user-data to that cloud\'s limit', async () => {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-cloud-')));
  const file = path.join(dir, 'user-data');
  writeFileSync(file, '#cloud-config\nwrite_files:\n' + Array.from({ length: 400 }, (_, i) => `  - path: /etc/app/f${i}.conf\n    content: value-${i}\n`).join(''));
  const aws = await LspClient.start({ workspaceFolders: [dir], settings: { cloud: 'aws' } });
  try {
    const result = await aws.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files: [pathToFileURL(file).href] });
    const header = result.text.replace(/\n# {4,}/g, ' ');
    assert.match(header, /^# Delivery to AWS EC2 \(UserData\): user-data is [\d,]+ bytes, OVER the limit of 16,384/m);
    assert.match(header, /^# {3}gzip -9 would make it [\d,]+ bytes \(\d+% less\), within the limit/m);
  } finally {
    await aws.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

// Issue 36: a NoCloud seed folder in the editor is the seed cloud-init reads, as the server resolves it: its
// user-data over its vendor-data (not the Explorer's name order), its meta-data and network-config never
// merged, and a saved seed set saved again keeps its `seed:`.
describe('a NoCloud seed folder as the editor merges it', () => {
  const SEED: Record<string, string> = {
    'seed/user-data': '#cloud-config\nhostname: from-user\n',
    'seed/vendor-data': '#cloud-config\nhostname: from-vendor\npackages: [curl]\n',
    'seed/meta-data': 'instance-id: iid-1\n',
    'seed/network-config': 'network:\n  version: 2\n  ethernets:\n    eth0:\n      dhcp4: true\n',
    'loose/user-data': '#cloud-config\nhostname: loose\n',
    'loose/vendor-data': '#cloud-config\nhostname: loose-vendor\n',
  };
  let dir: string;
  let ws: LspClient;
  const uri = (name: string) => pathToFileURL(path.join(dir, name)).href;
  const seedSet = () => ({ mode: 'boot', files: [uri('seed/user-data')], boot: { vendor: uri('seed/vendor-data') }, seed: pathToFileURL(path.join(dir, 'seed')).href });

  before(async () => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-seed-set-')));
    for (const [name, text] of Object.entries(SEED)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    ws = await LspClient.start({ workspaceFolders: [dir] });
  });
  after(async () => {
    await ws.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('user-data and vendor-data selected together (Explorer order): the seed, user-data over vendor-data, as --seed merges it', async () => {
    const order = await ws.request<PartOrderResult>(PartOrderRequest.method, { files: [uri('seed/user-data'), uri('seed/vendor-data')] });
    assert.deepEqual(order.set, seedSet());
    // The title bar's button on any of its files previews the same seed.
    for (const file of ['seed/user-data', 'seed/vendor-data']) assert.deepEqual(await ws.request<SetOfResult | null>(SetOfRequest.method, { uri: uri(file) }), seedSet(), file);
    // What that preview merges is what the CLI merges for the seed: the user-data's hostname wins.
    const { seed: _seed, ...params } = seedSet();
    const preview = await ws.request<PreviewResult>(PreviewRequest.method, params);
    assert.match(previewBody(preview), /^hostname: from-user$/m);
    assert.equal(previewBody(preview), runCliIn(['--seed', 'seed'], dir).stdout);
  });

  test('a folder NoCloud skips (no meta-data) is no seed: its files are only files', async () => {
    assert.equal((await ws.request<PartOrderResult>(PartOrderRequest.method, { files: [uri('loose/user-data'), uri('loose/vendor-data')] })).set, undefined);
    assert.equal(await ws.request<SetOfResult | null>(SetOfRequest.method, { uri: uri('loose/user-data') }), null);
  });

  test('meta-data and network-config selected with user-data are left out, each said why; the rest is the seed', async () => {
    const order = await ws.request<PartOrderResult>(PartOrderRequest.method, { files: ['seed/meta-data', 'seed/network-config', 'seed/user-data', 'seed/vendor-data'].map(uri) });
    assert.deepEqual(order.notUserData, [
      { file: uri('seed/meta-data'), kind: 'meta-data', message: "meta-data is a NoCloud seed's meta-data, not user-data: cloud-init never merges it, so it is left out (its editor shows what NoCloud makes of it)." },
      { file: uri('seed/network-config'), kind: 'network-config', message: 'network-config is a network-config, not user-data: cloud-init never merges it into user-data (its network stage reads it), so it is left out (its editor shows its problems).' },
    ]);
    assert.deepEqual(order.set, seedSet());
    assert.deepEqual(order.containers, []);
  });

  test('a saved seed set saved again from its preview keeps `seed:` (not files and vendor)', async () => {
    const text = 'sets:\n  nocloud:\n    seed: seed/\n';
    writeFileSync(path.join(dir, 'cloud-config-merge.yaml'), text);
    try {
      const set = await ws.request<SetOfResult | null>(SetOfRequest.method, { uri: uri('seed/user-data') });
      assert.deepEqual(set, { name: 'nocloud', ...seedSet() });
      // What Save as Set sends for that preview (its state is the set the server resolved).
      const saved = await ws.request<SaveSetResult>(SaveSetRequest.method, { name: 'nocloud', mode: set.mode, files: set.files, boot: set.boot, seed: set.seed, currentText: text });
      assert.deepEqual(saved, { uri: uri('cloud-config-merge.yaml'), text: 'sets:\n  nocloud:\n    seed: seed\n' });
      // A client that does not send the seed (another editor): the set of that name keeps it, as written.
      const other = await ws.request<SaveSetResult>(SaveSetRequest.method, { name: 'nocloud', mode: set.mode, files: set.files, boot: set.boot, currentText: text });
      assert.deepEqual(other, { uri: uri('cloud-config-merge.yaml'), text });
      const again = await ws.request<SaveSetResult>(SaveSetRequest.method, { name: 'second', mode: set.mode, files: set.files, boot: set.boot, seed: set.seed, currentText: text });
      assert.deepEqual(again, { uri: uri('cloud-config-merge.yaml'), text: 'sets:\n  nocloud:\n    seed: seed/\n  second:\n    seed: seed\n' });
      // The CLI reads the saved set as the seed.
      writeFileSync(path.join(dir, 'cloud-config-merge.yaml'), (again as { text: string }).text);
      assert.equal(runCliIn(['--set', 'second'], dir).stdout, runCliIn(['--seed', 'seed'], dir).stdout);
      // A seed is merged in boot mode only.
      assert.match(JSON.stringify(await ws.request<SaveSetResult>(SaveSetRequest.method, { name: 'x', mode: 'user-data', files: set.files, seed: set.seed, currentText: '' })), /A NoCloud seed is merged in boot mode/);
    } finally {
      rmSync(path.join(dir, 'cloud-config-merge.yaml'), { force: true });
    }
  });
});

// Issue 43: meta-data whose instance-id NoCloud would str() into more text than our limit allows (an alias
// bomb, a list of a million items) is refused, and the refusal is the editor's diagnostic and hover, naming
// the limit: never a silent editor and a hover error.
const aliasBomb = (levels: number): string => {
  let text = 'l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n';
  for (let i = 1; i <= levels; i++) text += `l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]\n`;
  return text;
};

// The words name what makes the text long: shared references (aliases) only where there are some.
for (const [name, text, why] of [
  ['an alias bomb', `${aliasBomb(8)}instance-id: *l8\nlocal-hostname: web-01\n`, ' (shared references expanded)'],
  ['a list of a million items', `local-hostname: web-01\ninstance-id: [${Array(1_000_000).fill('ab').join(', ')}]\n`, ''],
] as const) {
  test(`meta-data whose instance-id is ${name}: a limit-exceeded diagnostic and a hover that names maxExpandedNodes`, async () => {
    const uri = fixtureUri(`seed-limit-${name.replace(/\W+/g, '-')}/meta-data`);
    const diagnostics = await client.open(uri, text);
    assert.deepEqual(diagnostics.map((d) => [d.code, d.range.start.line]), [['limit-exceeded', 0]]);
    assert.equal(diagnostics[0].message, `Not read as NoCloud reads it: meta-data's instance-id is a list whose str()${why} would be longer than 5000000 characters: over the limit maxExpandedNodes = 5000000. (setting cloudConfigMerge.limits.maxExpandedNodes)`);
    const lines = text.split('\n');
    const hover = await client.hover(uri, { line: lines.findIndex((l) => l.startsWith('local-hostname')), character: 3 });
    const markdown = (hover?.contents as { value: string }).value;
    assert.match(markdown, /^\*\*`local-hostname`\*\*: NoCloud meta-data/);
    assert.match(markdown, /What NoCloud makes of this file is not reproduced here: meta-data's instance-id .* over the limit maxExpandedNodes = 5000000\.$/);
    client.close(uri);
  });
}

test('meta-data with a long instance-id: the hover shows its start and its length, not all of it', async () => {
  const uri = fixtureUri('seed-long-id/meta-data');
  const text = `instance-id: ${'i'.repeat(100_000)}\n`;
  assert.deepEqual(await client.open(uri, text), []);
  const hover = await client.hover(uri, { line: 0, character: 3 });
  const markdown = (hover?.contents as { value: string }).value;
  assert.match(markdown, /What NoCloud makes of this file: instance-id 'i{200}'\.\.\. \(100,000 characters\), no hostname from meta-data, dsmode net\.$/);
  client.close(uri);
});
