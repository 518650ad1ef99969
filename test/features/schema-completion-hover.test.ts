/**
 * Hover and completion from cloud-init's schema, run in this process by the server's own handlers (support/featureClient): module keys, nested keys and enum
 * values where the cursor is (also in a document that does not load), deprecated keys tagged and last,
 * keys already written left out; hover with the module, the type and cloud-init's own deprecation notes.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionItem, CompletionItemTag, MarkupContent, TextEdit } from 'vscode-languageserver-protocol';
import { cursor, fixtureUri } from '../support/lspClient';
import { FeatureClient } from '../support/featureClient';

describe('schema completion and hover', () => {
  let client: FeatureClient;
  let n = 0;
  before(async () => {
    client = await FeatureClient.start();
  });
  after(async () => {
    await client.stop();
  });

  async function complete(fixture: string, settings: Record<string, unknown> = {}): Promise<CompletionItem[]> {
    const { text, position } = cursor(fixture);
    client.settings = settings;
    const uri = fixtureUri(`schema-complete-${n++}/user-data.yaml`);
    await client.open(uri, text);
    const items = await client.completion(uri, position);
    client.close(uri);
    client.settings = {};
    return items;
  }

  async function hover(fixture: string, settings: Record<string, unknown> = {}): Promise<string | null> {
    const { text, position } = cursor(fixture);
    client.settings = settings;
    const uri = fixtureUri(`schema-hover-${n++}/user-data.yaml`);
    await client.open(uri, text);
    const h = await client.hover(uri, position);
    client.close(uri);
    client.settings = {};
    return h ? (h.contents as MarkupContent).value : null;
  }

  const labels = (items: CompletionItem[]) => items.map((i) => i.label);

  test('top-level module keys, without those already written, deprecated ones tagged and sorted last', async () => {
    const items = await complete('#cloud-config\npackages: [curl]\npack|\n');
    const names = labels(items);
    assert.ok(names.includes('package_update') && names.includes('runcmd') && names.includes('write_files'));
    assert.ok(!names.includes('packages'), 'packages is already there');
    const apt = items.find((i) => i.label === 'apt_update')!;
    assert.deepEqual(apt.tags, [CompletionItemTag.Deprecated]);
    const sorted = [...items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? ''));
    assert.ok(sorted.indexOf(apt) > sorted.findIndex((i) => i.label === 'runcmd'));
    assert.equal((items.find((i) => i.label === 'package_update')!.textEdit as TextEdit).newText, 'package_update: ');
    // deprecated through allOf (`ca-certs`: allOf [ca_certs, {deprecated}]) counts too; a deprecated
    // alternative does not make the key deprecated (`users` may be a list or, deprecated, a string)
    assert.deepEqual(items.find((i) => i.label === 'ca-certs')!.tags, [CompletionItemTag.Deprecated]);
    assert.equal(items.find((i) => i.label === 'users')!.tags, undefined);
  });

  test('nested keys in list items, while the document does not load', async () => {
    const names = labels(await complete('#cloud-config\nusers:\n  - name: a\n    sh|\nruncmd: [a, b\n'));
    assert.ok(names.includes('shell') && names.includes('ssh_authorized_keys') && names.includes('lock_passwd'), names.join(','));
    assert.ok(!names.includes('runcmd'));
  });

  test('enum values after key:, quoted where YAML would read another type', async () => {
    const items = await complete('#cloud-config\nwrite_files:\n  - path: /x\n    encoding: |\n');
    assert.ok(labels(items).includes('b64') && labels(items).includes('gzip'), labels(items).join(','));
    const growpart = labels(await complete('#cloud-config\ngrowpart:\n  mode: |\n'));
    assert.ok(growpart.includes("'off'") && growpart.includes('auto'), growpart.join(','));
  });

  test('22.4 offers its own keys', async () => {
    const current = labels(await complete('#cloud-config\n|\n'));
    const old = labels(await complete('#cloud-config\n|\n', { cloudInitVersion: '22.4' }));
    assert.ok(current.includes('ubuntu_pro') && !old.includes('ubuntu_pro'));
  });

  test('hover: module, type and the deprecation note in the words of the configured version', async () => {
    const runcmd = await hover('#cloud-config\nrun|cmd: [ls]\n');
    assert.match(runcmd!, /\*\*runcmd\*\* \(module `cc_runcmd`\)/);
    assert.match(runcmd!, /Type: `array of \(array of string \| string \| null\)`/);
    assert.match(runcmd!, /Commands run once, late in the first boot/, 'what the key does, in our words');
    const apt = await hover('#cloud-config\napt_up|date: true\n');
    assert.match(apt!, /> Deprecated in version 22\.2\. Use \*\*package_update\*\* instead\./);
    const old = await hover('#cloud-config\napt_up|date: true\n', { cloudInitVersion: '22.4' });
    assert.match(old!, /> DEPRECATED: Dropped after April 2027\. Use ``package_update``/);
    assert.equal(await hover('#cloud-config\nnot_a_k|ey: 1\n'), null);
    assert.equal(await hover('#cloud-config\nrun|cmd: [ls]\n', { schema: { enable: false } }), null);
  });

  test('hover and completion name the alternatives: never "object | object", lists of alternatives in parentheses', async () => {
    const users = await hover('#cloud-config\nus|ers: [default]\n');
    assert.match(users!, /Type: `string \| array of \(string \| array of string \| object \(users_groups\.user\)\) \| object`/);
    const pull = await hover('#cloud-config\nansible:\n  pu|ll: []\n');
    assert.match(pull!, /Type: `array of object \(ansible\.pull\) \| object \(ansible\.pull\)`/);
    const groups = (await complete('#cloud-config\ngro|\n')).find((i) => i.label === 'groups');
    assert.equal(groups?.detail, 'string | object (users_groups.groups_by_groupname) | array of (string | object (users_groups.groups_by_groupname))');
    for (const text of [users, pull, groups?.detail]) assert.doesNotMatch(text!, /object \| object/);
  });
});
