/**
 * What netplan's parser says of a version 2 network-config on a host where cloud-init hands it to
 * netplan's Python API (`netplan_validate_network_schema`, cloud-init 24.4+ on Ubuntu 23.10 and later).
 *
 * cloud-init wraps the config in `network:` when it has no wrapper, writes it with its own YAML dump
 * (keys sorted, indent 4, `---` first) and lets netplan parse that file; netplan stops at its first error,
 * which cloud-init reports at `format-l<line>.c<column>` of the dumped text, as `Invalid netplan schema.`
 * and netplan's message, the dumped line and a caret.
 *
 * The model is measured, not written from netplan's sources: `scripts/netplan/probe.py` asked netplan key
 * by key which keys each mapping knows and how each key takes a scalar, a list or a mapping, for each
 * netplan an image may ship (data/netplan-0.106.json: libnetplan 0.106; data/netplan-1.1.json: netplan
 * 1.1.2, which knows more keys). Modelled: unknown keys, wrong kinds of value (`expected scalar`,
 * `expected sequence`, `expected mapping`), booleans and unsigned ints, the values of enumerations
 * (`renderer`, `version`, modes... where netplan takes a few words), invalid interface names, the keys a
 * device-type section takes beside its devices (`renderer`), lists of pairs (openvswitch `ports`), and
 * member and link names no device has, routes and routing-policy rules (their addresses and families, types,
 * scopes, and the addresses each kind of route needs: RouteCheck), tunnel endpoints' addresses. Not modelled:
 * netplan's checks of whole devices (a tunnel's mode and keys, a VLAN without `link`, a NIC in two bonds...):
 * those values are listed in `unmodelled` and the verdict is then "not checked" (valid null), which
 * `--check` does not pass (lint/networkLint.ts: a warning).
 */
import { PyDict, type PyValue } from '../py/values';
import { dumpPyYamlWithLines, pyKeyDisplay, type DumpWithLines } from '../yaml/dump';
import { floatText, sortedStrEntries } from '../yaml/representer';
import type { SchemaProblem } from '../schema/validate';
import { DEFAULT_NETPLAN_VERSION, type NetplanVersion } from '../version/target';
import { cidrProblem, isIPv4, isIPv6, isMac } from './netplanValues';

/** What a key takes (data/netplan-*.json): see scripts/netplan/probe.py. */
interface KeyInfo {
  /** A value class (`text`, `bool`, `uint`, `checked`) for a scalar key; else netplan's message for a scalar. */
  scalar: string;
  /** For a scalar key: the message for a mapping (null: accepted). For a list key: likewise. For a mapping key: the context. */
  mapping?: string | null;
  sequence?: string | null;
  /** A mapping of ids: the context of each entry, or what each entry takes. */
  ids?: string | KeyInfo;
  /** A list: the context of each item, or what each item takes. */
  items?: string | KeyInfo;
  /** A checked scalar: netplan's message for the value `zzz`. */
  checked?: string;
  /** A checked scalar that takes a few words (an enumeration): those words, and the message for another (`{}`: the value). */
  values?: string[];
  reject?: string;
  /** The enumeration's words are read without regard to case (`mac`, `MAC`). */
  caseless?: boolean;
  /** The value is read by its leading number (`2`, `2.0`, `02`), which must be one of these. */
  leading?: number[];
  /** A checked scalar that is an address (netplanValues.ts), with netplan's message for each way it fails (`{}`: the value). */
  value?: 'cidr' | 'ip' | 'ip4' | 'ip6' | 'mac';
  messages?: { missing?: string; malformed: string; prefix?: string };
  /** A MAC key: the words it takes besides addresses (1.x: `permanent`, `random`...). */
  words?: string[];
  /** A list of fixed-length lists (openvswitch `ports`): the length each item takes. */
  tuple?: number;
  /** A device-type section: the keys it takes beside its device ids (`renderer`). */
  special?: Record<string, KeyInfo>;
}

