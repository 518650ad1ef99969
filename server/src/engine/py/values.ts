/**
 * The values cloud-init's Python code sees after PyYAML loads a document.
 *
 * The mergers dispatch on Python types, so the model keeps every distinction
 * that matters there: `bigint` is a Python int, `number` a Python float,
 * timestamps, bytes and sets have their own classes, and mappings compare keys
 * the way a Python dict does (`1`, `1.0` and `true` are the same key).
 */
import { timestampKey } from './datetime';

export type PyValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | PyBytes
  | PyTimestamp
  | PyValue[]
  | PyTuple
  | PyDict
  | PySet;

/** A half-open character range [start, end) in the text of one source. */
export interface TextSpan {
  start: number;
  end: number;
}

/** Where a key/value pair or a list item came from. */
export interface Origin {
  /** Index of the source (a part, a file) in the caller's source table. */
  source: number;
  /** Range of the whole value node. */
  value: TextSpan;
  /** Range of the key node, for mapping entries. */
  key?: TextSpan;
}

export class PyBytes {
  constructor(readonly bytes: Uint8Array) {}
}

/** Python's tuple: YAML's `!!omap` and `!!pairs` load as lists of 2-tuples. */
export class PyTuple {
  constructor(readonly items: PyValue[]) {}
}

/** A YAML timestamp: Python `date`, or `datetime` (naive or with a fixed offset). */
export class PyTimestamp {
  constructor(
    readonly kind: 'date' | 'datetime',
    readonly year: number,
    readonly month: number,
    readonly day: number,
    readonly hour = 0,
    readonly minute = 0,
    readonly second = 0,
    readonly microsecond = 0,
    /** Offset from UTC in minutes, or null for a naive datetime (and for dates). */
    readonly offsetMinutes: number | null = null,
  ) {}

