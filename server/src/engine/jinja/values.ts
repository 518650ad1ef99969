/**
 * The Python values a template sees and Python's object protocol on them.
 * Models CPython's built-in types as Jinja hands them to templates, and
 * Jinja's runtime objects: Undefined and LoopContext (jinja2/runtime.py),
 * Cycler, Joiner and Namespace (jinja2/utils.py), markupsafe.Markup, plus
 * str()/repr() (pprint's sorted repr too), hash identity for dict keys, ==,
 * ordering, truthiness, len and iterability. CPython behaviour shared with the
 * YAML and JSON ports (float/str/bytes repr, int digit limit, str ordering,
 * numeric and bytes comparison, list/tuple comparison, scalar key identity
 * and type names, timsort) comes from ../py/ and ../values.
 *
 * Why JDict is not ../values' PyDict: the two hold different value models.
 * A template's dict keys can be Markup (equal to the same str), Undefined,
 * ranges and functions (by identity), none of which PyValue has, and PyDict
 * carries merge origins a template never needs. Keys share the scalar rule
 * (scalarKeyIdentity); the containers stay apart until one value model
 * serves both.
 *
 * Residual differences: Unicode tables are the JS engine's (Unicode 15) rather
 * than Python 3.11's (Unicode 14) for isprintable in repr; dict keys that are
 * NaN are merged into one key; printing an object whose Python repr is a
 * memory address (functions, generators, bound methods) is refused as
 * unsupported.
 */
import { typeError, unsupported } from './errors';
import { Renderer } from './runtime';
import { PyError, type PyErrorType } from '../py/errors';
import { pyIntStr } from '../py/int';
import { pyBytesRepr, pyFloatRepr, pyStrRepr } from '../py/repr';
import { pySorted as timsort } from '../py/sort';
import { bytesCompare, firstMismatch, numCompare, sequenceEq } from '../py/compare';
import { comparePyStr, pyLen } from '../py/str';
import { builtinTypeName, scalarKeyIdentity } from '../py/values';


// None → null, bool → boolean, int → bigint, float → number, str → string,
// list → JS array, everything else a class below.
export type JValue = null | boolean | bigint | number | string | JValue[] | JObject;

export const MISSING: unique symbol = Symbol('missing');
export type Slot = JValue | typeof MISSING;

export abstract class JObject {
  abstract pyType(): string;
}

export class JTuple extends JObject {
  constructor(readonly items: JValue[]) {
    super();
  }
  pyType(): string {
    return 'tuple';
  }
}

/** jinja2.filters._GroupTuple, what groupby returns: a named tuple (grouper, list). */
export class JGroupTuple extends JTuple {
  override pyType(): string {
    return '_GroupTuple';
  }
}

export class JUndef extends JObject {
  constructor(
    /** 'ci' = cloud-init's UndefinedJinjaVariable; 'plain' = jinja2.Undefined (implicit else of `x if y`). */
    readonly kind: 'ci' | 'plain',
    readonly name: JValue,
    readonly obj: JValue | typeof MISSING = MISSING,
    readonly hint: string | null = null,
    /** The exception class its misuse raises (SecurityError for the sandbox's unsafe undefined). */
    readonly exc: PyErrorType = 'UndefinedError',
  ) {
    super();
  }
  pyType(): string {
    return this.kind === 'ci' ? 'UndefinedJinjaVariable' : 'Undefined';
  }
  message(): string {
    if (this.hint) return this.hint;
    if (this.obj === MISSING) return `${pyRepr(this.name)} is undefined`;
    if (typeof this.name !== 'string') return `${objectTypeRepr(this.obj)} has no element ${pyRepr(this.name)}`;
    return `${pyStrRepr(objectTypeRepr(this.obj))} has no attribute ${pyStrRepr(this.name)}`;
  }
  fail(): PyError {
    return new PyError(this.exc, this.message());
  }
}

export function ciUndef(name: JValue, obj: JValue | typeof MISSING = MISSING): JUndef {
  return new JUndef('ci', name, obj);
}
export function hintUndef(hint: string): JUndef {
  return new JUndef('ci', null, MISSING, hint);
}
/** SandboxedEnvironment.unsafe_undefined: prints as a missing variable, any other use raises SecurityError. */
export function unsafeUndef(obj: JValue, attr: string): JUndef {
  return new JUndef('ci', attr, obj, `access to attribute ${pyStrRepr(attr)} of ${pyStrRepr(typeName(obj))} object is unsafe.`, 'SecurityError');
}