interface NetplanData {
  netplan: NetplanVersion;
  prefix: string;
  bool: string[];
  uint: string[];
  /** The characters that make a device id or a `match: name` an invalid name, and netplan's message (`{}`: the name). */
  names: { id: string; match: string; message: string };
  contexts: Record<string, { keys: Record<string, KeyInfo> }>;
  /** What netplan checks of a route and a routing-policy rule as a whole (measured: probe.py's `routes`). */
  routes: RouteFacts;
  /** Whole-device checks the model reproduces (probe.py's `devices`): a Wi-Fi device without access points (`{}` the device; `=`: 1.x's validation error). */
  devices: { wifiNoAccessPoints: string };
  /** A device in two bonds, two bridges, or a bond and a bridge (`{0}` the second, `{1}` the member, `{2}` the first; probe.py's `members`). */
  members: { bond: string; bridge: string; bridgeOverBond: string };
}

/** netplan's checks of the addresses of a route or rule, and of the keys a route needs (probe.py `routes`). */
interface RouteFacts {
  /** An address whose part before its last `/` is neither IPv4 nor IPv6. */
  invalid: string;
  /** An address of the other family than an earlier one of the same route (`{}`: the value). */
  mismatch: string;
  /** The word a route's `to` takes besides an address (it gives no family). */
  defaultTo: string;
  /** The route types netplan takes (without regard to case), and its message for another (`{}`). */
  types: string[];
  typeReject: string;
  scopes: string[];
  scopeReject: string;
  /** A route without `to` and without a scope: the message per type, [without via, with via] (null: accepted). */
  missingTo: Record<string, [string | null, string | null]>;
  /** With an explicit scope: the messages of the three cases netplan tells apart. */
  linkHostNeedsTo: string;
  globalUnicastNeedsBoth: string;
  nonUnicastNeedsTo: string;
  /** A routing-policy rule without `from` or `to`, and one whose addresses are of two families. */
  policyNeedsAddress: string;
  policyMismatch: string;
}

type Data = typeof import('./data/netplan-0.106.json') | typeof import('./data/netplan-1.1.json');
const loaded = new Map<NetplanVersion, NetplanData>();
function netplanData(version: NetplanVersion): NetplanData {
  let d = loaded.get(version);
  if (!d) loaded.set(version, (d = (version === '0.106' ? require('./data/netplan-0.106.json') : require('./data/netplan-1.1.json')) as Data as unknown as NetplanData));
  return d;
}

const SCALAR_CLASSES = new Set(['text', 'bool', 'uint', 'checked']);
const EXPECTED_MAPPING = 'expected mapping (check indentation)';

export interface NetplanVerdict {
  /** false: netplan rejects the file; true: it accepts it; null: not checked (no error found, but `unmodelled` lists values netplan checks and the model does not). */
  valid: boolean | null;
  errors: SchemaProblem[];
  /** Values the model let through without netplan's own check of them (paths): the file is then "not checked". */
  unmodelled: string[];
}

/** Most kinds of unmodelled values `unmodelledWords` names; the rest are counted. */
const MAX_UNMODELLED_SHOWN = 10;

/**
 * The unmodelled paths in a few words: paths that differ only in their list indexes are one kind
 * (`network.ethernets.eth0.routes.*.to (500,000 values)`), at most MAX_UNMODELLED_SHOWN kinds named, so
 * a config of a million routes gives a line, not a megabyte.
 */
export function unmodelledWords(paths: readonly string[]): string {
  const kinds = new Map<string, { first: string; count: number }>();
  for (const path of paths) {
    const kind = path.replace(/\.\d+(?=\.|$)/g, '.*');
    const seen = kinds.get(kind);
    if (seen) seen.count++;
    else kinds.set(kind, { first: path, count: 1 });
  }
  const words = [...kinds].slice(0, MAX_UNMODELLED_SHOWN).map(([kind, { first, count }]) => (count === 1 ? first : `${kind} (${count.toLocaleString('en-US')} values)`));
  const more = kinds.size - MAX_UNMODELLED_SHOWN;
  return more > 0 ? `${words.join(', ')} and ${more.toLocaleString('en-US')} more kinds of values` : words.join(', ');
}

