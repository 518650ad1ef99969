/**
 * What cloud-init's network_state parser (`parse_net_config_data`, renderer None: what the eni, sysconfig
 * and networkd renderers parse on a host without netplan) raises on a network config, per version, so that
 * the boot line can say that the boot fails to configure the network and why, in cloud-init's words
 * (checked against ../shared/oracle/netcheck.py's `boot.parse_error` by test/oracle/network.diff.ts).
 *
 * Followed: v2's device types (ethernets, bonds, bridges, vlans, wifis) and the keys it has no handler for
 * (`No handler found for command 'tunnels'`), the addresses and routes each device turns into (`Address IPADDR
 * is not a valid ip address`, a route without `to`, `to: default` before current), bond and bridge parameters,
 * nameservers (a Wi-Fi device's are set on an interface that does not exist: KeyError); v1's commands, subnets,
 * routes and nameservers. A value of a shape the model does not follow (a list where cloud-init expects a
 * mapping deep inside, an unusual metric...) makes the answer "not modelled", never "no error".
 * The per-version facts are extracted by scripts/netplan/network_state_facts.py (data/network-state.json).
 */
import { pyEq } from '../py/compare';
import { pyRepr, pyStr } from '../py/repr';
import { PyDict, pyClassName, pyTruthy, type PyValue } from '../py/values';
import type { CloudInitVersion } from '../version/versions';
import { isIPv4, isIPv6 } from './netplanValues';

interface Facts {
  bondParams: string[];
  bridgeParams: string[];
  routeKeys: string[];
  defaultRoute: boolean;
  macLower: boolean;
  configId: boolean;
  oldNameservers: boolean;
}

let facts: Record<string, Facts> | undefined;
function factsOf(version: CloudInitVersion): Facts {
  facts ??= require('./data/network-state.json') as Record<string, Facts>;
  return facts[version];
}

/** What the parse does: raises (`error`: `Type: message`, as Python prints it), completes, or a shape not followed. */
export type NetworkStateOutcome = { error: string } | { ok: true } | { unmodelled: string };

class Raised extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}
class NotFollowed extends Error {
  constructor(readonly why: string) {
    super(why);
  }
}

const V2_HANDLERS = new Set(['ethernets', 'bonds', 'bridges', 'vlans', 'wifis']);
const V1_HANDLERS = new Set(['physical', 'loopback', 'infiniband', 'vlan', 'bond', 'bridge', 'nameserver', 'route']);

function attr(v: PyValue, name: string): never {
  throw new Raised('AttributeError', `'${pyClassName(v)}' object has no attribute '${name}'`);
}
function dict(v: PyValue | undefined, method: string): PyDict {
  if (v instanceof PyDict) return v;
  if (v === undefined) throw new NotFollowed('a missing value');
  return attr(v, method);
}
/** `x in v` on a value that is not a mapping (a string tests substrings; other kinds raise). */
function contains(v: PyValue, key: string): boolean {
  if (v instanceof PyDict) return v.has(key);
  if (typeof v === 'string') return v.includes(key);
  if (Array.isArray(v)) return v.some((x) => x === key);
  throw new Raised('TypeError', `argument of type '${pyClassName(v)}' is not iterable`);
}
/** Python's iteration over a value expected to be a list. */
function list(v: PyValue, what: string): PyValue[] {
  if (Array.isArray(v)) return v;
  // a string is iterated character by character, a mapping key by key
  if (typeof v === 'string') return [...v];
  if (v instanceof PyDict) return v.keys();
  if (v === null || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'number') throw new Raised('TypeError', `'${pyClassName(v)}' object is not iterable`);
  throw new NotFollowed(`${what} of another kind than a list`);
}

/** `ipaddress.ip_network(s, strict=False)` accepts it. */
export function isPyIpNetwork(s: string): boolean {
  const parts = s.split('/');
  if (parts.length > 2) return false;
  const [addr, prefix] = parts;
  const digits = prefix !== undefined && /^[0-9]+$/.test(prefix);
  if (isIPv4(addr)) {
    if (prefix === undefined) return true;
    if (digits) return Number(prefix) <= 32;
    return isIPv4(prefix) && (contiguous(ipv4Int(prefix)) || contiguous(~ipv4Int(prefix) >>> 0));
  }
  const scoped = addr.replace(/%[^%/]+$/, '');
  if (!isIPv6(scoped)) return false;
  return prefix === undefined || (digits && Number(prefix) <= 128);
}
function ipv4Int(s: string): number {
  return s.split('.').reduce((n, p) => ((n << 8) | Number(p)) >>> 0, 0);
}
/** Leading ones then zeros (a netmask). */
function contiguous(n: number): boolean {
  const inverted = ~n >>> 0;
  return (inverted & (inverted + 1)) === 0;
}