/** markupsafe.Markup: only produced by `tojson`. */
export class JMarkup extends JObject {
  constructor(readonly s: string) {
    super();
  }
  pyType(): string {
    return 'Markup';
  }
}

export class JBytes extends JObject {
  constructor(readonly bytes: Uint8Array) {
    super();
  }
  pyType(): string {
    return 'bytes';
  }
}

/** A Python slice object (only seen as the name of an undefined from a constant-folded subscript). */
export class JSlice extends JObject {
  constructor(
    readonly start: JValue,
    readonly stop: JValue,
    readonly step: JValue,
  ) {
    super();
  }
  pyType(): string {
    return 'slice';
  }
}

export class JDict extends JObject {
  readonly map = new Map<string, { k: JValue; v: JValue }>();
  pyType(): string {
    return 'dict';
  }
  get size(): number {
    return this.map.size;
  }
  get(k: JValue): JValue | undefined {
    return this.map.get(hashKey(k))?.v;
  }
  has(k: JValue): boolean {
    return this.map.has(hashKey(k));
  }
  set(k: JValue, v: JValue): void {
    const id = hashKey(k);
    const e = this.map.get(id);
    if (e) e.v = v;
    else this.map.set(id, { k, v });
  }
  delete(k: JValue): boolean {
    return this.map.delete(hashKey(k));
  }
  keys(): JValue[] {
    return [...this.map.values()].map((e) => e.k);
  }
  values(): JValue[] {
    return [...this.map.values()].map((e) => e.v);
  }
  entries(): Array<[JValue, JValue]> {
    return [...this.map.values()].map((e) => [e.k, e.v]);
  }
}

export class JRange extends JObject {
  constructor(
    readonly start: bigint,
    readonly stop: bigint,
    readonly step: bigint,
  ) {
    super();
  }
  pyType(): string {
    return 'range';
  }
  get length(): bigint {
    const { start, stop, step } = this;
    if (step > 0n) return stop > start ? (stop - start + step - 1n) / step : 0n;
    return start > stop ? (start - stop - step - 1n) / -step : 0n;
  }
  at(i: bigint): bigint {
    return this.start + i * this.step;
  }
}

/** A one-shot Python iterator (generator objects, reversed(...), ...). */
export class JGen extends JObject {
  constructor(
    readonly it: Iterator<JValue>,
    readonly typeName: string = 'generator',
  ) {
    super();
  }
  pyType(): string {
    return this.typeName;
  }
}

export class JDictView extends JObject {
  constructor(
    readonly dict: JDict,
    readonly kind: 'keys' | 'values' | 'items',
  ) {
    super();
  }
  pyType(): string {
    return 'dict_' + this.kind;
  }
  list(): JValue[] {
    if (this.kind === 'keys') return this.dict.keys();
    if (this.kind === 'values') return this.dict.values();
    return this.dict.entries().map(([k, v]) => new JTuple([k, v]));
  }
}

export class JNamespace extends JObject {
  readonly attrs = new JDict();
  pyType(): string {
    return 'Namespace';
  }
}

export class JCycler extends JObject {
  pos = 0;
  constructor(readonly items: JValue[]) {
    super();
  }
  pyType(): string {
    return 'Cycler';
  }
}

export class JJoiner extends JObject {
  used = false;
  constructor(readonly sep: JValue) {
    super();
  }
  pyType(): string {
    return 'Joiner';
  }
}

export type CallArgs = { args: JValue[]; kwargs: Array<[string, JValue]> };

/** A callable: builtin function, class, or bound method. */
export class JFunc extends JObject {
  constructor(
    readonly name: string,
    readonly call: ((a: CallArgs, r: Renderer) => JValue) | null,
    /** Printable repr when deterministic (classes), else null (address => unsupported). */
    readonly reprText: string | null = null,
    readonly typeName: string = 'builtin_function_or_method',
  ) {
    super();
  }
  pyType(): string {
    return this.typeName;
  }
}