/** Where the first error is: the path in the user's value, on the key or on the value, and netplan's message. */
interface Found {
  segments: PyValue[];
  on: 'key' | 'value';
  message: string;
  /** netplan points at the list the item is in (its first item's `-`), not at the item: address lists. */
  atList?: boolean;
}

type Kind = 'scalar' | 'sequence' | 'mapping' | 'other';
function kindOf(v: PyValue): Kind {
  if (v instanceof PyDict) return 'mapping';
  if (Array.isArray(v)) return 'sequence';
  if (v === null || typeof v === 'string' || typeof v === 'boolean' || typeof v === 'bigint' || typeof v === 'number') return 'scalar';
  return 'other';
}

/** The scalar's text in cloud-init's dump, as netplan reads it. */
function scalarText(v: PyValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return floatText(v);
  return typeof v === 'bigint' ? v.toString() : (v as string);
}

class Walk {
  readonly unmodelled: string[] = [];
  constructor(private readonly d: NetplanData) {}

  private boolWords: Set<string> | undefined;
  private bools(): Set<string> {
    return (this.boolWords ??= new Set(this.d.bool.map((w) => w.toLowerCase())));
  }

  /** A member list naming openvswitch ports: whether netplan takes it depends on `ovs-vsctl` being installed. */
  noteOvs(path: PyValue[]): void {
    this.note(path);
  }

  private note(path: PyValue[]): null {
    this.unmodelled.push(path.map((s) => (typeof s === 'bigint' ? s.toString() : pyKeyDisplay(s))).join('.'));
    return null;
  }

  mapping(dict: PyDict, ctx: string, path: PyValue[]): Found | null {
    const entries = sortedStrEntries(dict);
    if (!entries) return this.note(path); // keys that are not all strings: not modelled
    const keys = this.d.contexts[ctx]?.keys ?? {};
    const route = ctx.endsWith('.routes[]') ? new RouteCheck(this.d.routes, 'route') : ctx.endsWith('.routing-policy[]') ? new RouteCheck(this.d.routes, 'rule') : null;
    // a device's `set-name` needs its `match` (netplan checks it once the device is read)
    const device = ctx.startsWith('device:') && !ctx.includes('.');
    let setName: KeyInfo | undefined;
    for (const { key, value } of entries) {
      const k = key as string;
      const info = Object.prototype.hasOwnProperty.call(keys, k) ? keys[k] : undefined;
      if (!info) return { segments: [...path, key], on: 'key', message: `unknown key '${k}'` };
      if (device && k === 'set-name' && kindOf(value) === 'scalar' && info.checked?.includes("'set-name:'")) {
        setName = info;
        continue;
      }
      // a route's addresses, type and scope: checked with what the route holds so far
      if (route && kindOf(value) === 'scalar' && route.handles(k)) {
        const message = route.take(k, scalarText(value));
        if (message !== null) return { segments: [...path, key], on: 'value', message };
        continue;
      }
      const found = this.value(value, info, [...path, key]);
      if (found) return found;
      // a `match: name` netplan finds invalid (a glob is fine, a blank is not)
      if (k === 'name' && ctx.endsWith('.match') && typeof value === 'string' && this.badName(value, this.d.names.match)) return { segments: [...path, key], on: 'value', message: this.d.names.message.replace('{}', value) };
    }
    if (setName && !dict.has('match')) {
      // 1.x reports it as a validation error, which cloud-init does not catch: left to netplan
      if (setName.checked!.startsWith('=')) return this.note([...path, 'set-name']);
      const id = path[path.length - 1];
      // at the device's mapping (where its first key is dumped)
      return { segments: path, on: 'value', message: setName.checked!.replace(/^dev0:/, `${typeof id === 'string' ? id : pyKeyDisplay(id)}:`) };
    }
    if (ctx === 'device:wifis') {
      const aps = dict.get('access-points');
      if (aps === undefined || (aps instanceof PyDict && aps.size === 0)) {
        const message = this.d.devices.wifiNoAccessPoints;
        if (message.startsWith('=')) return this.note([...path, 'access-points']);
        const id = path[path.length - 1];
        return { segments: path, on: 'value', message: message.replace('{}', typeof id === 'string' ? id : pyKeyDisplay(id)) };
      }
    }
    // a route or rule as a whole (netplan reports it at the list, as for an address list)
    const missing = route?.finish() ?? null;
    if (missing !== null) return { segments: path, on: 'value', message: missing, atList: true };
    return null;
  }

