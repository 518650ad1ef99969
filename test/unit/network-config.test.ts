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
  const r = validateNetworkConfigText(text, 'current', 'none', 'network-config', undefined, 1000);
  assert.equal(r.valid, true);
  const aliased = `version: 2\nethernets:\n  eth0: &e\n    dhcp4: true\n    routes:\n${routes}  eth1: *e\n`;
  assert.throws(() => validateNetworkConfigText(aliased, 'current', 'none', 'network-config', undefined, 1000), /Schema validation \(aliases expanded\) exceeds the limit maxExpandedNodes = 1000/);
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

test('netplan values not modelled are named by kind, counted: a config of many peers gives one short line (issue 43)', () => {
  const peers = Array.from({ length: 5000 }, (_, i) => `      - {endpoint: 192.0.2.${i & 255}:51820, keys: {public: pk}}\n`).join('');
  const text = `version: 2\ntunnels:\n  wg0:\n    mode: wireguard\n    key: k\n    peers:\n${peers}`;
  const found = analyzeDocument(text, '/seed/network-config', { schema: true, version: 'current', netplan: 'api' }).findings.find((f) => f.code === 'network-not-checked');
  assert.match(found?.message ?? '', /^Not checked: netplan checks (network\.tunnels\.wg0\.\w+, )*network\.tunnels\.wg0\.peers\.\*\.endpoint \(5,000 values\)(, [^,]+)*, which is not reproduced here/);
  assert.ok((found?.message.length ?? Infinity) < 400);
  assert.equal(unmodelledWords(['a.0.b', 'a.1.b', 'c.d']), 'a.*.b (2 values), c.d');
  const many = unmodelledWords(Array.from({ length: 12 }, (_, i) => `k${i}`));
  assert.equal(many, 'k0, k1, k2, k3, k4, k5, k6, k7, k8, k9 and 2 more kinds of values');
});

test('a .cfg holding network config is a drop-in wherever it lies, not an invalid network-config (issue 37)', () => {
  const disabled = 'network: {config: disabled}\n';
  assert.equal(detectCloudInitDocument(disabled, '/home/me/99-disable-network-config.cfg')?.kind, 'confd');
  assert.equal(detectCloudInitDocument('network:\n  version: 2\n  ethernets:\n    eth0: {dhcp4: true}\n', '/srv/50-curtin-networking.cfg')?.kind, 'confd');
  // the same text under another name is still a network-config, and a file named network-config stays one
  assert.equal(detectCloudInitDocument(disabled, '/home/me/disable.yaml')?.kind, 'network-config');
  assert.equal(detectCloudInitDocument(disabled, '/seed/network-config')?.kind, 'network-config');
  const a = analyzeDocument(disabled, '/home/me/99-disable-network-config.cfg', { schema: true, version: 'current' });
  assert.equal(a.info?.kind, 'confd');
  assert.deepEqual(a.findings.filter((f) => f.severity === 'error' || /required property/.test(f.message)), []);
});

const netplanMessage = (text: string, np: '0.106' | '1.1') => validateNetworkConfigText(text, 'current', 'api', 'n', np).errors.map((e) => e.message.split('\n')[0].replace('Invalid netplan schema. Error in network definition: ', ''));

test('netplan: what real files write is accepted as netplan accepts it, on 0.106 and 1.1 (issue 37)', () => {
  const accepted = [
    'network:\n  version: 2\n  ethernets:\n    renderer: networkd\n    eth0:\n      optional: true\n      dhcp4: false\n',
    'network:\n  version: 2\n  modems:\n    cdc-wdm0:\n      apn: internet.example\n      pin: "1234"\n',
    'network:\n  version: 2\n  tunnels:\n    gre1:\n      mode: gre\n      local: 198.51.100.2\n      remote: 203.0.113.9\n      ttl: 64\n      mark: 42\n',
    'network:\n  version: 2\n  ethernets:\n    eth1:\n      routing-policy:\n        - from: 10.1.0.0/24\n          table: 101\n          mark: 7\n',
    'network:\n  version: 2\n  openvswitch:\n    ports:\n      - [patch0-1, patch1-0]\n',
  ];
  for (const np of ['0.106', '1.1'] as const) {
    for (const text of accepted) assert.deepEqual(netplanMessage(text, np), [], `${np}: ${text}`);
  }
});