export class JLoop extends JObject {
  index0 = -1;
  private lengthCache: number | null = null;
  after: JValue | typeof MISSING = MISSING;
  current: JValue | typeof MISSING = MISSING;
  before: JValue | typeof MISSING = MISSING;
  lastChanged: JValue[] | typeof MISSING = MISSING;
  iterator: Iterator<JValue>;
  constructor(
    readonly iterable: JValue,
    readonly r: Renderer,
  ) {
    super();
    this.iterator = r.iter(iterable);
  }
  pyType(): string {
    return 'LoopContext';
  }
  get length(): number {
    if (this.lengthCache !== null) return this.lengthCache;
    const n = tryLen(this.iterable);
    if (n !== null) {
      this.lengthCache = n;
    } else {
      const rest: JValue[] = [];
      for (let x = this.iterator.next(); !x.done; x = this.iterator.next()) {
        this.r.step();
        rest.push(x.value);
      }
      this.iterator = rest[Symbol.iterator]();
      this.lengthCache = rest.length + this.index0 + 1 + (this.after !== MISSING ? 1 : 0);
    }
    return this.lengthCache;
  }
  peek(): JValue | typeof MISSING {
    if (this.after !== MISSING) return this.after;
    const x = this.iterator.next();
    this.after = x.done ? MISSING : x.value;
    return this.after;
  }
  next(): { done: true } | { done: false; value: JValue } {
    let rv: JValue;
    if (this.after !== MISSING) {
      rv = this.after;
      this.after = MISSING;
    } else {
      const x = this.iterator.next();
      if (x.done) return { done: true };
      rv = x.value;
    }
    this.index0++;
    this.before = this.current;
    this.current = rv;
    return { done: false, value: rv };
  }
}

export function isList(v: JValue): v is JValue[] {
  return Array.isArray(v);
}

export function isInt(v: JValue): v is bigint | boolean {
  return typeof v === 'bigint' || typeof v === 'boolean';
}

export function toBig(v: bigint | boolean): bigint {
  return typeof v === 'boolean' ? (v ? 1n : 0n) : v;
}

export function isNumber(v: JValue): v is bigint | boolean | number {
  return typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'number';
}

/** Python's type(x).__name__. */
export function typeName(v: JValue): string {
  if (v === null) return 'NoneType';
  return builtinTypeName(v) ?? (v as JObject).pyType();
}

export const MODULE_OF: Record<string, string> = {
  UndefinedJinjaVariable: 'cloudinit.templater',
  Undefined: 'jinja2.runtime',
  LoopContext: 'jinja2.runtime',
  Namespace: 'jinja2.utils',
  Cycler: 'jinja2.utils',
  Joiner: 'jinja2.utils',
  Markup: 'markupsafe',
};

/** jinja2.utils.object_type_repr */
export function objectTypeRepr(v: JValue | typeof MISSING): string {
  if (v === MISSING) return 'missing';
  if (v === null) return 'None';
  const t = typeName(v);
  const mod = MODULE_OF[t];
  return mod ? `${mod}.${t} object` : `${t} object`;
}

// ---------------------------------------------------------------------------
// str() and repr()

/** Python str(v). */
export function pyStr(v: JValue, seen?: Set<object>): string {
  if (typeof v === 'string') return v;
  if (v instanceof JUndef) return v.kind === 'ci' ? 'CI_MISSING_JINJA_VAR/' + pyStr(v.name) : '';
  if (v instanceof JMarkup) return v.s;
  return pyRepr(v, seen);
}

/** Python repr(v). */
/** pprint's _safe_repr: repr, with the items of every dict sorted by key. */
export function pprintRepr(v: JValue, seen: Set<object>): string {
  const inner = (x: JValue): string => pprintRepr(x, seen);
  if (Array.isArray(v) || v instanceof JTuple || v instanceof JDict) {
    if (seen.has(v)) throw unsupported('pprint of a value that contains itself');
    seen.add(v);
    let out: string;
    if (Array.isArray(v)) out = '[' + v.map(inner).join(', ') + ']';
    else if (v instanceof JTuple) {
      const parts = v.items.map(inner);
      out = parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
    } else {
      let entries: Array<[JValue, JValue]>;
      try {
        entries = timsort(v.entries(), (a, b) => pyLt(a[0], b[0]));
      } catch (e) {
        if (e instanceof PyError && e.pyType === 'TypeError') throw unsupported('pprint of a dict whose keys cannot be compared (Python then orders them by memory address)');
        throw e;
      }
      out = '{' + entries.map(([k, x]) => `${inner(k)}: ${inner(x)}`).join(', ') + '}';
    }
    seen.delete(v);
    return out;
  }
  return pyRepr(v);
}

