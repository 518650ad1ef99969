/**
 * network-config files (issue 30): what `cloud-init schema -t network-config` of each version says of
 * what users write, on each kind of host, what a boot does with it, and how `--check` shows it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateNetworkConfigText } from '../../server/src/engine/network/validate';
import { unmodelledWords } from '../../server/src/engine/network/netplan';
import { describeBoot, networkBoot } from '../../server/src/engine/network/boot';
import { detectCloudInitDocument } from '../../common/detect';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { runCli } from '../support/cli';

const V2_TYPOS = 'version: 2\nethernets:\n  eth0:\n    adresses: [10.0.0.2/24]\n    gatway4: 10.0.0.1\n    dhcp4: yes\n';
const V1_TYPOS = 'version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n      - type: static\n        adress: 10.0.0.2/24\n';

function file(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'netcfg-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

test('a v1 network-config with a misspelt address key is invalid for 23.4 and later, whatever the host', () => {
  for (const version of ['23.4', '24.4', '25.1', 'current'] as const) {
    for (const host of ['none', 'cli', 'api'] as const) {
      const r = validateNetworkConfigText(V1_TYPOS, version, host, 'network-config');
      assert.equal(r.valid, false, `${version} ${host}`);
      assert.equal(r.validator, 'jsonschema:network-config-v1');
      assert.deepEqual(r.errors.map((e) => [e.path, e.message]), [['config.0.subnets.0', "Additional properties are not allowed ('adress' was unexpected)"]]);
    }
  }
});

test('cloud-init 22.4 does not validate network-config at all, and we say so instead of inventing a check', () => {
  const r = validateNetworkConfigText(V1_TYPOS, '22.4', 'none', 'network-config');
  assert.equal(r.valid, null);
  assert.match(r.unsupported ?? '', /22\.4 does not validate network-config/);
});

test('23.4 skips a v2 network-config with the line it prints', () => {
  const r = validateNetworkConfigText(V2_TYPOS, '23.4', 'none', 'network-config');
  assert.equal(r.valid, null);
  assert.equal(r.said, 'Skipping network-config schema validation. No network schema for version: 2');
});

test("a v2 `adresses:` typo passes cloud-init's v2 JSON schema (no netplan) and is skipped where only netplan's command exists", () => {
  assert.equal(validateNetworkConfigText(V2_TYPOS, 'current', 'none', 'n').valid, true);
  const cli = validateNetworkConfigText(V2_TYPOS, '24.4', 'cli', 'n');
  assert.equal(cli.valid, null);
  assert.equal(cli.said, 'Skipping network-config schema validation for version: 2. No netplan API available.');
});

test("netplan's parser (Ubuntu's api host) rejects the v2 `adresses:` typo, at cloud-init's place in its own dump", () => {
  const r = validateNetworkConfigText(V2_TYPOS, 'current', 'api', 'n');
  assert.equal(r.valid, false);
  assert.equal(r.validator, 'netplan');
  assert.deepEqual(
    r.errors.map((e) => [e.path, e.message]),
    [['format-l5.c13', "Invalid netplan schema. Error in network definition: unknown key 'adresses'\n            adresses:\n            ^"]],
  );
});

test('netplan rejects `dhcp4: maybe` and `mtu: big` as a boolean and an unsigned int', () => {
  const bool = validateNetworkConfigText('network:\n  version: 2\n  ethernets:\n    eth0: {dhcp4: maybe}\n', 'current', 'api', 'n');
  assert.match(bool.errors[0].message, /invalid boolean value 'maybe'/);
  const uint = validateNetworkConfigText('network:\n  version: 2\n  ethernets:\n    eth0: {mtu: big}\n', 'current', 'api', 'n');
  assert.match(uint.errors[0].message, /invalid unsigned int value 'big'/);
});

test('`network: {config: disabled}` fails the schema of 24.4+ but turns networking configuration off at boot', () => {
  const r = validateNetworkConfigText('network: {config: disabled}\n', 'current', 'none', 'n');
  assert.equal(r.valid, false);
  assert.equal(networkBoot('network: {config: disabled}\n').result, 'disabled');
  assert.match(describeBoot(networkBoot('network: {config: disabled}\n')), /leaves the network configuration alone/);
});

test('a network config without a version cloud-init can parse fails at boot', () => {
  const boot = networkBoot('foo: bar\n');
  assert.equal(boot.result, 'applied');
  assert.match(describeBoot(boot), /No valid network_state object created/);
  assert.equal(networkBoot('- a\n').result, 'fallback');
});

test('network-config is recognised by its NoCloud name and by its content, but not a #cloud-config with a network key', () => {
  assert.equal(detectCloudInitDocument('foo: 1\n', '/seed/network-config')?.kind, 'network-config');
  assert.equal(detectCloudInitDocument('version: 2\nethernets: {}\n', '/x/net.yaml')?.kind, 'network-config');
  assert.equal(detectCloudInitDocument('network:\n  version: 1\n  config: []\n', '/x/a.yaml')?.kind, 'network-config');
  assert.equal(detectCloudInitDocument('#cloud-config\nnetwork:\n  version: 2\n', '/x/a.yaml')?.kind, 'cloud-config');
  assert.equal(detectCloudInitDocument('version: "2"\nservices: {}\n', '/x/docker-compose.yaml'), null);
  // network config written into user-data is still user-data to cloud-init (which ignores it without a header)
  assert.notEqual(detectCloudInitDocument('network:\n  version: 2\n', '/seed/user-data')?.kind, 'network-config');
});

test('the editor marks the misspelt key of a network-config where it is written', () => {
  const a = analyzeDocument(V1_TYPOS, '/seed/network-config', { schema: true, version: 'current' });
  const f = a.findings.find((x) => x.code === 'schema-error');
  assert.ok(f);
  assert.equal(V1_TYPOS.slice(f.span.start, f.span.end), 'adress');
});

test('--check reads a network-config file as cloud-init schema -t network-config prints it', () => {
  const path = file('network-config', V1_TYPOS);
  const out = runCli(['--check', path]);
  assert.equal(out.code, 1);
  assert.match(out.stdout, /^Invalid network-config .*network-config\nError: Cloud config schema errors: config\.0\.subnets\.0: Additional properties are not allowed \('adress' was unexpected\)/);
  assert.match(out.stdout, /Error: Invalid schema: network-config/);
});

test('--check --type network-config forces the kind; JSON says valid null where 22.4 does not validate', () => {
  const path = file('net.txt', 'version: 1\nconfig: []\n');
  const json = JSON.parse(runCli(['--check', '--type', 'network-config', '--cloud-init-version', '22.4', '--format', 'json', path]).stdout) as { files: Array<{ valid: unknown; kind: string }> };
  assert.equal(json.files[0].valid, null);
  assert.equal(json.files[0].kind, 'network-config');
});

test('--netplan api (the default image, ubuntu-24.04) makes --check report what netplan says of a v2 typo', () => {
  const path = file('network-config', V2_TYPOS);
  assert.equal(runCli(['--check', '--netplan', 'none', path]).code, 0);
  assert.equal(runCli(['--check', '--image', 'debian-13', path]).code, 0);
  assert.equal(runCli(['--check', path]).code, 1);
  const api = runCli(['--check', '--netplan', 'api', '--image', 'debian-13', path]);
  assert.equal(api.code, 1);
  assert.match(api.stdout, /unknown key 'adresses'/);
});

test('a network-config alias bomb is refused by name in the editor and by --check, not expanded', () => {
  const bomb = ['version: 2', 'a: &a [x, x, x, x, x, x, x, x, x, x]', 'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]', 'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]', 'd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]', 'e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]', 'f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]', 'g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]', 'ethernets: {eth0: {routes: *g}}', ''].join('\n');
  const started = Date.now();
  const a = analyzeDocument(bomb, '/seed/network-config', { schema: true, version: 'current', netplan: 'api' });
  assert.ok(a.findings.some((f) => f.code === 'limit-exceeded' && /maxExpandedNodes/.test(f.message)));
  const out = runCli(['--check', '--netplan', 'api', file('network-config', bomb)]);
  assert.equal(out.code, 2);
  assert.match(out.stderr, /maxExpandedNodes/);
  assert.ok(Date.now() - started < 20000);
});

test('a large network-config without aliases is validated, not refused as an alias bomb (issue 43)', () => {
  // maxExpandedNodes bounds what aliases add; a document without any is bounded by its size (maxFileBytes).
  const routes = Array.from({ length: 2000 }, (_, i) => `      - {to: 10.0.${i >> 8}.${i & 255}/32, via: 192.168.0.1}\n`).join('');
  const text = `version: 2\nethernets:\n  eth0:\n    dhcp4: true\n    routes:\n${routes}`;
  const r = validateNetworkConfigText(text, 'current', 'none', 'network-config', 1000);
  assert.equal(r.valid, true);
  const aliased = `version: 2\nethernets:\n  eth0: &e\n    dhcp4: true\n    routes:\n${routes}  eth1: *e\n`;
  assert.throws(() => validateNetworkConfigText(aliased, 'current', 'none', 'network-config', 1000), /Schema validation \(aliases expanded\) exceeds the limit maxExpandedNodes = 1000/);
});

test('netplan rejects a bond whose member no device defines, at the member written', () => {
  const r = validateNetworkConfigText('network:\n  version: 2\n  ethernets:\n    eth0: {}\n  bonds:\n    bond0:\n      interfaces: [eth0, eth1]\n', 'current', 'api', 'n');
  assert.equal(r.valid, false);
  assert.deepEqual(r.errors.map((e) => e.message.split('\n')[0]), ["Invalid netplan schema. Error in network definition: bond0: interface 'eth1' is not defined"]);
  assert.deepEqual(r.errors[0].segments, ['network', 'bonds', 'bond0', 'interfaces', 1n]);
});

test("a drop-in's network: key is validated as cloud-init validates it when applying it; config: disabled is not", () => {
  const dropIn = 'network:\n  version: 1\n  config:\n    - type: physical\n      name: eth0\n      subnets:\n        - type: static\n          adress: 10.0.0.2/24\n';
  const found = analyzeDocument(dropIn, '/etc/cloud/cloud.cfg.d/50-net.cfg', { schema: true, version: 'current' }).findings.filter((f) => f.message.startsWith('network config:'));
  assert.deepEqual(
    found.map((f) => [dropIn.slice(f.span.start, f.span.end), f.message]),
    [['adress', "network config: config.0.subnets.0: Additional properties are not allowed ('adress' was unexpected)"]],
  );
  const disabled = analyzeDocument('network: {config: disabled}\n', '/etc/cloud/cloud.cfg.d/99-disable-network-config.cfg', { schema: true, version: 'current' });
  assert.deepEqual(disabled.findings.filter((f) => f.message.startsWith('network config:')), []);
});

test('netplan values not modelled are named by kind, counted: a config of many routes gives one short line (issue 43)', () => {
  const routes = Array.from({ length: 5000 }, (_, i) => `      - {to: 10.0.${i >> 8}.${i & 255}/32, via: 192.168.0.1}\n`).join('');
  const text = `version: 2\nethernets:\n  eth0:\n    dhcp4: true\n    routes:\n${routes}`;
  const found = analyzeDocument(text, '/seed/network-config', { schema: true, version: 'current', netplan: 'api' }).findings.find((f) => f.code === 'network-not-validated');
  assert.match(found?.message ?? '', /^netplan's own checks of network\.ethernets\.eth0\.routes\.\*\.to \(5,000 values\), network\.ethernets\.eth0\.routes\.\*\.via \(5,000 values\)(, [^,]+)? are not reproduced here/);
  assert.ok((found?.message.length ?? Infinity) < 400);
  assert.equal(unmodelledWords(['a.0.b', 'a.1.b', 'c.d']), 'a.*.b (2 values), c.d');
  const many = unmodelledWords(Array.from({ length: 12 }, (_, i) => `k${i}`));
  assert.equal(many, 'k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 2 more kinds of values');
});
