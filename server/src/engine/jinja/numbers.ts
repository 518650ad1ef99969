/**
 * CPython's number conversions the templates reach: exact decimal rounding
 * of doubles (round(), '%.Nf', filesizeformat), float(x) and int(x) of
 * template values (strings go to the kernel's ../py/int.ts and
 * ../py/float.ts), true division of ints.
 *
 * Residual differences: int/int true division of huge ints may differ in the
 * last bit for subnormal results.
 */
import { LIMITS, typeError, unsupported } from './errors';
import { JMarkup, JUndef, JValue, isInt, isNumber, toBig, typeName } from './values';
import { PyError } from '../py/errors';
import { pyFloatFromString } from '../py/float';

export function bitLength(v: bigint): number {
  if (v < 0n) v = -v;
  return v === 0n ? 0 : v.toString(2).length;
}

export function checkIntSize(v: bigint): bigint {
  if (bitLength(v) > LIMITS.maxIntBits) throw unsupported(`integer larger than ${LIMITS.maxIntBits} bits (limit)`);
  return v;
}

/** float(int), with Python's OverflowError. */
export function toFloat(v: bigint | boolean | number): number {
  if (typeof v === 'number') return v;
  const f = Number(toBig(v));
  if (!Number.isFinite(f)) throw new PyError('OverflowError', 'int too large to convert to float');
  return f;
}

/** Correctly rounded int / int (Python true division). */
export function intTrueDiv(a: bigint, b: bigint): number {
  if (b === 0n) throw new PyError('ZeroDivisionError', 'division by zero');
  const neg = a < 0n !== b < 0n;
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  const lim = 1n << 53n;
  let r: number;
  if (a <= lim && b <= lim) {
    r = Number(a) / Number(b);
  } else {
    const shift = 55 - (bitLength(a) - bitLength(b));
    const num = shift >= 0 ? a << BigInt(shift) : a;
    const den = shift >= 0 ? b : b << BigInt(-shift);
    let q = num / den;
    if (num % den !== 0n) q |= 1n;
    r = Number(q) * Math.pow(2, -shift);
    if (!Number.isFinite(r)) throw new PyError('OverflowError', 'integer division result too large for a float');
  }
  return neg ? -r : r;
}

export function floatFloorDivMod(vx: number, wx: number): [number, number] {
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = wx < 0 ? -0.0 : 0.0;
  }
  let floordiv: number;
  if (div) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = vx / wx < 0 || Object.is(vx / wx, -0) ? -0.0 : 0.0;
  }
  return [floordiv, mod];
}

// Exact decimal handling of doubles (for %f, round(), filesizeformat)

/** x (finite) = digits * 10**exp exactly. */
export function exactDecimal(x: number): { neg: boolean; digits: bigint; exp: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const neg = hi >>> 31 === 1;
  const e = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp2: number;
  if (e === 0) exp2 = -1074;
  else {
    m |= 1n << 52n;
    exp2 = e - 1075;
  }
  if (exp2 >= 0) return { neg, digits: m << BigInt(exp2), exp: 0 };
  return { neg, digits: m * 5n ** BigInt(-exp2), exp: exp2 };
}

/** Round x to `nd` digits after the point (nd may be negative), half to even, exactly; returns the scaled integer. */
export function roundScaled(x: number, nd: number): { neg: boolean; n: bigint } {
  const { neg, digits, exp } = exactDecimal(x);
  // value = digits * 10^exp ; we want round(value * 10^nd)
  const shift = exp + nd;
  if (shift >= 0) return { neg, n: digits * 10n ** BigInt(shift) };
  const div = 10n ** BigInt(-shift);
  let q = digits / div;
  const rem = digits % div;
  const twice = rem * 2n;
  if (twice > div || (twice === div && q % 2n === 1n)) q += 1n;
  return { neg, n: q };
}

/** '%.{prec}f' % x */
export function formatFixed(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const { neg, n } = roundScaled(x, prec);
  let s = n.toString();
  if (prec > 0) {
    s = s.padStart(prec + 1, '0');
    s = s.slice(0, s.length - prec) + '.' + s.slice(s.length - prec);
  }
  return (neg ? '-' : '') + s;
}

/** Python round(float, ndigits) */
export function roundFloat(x: number, nd: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (nd > 330) return x;
  if (nd < -330) return x < 0 || Object.is(x, -0) ? -0.0 : 0.0;
  const { neg, n } = roundScaled(x, nd);
  const s = nd >= 0 ? `${n}e-${nd}` : `${n}e${-nd}`;
  const r = Number(s);
  if (!Number.isFinite(r)) throw new PyError('OverflowError', 'rounded value too large to represent');
  return neg ? -r : r;
}

export function roundInt(v: bigint, nd: number): bigint {
  if (nd >= 0) return v;
  const p = 10n ** BigInt(-nd);
  let q = v / p;
  let rem = v % p;
  if (rem < 0n) {
    rem += p;
    q -= 1n;
  }
  const twice = rem * 2n;
  if (twice > p || (twice === p && (q % 2n === 1n || q % 2n === -1n))) q += 1n;
  return q * p;
}


/** Python int(x) for a non-str x. */
export function pyIntOf(v: JValue): bigint {
  if (v instanceof JUndef) throw v.fail();
  if (isInt(v)) return toBig(v);
  if (typeof v === 'number') {
    if (Number.isNaN(v)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
    return BigInt(Math.trunc(v));
  }
  throw typeError(`int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`);
}

/** Python float(x). */
export function pyFloatOf(v: JValue): number {
  if (v instanceof JUndef) throw v.fail();
  if (typeof v === 'string' || v instanceof JMarkup) {
    return pyFloatFromString(typeof v === 'string' ? v : v.s);
  }
  if (isNumber(v)) return toFloat(v);
  throw typeError(`float() argument must be a string or a real number, not '${typeName(v)}'`);
}
