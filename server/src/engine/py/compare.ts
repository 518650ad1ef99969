/**
 * CPython's comparisons across the value model of ../values: `==` (`pyEq`), `<` (`pyLess`, which
 * throws `PyIncomparable` where Python raises TypeError), and the orders underneath: numbers across
 * bool/int/float exactly, str by code point, bytes, dates and datetimes. Shared by the YAML dumper
 * (sorted keys), the mergers (`in`), JSON patch and the JSON output.
 *
 * Residual differences: `==` on two containers holding the same NaN object is True in Python (identity
 * shortcut); the value model does not keep NaN identities, so it is False here.
 */
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from './values';
import { timestampKey } from './datetime';
import { comparePyStr } from './str';

/** Where Python's `<` raises TypeError ('<' not supported between instances of ...). */
export class PyIncomparable extends Error {
  constructor() {
    super('not comparable');
  }
}

export function isNumeric(v: PyValue): v is boolean | bigint | number {
  const t = typeof v;
  return t === 'boolean' || t === 'bigint' || t === 'number';
}

/** Python's `a < b` for hashable values; throws Incomparable for TypeError. */
export function pyLess(a: PyValue, b: PyValue): boolean {
  if (isNumeric(a) && isNumeric(b)) return numCompare(a, b) < 0;
  if (typeof a === 'string' && typeof b === 'string') return comparePyStr(a, b) < 0;
  if (a instanceof PyBytes && b instanceof PyBytes) return bytesCompare(a.bytes, b.bytes) < 0;
  if (a instanceof PyTimestamp && b instanceof PyTimestamp) return tsCompare(a, b) < 0;
  if ((a instanceof PyTuple && b instanceof PyTuple) || (Array.isArray(a) && Array.isArray(b))) {
    const x = a instanceof PyTuple ? a.items : a;
    const y = b instanceof PyTuple ? b.items : b;
    const i = firstMismatch(x, y, pyEq);
    return i < x.length && i < y.length ? pyLess(x[i], y[i]) : x.length < y.length;
  }
  throw new PyIncomparable();
}

/**
 * Where list/tuple comparison decides: the first index whose items are not `==` (identical items
 * count as equal, as PyObject_RichCompareBool does), or the shorter length when one is a prefix.
 * Shared with Jinja's value model, whose `eq` knows its own types.
 */
export function firstMismatch<T>(x: readonly T[], y: readonly T[], eq: (a: T, b: T) => boolean): number {
  const n = Math.min(x.length, y.length);
  let i = 0;
  while (i < n && (x[i] === y[i] || eq(x[i], y[i]))) i++;
  return i;
}

/** Python's `a == b` for two lists (or two tuples) of any value model. */
export function sequenceEq<T>(x: readonly T[], y: readonly T[], eq: (a: T, b: T) => boolean): boolean {
  return x.length === y.length && firstMismatch(x, y, eq) === x.length;
}

/** Numeric comparison of Python bool/int/float; NaN yields NaN (all comparisons false). */
export function numCompare(a: boolean | bigint | number, b: boolean | bigint | number): number {
  const x = typeof a === 'boolean' ? (a ? 1n : 0n) : a;
  const y = typeof b === 'boolean' ? (b ? 1n : 0n) : b;
  if (typeof x === 'bigint' && typeof y === 'bigint') return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : x > y ? 1 : x === y ? 0 : NaN;
  if (typeof x === 'bigint') return -numCompare(y, x);
  // x float, y int: exact comparison.
  const f = x;
  const i = y as bigint;
  if (Number.isNaN(f)) return NaN;
  if (f === Infinity) return 1;
  if (f === -Infinity) return -1;
  if (Number.isInteger(f)) {
    const fi = BigInt(f);
    return fi < i ? -1 : fi > i ? 1 : 0;
  }
  // f is not an integer: f < i  <=>  floor(f) < i.
  return BigInt(Math.floor(f)) < i ? -1 : 1;
}

export function bytesCompare(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

function lexCompare(x: number[], y: number[]): number {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/** date vs date, naive vs naive, aware vs aware (by instant); anything else is a TypeError. */
export function tsCompare(a: PyTimestamp, b: PyTimestamp): number {
  if (a.kind !== b.kind) throw new PyIncomparable();
  if (a.kind === 'date') return lexCompare([a.year, a.month, a.day], [b.year, b.month, b.day]);
  const naiveA = a.offsetMinutes === null;
  if (naiveA !== (b.offsetMinutes === null)) throw new PyIncomparable();
  return lexCompare(timestampKey(a), timestampKey(b));
}

/**
 * Python's `a == b` (deep for containers; no identity shortcut for NaN, so `nan == nan` is False).
 * A date never equals a datetime, nor a naive datetime an aware one.
 */
export function pyEq(a: PyValue, b: PyValue): boolean {
  if (a === b) return true;
  if (isNumeric(a) && isNumeric(b)) return numCompare(a, b) === 0;
  if (a instanceof PyBytes && b instanceof PyBytes) return bytesCompare(a.bytes, b.bytes) === 0;
  if (a instanceof PyTimestamp && b instanceof PyTimestamp) {
    if (a.kind !== b.kind || (a.offsetMinutes === null) !== (b.offsetMinutes === null)) return false;
    return tsCompare(a, b) === 0;
  }
  if ((a instanceof PyTuple && b instanceof PyTuple) || (Array.isArray(a) && Array.isArray(b))) {
    const x = a instanceof PyTuple ? a.items : a;
    const y = b instanceof PyTuple ? b.items : b;
    return sequenceEq(x, y, pyEq);
  }
  if (a instanceof PyDict && b instanceof PyDict) {
    if (a.size !== b.size) return false;
    for (const { key, value } of a.items()) {
      if (!b.has(key) || !pyEq(value, b.get(key) as PyValue)) return false;
    }
    return true;
  }
  if (a instanceof PySet && b instanceof PySet) return a.size === b.size && a.values().every((x) => b.has(x));
  return false;
}