  private badName(name: string, chars: string): boolean {
    for (const c of name) if (chars.includes(c)) return true;
    return false;
  }

  value(v: PyValue, info: KeyInfo, path: PyValue[]): Found | null {
    const kind = kindOf(v);
    if (kind === 'other') return this.note(path);
    const at = (message: string): Found => ({ segments: path, on: 'value', message });
    if (SCALAR_CLASSES.has(info.scalar)) {
      if (kind !== 'scalar') {
        const message = kind === 'mapping' ? info.mapping : info.sequence;
        return typeof message === 'string' ? at(message) : this.note(path);
      }
      const text = scalarText(v);
      switch (info.scalar) {
        case 'bool':
          // the probe found the words in any case (`True`, `FALSE`, `ON`)
          return this.bools().has(text.toLowerCase()) ? null : at(`invalid boolean value '${text}'`);
        case 'uint':
          // digits up to 2**32 - 1, and the other forms the probe found accepted (`+5`, ` 5`, `''`)
          return this.d.uint.includes(text) || (/^\d+$/.test(text) && BigInt(text) <= 4294967295n) ? null : at(`invalid unsigned int value '${text}'`);
        case 'checked': {
          // (any scalar: netplan reads the text cloud-init dumped, `macaddress: 41135085296` for an unquoted all-digit MAC)
          if (info.value && info.messages && !info.messages.malformed.startsWith('=')) {
            const message = addressMessage(info, text);
            if (message === null) return null;
            // an address in a list is reported at the list
            return typeof path[path.length - 1] === 'bigint' ? { ...at(message), atList: true } : at(message);
          }
          // a check netplan 1.x makes as a validation error (marked `=`): cloud-init does not catch it, the model leaves it
          // (nor a check of the whole device, which names the probe's device: `dev0: ...`)
          if (info.values && info.reject !== undefined && !/^(=|(dev0|zzqx): )/.test(info.reject)) return takes(info, info.values, text) ? null : at(info.reject.replace('{}', text));
          // an address without a prefix (a tunnel's `local` and `remote`): the probe measured its message on its own
          if (info.checked !== undefined && info.checked.startsWith("malformed address 'zzz',")) return isIPv4(text) || isIPv6(text) ? null : at(info.checked.replace("'zzz'", `'${text}'`));
          // a name of another device: checked once the whole file is read (undefinedInterface)
          if (info.checked !== undefined && /: interface 'zzz' is not defined$/.test(info.checked) && REFERENCES.some(([, k]) => path.includes(k))) return null;
          return this.note(path);
        }
        default:
          return null;
      }
    }
    if (info.scalar === EXPECTED_MAPPING) {
      if (kind === 'scalar') return at(info.scalar);
      if (kind === 'sequence') return typeof info.sequence === 'string' ? at(info.sequence) : this.note(path);
      const dict = v as PyDict;
      if (typeof info.mapping === 'string') return this.mapping(dict, info.mapping, path);
      if (info.ids === undefined) return this.note(path);
      const entries = sortedStrEntries(dict);
      if (!entries) return this.note(path);
      for (const { key, value } of entries) {
        const k = key as string;
        const special = info.special && Object.prototype.hasOwnProperty.call(info.special, k) ? info.special[k] : undefined;
        // a device-type section's own keys (`renderer`) sit beside the ids of its devices
        if (special) {
          const found = this.value(value, special, [...path, key]);
          if (found) return found;
          continue;
        }
        if (typeof info.ids === 'string' && info.ids.startsWith('device:') && this.badName(k, this.d.names.id)) return { segments: [...path, key], on: 'key', message: this.d.names.message.replace('{}', k) };
        const found = this.entry(value, info.ids, [...path, key]);
        if (found) return found;
      }
      return null;
    }
    // a list
    if (kind === 'scalar') return at(info.scalar);
    if (kind === 'mapping') return typeof info.mapping === 'string' ? at(info.mapping) : this.note(path);
    if (info.items === undefined) return this.note(path);
    const items = v as PyValue[];
    for (let i = 0; i < items.length; i++) {
      const found = this.entry(items[i], info.items, [...path, BigInt(i)]);
      if (found) return found;
    }
    return null;
  }

