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
