/**
 * Issue 37: netplan's checks of routes and routing-policy rules (engine/network/netplan.ts RouteCheck), and
 * what the renderer's parse does at boot on a host without netplan (engine/network/networkState.ts). The
 * expected words are what ../shared/oracle/netcheck.py printed for the same files (test/oracle/network.diff.ts
 * compares the rest).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateNetworkConfigText } from '../../server/src/engine/network/validate';
import { describeBoot, networkBoot } from '../../server/src/engine/network/boot';
import { isPyIpNetwork, parseNetworkState } from '../../server/src/engine/network/networkState';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { PyDict } from '../../server/src/engine/py/values';
import { loadYaml } from '../../server/src/engine/yaml/load';

const eth = (routes: string) => `network:\n  version: 2\n  ethernets:\n    eth0:\n      routes:\n${routes}`;

function netplan(text: string, np: '0.106' | '1.1' = '1.1'): { valid: boolean | null; errors: string[]; unmodelled: string[] } {
  const r = validateNetworkConfigText(text, 'current', 'api', 'network-config', np);
  return { valid: r.valid, errors: r.errors.map((e) => `${e.path} ${e.message.split('\n')[0]}`), unmodelled: r.unmodelled ?? [] };
}

test('routes are checked as netplan checks them: a route without `to`, families, types and scopes', () => {
  for (const np of ['0.106', '1.1'] as const) {
    // a route with `via` only: netplan reports it at the list
    assert.deepEqual(netplan(eth('        - via: 10.0.0.1\n'), np).errors, ["format-l6.c13 Invalid netplan schema. Error in network definition: global unicast route must include both a 'to' and 'via' IP"]);
    assert.deepEqual(netplan(eth('        - to: 10.0.0.0/8\n          via: 2001:db8::1\n'), np).errors, ['format-l7.c22 Invalid netplan schema. Error in network definition: IP family mismatch in route to 2001:db8::1']);
    assert.deepEqual(netplan(eth('        - to: IPADDR\n          via: 10.0.0.1\n'), np).errors, ["format-l6.c21 Invalid netplan schema. Error in network definition: invalid IP family '-1'"]);
    assert.deepEqual(netplan(eth('        - to: 10.0.0.0/8\n          scope: site\n'), np).errors, ["format-l6.c24 Invalid netplan schema. Error in network definition: invalid route scope 'site'"]);
    assert.deepEqual(netplan(eth('        - via: 10.0.0.1\n          type: local\n'), np).errors, ["format-l6.c13 Invalid netplan schema. Error in network definition: link and host routes must specify a 'to' IP"]);
    // what netplan takes: `to: default`, a `to` without via (a link route), any prefix text, type words in any case
    for (const ok of ['        - to: default\n          via: 10.0.0.1\n', '        - to: 10.0.0.0/8\n', '        - to: 10.0.0.0/33\n          via: 10.0.0.1\n', '        - to: 10.0.0.0/8\n          type: Blackhole\n']) {
      assert.deepEqual(netplan(eth(ok), np), { valid: true, errors: [], unmodelled: [] }, ok);
    }
  }
  const policy = 'network:\n  version: 2\n  ethernets:\n    eth0:\n      routing-policy:\n        - table: 5\n';
  assert.deepEqual(netplan(policy).errors, ["format-l6.c13 Invalid netplan schema. Error in network definition: IP routing policy must include either a 'from' or 'to' IP"]);
});

test('`set-name` without `match`: 0.106 rejects it at the device; 1.x raises a validation error cloud-init does not catch (not checked)', () => {
  const text = 'version: 2\nethernets:\n  eth0:\n    set-name: lan0\n    dhcp4: true\n';
  assert.deepEqual(netplan(text, '0.106').errors, ["format-l5.c13 Invalid netplan schema. Error in network definition: eth0: 'set-name:' requires 'match:' properties"]);
  assert.deepEqual(netplan(text, '1.1'), { valid: null, errors: [], unmodelled: ['network.ethernets.eth0.set-name'] });
  const matched = 'version: 2\nethernets:\n  eth0:\n    match: {macaddress: "52:54:00:12:34:56"}\n    set-name: lan0\n';
  for (const np of ['0.106', '1.1'] as const) assert.deepEqual(netplan(matched, np), { valid: true, errors: [], unmodelled: [] });
  // an unquoted all-digit MAC is a number to YAML: netplan reads the number cloud-init dumps
  assert.match(netplan(matched.replace('"52:54:00:12:34:56"', '52:54:00:12:34:56'), '0.106').errors[0], /Invalid MAC address '41135085296'/);
});

test('a device in two bonds, or in a bond and a bridge, is rejected at the second one, as netplan assigns members', () => {
  const twoBonds = 'version: 2\nethernets: {eth0: {}, eth1: {}}\nbonds:\n  bond0: {interfaces: [eth0, eth1]}\n  bond1: {interfaces: [eth1]}\n';
  for (const np of ['0.106', '1.1'] as const) {
    assert.deepEqual(netplan(twoBonds, np).errors, ["format-l10.c13 Invalid netplan schema. Error in network definition: bond1: interface 'eth1' is already assigned to bond bond0"]);
  }
  const bridgeOverBond = 'version: 2\nethernets: {eth0: {}}\nbonds: {bond0: {interfaces: [eth0]}}\nbridges: {br0: {interfaces: [eth0]}}\n';
  assert.match(netplan(bridgeOverBond).errors[0], /br0: interface 'eth0' is already assigned to bond bond0$/);
  // a bridge over a bond is the usual set-up, not a conflict
  assert.deepEqual(netplan('version: 2\nethernets: {eth0: {}}\nbonds: {bond0: {interfaces: [eth0]}}\nbridges: {br0: {interfaces: [bond0]}}\n').errors, []);
});

test('a Wi-Fi device without access points: 0.106 rejects it at the device, 1.x leaves it to its validation (not checked)', () => {
  const text = 'version: 2\nwifis:\n  wl0:\n    dhcp4: true\n';
  assert.deepEqual(netplan(text, '0.106').errors, ['format-l6.c13 Invalid netplan schema. Error in network definition: wl0: No access points defined']);
  assert.deepEqual(netplan(text, '1.1'), { valid: null, errors: [], unmodelled: ['network.wifis.wl0.access-points'] });
  assert.deepEqual(netplan('version: 2\nwifis:\n  wl0:\n    access-points: {home: {password: "12345678"}}\n', '0.106').errors, []);
});

test('a file with only what the model checks is valid; one netplan checks further is "not checked", a warning', () => {
  const text = 'network:\n  version: 2\n  tunnels:\n    gre1:\n      mode: gre\n      local: 10.0.0.1\n      remote: 10.0.0.2\n';
  assert.deepEqual(netplan(text), { valid: null, errors: [], unmodelled: ['network.tunnels.gre1.mode'] });
  assert.match(netplan(text.replace('10.0.0.2', 'REMOTE')).errors[0], /malformed address 'REMOTE', must be X\.X\.X\.X or X:X:X:X:X:X:X:X$/);
  const found = analyzeDocument(text, '/seed/network-config', { schema: true, version: 'current', netplan: 'api' }).findings.filter((f) => f.code === 'network-not-checked');
  assert.deepEqual(found.map((f) => f.severity), ['warning']);
});

function parse(text: string, version: Parameters<typeof parseNetworkState>[1] = 'current') {
  const loaded = loadYaml(text);
  assert.ok(loaded.ok && loaded.value instanceof PyDict);
  const v = loaded.value;
  return parseNetworkState((v.has('network') ? v.get('network') : v) as PyDict, version);
}

test('the renderer parse on a host without netplan: what cloud-init raises, per version', () => {
  const v2 = (body: string) => `version: 2\n${body}`;
  assert.deepEqual(parse(v2('ethernets:\n  eth0:\n    addresses: [IPADDR]\n')), { error: 'ValueError: Address IPADDR is not a valid ip address' });
  assert.deepEqual(parse(v2('tunnels:\n  gre1: {mode: gre}\n')), { error: "RuntimeError: No handler found for command 'tunnels'" });
  assert.deepEqual(parse(v2('ethernets:\n  renderer: networkd\n  eth0: {dhcp4: true}\n')), { error: "AttributeError: 'str' object has no attribute 'get'" });
  // `to: default` is read from current on (with the gateway's family); before, it is not an address
  const def = v2('ethernets:\n  eth0:\n    addresses: [10.0.0.2/24]\n    routes: [{to: default, via: 10.0.0.1}]\n');
  assert.deepEqual(parse(def, 'current'), { ok: true });
  assert.deepEqual(parse(def, '24.4'), { error: 'ValueError: Address default is not a valid ip address' });
  // a route without `to`: the route as each version builds it
  const noTo = v2('ethernets:\n  eth0:\n    dhcp4: true\n    routes: [{via: 172.16.5.1, metric: 100}]\n');
  assert.deepEqual(parse(noTo, '22.4'), { error: "ValueError: No config network address keys [network,destination] found in {'gateway': '172.16.5.1'}" });
  assert.deepEqual(parse(noTo, 'current'), { error: "ValueError: No config network address keys [network,destination] found in {'gateway': '172.16.5.1', 'metric': 100}" });
  // a mapping where a list belongs is iterated key by key: its keys are no routes
  assert.deepEqual(parse(v2('ethernets:\n  eth0:\n    dhcp4: true\n    routes: {a: 1}\n')), { error: "AttributeError: 'str' object has no attribute 'get'" });
  // a Wi-Fi's nameservers go to an interface the parse never made
  assert.deepEqual(parse(v2('wifis:\n  wlan0:\n    nameservers: {addresses: [1.1.1.1]}\n')), { error: "KeyError: 'wlan0'" });
  // v1: an unknown command, a static subnet without an address
  assert.deepEqual(parse('version: 1\nconfig:\n  - type: tunnel\n    name: t0\n'), { error: "RuntimeError: No handler found for  command 'tunnel'" });
  assert.deepEqual(parse('version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets: [{type: static, gatway: 10.0.0.1}]\n'), { error: "ValueError: No config network address keys [address,ip_address] found in {'type': 'static', 'gatway': '10.0.0.1'}" });
  assert.deepEqual(parse('version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets: [{type: static, address: 10.0.0.2/24}]\n'), { ok: true });
  assert.equal(isPyIpNetwork('10.0.0.0/255.255.255.0'), true);
  assert.equal(isPyIpNetwork('10.0.0.0/255.0.255.0'), false);
  assert.equal(isPyIpNetwork('10.0.0.0/33'), false);
});

test('the boot line says the network is not configured where the renderer raises, only on a host without netplan', () => {
  const text = 'network:\n  version: 2\n  ethernets:\n    eth0:\n      addresses: [IPADDR]\n';
  const none = networkBoot(text, { version: 'current', host: 'none' });
  assert.match(describeBoot(none), /raises ValueError: Address IPADDR is not a valid ip address \(a host without netplan\): cloud-init does not configure the network/);
  // netplan takes version 2 as written
  assert.doesNotMatch(describeBoot(networkBoot(text, { version: 'current', host: 'api' })), /raises/);
  const found = analyzeDocument(text, '/seed/network-config', { schema: true, version: 'current', netplan: 'none' }).findings.filter((f) => f.code === 'network-boot');
  assert.deepEqual(found.map((f) => f.severity), ['warning']);
});