  /** An id's value or a list item: a mapping of a context, or what `info` says. */
  private entry(v: PyValue, info: string | KeyInfo, path: PyValue[]): Found | null {
    if (typeof info !== 'string') {
      // a list of pairs (`ports: [[a, b]]`): an item of the measured length, of scalars, is taken
      if (info.tuple !== undefined && Array.isArray(v)) {
        if (v.length !== info.tuple || !v.every((x) => kindOf(x) === 'scalar')) return typeof info.sequence === 'string' ? { segments: path, on: 'value', message: info.sequence } : this.note(path);
        return null;
      }
      return this.value(v, info, path);
    }
    if (!(v instanceof PyDict)) return kindOf(v) === 'other' ? this.note(path) : { segments: path, on: 'value', message: EXPECTED_MAPPING };
    return this.mapping(v, info, path);
  }
}

/**
 * One route (`routes:` item) or routing-policy rule as netplan reads it, key by key in the dump's order:
 * `to`, `via` and `from` must be addresses (the part before the last `/`; a route's `to` may be `default`)
 * of one family, the first of another family is reported; the type and scope are words netplan takes
 * without regard to case; once the mapping is read, a route without the addresses its type and scope need
 * (and a rule without `from` or `to`) is reported. The words and messages are measured (probe.py `routes`).
 */
class RouteCheck {
  private family: 4 | 6 | null = null;
  private readonly has = new Set<string>();
  private type = 'unicast';
  private scope: string | null = null;
  constructor(private readonly f: RouteFacts, private readonly kind: 'route' | 'rule') {}

  handles(key: string): boolean {
    return key === 'to' || key === 'from' || (this.kind === 'route' && (key === 'via' || key === 'type' || key === 'scope'));
  }

  /** netplan's message for this value of `key` (null: taken). */
  take(key: string, text: string): string | null {
    if (key === 'type' || key === 'scope') {
      const words = key === 'type' ? this.f.types : this.f.scopes;
      if (!words.some((w) => w.toLowerCase() === text.toLowerCase())) return (key === 'type' ? this.f.typeReject : this.f.scopeReject).replace('{}', text);
      if (key === 'type') this.type = text.toLowerCase();
      else this.scope = text.toLowerCase();
      return null;
    }
    this.has.add(key);
    if (this.kind === 'route' && key === 'to' && text === this.f.defaultTo) return null;
    const slash = text.lastIndexOf('/');
    const address = slash < 0 ? text : text.slice(0, slash);
    const family = isIPv4(address) ? 4 : isIPv6(address) ? 6 : null;
    if (family === null) return this.f.invalid;
    if (this.family !== null && this.family !== family) return (this.kind === 'route' ? this.f.mismatch : this.f.policyMismatch).replace('{}', text);
    this.family = family;
    return null;
  }

