/**
 * CPython's subscription and slicing as Jinja's environment.getitem meets
 * it: PySlice_Unpack/PySlice_AdjustIndices for str, list, tuple, range and
 * bytes, and obj[key] with the exceptions getitem swallows turned into FAIL.
 *
 * Residual differences: none known.
 */
import { typeError, unsupported } from './errors';
import { JBytes, JDict, JMarkup, JRange, JTuple, JUndef, JValue, hashKey, isInt, toBig, typeName } from './values';
import { PyError } from '../py/errors';
import { codePoints } from '../py/str';

export const FAIL: unique symbol = Symbol('fail');

export function sliceIndex(v: JValue | undefined): bigint | null {
  if (v === undefined || v === null) return null;
  if (isInt(v)) return toBig(v);
  if (v instanceof JUndef) throw typeError('slice indices must be integers or None or have an __index__ method');
  throw typeError('slice indices must be integers or None or have an __index__ method');
}

/** PySlice_Unpack + PySlice_AdjustIndices: the selected indices. */
export function sliceIndices(length: bigint, start: bigint | null, stop: bigint | null, step: bigint | null): bigint[] | { start: bigint; step: bigint; count: bigint } {
  const st = step ?? 1n;
  if (st === 0n) throw new PyError('ValueError', 'slice step cannot be zero');
  const adjust = (x: bigint | null, dflt: bigint, isStart: boolean): bigint => {
    if (x === null) return dflt;
    if (x < 0n) {
      x += length;
      if (x < 0n) x = st < 0n ? -1n : 0n;
    } else if (x >= length) {
      x = st < 0n ? length - 1n : length;
    }
    void isStart;
    return x;
  };
  const a = adjust(start, st < 0n ? length - 1n : 0n, true);
  const b = adjust(stop, st < 0n ? -1n : length, false);
  let count: bigint;
  if (st < 0n) count = b < a ? (a - b - 1n) / -st + 1n : 0n;
  else count = a < b ? (b - a - 1n) / st + 1n : 0n;
  return { start: a, step: st, count };
}

export function sliceValue(obj: JValue, start: JValue | undefined, stop: JValue | undefined, step: JValue | undefined): JValue {
  if (obj instanceof JUndef) throw obj.fail();
  if (obj instanceof JDict) throw typeError("unhashable type: 'slice'");
  if (obj instanceof JMarkup) {
    // Markup.__getitem__ wraps str's result.
    const v = sliceValue(obj.s, start, stop, step);
    return typeof v === 'string' ? new JMarkup(v) : v;
  }
  if (obj instanceof JBytes) throw unsupported(`slicing a ${typeName(obj)}`);
  let seq: JValue[] | string[] | null = null;
  let length: bigint;
  if (typeof obj === 'string') {
    seq = codePoints(obj);
    length = BigInt(seq.length);
  } else if (Array.isArray(obj)) {
    seq = obj;
    length = BigInt(obj.length);
  } else if (obj instanceof JTuple) {
    seq = obj.items;
    length = BigInt(obj.items.length);
  } else if (obj instanceof JRange) {
    length = obj.length;
  } else {
    throw typeError(`'${typeName(obj)}' object is not subscriptable`);
  }
  const r = sliceIndices(length, sliceIndex(start), sliceIndex(stop), sliceIndex(step)) as { start: bigint; step: bigint; count: bigint };
  if (obj instanceof JRange) {
    const s0 = obj.start + r.start * obj.step;
    const st = obj.step * r.step;
    return new JRange(s0, s0 + r.count * st, st);
  }
  const out: Array<JValue | string> = [];
  for (let i = 0n; i < r.count; i++) out.push((seq as Array<JValue | string>)[Number(r.start + i * r.step)]);
  if (typeof obj === 'string') return (out as string[]).join('');
  if (obj instanceof JTuple) return new JTuple(out);
  return out;
}

/** obj[key] with the exceptions environment.getitem swallows turned into FAIL. */
export function trySubscript(obj: JValue, key: JValue): JValue | typeof FAIL {
  if (obj instanceof JDict) {
    let id: string;
    try {
      id = hashKey(key);
    } catch (e) {
      if (e instanceof PyError) return FAIL;
      throw e;
    }
    const e = obj.map.get(id);
    return e ? e.v : FAIL;
  }
  if (obj instanceof JMarkup) {
    const v = trySubscript(obj.s, key);
    return typeof v === 'string' ? new JMarkup(v) : v;
  }
  if (obj instanceof JBytes) throw unsupported(`subscripting a ${typeName(obj)}`);
  if (typeof obj === 'string' || Array.isArray(obj) || obj instanceof JTuple || obj instanceof JRange) {
    if (!isInt(key)) return FAIL;
    let i = toBig(key);
    if (obj instanceof JRange) {
      const n = obj.length;
      if (i < 0n) i += n;
      if (i < 0n || i >= n) return FAIL;
      return obj.at(i);
    }
    const seq = typeof obj === 'string' ? codePoints(obj) : Array.isArray(obj) ? obj : obj.items;
    const n = BigInt(seq.length);
    if (i < 0n) i += n;
    if (i < 0n || i >= n) return FAIL;
    return seq[Number(i)];
  }
  return FAIL;
}
