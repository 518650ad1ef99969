/**
 * A cloud.cfg.d drop-in gets hover and completion on system config keys (issue 42): the schema's keys it
 * may hold (`preserve_hostname`), and those only system config has (`datasource_list`, `def_log_file`), each
 * with what it is and where the version's code reads it (engine/plan/systemKeys, extracted by a script).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionItem, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { cursor, fixtureUri } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';

describe('drop-in keys', () => {
  let client: FeatureClient;
  let n = 0;
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  async function hover(fixture: string, file = 'etc/cloud/cloud.cfg.d/99-x.cfg', settings: Record<string, unknown> = {}): Promise<string | null> {
    const { text, position } = cursor(fixture);
    client.settings = settings;
    const uri = fixtureUri(`dropin-hover-${n++}/${file}`);
    await client.open(uri, text);
    const h = await client.hover(uri, position);
    client.close(uri);
    client.settings = {};
    return h ? (h.contents as MarkupContent).value : null;
  }

  async function complete(fixture: string, file = 'etc/cloud/cloud.cfg.d/99-x.cfg'): Promise<CompletionItem[]> {
    const { text, position } = cursor(fixture);
    const uri = fixtureUri(`dropin-complete-${n++}/${file}`);
    await client.open(uri, text);
    const items = await client.completion(uri, position);
    client.close(uri);
    return items;
  }

  test('datasource_list: what it is, where cloud-init reads it, and its documentation page', async () => {
    const value = await hover('datasource_l|ist: [NoCloud, None]\n');
    assert.ok(value, 'a hover');
    assert.match(value, /^\*\*datasource_list\*\* \(system config: cloud\.cfg and cloud\.cfg\.d\)/);
    assert.match(value, /the datasources cloud-init tries, in order/);
    assert.match(value, /Read by cloud-init 26\.2 in `cloudinit\/[a-z_/]+\.py`/);
    assert.match(value, /\(https:\/\/docs\.cloud-init\.io\/en\/latest\/reference\/base_config_reference\.html\)/);
  });

  test('preserve_hostname and system_info: the schema and the docs where the schema knows the key', async () => {
    const preserve = await hover('preserve_host|name: true\n');
    assert.match(preserve ?? '', /^\*\*preserve_hostname\*\*/);
    assert.match(preserve ?? '', /Type: `boolean`/);
    const system = await hover('system_i|nfo:\n  distro: ubuntu\n');
    assert.match(system ?? '', /^\*\*system_info\*\*/);
  });

  test('def_log_file on 22.4 says 22.4', async () => {
    const value = await hover('def_log_f|ile: /var/log/ci.log\n', 'etc/cloud/cloud.cfg.d/10-log.cfg', { cloudInitVersion: '22.4' });
    assert.match(value ?? '', /Read by cloud-init 22\.4 in `cloudinit\//);
  });

  test('completion at the top of a drop-in offers system keys and cloud-config keys, without those written', async () => {
    const items = await complete('datasource_list: [NoCloud]\n|\n');
    const names = items.map((i) => i.label);
    for (const key of ['def_log_file', 'datasource', 'preserve_hostname', 'system_info', 'runcmd']) assert.ok(names.includes(key), `${key} in ${names.join(',')}`);
    assert.ok(!names.includes('datasource_list'), 'already written');
    const def = items.find((i) => i.label === 'def_log_file')!;
    assert.equal(def.detail, 'system config');
    assert.match((def.documentation as MarkupContent).value, /the log file cloud-init writes/);
    assert.equal((def.textEdit as TextEdit).newText, 'def_log_file: ');
  });

  test('a user-data part is not offered system-only keys', async () => {
    const names = (await complete('#cloud-config\n|\n', 'user-data.yaml')).map((i) => i.label);
    assert.ok(names.includes('runcmd'));
    assert.ok(!names.includes('def_log_file') && !names.includes('datasource_list'));
    assert.equal(await hover('#cloud-config\ndatasource_l|ist: [NoCloud]\n', 'user-data.yaml'), null);
  });
});