  /** The whole route's or rule's message (null: complete). */
  finish(): string | null {
    const to = this.has.has('to');
    if (this.kind === 'rule') return to || this.has.has('from') ? null : this.f.policyNeedsAddress;
    if (to) {
      // with `to`, only a global unicast route needs `via` too
      if (this.type === 'unicast' && this.scope === 'global' && !this.has.has('via')) return this.f.globalUnicastNeedsBoth;
      return null;
    }
    if (this.scope === null) {
      const measured = this.f.missingTo[this.type];
      return measured ? measured[this.has.has('via') ? 1 : 0] : null;
    }
    if (this.scope === 'link' || this.scope === 'host') return this.f.linkHostNeedsTo;
    if (this.type === 'unicast' && this.scope === 'global') return this.f.globalUnicastNeedsBoth;
    return this.type !== 'unicast' ? this.f.nonUnicastNeedsTo : null;
  }
}

/** Whether an enumeration takes `text`: one of its words (in any case, if caseless), or a value whose leading number is one of its own. */
function takes(info: KeyInfo, values: string[], text: string): boolean {
  if (info.leading) {
    const m = /^\s*[+-]?(\d+)/.exec(text);
    return info.leading.includes(m ? Number(m[1]) : 0);
  }
  if (info.caseless) return values.some((v) => v.toLowerCase() === text.toLowerCase());
  return values.includes(text);
}

/** netplan's message for an address value that fails its check (null: it passes). */
function addressMessage(info: KeyInfo, text: string): string | null {
  const m = info.messages!;
  const say = (template: string | undefined) => (template ?? m.malformed).replace('{}', text);
  switch (info.value) {
    case 'cidr': {
      const problem = cidrProblem(text);
      return problem === null ? null : say(m[problem]);
    }
    case 'ip':
      return isIPv4(text) || isIPv6(text) ? null : say(m.malformed);
    case 'ip4':
      return isIPv4(text) ? null : say(m.malformed);
    case 'ip6':
      return isIPv6(text) ? null : say(m.malformed);
    default:
      return isMac(text) || (info.words ?? []).includes(text) ? null : say(m.malformed);
  }
}

/**
 * The keys that name another device (measured with the probe's parser: a name no device has gets
 * `<id>: interface '<name>' is not defined`, at the name, once the whole file is parsed): the members of
 * bonds, bridges and VRFs, and the `link` of VLANs and of ethernets (SR-IOV).
 */
const REFERENCES: ReadonlyArray<readonly [string, string]> = [
  ['bonds', 'interfaces'],
  ['bridges', 'interfaces'],
  ['vrfs', 'interfaces'],
  ['vlans', 'link'],
  ['ethernets', 'link'],
];

/** The names of openvswitch's patch ports (`openvswitch: {ports: [[a, b]]}`): devices too. */
function ovsPorts(network: PyDict): Set<string> {
  const ports = new Set<string>();
  const ovs = network.get('openvswitch');
  const list = ovs instanceof PyDict ? ovs.get('ports') : undefined;
  if (Array.isArray(list)) for (const pair of list) if (Array.isArray(pair)) for (const name of pair) if (typeof name === 'string') ports.add(name);
  return ports;
}

/**
 * netplan's check after parsing: the first name (in the dump's order) that no device of the file has. A bond
 * or bridge over openvswitch patch ports is an openvswitch device, which netplan accepts only where
 * `ovs-vsctl` is installed: a fact of the host, so its members are noted as not checked.
 */
