// Issue 30: a NoCloud seed's meta-data in the editor: the server takes a file named meta-data for one
// (documentInfo) and publishes what NoCloud makes of it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DocumentInfoRequest, DocumentInfoResult } from '../../server/src/protocol';
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
