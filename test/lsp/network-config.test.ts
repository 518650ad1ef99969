/**
 * A NoCloud network-config file over the protocol (issue 30): recognised by its name, its schema errors in
 * cloud-init's words on the key written, what a boot does with it, and hover and completion from the
 * network-config schemas of the configured cloud-init.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostic } from 'vscode-languageserver-protocol';
import { LspClient, cursor, fixtureUri } from '../support/lspClient';

const V1_TYPO = 'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - type: static\n        adress: 10.0.0.2/24\n';

function marked(text: string, d: Diagnostic): string {
  const { start, end } = d.range;
  return start.line === end.line ? text.split('\n')[start.line].slice(start.character, end.character) : '<multi-line>';
}

function words(d: Diagnostic | undefined): string {
  const m = d?.message ?? '';
  return typeof m === 'string' ? m : m.value;
}

describe('network-config documents', () => {
  let client: LspClient;
  let n = 0;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });
  const uriOf = (name: string) => fixtureUri(`network-${n++}/${name}`);

  test('a misspelt v1 key is an error on the key, in the words of cloud-init schema -t network-config', async () => {
    const uri = uriOf('network-config');
    const ds = await client.open(uri, V1_TYPO);
    client.close(uri);
    assert.deepEqual(
      ds.filter((d) => d.code === 'schema-error').map((d) => [marked(V1_TYPO, d), d.message]),
      [['adress', "config.0.subnets.0: Additional properties are not allowed ('adress' was unexpected)"]],
    );
  });

  test('cloud-init 22.4 does not validate network-config: one note says so, no invented error', async () => {
    client.settings = { cloudInitVersion: '22.4' };
    const uri = uriOf('network-config');
    const ds = await client.open(uri, V1_TYPO);
    client.close(uri);
    client.settings = {};
    assert.deepEqual(ds.filter((d) => d.code === 'schema-error'), []);
    assert.match(words(ds.find((d) => d.code === 'network-not-validated')), /22\.4 does not validate network-config/);
  });

  test('`network: {config: disabled}` says what the boot does with it', async () => {
    const uri = uriOf('net.yaml');
    const ds = await client.open(uri, 'network: {config: disabled}\n');
    client.close(uri);
    assert.match(words(ds.find((d) => d.code === 'network-boot')), /leaves the network configuration alone/);
  });

  test('hover and completion come from the v2 network schema', async () => {
    const uri = uriOf('network-config.yaml');
    const text = 'version: 2\nethernets:\n  eth0:\n    dhcp4: true\n    ad\n';
    await client.open(uri, text);
    const hover = await client.hover(uri, cursor(text.replace('dhcp4', 'dh|cp4')).position);
    assert.match(JSON.stringify(hover?.contents), /dhcp4.*Type: `boolean \| string`/s);
    const at = cursor(text.replace('    ad\n', '    ad|\n'));
    const items = await client.completion(uri, at.position);
    assert.ok(items.some((i) => i.label === 'addresses'), items.map((i) => i.label).join(', '));
    assert.ok(!items.some((i) => i.label === 'dhcp4'), 'keys already written are left out');
    client.close(uri);
  });
});
