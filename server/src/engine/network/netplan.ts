/**
 * What netplan's parser says of a version 2 network-config on a host where cloud-init hands it to
 * netplan's Python API (`netplan_validate_network_schema`, cloud-init 24.4+ on Ubuntu 23.10 and later).
 *
 * cloud-init wraps the config in `network:` when it has no wrapper, writes it with its own YAML dump
 * (keys sorted, indent 4, `---` first) and lets netplan parse that file; netplan stops at its first error,
 * which cloud-init reports at `format-l<line>.c<column>` of the dumped text, as `Invalid netplan schema.`
 * and netplan's message, the dumped line and a caret.
 *
 * The model is measured, not written from netplan's sources: `scripts/netplan/probe.py` asked netplan
 * (libnetplan 0.106) key by key which keys each mapping knows and how each key takes a scalar, a list or
 * a mapping (data/netplan.json). Modelled: unknown keys, wrong kinds of value (`expected scalar`,
 * `expected sequence`, `expected mapping`), booleans and unsigned ints, and member and link names no device
 * has. Not modelled: netplan's checks of other values (addresses, routes, modes, ...) and of whole devices
 * (a VLAN without `link`, a NIC in two bonds, ...): those values are listed in `unmodelled` and the verdict
 * is then "no error found by the model".
 */
import { PyDict, type PyValue } from '../py/values';
import { dumpPyYamlWithLines, pyKeyDisplay, type DumpWithLines } from '../yaml/dump';
import { floatText, sortedStrEntries } from '../yaml/representer';
import type { SchemaProblem } from '../schema/validate';

/** What a key takes (data/netplan.json): see scripts/netplan/probe.py. */
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
}

interface NetplanData {
  prefix: string;
  bool: string[];
  uint: string[];
  contexts: Record<string, { keys: Record<string, KeyInfo> }>;
}

type Data = typeof import('./data/netplan.json');
let data: NetplanData | undefined;
function netplanData(): NetplanData {
  return (data ??= require('./data/netplan.json') as Data as unknown as NetplanData);
}

const SCALAR_CLASSES = new Set(['text', 'bool', 'uint', 'checked']);
const EXPECTED_MAPPING = 'expected mapping (check indentation)';

export interface NetplanVerdict {
  valid: boolean;
  errors: SchemaProblem[];
  /** Values the model let through without netplan's own check of them (paths), so the verdict is "no error found". */
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

  private note(path: PyValue[]): null {
    this.unmodelled.push(path.map((s) => (typeof s === 'bigint' ? s.toString() : pyKeyDisplay(s))).join('.'));
    return null;
  }

  mapping(dict: PyDict, ctx: string, path: PyValue[]): Found | null {
    const entries = sortedStrEntries(dict);
    if (!entries) return this.note(path); // keys that are not all strings: not modelled
    const keys = this.d.contexts[ctx]?.keys ?? {};
    for (const { key, value } of entries) {
      const k = key as string;
      const info = Object.prototype.hasOwnProperty.call(keys, k) ? keys[k] : undefined;
      if (!info) return { segments: [...path, key], on: 'key', message: `unknown key '${k}'` };
      const found = this.value(value, info, [...path, key]);
      if (found) return found;
    }
    return null;
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
        case 'checked':
          return this.note(path);
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
    if (typeof info !== 'string') return this.value(v, info, path);
    if (!(v instanceof PyDict)) return kindOf(v) === 'other' ? this.note(path) : { segments: path, on: 'value', message: EXPECTED_MAPPING };
    return this.mapping(v, info, path);
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

/** netplan's check after parsing: the first name (in the dump's order) that no device of the file has. */
function undefinedInterface(doc: PyDict): Found | null {
  const network = doc.get('network');
  if (!(network instanceof PyDict)) return null;
  const defined = new Set<string>();
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
        for (const [name, at] of names) {
          if (typeof name === 'string' && !defined.has(name)) return { segments: ['network', type, id, key, ...at], on: 'value', message: `${id as string}: interface '${name}' is not defined` };
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
export function netplanCheck(cfg: PyDict): NetplanVerdict {
  const d = netplanData();
  const wrapped = cfg.has('network');
  const doc = wrapped ? cfg : PyDict.from([['network', cfg]]);
  const walk = new Walk(d);
  const found = walk.mapping(doc, 'root', []) ?? undefinedInterface(doc);
  if (!found) return { valid: true, errors: [], unmodelled: walk.unmodelled };
  const dumped = dumpPyYamlWithLines(doc);
  const lines = dumped.text.split('\n');
  const dumpPath = found.segments.map((s) => (typeof s === 'bigint' ? Number(s) : pyKeyDisplay(s)));
  const pos = positionIn(dumped, lines, dumpPath, found, valueAtPath(doc, found.segments));
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