export function pyRepr(v: JValue, seen: Set<object> = new Set()): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return pyIntStr(v);
    case 'number':
      return pyFloatRepr(v);
    case 'string':
      return pyStrRepr(v);
  }
  if (Array.isArray(v)) {
    if (seen.has(v)) return '[...]';
    seen.add(v);
    const s = '[' + v.map((x) => pyRepr(x, seen)).join(', ') + ']';
    seen.delete(v);
    return s;
  }
  if (v instanceof JTuple) {
    if (seen.has(v)) return '(...)';
    seen.add(v);
    const parts = v.items.map((x) => pyRepr(x, seen));
    seen.delete(v);
    return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
  }
  if (v instanceof JDict) {
    if (seen.has(v)) return '{...}';
    seen.add(v);
    const s = '{' + v.entries().map(([k, x]) => `${pyRepr(k, seen)}: ${pyRepr(x, seen)}`).join(', ') + '}';
    seen.delete(v);
    return s;
  }
  if (v instanceof JUndef) return 'Undefined';
  if (v instanceof JMarkup) return `Markup(${pyStrRepr(v.s)})`;
  if (v instanceof JBytes) return pyBytesRepr(v.bytes);
  if (v instanceof JSlice) return `slice(${pyRepr(v.start, seen)}, ${pyRepr(v.stop, seen)}, ${pyRepr(v.step, seen)})`;
  if (v instanceof JRange) {
    return v.step === 1n ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
  }
  if (v instanceof JDictView) {
    if (seen.has(v.dict)) return `${v.pyType()}([...])`;
    return `${v.pyType()}(${pyRepr(v.list(), seen)})`;
  }
  if (v instanceof JNamespace) {
    if (seen.has(v)) return '<Namespace {...}>';
    seen.add(v);
    const s = `<Namespace ${pyRepr(v.attrs, seen)}>`;
    seen.delete(v);
    return s;
  }
  if (v instanceof JLoop) return `<LoopContext ${v.index0 + 1}/${v.length}>`;
  if (v instanceof JFunc && v.reprText !== null) return v.reprText;
  throw unsupported(`printing a ${typeName(v)} object (Python prints its memory address)`);
}

// ---------------------------------------------------------------------------
// Hashing, equality, ordering

export const objectIds = new WeakMap<object, number>();
export let nextObjectId = 1;
export function objectId(o: object): number {
  let id = objectIds.get(o);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(o, id);
  }
  return id;
}

/** A string equal for two keys exactly when Python's hash/== say they are the same dict key. */
export function hashKey(k: JValue): string {
  const scalar = scalarKeyIdentity(k);
  if (scalar !== undefined) return scalar;
  if (k instanceof JMarkup) return 's' + k.s;
  if (k instanceof JTuple) return 'T(' + k.items.map(hashKey).join(',') + ')';
  if (k instanceof JUndef) return 'U' + k.kind;
  if (k instanceof JBytes) return 'b' + Buffer.from(k.bytes).toString('base64');
  if (k instanceof JRange) {
    const n = k.length;
    return n === 0n ? 'R0' : n === 1n ? `R1,${k.start}` : `R${n},${k.start},${k.step}`;
  }
  if (Array.isArray(k) || k instanceof JDict || k instanceof JSlice || (k instanceof JDictView && k.kind !== 'values')) {
    throw typeError(`unhashable type: '${typeName(k)}'`);
  }
  return 'o' + objectId(k as JObject);
}

