/**
 * Seeded network-config documents for network.diff.ts: v1 and v2 as users write them (physical NICs with
 * DHCP or static subnets, bonds, bridges, VLANs, nameservers, routes), then broken the way they break:
 * misspelt keys (`adresses`, `gatway4`, `nameserver`), unknown keys, values of the wrong kind (a string
 * for a list, a list for a mapping, `mtu: big`, `dhcp4: maybe`), the `network:` wrapper or not, versions
 * cloud-init has no schema for, `config: disabled`, and YAML that is not a mapping.
 * Routes, routing-policy rules and addresses are sometimes written as real files get them wrong
 * (placeholders left unrendered, a route without `to`, families mixed): netplan checks them and so does the
 * model; at boot the renderer's parse raises on some of them (engine/network/networkState.ts).
 */
import type { Rng } from './generate';

type Doc = { [key: string]: unknown };

const MACS = ['52:54:00:12:34:56', 'aa:bb:cc:dd:ee:ff'];
const V4 = ['10.0.0.5/24', '192.168.1.10/24', '172.16.0.2/16'];
const V6 = ['2001:db8::10/64', 'fd00::5/64'];
const DNS = ['1.1.1.1', '8.8.8.8', '2001:4860:4860::8888'];
const SEARCH = ['example.com', 'lan'];
const BOOLS: unknown[] = [true, false, 'yes', 'no', 'true', 'on', 'off', 'maybe', 'Yes', 1, 0, null];

function v1Subnet(r: Rng): Doc {
  const type = r.pick(['dhcp', 'dhcp4', 'dhcp6', 'static', 'static6', 'ipv6_slaac', 'manual', 'bogus']);
  const s: Doc = { type };
  if (type.startsWith('static')) {
    s.address = type === 'static6' ? r.pick(V6) : r.pick(V4);
    if (r.chance(0.5)) s.gateway = type === 'static6' ? '2001:db8::1' : '10.0.0.1';
    if (r.chance(0.3)) s.dns_nameservers = r.some(DNS, 2);
    if (r.chance(0.2)) s.routes = [{ gateway: '10.0.0.1', network: '10.1.0.0', netmask: '255.255.0.0' }];
    if (r.chance(0.2)) s.netmask = '255.255.255.0';
  }
  if (r.chance(0.1)) s.control = r.pick(['auto', 'hotplug', 'manual', 'never']);
  return s;
}

function v1Item(r: Rng, i: number): Doc {
  switch (r.pick(['physical', 'physical', 'physical', 'bond', 'bridge', 'vlan', 'nameserver', 'route'])) {
    case 'physical': {
      const d: Doc = { type: 'physical', name: `eth${i}` };
      if (r.chance(0.6)) d.mac_address = r.pick(MACS);
      if (r.chance(0.3)) d.mtu = r.pick([1500, 9000, '1500']);
      if (r.chance(0.8)) d.subnets = Array.from({ length: 1 + r.int(2) }, () => v1Subnet(r));
      return d;
    }
    case 'bond':
      return { type: 'bond', name: `bond${i}`, bond_interfaces: ['eth0', 'eth1'], params: { 'bond-mode': r.pick(['active-backup', '802.3ad', 'balance-rr']), 'bond-miimon': 100 }, subnets: [v1Subnet(r)] };
    case 'bridge':
      return { type: 'bridge', name: `br${i}`, bridge_interfaces: ['eth0'], params: { bridge_stp: 'off' } };
    case 'vlan':
      return { type: 'vlan', name: `eth0.${10 + i}`, vlan_link: 'eth0', vlan_id: 10 + i, subnets: [v1Subnet(r)] };
    case 'nameserver':
      return { type: 'nameserver', address: r.some(DNS, 2), search: r.some(SEARCH, 2) };
    default:
      return r.chance(0.3) ? { type: 'route', network: '10.2.0.0/16', gateway: '10.0.0.1' } : { type: 'route', destination: '10.2.0.0/16', gateway: '10.0.0.1', metric: 3 };
  }
}