/** Python's `int(v)` of a metric or prefix: whether it takes it (null: a kind not followed); a list, mapping or None raises TypeError. */
function pyIntOk(v: PyValue): boolean | null {
  if (typeof v === 'bigint' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string') return /^\s*[+-]?\d+(_\d+)*\s*$/.test(v);
  if (v === null || Array.isArray(v) || v instanceof PyDict) throw new Raised('TypeError', `int() argument must be a string, a bytes-like object or a real number, not '${pyClassName(v)}'`);
  return null;
}

class Interpreter {
  /** The interfaces network_state holds, by key. */
  private readonly interfaces = new Set<string>();
  private readonly dnsFor: string[] = [];
  private useIpv6 = false;
  constructor(private readonly f: Facts) {}

  // ---- shared: addresses, routes, subnets ----

  /** `_normalize_net_keys`: the first address key with a value must hold an IP network. */
  private netKeys(net: PyDict, keys: string[]): void {
    const key = keys.find((k) => pyTruthy(net.get(k) ?? null));
    if (key === undefined) throw new Raised('ValueError', `No config network address keys [${keys.join(',')}] found in ${pyRepr(net)}`);
    const raw = net.get(key) as PyValue;
    if (typeof raw !== 'string' && typeof raw !== 'bigint' && !(raw instanceof PyDict) && !Array.isArray(raw)) throw new NotFollowed('an address of an unusual kind');
    let addr = pyStr(raw);
    if (addr === 'default' && this.f.defaultRoute) {
      const gw = pyStr(net.get('gateway') ?? null);
      if (isIPv4(gw)) addr = '0.0.0.0/0';
      else if (isIPv6(gw)) addr = '::/0';
      else throw new Raised('ValueError', `Invalid Gateway IP: '${gw}'`);
    }
    if (!isPyIpNetwork(addr)) throw new Raised('ValueError', `Address ${addr} is not a valid ip address`);
    if (addr.includes('/')) return;
    const prefix = net.get('prefix');
    if (prefix !== undefined && pyTruthy(prefix) && pyIntOk(prefix) !== true) throw new NotFollowed('a prefix that is not a number');
    const netmask = net.get('netmask');
    if (prefix === undefined && netmask !== undefined && pyTruthy(netmask) && !(typeof netmask === 'string' && isIPv4(netmask) && contiguous(ipv4Int(netmask)))) throw new NotFollowed('a netmask of an unusual form');
  }

  /** `_normalize_route`: values None and '' dropped, `destination` read as `network`, the metric an int. */
  private route(route: PyDict): void {
    const normal = new PyDict();
    for (const { key, value } of route.entryList()) if (value !== null && value !== '') normal.set(key, value);
    if (normal.has('destination')) {
      const d = normal.get('destination') as PyValue;
      normal.delete('destination');
      normal.set('network', d);
    }
    this.netKeys(normal, ['network', 'destination']);
    const metric = normal.get('metric');
    if (metric !== undefined && pyTruthy(metric)) {
      const ok = pyIntOk(metric);
      if (ok === null) throw new NotFollowed('a metric of an unusual kind');
      if (!ok) throw new Raised('TypeError', `Route config metric ${pyStr(metric)} is not an integer`);
    }
  }

  private subnet(s: PyValue): void {
    if (!(s instanceof PyDict)) throw new NotFollowed('a subnet that is not a mapping');
    const type = s.get('type');
    if (type === 'static' || type === 'static6') {
      const normal = new PyDict();
      for (const { key, value } of s.entryList()) if (pyTruthy(value)) normal.set(key, value);
      this.netKeys(normal, ['address', 'ip_address']);
    }
    for (const r of list(s.get('routes') ?? [], 'routes')) {
      if (!(r instanceof PyDict)) throw new NotFollowed('a route that is not a mapping');
      this.route(r);
    }
    for (const k of ['dns_search', 'dns_nameservers']) {
      const v = s.get(k);
      if (v !== undefined && pyTruthy(v) && !Array.isArray(v) && typeof v !== 'string') attr(v, 'split');
    }
  }

  /** `handle_physical`: the subnets normalized, then IPv6 noted, the MAC lower-cased (current). */
  private physical(cmd: PyDict): void {
    // the interface is looked up by its name first: a name that is a list or mapping cannot be
    const name = cmd.get('name');
    if (Array.isArray(name) || name instanceof PyDict) throw new Raised('TypeError', `unhashable type: '${pyClassName(name)}'`);
    const params = cmd.get('params');
    if (params !== undefined) dict(params, 'items');
    const subnets = cmd.get('subnets');
    const list_ = subnets === undefined || !pyTruthy(subnets) ? [] : list(subnets, 'subnets');
    for (const s of list_) this.subnet(s);
    if (!this.useIpv6) {
      for (const s of list_) {
        // (the normalized subnet: an empty type was dropped)
        const t = (s as PyDict).get('type') ?? null;
        if (typeof t !== 'string' || t === '') attr(pyTruthy(t) ? t : null, 'endswith');
        const a = (s as PyDict).get('address');
        if (t.endsWith('6') || (typeof a === 'string' && isIPv6(a.replace(/%[^%]*$/, '')))) {
          this.useIpv6 = true;
          break;
        }
      }
    }
    const mac = cmd.get('mac_address');
    if (this.f.macLower && mac !== undefined && pyTruthy(mac) && typeof mac !== 'string') attr(mac, 'lower');
    const key = this.f.configId && cmd.has('config_id') ? cmd.get('config_id') : cmd.get('name');
    this.interfaces.add(keyText(key ?? null));
  }

  // ---- v2 ----

  v2(config: PyDict): void {
    for (const { key, value } of config.entryList()) {
      if (key === 'version' || key === 'renderer') continue;
      if (typeof key !== 'string') throw new NotFollowed('a key that is not a string');
      if (V1_HANDLERS.has(key)) throw new NotFollowed(`a v1 command name (${key}) in a v2 config`);
      if (!V2_HANDLERS.has(key)) throw new Raised('RuntimeError', `No handler found for command '${key}'`);
      const devices = dict(value, 'items');
      if (key === 'ethernets') this.ethernets(devices);
      else if (key === 'bonds' || key === 'bridges') this.bondBridge(devices, key === 'bonds' ? 'bond' : 'bridge');
      else if (key === 'vlans') this.vlans(devices);
      this.v2Common(devices);
    }
  }

  /** The v1 subnets of a v2 device (`_v2_to_v1_ipcfg`): DHCP, addresses, then its routes normalized. */
  private ipcfg(cfg: PyDict): PyDict[] {
    const subnets: PyDict[] = [];
    for (const [k, o] of [['dhcp4', 'dhcp4-overrides'], ['dhcp6', 'dhcp6-overrides']] as const) {
      if (!pyTruthy(cfg.get(k) ?? null)) continue;
      const s = PyDict.from([['type', k]]);
      const overrides = cfg.get(o);
      if (overrides !== undefined) {
        if (!(overrides instanceof PyDict)) {
          if (typeof overrides === 'string') throw new NotFollowed('DHCP overrides that are a string');
          contains(overrides, 'route-metric');
        }
      }
      if (k === 'dhcp6') this.useIpv6 = true;
      subnets.push(s);
    }
    const nameservers = cfg.get('nameservers');
    let gateway4: PyValue | undefined;
    let gateway6: PyValue | undefined;
    for (const address of list(cfg.get('addresses') ?? [], 'addresses')) {
      if (typeof address !== 'string' && !(address instanceof PyDict)) contains(address, ':');
      const s = PyDict.from([['type', 'static'], ['address', address]]);
      // the first address of each family takes the gateway of its family
      if (contains(address, ':')) {
        if (cfg.has('gateway6') && gateway6 === undefined) s.set('gateway', (gateway6 = cfg.get('gateway6') as PyValue));
      } else if (cfg.has('gateway4') && gateway4 === undefined) s.set('gateway', (gateway4 = cfg.get('gateway4') as PyValue));
      if (nameservers !== undefined) {
        const ns = dict(nameservers, 'get');
        const a = ns.get('addresses');
        if (a !== undefined && pyTruthy(a)) s.set('dns_nameservers', a);
        const search = ns.get('search');
        if (search !== undefined && pyTruthy(search)) s.set('dns_search', search);
      }
      subnets.push(s);
    }
    for (const r of list(cfg.get('routes') ?? [], 'routes')) {
      if (!(r instanceof PyDict)) {
        if (r === null || typeof r === 'string' || typeof r === 'bigint' || typeof r === 'boolean' || typeof r === 'number' || Array.isArray(r)) attr(r, 'get');
        throw new NotFollowed('a route of an unusual kind');
      }
      const v1 = new PyDict();
      const from: Record<string, string> = { destination: 'to', gateway: 'via', metric: 'metric', mtu: 'mtu', table: 'table' };
      for (const k of this.f.routeKeys) v1.set(k, r.get(from[k]) ?? null);
      this.route(v1);
    }
    return subnets;
  }

  private ethernets(devices: PyDict): void {
    for (const { key: eth, value } of devices.entryList()) {
      const cfg = dict(value, 'get');
      const match = cfg.has('match') ? dict(cfg.get('match'), 'get') : new PyDict();
      const cmd = PyDict.from([['type', 'physical'], ['mac_address', match.get('macaddress') ?? null]]);
      if (this.f.configId) cmd.set('config_id', eth);
      const setName = cfg.get('set-name');
      cmd.set('name', setName !== undefined && pyTruthy(setName) ? setName : eth);
      const subnets = this.ipcfg(cfg);
      if (subnets.length) cmd.set('subnets', subnets);
      this.physical(cmd);
    }
  }

  private vlans(devices: PyDict): void {
    for (const { key: name, value } of devices.entryList()) {
      const cfg = dict(value, 'get');
      const cmd = PyDict.from([['type', 'vlan'], ['name', name], ['mac_address', cfg.get('macaddress') ?? null]]);
      const subnets = this.ipcfg(cfg);
      if (subnets.length) cmd.set('subnets', subnets);
      this.physical(cmd);
    }
  }

  private bondBridge(devices: PyDict, type: 'bond' | 'bridge'): void {
    const known = new Set(type === 'bond' ? this.f.bondParams : this.f.bridgeParams);
    for (const { key: name, value } of devices.entryList()) {
      const cfg = dict(value, 'items');
      const params = cfg.has('parameters') ? dict(cfg.get('parameters'), 'pop') : new PyDict();
      const keys = params.keys().map((k) => (k === 'gratuitious-arp' && pyTruthy(params.get(k) ?? null) ? 'gratuitous-arp' : k));
      for (const k of keys) {
        if (typeof k !== 'string') throw new NotFollowed('a parameter name that is not a string');
        if (!known.has(k)) throw new Raised('KeyError', pyRepr(k));
      }
      const members = cfg.get('interfaces') ?? null;
      const subnets = this.ipcfg(cfg);
      const cmd = PyDict.from([['name', name]]);
      if (cfg.has('macaddress')) cmd.set('mac_address', cfg.get('macaddress') as PyValue);
      if (subnets.length) cmd.set('subnets', subnets);
      if (type === 'bridge') this.members(members);
      this.physical(cmd);
      if (type === 'bond') this.members(members);
      if (type === 'bridge') {
        const stp = params.get('stp');
        if (stp !== undefined && stp !== null && typeof stp !== 'boolean' && !['on', '1', 'off', '0'].includes(stp as string) && stp !== 1n && stp !== 0n) {
          throw new Raised('ValueError', `Cannot convert bridge_stp value (${pyStr(stp)}) to boolean`);
        }
      }
    }
  }

  /** A bond's or bridge's members: each one not yet known gets a placeholder interface. */
  private members(v: PyValue): void {
    for (const m of list(v, 'members')) {
      if (typeof m !== 'string') throw new NotFollowed('a member name that is not a string');
      this.interfaces.add(m);
    }
  }

  /** `_v2_common`: each device's nameservers set on its interface. */
  private v2Common(devices: PyDict): void {
    for (const { key, value: devCfg } of devices.entryList()) {
      let iface = keyText(key);
      if (this.f.oldNameservers && contains(devCfg, 'set-name')) {
        const setName = dict(devCfg, 'get').get('set-name');
        if (setName !== undefined && pyTruthy(setName)) iface = keyText(setName);
      }
      if (!contains(devCfg, 'nameservers')) continue;
      const ns = dict(dict(devCfg, 'get').get('nameservers') ?? null, 'get');
      const search = ns.get('search') ?? (this.f.oldNameservers ? [] : null);
      const dns = ns.get('addresses') ?? (this.f.oldNameservers ? [] : null);
      let hasAddress: boolean;
      if (this.f.oldNameservers) {
        for (const v of [search, dns]) if (!Array.isArray(v) && typeof v !== 'string' && !(v instanceof PyDict)) throw new Raised('TypeError', `object of type '${pyClassName(v)}' has no len()`);
        hasAddress = (dns as PyValue[] | string).length > 0;
        // handle_nameserver needs an address: without one the whole device type is skipped (InvalidCommand)
        if (!hasAddress) return;
        const match = dict(devCfg, 'get').get('match');
        if (match !== undefined && !(match instanceof PyDict)) attr(match, 'get');
      } else hasAddress = pyTruthy(dns);
      if (!hasAddress) return;
      if (!this.interfaces.has(iface)) throw new Raised('KeyError', pyRepr(iface));
    }
  }

  // ---- v1 ----

  v1(config: PyValue): void {
    // a mapping or a string is iterated too: its keys or characters, which `command["type"]` cannot index
    const commands = config instanceof PyDict ? config.keys() : typeof config === 'string' ? [...config] : config;
    if (!Array.isArray(commands)) throw new NotFollowed('a v1 config that is not a list');
    for (const command of commands) {
      if (typeof command === 'string') throw new Raised('TypeError', "string indices must be integers, not 'str'");
      if (!(command instanceof PyDict)) throw new NotFollowed('a v1 command that is not a mapping');
      if (!command.has('type')) throw new Raised('KeyError', "'type'");
      const type = command.get('type') as PyValue;
      if (Array.isArray(type) || type instanceof PyDict) throw new Raised('TypeError', `unhashable type: '${pyClassName(type)}'`);
      if (typeof type !== 'string') {
        if (type === null || typeof type === 'bigint' || typeof type === 'boolean') throw new Raised('RuntimeError', `No handler found for  command '${pyStr(type)}'`);
        throw new NotFollowed('a command type of an unusual kind');
      }
      if (V2_HANDLERS.has(type)) throw new NotFollowed(`a v2 command name (${type}) in a v1 config`);
      if (!V1_HANDLERS.has(type)) throw new Raised('RuntimeError', `No handler found for  command '${type}'`);
      const needs: Record<string, string[]> = { physical: ['name'], loopback: ['name'], infiniband: ['name'], vlan: ['name', 'vlan_id', 'vlan_link'], bond: ['name', 'bond_interfaces', 'params'], bridge: ['name', 'bridge_interfaces'], nameserver: ['address'], route: ['destination'] };
      // a command without its keys is skipped (InvalidCommand, skip_broken)
      if (needs[type].some((k) => !command.has(k))) continue;
      if (type === 'nameserver') {
        const iface = command.get('interface');
        if (iface !== undefined) this.dnsFor.push(keyText(iface));
        continue;
      }
      if (type === 'route') {
        this.route(command);
        continue;
      }
      if (type === 'bridge') this.members(command.get('bridge_interfaces') as PyValue);
      this.physical(command);
      if (type === 'bond') {
        dict(command.get('params'), 'items');
        this.members(command.get('bond_interfaces') as PyValue);
      }
      if (type === 'bridge') {
        const params = command.get('params');
        const stp = params instanceof PyDict ? params.get('bridge_stp') : undefined;
        if (params !== undefined && !(params instanceof PyDict)) attr(params, 'items');
        if (stp !== undefined && stp !== null && typeof stp !== 'boolean' && !['on', '1', 'off', '0'].includes(stp as string) && stp !== 1n && stp !== 0n) {
          throw new Raised('ValueError', `Cannot convert bridge_stp value (${pyStr(stp)}) to boolean`);
        }
      }
    }
    for (const iface of this.dnsFor) {
      if (!this.interfaces.has(iface)) throw new Raised('ValueError', `Nameserver specified for interface ${iface}, but interface ${iface} does not exist!`);
    }
  }
}

function keyText(v: PyValue): string {
  if (typeof v !== 'string') throw new NotFollowed('an interface name that is not a string');
  return v;
}

/**
 * What `parse_net_config_data` does with the config cloud-init applies (`ncfg`, under `network:` or not),
 * of version 1 or 2, on version `version` without netplan.
 */
export function parseNetworkState(ncfg: PyDict, version: CloudInitVersion): NetworkStateOutcome {
  const it = new Interpreter(factsOf(version));
  try {
    if (pyEq(ncfg.get('version') ?? null, 2n)) it.v2(ncfg);
    else it.v1(ncfg.get('config') as PyValue);
    return { ok: true };
  } catch (err) {
    if (err instanceof Raised) return { error: `${err.type}: ${err.message}` };
    if (err instanceof NotFollowed) return { unmodelled: err.why };
    throw err;
  }
}
