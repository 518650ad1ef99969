/**
 * `cloudConfigMerge.image` per workspace folder: the server checks each document against its folder's image.
 * `write_files[].source` is a version-dependent diagnostic: cloud-init 22.4's schema (Debian 12's) rejects it,
 * later releases accept it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { LspClient, fixtureUri } from '../support/lspClient';

const TEXT = '#cloud-config\nwrite_files:\n - path: /etc/x\n   source:\n     uri: https://example.com/x\n';
let client: LspClient;

before(async () => {
  client = await LspClient.start();
});

after(async () => {
  await client.stop();
});

/** The schema's verdict on `source`, as the diagnostics say it. */
const sourceVerdict = (messages: unknown[]) => messages.filter((m) => /'source' was unexpected/.test(String(m))).map(() => 'rejected');

test("each document follows its folder's image; changing the setting re-checks it", async () => {
  let oldFolder: Record<string, unknown> = { image: 'debian-12' };
  client.scopedSettings = (scope) => (scope?.includes('/debian/') ? oldFolder : undefined);
  try {
    const onDebian = fixtureUri('images/debian/user-data.yaml');
    const elsewhere = fixtureUri('images/other/user-data.yaml');
    assert.deepEqual(sourceVerdict((await client.open(onDebian, TEXT)).map((d) => d.message)), ['rejected']);
    assert.deepEqual(sourceVerdict((await client.open(elsewhere, TEXT)).map((d) => d.message)), []);
    // The folder switches to an image on current cloud-init (what the status item writes).
    const since = client.diagnosticsLog(onDebian).length;
    oldFolder = { image: 'ubuntu-24.04' };
    await client.changeSettings({});
    const after = await client.waitForDiagnostics(onDebian, since, (p) => sourceVerdict(p.diagnostics.map((d) => d.message)).length === 0);
    assert.deepEqual(sourceVerdict(after.diagnostics.map((d) => d.message)), []);
    client.close(onDebian);
    client.close(elsewhere);
  } finally {
    client.scopedSettings = undefined;
  }
});

test('cloudConfigMerge.cloudInitVersion, where set, overrides the image; an unknown image is the default one', async () => {
  const uri = fixtureUri('images/override/user-data.yaml');
  client.settings = { image: 'debian-12', cloudInitVersion: 'current' };
  assert.deepEqual(sourceVerdict((await client.open(uri, TEXT)).map((d) => d.message)), []);
  client.close(uri);
  const unknown = fixtureUri('images/unknown/user-data.yaml');
  client.settings = { image: 'debian-11' };
  assert.deepEqual(sourceVerdict((await client.open(unknown, TEXT)).map((d) => d.message)), []);
  client.close(unknown);
  client.settings = {};
});