/** Python a == b. */
export function pyEq(a: JValue, b: JValue): boolean {
  if (a === b) return true;
  if (a instanceof JUndef || b instanceof JUndef) {
    return a instanceof JUndef && b instanceof JUndef && a.kind === b.kind;
  }
  if (isNumber(a) && isNumber(b)) return numCompare(a, b) === 0;
  const sa = typeof a === 'string' ? a : a instanceof JMarkup ? a.s : undefined;
  const sb = typeof b === 'string' ? b : b instanceof JMarkup ? b.s : undefined;
  if (sa !== undefined || sb !== undefined) return sa === sb;
  if (a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && seqEq(a, b);
  if (a instanceof JTuple) return b instanceof JTuple && seqEq(a.items, b.items);
  if (a instanceof JDict) {
    if (!(b instanceof JDict) || a.size !== b.size) return false;
    for (const [id, e] of a.map) {
      const o = b.map.get(id);
      if (!o || !pyEq(e.v, o.v)) return false;
    }
    return true;
  }
  if (a instanceof JRange) return b instanceof JRange && hashKey(a) === hashKey(b);
  if (a instanceof JBytes) return b instanceof JBytes && bytesCompare(a.bytes, b.bytes) === 0;
  if (a instanceof JDictView && b instanceof JDictView && a.kind === b.kind && a.kind !== 'values') {
    const ka = a.list();
    const kb = b.list();
    if (ka.length !== kb.length) return false;
    const ids = new Set(kb.map(hashKey));
    return ka.every((k) => ids.has(hashKey(k)));
  }
  return false;
}

export function seqEq(a: JValue[], b: JValue[]): boolean {
  return sequenceEq(a, b, pyEq);
}

export type CmpOp = 'lt' | 'lteq' | 'gt' | 'gteq';
export const CMP_SYMBOL: Record<CmpOp, string> = { lt: '<', lteq: '<=', gt: '>', gteq: '>=' };

/** Python a <op> b for the ordering operators. */
export function pyOrder(op: CmpOp, a: JValue, b: JValue): boolean {
  if (a instanceof JUndef) throw a.fail();
  if (b instanceof JUndef) throw b.fail();
  const test = (c: number) =>
    op === 'lt' ? c < 0 : op === 'lteq' ? c <= 0 : op === 'gt' ? c > 0 : c >= 0;
  if (isNumber(a) && isNumber(b)) return test(numCompare(a, b));
  const sa = typeof a === 'string' ? a : a instanceof JMarkup ? a.s : undefined;
  const sb = typeof b === 'string' ? b : b instanceof JMarkup ? b.s : undefined;
  if (sa !== undefined && sb !== undefined) return test(comparePyStr(sa, sb));
  const la = Array.isArray(a) ? a : null;
  const lb = Array.isArray(b) ? b : null;
  const ta = a instanceof JTuple ? a.items : null;
  const tb = b instanceof JTuple ? b.items : null;
  const x = la && lb ? [la, lb] : ta && tb ? [ta, tb] : null;
  if (x) {
    const [p, q] = x;
    const i = firstMismatch(p, q, pyEq);
    if (i >= p.length || i >= q.length) return test(p.length - q.length);
    if (op === 'lteq' || op === 'lt') return pyOrder('lt', p[i], q[i]);
    return pyOrder('gt', p[i], q[i]);
  }
  throw typeError(`'${CMP_SYMBOL[op]}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

export function pyLt(a: JValue, b: JValue): boolean {
  return pyOrder('lt', a, b);
}

/** Python truthiness. */
export function truthy(v: JValue): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (typeof v === 'number') return !Number.isNaN(v) ? v !== 0 : true;
  if (typeof v !== 'object') return true;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof JTuple) return v.items.length > 0;
  if (v instanceof JDict) return v.size > 0;
  if (v instanceof JUndef) return false;
  if (v instanceof JMarkup) return v.s.length > 0;
  if (v instanceof JBytes) return v.bytes.length > 0;
  if (v instanceof JRange) return v.length > 0n;
  if (v instanceof JDictView) return v.dict.size > 0;
  if (v instanceof JLoop) return v.length > 0;
  return true;
}

/** len(v), or null when the object has no __len__. */
export function tryLen(v: JValue): number | null {
  if (typeof v === 'string') return pyLen(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof JTuple) return v.items.length;
  if (v instanceof JDict) return v.size;
  if (v instanceof JUndef) return 0;
  if (v instanceof JMarkup) return pyLen(v.s);
  if (v instanceof JBytes) return v.bytes.length;
  if (v instanceof JRange) {
    const n = v.length;
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new PyError('OverflowError', 'Python int too large to convert to C ssize_t');
    return Number(n);
  }
  if (v instanceof JDictView) return v.dict.size;
  if (v instanceof JLoop) return v.length;
  return null;
}

export function pyLenOf(v: JValue): bigint {
  const n = tryLen(v);
  if (n === null) throw typeError(`object of type '${typeName(v)}' has no len()`);
  return BigInt(n);
}

export function isIterable(v: JValue): boolean {
  return (
    typeof v === 'string' ||
    Array.isArray(v) ||
    v instanceof JTuple ||
    v instanceof JDict ||
    v instanceof JDictView ||
    v instanceof JRange ||
    v instanceof JGen ||
    v instanceof JUndef ||
    v instanceof JMarkup ||
    v instanceof JBytes ||
    v instanceof JLoop
  );
}

/**
 * Python's `sorted(items, key=key, reverse=reverse)`: CPython's timsort (../py/sort), so that NaN and
 * other inconsistent orders come out as in Python; `reverse` reverses before and after sorting, as
 * CPython does to keep the sort stable.
 */
export function pySorted(items: JValue[], key: (x: JValue) => JValue, reverse: boolean): JValue[] {
  const keyed = items.map((x) => ({ x, k: key(x) }));
  if (reverse) keyed.reverse();
  const sorted = timsort(keyed, (a, b) => pyLt(a.k, b.k));
  if (reverse) sorted.reverse();
  return sorted.map((e) => e.x);
}