function undefinedInterface(doc: PyDict, walk: Walk): Found | null {
  const network = doc.get('network');
  if (!(network instanceof PyDict)) return null;
  const ports = ovsPorts(network);
  const defined = new Set<string>(ports);
  for (const { key, value } of sortedStrEntries(network) ?? []) {
    if (value instanceof PyDict && key !== 'openvswitch') for (const id of value.keys()) if (typeof id === 'string') defined.add(id);
  }
  for (const { key: type, value: devices } of sortedStrEntries(network) ?? []) {
    const refKeys = REFERENCES.filter(([t]) => t === type).map(([, k]) => k);
    if (!refKeys.length || !(devices instanceof PyDict)) continue;
    for (const { key: id, value: device } of sortedStrEntries(devices) ?? []) {
      if (!(device instanceof PyDict)) continue;
      for (const { key, value } of sortedStrEntries(device) ?? []) {
        if (!refKeys.includes(key as string)) continue;
        const names: Array<[PyValue, PyValue[]]> = Array.isArray(value) ? value.map((v, i) => [v, [BigInt(i)]]) : [[value, []]];
        if (names.some(([name]) => typeof name === 'string' && ports.has(name))) walk.noteOvs(['network', type, id, key]);
        for (const [name, at] of names) {
          if (typeof name === 'string' && !defined.has(name)) return { segments: ['network', type, id, key, ...at], on: 'value', message: `${id as string}: interface '${name}' is not defined` };
        }
      }
    }
  }
  return null;
}

/**
 * netplan's check as it assigns members: a device already in another bond or bridge (or a bridge's member
 * in a bond) is reported at the second one's member list, in the dump's order (bonds, then bridges). Only
 * members some device defines are assigned (undefinedInterface reports the others, later).
 */
function assignedTwice(doc: PyDict, d: NetplanData): Found | null {
  const network = doc.get('network');
  if (!(network instanceof PyDict)) return null;
  const defined = new Set<string>(ovsPorts(network));
  for (const { key, value } of sortedStrEntries(network) ?? []) {
    if (value instanceof PyDict && key !== 'openvswitch') for (const id of value.keys()) if (typeof id === 'string') defined.add(id);
  }
  const bondOf = new Map<string, string>();
  const bridgeOf = new Map<string, string>();
  const say = (template: string, id: string, member: string, first: string) => template.replace('{0}', id).replace('{1}', member).replace('{2}', first);
  for (const { key: type, value: devices } of sortedStrEntries(network) ?? []) {
    if ((type !== 'bonds' && type !== 'bridges') || !(devices instanceof PyDict)) continue;
    for (const { key: id, value: device } of sortedStrEntries(devices) ?? []) {
      const members = device instanceof PyDict ? device.get('interfaces') : undefined;
      if (typeof id !== 'string' || !Array.isArray(members)) continue;
      const at = (i: number, message: string): Found => ({ segments: ['network', type, id, 'interfaces', BigInt(i)], on: 'value', message, atList: true });
      for (let i = 0; i < members.length; i++) {
        const m = members[i];
        if (typeof m !== 'string' || !defined.has(m)) continue;
        const bond = bondOf.get(m);
        const bridge = bridgeOf.get(m);
        if (type === 'bridges') {
          if (bridge !== undefined && bridge !== id) return at(i, say(d.members.bridge, id, m, bridge));
          if (bond !== undefined) return at(i, say(d.members.bridgeOverBond, id, m, bond));
          bridgeOf.set(m, id);
        } else {
          if (bridge !== undefined) return at(i, say(d.members.bridge, id, m, bridge));
          if (bond !== undefined && bond !== id) return at(i, say(d.members.bond, id, m, bond));
          bondOf.set(m, id);
        }
      }
    }
  }
  return null;
}

/** The column (0-based) where the content of a dumped line starts, after indentation and `- ` indicators. */
function contentStart(line: string): number {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || (line[i] === '-' && (line[i + 1] === ' ' || i + 1 === line.length)))) i++;
  return i;
}

