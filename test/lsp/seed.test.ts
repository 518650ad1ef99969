// Issue 30: a NoCloud seed's meta-data in the editor: the server takes a file named meta-data for one
// (documentInfo) and publishes what NoCloud makes of it; the cloud the user-data goes to, in the preview.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DocumentInfoRequest, DocumentInfoResult, PreviewRequest, PreviewResult } from '../../server/src/protocol';
import { LspClient, fixtureUri } from '../support/lspClient';

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