function v2Device(r: Rng, kind: string): Doc {
  const d: Doc = {};
  if (r.chance(0.6)) d.dhcp4 = r.chance(0.85) ? r.pick([true, false, 'yes', 'no']) : r.pick(BOOLS);
  if (r.chance(0.2)) d.dhcp6 = r.pick([true, false]);
  if (r.chance(0.5)) d.addresses = r.chance(0.9) ? r.some([...V4, ...V6], 2) : [r.pick(['IPADDR', '${ip}/24', '10.0.0.5/33', '10.0.0.5'])];
  if (r.chance(0.3)) d.gateway4 = '10.0.0.1';
  if (r.chance(0.3)) d.nameservers = { addresses: r.some(DNS, 2), ...(r.chance(0.5) ? { search: r.some(SEARCH, 2) } : {}) };
  if (r.chance(0.3)) d.routes = [{ to: r.pick(['default', '10.5.0.0/16']), via: '10.0.0.1', ...(r.chance(0.4) ? { metric: 100 } : {}) }];
  if (r.chance(0.15)) {
    d.routes = [
      r.pick<Doc>([
        { via: '10.0.0.1' },
        { to: '10.6.0.0/16' },
        { to: '${net}/24', via: '10.0.0.1' },
        { to: '10.6.0.0/16', via: '2001:db8::1' },
        { to: '10.6.0.0/16', via: '10.0.0.1', scope: r.pick(['link', 'host', 'site']) },
        { to: '10.6.0.0/16', type: r.pick(['blackhole', 'unreachable', 'local', 'Throw', 'bogus']) },
        { via: '10.0.0.1', type: 'blackhole' },
        { to: 'default', via: 'fe80::1', 'on-link': true },
      ]),
    ];
  }
  if (r.chance(0.08)) d['routing-policy'] = [r.pick<Doc>([{ from: '10.0.0.0/8', table: 100 }, { table: 5 }, { to: '2001:db8::/64', from: '10.0.0.0/8' }, { to: 'default', table: 7 }])];
  if (r.chance(0.2)) d.mtu = r.pick([1500, 9000]);
  if (r.chance(0.2)) d.optional = r.pick([true, false]);
  if (kind === 'ethernets' && r.chance(0.3)) {
    d.match = { macaddress: r.pick(MACS) };
    if (r.chance(0.5)) d['set-name'] = 'lan0';
  }
  if (r.chance(0.15)) d['dhcp4-overrides'] = { 'use-dns': r.pick([true, false]), 'route-metric': 200 };
  if (kind === 'bonds') {
    d.interfaces = r.chance(0.85) ? ['eth0', 'eth1'] : ['eth0', 'eth7'];
    if (r.chance(0.6)) d.parameters = { mode: r.pick(['active-backup', '802.3ad', 'balance-rr']), 'mii-monitor-interval': r.pick([100, '100']) };
  }
  if (kind === 'bridges') {
    d.interfaces = ['eth0'];
    if (r.chance(0.5)) d.parameters = { stp: r.pick([true, false]), 'forward-delay': r.pick([4, 15]) };
  }
  if (kind === 'vlans') {
    d.id = 10 + r.int(100);
    d.link = r.chance(0.85) ? 'eth0' : 'eth9';
  }
  return d;
}

const TYPOS: Record<string, string[]> = {
  addresses: ['adresses', 'address', 'addreses'],
  gateway4: ['gatway4', 'gateway'],
  nameservers: ['nameserver', 'name-servers'],
  dhcp4: ['dhcp-4', 'dchp4'],
  mtu: ['MTU'],
  match: ['matches'],
  interfaces: ['interface'],
  subnets: ['subnet'],
  address: ['adress', 'addr'],
  gateway: ['gatway'],
  mac_address: ['mac_adress', 'macaddress'],
  dns_nameservers: ['dns-nameservers'],
  ethernets: ['ethernet'],
  parameters: ['params'],
  name: ['nmae'],
};