/** netplan's position (0-based line and column in the dumped text) of what `found` is about. */
function positionIn(dumped: DumpWithLines, lines: string[], dumpPath: Array<string | number>, found: Found, value: PyValue | undefined): { line: number; column: number } | null {
  const same = (p: Array<string | number>) => p.length === dumpPath.length && p.every((s, i) => s === dumpPath[i]);
  const entry = dumped.lines.find((l) => same(l.path));
  if (!entry) return null;
  const text = lines[entry.line] ?? '';
  const start = contentStart(text);
  if (found.on === 'key' || typeof dumpPath[dumpPath.length - 1] === 'number' && kindOf(value ?? null) === 'scalar') return { line: entry.line, column: start };
  const empty = (value instanceof PyDict && value.size === 0) || (Array.isArray(value) && value.length === 0);
  if (kindOf(value ?? null) === 'scalar' || empty) {
    const colon = text.indexOf(':', start);
    return { line: entry.line, column: colon < 0 ? start : Math.min(colon + 2, text.length) };
  }
  const next = lines[entry.line + 1] ?? '';
  return { line: entry.line + 1, column: next.length - next.trimStart().length };
}

/** Where the first item of a list is dumped: its line, at its `-`. */
function listStart(dumped: DumpWithLines, itemPath: Array<string | number>): { line: number; column: number } | null {
  const entry = dumped.lines.find((l) => l.path.length === itemPath.length && l.path.every((s, i) => s === itemPath[i]));
  if (!entry) return null;
  const text = dumped.text.split('\n')[entry.line] ?? '';
  return { line: entry.line, column: text.length - text.trimStart().length };
}

function valueAtPath(root: PyValue, segments: PyValue[]): PyValue | undefined {
  let node: PyValue | undefined = root;
  for (const s of segments) {
    if (node instanceof PyDict) node = node.get(s);
    else if (Array.isArray(node) && typeof s === 'bigint') node = node[Number(s)];
    else return undefined;
  }
  return node;
}

/**
 * netplan's verdict on a loaded network-config mapping (wrapped in `network:` or not), as cloud-init
 * reports it: at most one error (netplan stops at the first), at `format-l…c…` of cloud-init's dump.
 */
export function netplanCheck(cfg: PyDict, netplanVersion: NetplanVersion = DEFAULT_NETPLAN_VERSION): NetplanVerdict {
  const d = netplanData(netplanVersion);
  const wrapped = cfg.has('network');
  const doc = wrapped ? cfg : PyDict.from([['network', cfg]]);
  const walk = new Walk(d);
  const found = walk.mapping(doc, 'root', []) ?? assignedTwice(doc, d) ?? undefinedInterface(doc, walk);
  if (!found) return { valid: walk.unmodelled.length ? null : true, errors: [], unmodelled: walk.unmodelled };
  const dumped = dumpPyYamlWithLines(doc);
  const lines = dumped.text.split('\n');
  const dumpPath = found.segments.map((s) => (typeof s === 'bigint' ? Number(s) : pyKeyDisplay(s)));
  // an error at a list: the list's first item, at its `-`
  const listPath = found.atList ? [...dumpPath.slice(0, -1), 0] : dumpPath;
  const pos = found.atList ? listStart(dumped, listPath) : positionIn(dumped, lines, dumpPath, found, valueAtPath(doc, found.segments));
  const lineText = pos ? lines[pos.line] : '';
  const netplanMessage = pos ? `${d.prefix}${found.message}\n${lineText}\n${' '.repeat(pos.column)}^` : `${d.prefix}${found.message}`;
  const segments = wrapped ? found.segments : found.segments.slice(1);
  const problem: SchemaProblem =
    found.on === 'key'
      ? { path: '', message: '', segments: segments.slice(0, -1), keyword: 'additionalProperties', unexpectedKeys: [segments[segments.length - 1]], viaAlternative: false }
      : { path: '', message: '', segments, keyword: 'type', viaAlternative: false };
  problem.path = pos ? `format-l${pos.line + 1}.c${pos.column + 1}` : 'format-l1.c1';
  problem.message = `Invalid netplan schema. ${netplanMessage}`;
  return { valid: false, errors: [problem], unmodelled: walk.unmodelled };
}
