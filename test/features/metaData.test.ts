// Hover and completion in a NoCloud seed's meta-data file, run in this process by the server's own handlers
// (support/featureClient): what NoCloud does with the key (the readers extracted from cloud-init's code) and
// what it makes of the file; completion offers the keys NoCloud reads.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MarkupContent } from 'vscode-languageserver-protocol';
import { cursor, fixtureUri } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';
import { metaDataKeyReaders, READ_WORD_NAMES, readWords } from '../../server/src/engine/seed/metaDataKeys';
import { CLOUD_INIT_VERSIONS } from '../../server/src/engine/version/versions';

let client: FeatureClient;
let counter = 0;

async function hoverAt(fixture: string, path = 'seed/meta-data'): Promise<string | null> {
  const { text, position } = cursor(fixture);
  const uri = fixtureUri(`meta-data-${counter++}/${path}`);
  await client.open(uri, text);
  const hover = await client.hover(uri, position);
  client.close(uri);
  return hover ? (hover.contents as MarkupContent).value : null;
}

async function completionAt(fixture: string): Promise<string[]> {
  const { text, position } = cursor(fixture);
  const uri = fixtureUri(`meta-data-${counter++}/seed/meta-data`);
  await client.open(uri, text);
  const items = await client.completion(uri, position);
  client.close(uri);
  return items.map((i) => i.label).sort();
}

describe('meta-data hover and completion', () => {
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('hover on local-hostname: the method that reads it, what for, and the hostname NoCloud gives this file', async () => {
    const value = await hoverAt('instance-id: iid-web-01\nlocal-ho|stname: web-1.example.com\n');
    assert.ok(value);
    assert.match(value, /^\*\*`local-hostname`\*\*: NoCloud meta-data \(cloud-init current\), read by `DataSource.get_hostname`: the hostname given to the modules that ask for one/);
    assert.match(value, /What NoCloud makes of this file: instance-id 'iid-web-01', hostname 'web-1', dsmode net\./);
  });

  test('hover on instance-id, public-keys, network-interfaces and seedfrom names their readers', async () => {
    assert.match((await hoverAt('instance|-id: x\n')) ?? '', /read by `DataSource.get_instance_id`: the instance id/);
    assert.match((await hoverAt('instance-id: x\npublic-k|eys: [k1]\n')) ?? '', /read by `DataSource.get_public_ssh_keys`/);
    assert.match((await hoverAt('instance-id: x\nnetwork-inter|faces: "auto eth0"\n')) ?? '', /read by `DataSourceNoCloud._get_data`: an ENI text/);
    assert.match((await hoverAt('seed|from: http://10.0.0.1/seed/\n')) ?? '', /What NoCloud makes of this file: meta-data has a seedfrom NoCloud's local stage does not read/);
  });

  test('hover on a key NoCloud never reads says so (instance_id), and no hover in user-data for these words', async () => {
    const value = await hoverAt('instance|_id: x\n');
    assert.match(value ?? '', /NoCloud reads no meta-data key `instance_id` \(cloud-init current\)/);
    assert.match(value ?? '', /instance-id 'nocloud' \(the default: meta-data gives none\)/);
    assert.equal(await hoverAt('#cloud-config\ninstance|_id: x\n', 'user-data'), null);
  });

  test('completion offers the keys NoCloud reads, not those already written', async () => {
    const labels = await completionAt('instance-id: x\nlo|\n');
    assert.ok(labels.includes('local-hostname') && labels.includes('public-keys') && labels.includes('dsmode'), labels.join(' '));
    assert.ok(!labels.includes('instance-id'), labels.join(' '));
    assert.deepEqual(labels, Object.keys(metaDataKeyReaders('current')).filter((k) => k !== 'instance-id').sort());
  });

  test('every reader the extracted data names has our words, and every word a reader', () => {
    const named = new Set<string>();
    for (const version of CLOUD_INIT_VERSIONS) {
      for (const [key, readers] of Object.entries(metaDataKeyReaders(version))) {
        for (const m of readers) {
          assert.ok(readWords(m, key), `${version}: no words for ${m} reading ${key}`);
          named.add(READ_WORD_NAMES.includes(`${m} ${key}`) ? `${m} ${key}` : m);
        }
      }
    }
    assert.deepEqual([...named].sort(), [...READ_WORD_NAMES].sort());
  });
});