test('netplan: version and renderer are checked, not listed as unmodelled; a bad one gets netplan\'s words', () => {
  for (const np of ['0.106', '1.1'] as const) {
    const r = validateNetworkConfigText('network:\n  version: 2\n  renderer: networkd\n  ethernets:\n    eth0:\n      dhcp4: true\n', 'current', 'api', 'n', np);
    assert.equal(r.valid, true);
    assert.deepEqual(r.unmodelled, []);
    // cloud-init hands netplan a version that equals 2 only (2.0 too, which netplan reads by its leading number)
    assert.deepEqual(netplanMessage('network:\n  version: 2.0\n  ethernets: {}\n', np), []);
    assert.deepEqual(netplanMessage('network:\n  version: 2\n  renderer: network-manager\n', np), ["unknown renderer 'network-manager'"]);
    assert.deepEqual(netplanMessage('network:\n  version: 2\n  ethernets:\n    renderer: zzz\n    eth0: {}\n', np), ["unknown renderer 'zzz'"]);
  }
});

test('netplan: interface names are checked as netplan checks them ("Invalid name")', () => {
  for (const np of ['0.106', '1.1'] as const) {
    assert.deepEqual(netplanMessage('network:\n  version: 2\n  ethernets:\n    lan:\n      match:\n        name: "eth 0"\n', np), ["Invalid name 'eth 0'"]);
    assert.deepEqual(netplanMessage('network:\n  version: 2\n  ethernets:\n    "eth 0": {}\n', np), ["Invalid name 'eth 0'"]);
    assert.deepEqual(netplanMessage('network:\n  version: 2\n  ethernets:\n    all:\n      match:\n        name: "en*"\n', np), []);
  }
});

test('netplan 1.1 accepts the keys 0.106 does not know; the image decides which one answers', () => {
  const dummy = 'network:\n  version: 2\n  dummy-devices:\n    dm0:\n      addresses: [192.0.2.10/32]\n';
  assert.deepEqual(netplanMessage(dummy, '0.106'), ["unknown key 'dummy-devices'"]);
  assert.deepEqual(netplanMessage(dummy, '1.1'), []);
  const mss = 'network:\n  version: 2\n  ethernets:\n    eth0:\n      routes:\n        - to: 10.50.0.0/16\n          via: 10.0.0.1\n          advertised-mss: 1400\n';
  assert.deepEqual(netplanMessage(mss, '0.106'), ["unknown key 'advertised-mss'"]);
  assert.deepEqual(netplanMessage(mss, '1.1'), []);
  const file = join(mkdtempSync(join(tmpdir(), 'netcfg-')), 'network-config');
  writeFileSync(file, dummy);
  const noble = analyzeDocument(dummy, file, { schema: true, version: 'current', netplan: 'api', netplanVersion: '1.1' });
  assert.deepEqual(noble.findings.filter((f) => f.code === 'schema-error'), []);
  const jammy = analyzeDocument(dummy, file, { schema: true, version: 'current', netplan: 'api', netplanVersion: '0.106' });
  assert.match(jammy.findings.find((f) => f.code === 'schema-error')?.message ?? '', /unknown key 'dummy-devices'/);
});