/** The mappings of a document, each with its path, for mutation. */
function mappings(v: unknown, out: Doc[] = []): Doc[] {
  if (Array.isArray(v)) for (const x of v) mappings(x, out);
  else if (v && typeof v === 'object') {
    out.push(v as Doc);
    for (const x of Object.values(v as Doc)) mappings(x, out);
  }
  return out;
}

/** One user mistake somewhere in the document. */
function mutate(r: Rng, doc: Doc): void {
  const maps = mappings(doc);
  const target = r.pick(maps);
  const keys = Object.keys(target);
  const roll = r.next();
  if (roll < 0.4 && keys.length) {
    const withTypos = keys.filter((k) => TYPOS[k]);
    const k = withTypos.length ? r.pick(withTypos) : r.pick(keys);
    const to = TYPOS[k] ? r.pick(TYPOS[k]) : `${k}x`;
    target[to] = target[k];
    delete target[k];
  } else if (roll < 0.55) target[r.pick(['foo', 'comment', 'description', 'wakeonlan', 'critical'])] = r.pick(['x', true, 5]);
  else if (keys.length) {
    const k = r.pick(keys);
    const v = target[k];
    target[k] = Array.isArray(v) ? r.pick(['10.0.0.1/24', { a: 1 }]) : v && typeof v === 'object' ? r.pick([['x'], 'x']) : r.pick([['x'], { a: 1 }, 'big', -1]);
  }
}

/** One network-config document as YAML text (flow-style JSON is YAML; some documents block style). */
export function networkDocument(r: Rng, block: (v: unknown) => string): string {
  const roll = r.next();
  if (roll < 0.03) return r.pick(['', '\n', '- a\n', 'version: 1\nconfig: [\n', '# only a comment\n']);
  let doc: Doc;
  if (roll < 0.1) doc = r.pick<Doc>([{ config: 'disabled' }, { version: 3, config: [] }, { version: 1 }, { version: 2 }, { foo: 'bar' }, { version: '2', ethernets: {} }, { version: 1, config: 'disabled' }]);
  else if (roll < 0.45) {
    doc = { version: 1, config: Array.from({ length: 1 + r.int(3) }, (_, i) => v1Item(r, i)) };
  } else {
    doc = { version: 2 };
    if (r.chance(0.1)) doc.renderer = r.pick(['networkd', 'NetworkManager', 'systemd']);
    for (const kind of r.some(['ethernets', 'ethernets', 'ethernets', 'bonds', 'bridges', 'vlans', 'wifis'], 3)) {
      const devices = (doc[kind] ??= {}) as Doc;
      devices[`${kind.slice(0, 3)}${Object.keys(devices).length}`] = v2Device(r, kind);
    }
    // the devices bonds, bridges and VLANs name exist, but for a few (eth7, eth9)
    if (doc.bonds || doc.bridges || doc.vlans) doc.ethernets = { eth0: {}, eth1: {}, ...((doc.ethernets) ?? {}) };
  }
  const mistakes = r.chance(0.6) ? 1 + r.int(2) : 0;
  for (let i = 0; i < mistakes; i++) mutate(r, doc);
  const whole = r.chance(0.3) ? { network: doc, ...(r.chance(0.1) ? { extra: 1 } : {}) } : doc;
  return r.chance(0.5) ? block(whole) : JSON.stringify(whole) + '\n';
}

/** A real file's loaded value (as JSON) broken the same ways, once or twice: the corpus's mutations. */
export function mutatedDocument(r: Rng, value: unknown, block: (v: unknown) => string): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const doc = JSON.parse(JSON.stringify(value)) as Doc;
  // inside the `network:` wrapper (a `network:` that is not a mapping makes cloud-init itself raise)
  const inner = doc.network && typeof doc.network === 'object' && !Array.isArray(doc.network) ? (doc.network as Doc) : doc;
  const mistakes = 1 + r.int(2);
  for (let i = 0; i < mistakes; i++) mutate(r, inner);
  return r.chance(0.7) ? block(doc) : JSON.stringify(doc) + '\n';
}