  /** Python's `isoformat(sep)`. */
  isoformat(sep = 'T'): string {
    const date = `${pad(this.year, 4)}-${pad(this.month, 2)}-${pad(this.day, 2)}`;
    if (this.kind === 'date') return date;
    let time = `${pad(this.hour, 2)}:${pad(this.minute, 2)}:${pad(this.second, 2)}`;
    if (this.microsecond) time += '.' + pad(this.microsecond, 6);
    if (this.offsetMinutes !== null) {
      const sign = this.offsetMinutes < 0 ? '-' : '+';
      const abs = Math.abs(this.offsetMinutes);
      time += `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
    }
    return date + sep + time;
  }

  /** Identity used for dict keys and equality (aware datetimes compare by instant). */
  identity(): string {
    if (this.kind === 'date') return `d:${this.isoformat()}`;
    if (this.offsetMinutes === null) return `n:${this.isoformat()}`;
    return `a:${timestampKey(this).join('.')}`;
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** Python set (from YAML `!!set`); insertion order kept, output sorts it. */
export class PySet {
  private readonly byId = new Map<string, PyValue>();
  constructor(items: Iterable<PyValue> = []) {
    for (const item of items) this.add(item);
  }
  add(item: PyValue): void {
    const id = keyIdentity(item);
    if (!this.byId.has(id)) this.byId.set(id, item);
  }
  has(item: PyValue): boolean {
    return this.byId.has(keyIdentity(item));
  }
  get size(): number {
    return this.byId.size;
  }
  values(): PyValue[] {
    return [...this.byId.values()];
  }
}

/** Thrown where Python would raise `TypeError: unhashable type`. */
export class UnhashableKeyError extends Error {
  constructor(readonly typeName: string) {
    super(`unhashable type: '${typeName}'`);
  }
}

/**
 * The dict-key identity of None, bool, int, float and str (equal ints, floats and bools are one key,
 * as in Python), or undefined for any other value. Shared by this value model and Jinja's.
 */
export function scalarKeyIdentity(key: unknown): string | undefined {
  if (key === null) return 'None';
  switch (typeof key) {
    case 'string':
      return 's' + key;
    case 'boolean':
      return key ? 'i1' : 'i0';
    case 'bigint':
      return 'i' + key.toString();
    case 'number':
      if (Number.isInteger(key)) return 'i' + BigInt(key).toString();
      if (Number.isNaN(key)) return 'fnan'; // each NaN is its own key in Python; rare enough to merge them
      return 'f' + String(key);
  }
  return undefined;
}

/**
 * A string that is equal for two keys exactly when Python's `==` (and hash)
 * says they are the same dict key.
 */
export function keyIdentity(key: PyValue): string {
  const scalar = scalarKeyIdentity(key);
  if (scalar !== undefined) return scalar;
  if (key instanceof PyTimestamp) return 't' + key.identity();
  if (key instanceof PyBytes) return 'b' + Buffer.from(key.bytes).toString('base64');
  if (key instanceof PyTuple) return 'T(' + key.items.map(keyIdentity).join(',') + ')';
  throw new UnhashableKeyError(pyTypeName(key));
}

/** One pair of a PyDict whose origin is unknown. */
class DictEntry {
  constructor(
    public key: PyValue,
    public value: PyValue,
  ) {}

  get origin(): Origin | undefined {
    return undefined;
  }

  copy(): DictEntry {
    return new DictEntry(this.key, this.value);
  }
}

/**
 * A pair of a PyDict and where it was written, kept as plain numbers (source -1: no longer known;
 * keyStart -1: no key span) rather than as an Origin and two span objects: a loaded document has one
 * entry per pair, all living as long as the value, so three fewer objects each is most of what
 * provenance costs the loader and the garbage collector. `origin` builds the Origin when asked.
 */
class WrittenEntry extends DictEntry {
  constructor(
    key: PyValue,
    value: PyValue,
    private source: number,
    private keyStart: number,
    private keyEnd: number,
    private valueStart: number,
    private valueEnd: number,
  ) {
    super(key, value);
  }

  static of(key: PyValue, value: PyValue, source: number, keySpan: TextSpan | undefined, valueSpan: TextSpan): WrittenEntry {
    return new WrittenEntry(key, value, source, keySpan === undefined ? -1 : keySpan.start, keySpan === undefined ? -1 : keySpan.end, valueSpan.start, valueSpan.end);
  }

  override get origin(): Origin | undefined {
    if (this.source < 0) return undefined;
    const value = { start: this.valueStart, end: this.valueEnd };
    return this.keyStart < 0 ? { source: this.source, value } : { source: this.source, key: { start: this.keyStart, end: this.keyEnd }, value };
  }

  /** A new origin, in place (a caller may still hold this entry). */
  written(source: number, keySpan: TextSpan | undefined, valueSpan: TextSpan): void {
    this.source = source;
    this.keyStart = keySpan === undefined ? -1 : keySpan.start;
    this.keyEnd = keySpan === undefined ? -1 : keySpan.end;
    this.valueStart = valueSpan.start;
    this.valueEnd = valueSpan.end;
  }

  forget(): void {
    this.source = -1;
  }

  override copy(): DictEntry {
    return new WrittenEntry(this.key, this.value, this.source, this.keyStart, this.keyEnd, this.valueStart, this.valueEnd);
  }
}

/**
 * An insertion-ordered mapping with Python dict key semantics. Each entry may
 * carry the Origin of the pair, which merging carries along for provenance.
 */
export class PyDict {
  private readonly entries_ = new Map<string, DictEntry>();

  static from(pairs: Iterable<[PyValue, PyValue]>): PyDict {
    const d = new PyDict();
    for (const [k, v] of pairs) d.set(k, v);
    return d;
  }

  get size(): number {
    return this.entries_.size;
  }

  has(key: PyValue): boolean {
    return this.entries_.has(keyIdentity(key));
  }

  get(key: PyValue): PyValue | undefined {
    return this.entries_.get(keyIdentity(key))?.value;
  }

  originOf(key: PyValue): Origin | undefined {
    return this.entries_.get(keyIdentity(key))?.origin;
  }

  /**
   * Python `d[key] = value`: an existing key keeps its position and its
   * original key object; a new key goes to the end.
   */
  set(key: PyValue, value: PyValue, origin?: Origin): void {
    this.setEntry(key, value, origin === undefined ? -1 : origin.source, origin?.key, origin?.value);
  }

  /** `set` with the Origin `{ source, key: keySpan, value: valueSpan }`, without making it (the YAML loader's way). */
  setWritten(key: PyValue, value: PyValue, source: number, keySpan: TextSpan, valueSpan: TextSpan): void {
    this.setEntry(key, value, source, keySpan, valueSpan);
  }

  /** source -1: no origin. */
  private setEntry(key: PyValue, value: PyValue, source: number, keySpan: TextSpan | undefined, valueSpan: TextSpan | undefined): void {
    const id = keyIdentity(key);
    const existing = this.entries_.get(id);
    if (existing === undefined) {
      this.entries_.set(id, source < 0 ? new DictEntry(key, value) : WrittenEntry.of(key, value, source, keySpan, valueSpan as TextSpan));
      return;
    }
    existing.value = value;
    if (existing instanceof WrittenEntry) {
      if (source < 0) existing.forget();
      else existing.written(source, keySpan, valueSpan as TextSpan);
    } else if (source >= 0) {
      // Same place in the Map, same key object (Python keeps the first one).
      this.entries_.set(id, WrittenEntry.of(existing.key, value, source, keySpan, valueSpan as TextSpan));
    }
  }

  delete(key: PyValue): boolean {
    return this.entries_.delete(keyIdentity(key));
  }

  keys(): PyValue[] {
    return [...this.entries_.values()].map((e) => e.key);
  }

  values(): PyValue[] {
    return [...this.entries_.values()].map((e) => e.value);
  }

  entries(): Array<[PyValue, PyValue]> {
    return [...this.entries_.values()].map((e) => [e.key, e.value]);
  }

  /** The entries themselves, in order, in a new array (the dumper sorts it). */
  entryList(): Array<{ key: PyValue; value: PyValue; origin?: Origin }> {
    return [...this.entries_.values()];
  }

  /** Entries with their origins, in order. */
  *items(): IterableIterator<{ key: PyValue; value: PyValue; origin?: Origin }> {
    yield* this.entries_.values();
  }

  /** Python's `dict(d)`: a shallow copy (origins copied too). */
  copy(): PyDict {
    const d = new PyDict();
    // Same identities: no need to recompute them (merging N parts copies the accumulated mapping N times).
    for (const [id, e] of this.entries_) d.entries_.set(id, e.copy());
    return d;
  }
}

/**
 * Where the items of a loaded list were written, before anyone asks: one source and each item's
 * start and end, packed (as DictEntry does for pairs). Turned into Origins on first use.
 */
class WrittenItems {
  constructor(
    readonly source: number,
    readonly offsets: number[],
  ) {}

  origins(): Origin[] {
    const { source, offsets } = this;
    const origins: Origin[] = new Array<Origin>(offsets.length / 2);
    for (let i = 0; i < origins.length; i++) origins[i] = { source, value: { start: offsets[2 * i], end: offsets[2 * i + 1] } };
    return origins;
  }
}

/** Origins of list items, kept beside the arrays so lists stay plain arrays. */
const listOrigins = new WeakMap<PyValue[], Array<Origin | undefined> | WrittenItems>();

export function setListOrigins(list: PyValue[], origins: Array<Origin | undefined>): void {
  listOrigins.set(list, origins);
}

/** `setListOrigins` with the Origin `{ source, value: spans[i] }` of each item, without making them. */
export function setListWritten(list: PyValue[], source: number, spans: readonly TextSpan[]): void {
  const offsets: number[] = new Array<number>(spans.length * 2);
  for (let i = 0; i < spans.length; i++) {
    offsets[2 * i] = spans[i].start;
    offsets[2 * i + 1] = spans[i].end;
  }
  listOrigins.set(list, new WrittenItems(source, offsets));
}

export function getListOrigins(list: PyValue[]): Array<Origin | undefined> | undefined {
  const origins = listOrigins.get(list);
  if (!(origins instanceof WrittenItems)) return origins;
  // Callers may change the array they get (merges, JSON patches): from now on it is the list's.
  const made = origins.origins();
  listOrigins.set(list, made);
  return made;
}

export function isPyList(v: PyValue | undefined): v is PyValue[] {
  return Array.isArray(v);
}

/**
 * The Python class name of bool, int, float, str and list in the JavaScript forms every value model
 * here gives them (boolean, bigint, number, string, array), or undefined for anything else.
 */
export function builtinTypeName(v: unknown): string | undefined {
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'str';
  }
  return Array.isArray(v) ? 'list' : undefined;
}

/** The lowercased Python class name: what the root merger dispatches on. */
export function pyTypeName(v: PyValue): string {
  if (v === null) return 'nonetype';
  const builtin = builtinTypeName(v);
  if (builtin !== undefined) return builtin;
  if (v instanceof PyDict) return 'dict';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof PySet) return 'set';
  if (v instanceof PyBytes) return 'bytes';
  if (v instanceof PyTimestamp) return v.kind;
  return 'object';
}

/** Python truthiness. */
export function pyTruthy(v: PyValue): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof PyDict || v instanceof PySet) return v.size > 0;
  if (v instanceof PyTuple) return v.items.length > 0;
  if (v instanceof PyBytes) return v.bytes.length > 0;
  return true;
}

/** The class name Python prints in messages (`'NoneType' object is not iterable`). */
export function pyClassName(v: PyValue): string {
  const name = pyTypeName(v);
  switch (name) {
    case 'nonetype':
      return 'NoneType';
    case 'date':
    case 'datetime':
      return 'datetime.' + name;
    default:
      return name;
  }
}