test("netplan's address and MAC checks, in its words and at its place (the list, for addresses)", () => {
  for (const np of ['0.106', '1.1'] as const) {
    const eth = (body: string) => `network:\n  version: 2\n  ethernets:\n    eth0:\n${body}`;
    assert.deepEqual(netplanMessage(eth('      addresses: [IPADDR]\n'), np), ["address 'IPADDR' is missing /prefixlength"]);
    assert.deepEqual(netplanMessage(eth('      addresses: [10.0.0.1/24, 10.0.0.2/33]\n'), np), ["invalid prefix length in address '10.0.0.2/33'"]);
    assert.deepEqual(netplanMessage(eth('      addresses:\n        - ${ip}/24\n'), np), ["malformed address '${ip}/24', must be X.X.X.X/NN or X:X:X:X:X:X:X:X/NN"]);
    assert.deepEqual(netplanMessage(eth('      gateway4: GATEWAY\n'), np), ["invalid IPv4 address 'GATEWAY'"]);
    assert.deepEqual(netplanMessage(eth('      nameservers:\n        addresses: [1.1.1.1, DNS1]\n'), np), ["malformed address 'DNS1', must be X.X.X.X or X:X:X:X:X:X:X:X"]);
    assert.deepEqual(netplanMessage(eth('      addresses: [10.0.0.2/24, "fd00::2/64"]\n      nameservers:\n        addresses: [1.1.1.1, "2001:4860:4860::8888"]\n      macaddress: "AA:BB:CC:DD:EE:FF"\n'), np), []);
    assert.match(netplanMessage(eth('      macaddress: zz\n'), np)[0], /^Invalid MAC address 'zz', must be XX:XX:XX:XX:XX:XX/);
    // the error of an address in a list is where netplan puts it: the list's first item
    const r = validateNetworkConfigText(eth('      addresses: [10.0.0.2/24, IPADDR]\n'), 'current', 'api', 'n', np);
    assert.equal(r.errors[0].path, 'format-l6.c13');
    assert.equal(r.errors[0].message.split('\n')[1], '            - 10.0.0.2/24');
  }
  // 1.1 takes the words `permanent`, `random`... for a MAC address; 0.106 does not
  assert.deepEqual(netplanMessage('network:\n  version: 2\n  ethernets:\n    eth0:\n      macaddress: permanent\n', '1.1'), []);
  assert.match(netplanMessage('network:\n  version: 2\n  ethernets:\n    eth0:\n      macaddress: permanent\n', '0.106')[0], /^Invalid MAC address 'permanent'/);
});

const TUNNEL = 'network:\n  version: 2\n  tunnels:\n    gre1:\n      mode: gre\n      local: 10.0.0.1\n      remote: 10.0.0.2\n';

test('what the model does not check says "not checked": the verdict is neither valid nor invalid', () => {
  const text = TUNNEL;
  const r = validateNetworkConfigText(text, 'current', 'api', 'n', '1.1');
  assert.equal(r.valid, null);
  assert.deepEqual(r.unmodelled, ['network.tunnels.gre1.mode']);
  const file = join(mkdtempSync(join(tmpdir(), 'netcfg-')), 'network-config');
  writeFileSync(file, text);
  const found = analyzeDocument(text, file, { schema: true, version: 'current', netplan: 'api', netplanVersion: '1.1' }).findings.filter((f) => f.code === 'network-not-checked');
  assert.deepEqual(found.map((f) => [f.severity, f.message]), [['warning', 'Not checked: netplan checks network.tunnels.gre1.mode, which is not reproduced here; no error was found in the rest.']]);
});

test('--check says "Not checked" of a file whose only unchecked values are ones netplan checks and the model does not, and does not pass it', () => {
  const path = file('network-config', TUNNEL);
  const out = runCli(['--check', path]);
  // no verdict is not a pass: exit 1, as for any warning (CI must not let through what cloud-init may reject)
  assert.equal(out.code, 1);
  assert.match(out.stdout, /^Not checked \(.*network-config\): netplan checks network\.tunnels\.gre1\.mode, which is not reproduced here; no error was found in the rest$/m);
  assert.doesNotMatch(out.stdout, /Valid schema/);
  const json = JSON.parse(runCli(['--check', '--format', 'json', path]).stdout) as { files: Array<{ valid: unknown; unmodelled: string[] }> };
  assert.equal(json.files[0].valid, null);
  assert.deepEqual(json.files[0].unmodelled, ['network.tunnels.gre1.mode']);
});
