/**
 * Python's operators on template values (CPython Objects/abstract.c,
 * longobject.c, floatobject.c, the sequence repeat/concat of list, tuple and
 * str): + - * / // % ** and unary minus/plus, with Python's result types and
 * TypeError/ZeroDivisionError/OverflowError messages; `str % args` goes to
 * ./pypercent.ts.
 *
 * Residual differences: integers over LIMITS.maxIntBits bits are refused as
 * unsupported (Python would compute them).
 */
import { pushAll } from '../arrays';
import { LIMITS, typeError, unsupported } from './errors';
import { htmlEscape } from './markup';
import { bitLength, checkIntSize, floatFloorDivMod, intTrueDiv, toFloat } from './numbers';
import { pyPercentFormat } from './pypercent';
import { Renderer } from './runtime';
import { JFunc, JMarkup, JTuple, JUndef, JValue, isInt, isNumber, pyStr, toBig, typeName } from './values';
import { PyError } from '../py/errors';


export function floatPow(a: number, b: number): JValue {
  if (b === 0) return 1.0;
  if (Number.isNaN(a)) return a === 1 ? 1.0 : NaN;
  if (Number.isNaN(b)) return a === 1.0 ? 1.0 : NaN;
  if (a === 0 && b < 0) throw new PyError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
  if (a < 0 && Number.isFinite(a) && Number.isFinite(b) && Math.floor(b) !== b) {
    throw unsupported('complex number result of ** (negative base, fractional exponent)');
  }
  if (a === -1 && !Number.isFinite(b)) return 1.0;
  if (a === 1) return 1.0;
  const r = Math.pow(a, b);
  if (!Number.isFinite(r) && Number.isFinite(a) && Number.isFinite(b)) {
    throw new PyError('OverflowError', "(34, 'Numerical result out of range')");
  }
  return r;
}

export function unsupportedOperands(sym: string, a: JValue, b: JValue): PyError {
  return typeError(`unsupported operand type(s) for ${sym}: '${typeName(a)}' and '${typeName(b)}'`);
}

export type BinOp = 'add' | 'sub' | 'mul' | 'div' | 'floordiv' | 'mod' | 'pow';
export const BINOP_SYMBOL: Record<BinOp, string> = { add: '+', sub: '-', mul: '*', div: '/', floordiv: '//', mod: '%', pow: '**' };

export function repeatCount(n: bigint | boolean, unitLen: number): number {
  const k = toBig(n);
  if (k <= 0n) return 0;
  if (unitLen === 0) return 0;
  if (k * BigInt(unitLen) > BigInt(LIMITS.maxValueSize)) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
  return Number(k);
}

/** Python binary arithmetic. */
export function binop(op: BinOp, a: JValue, b: JValue, r: Renderer): JValue {
  if (a instanceof JUndef) {
    if (op === 'sub' && a.kind === 'ci') {
      const other = pyStr(b).split('CI_MISSING_JINJA_VAR/').join('');
      const self = pyStr(a.name);
      throw typeError(
        `Undefined jinja variable: "${self}-${other}". Jinja tried subtraction. Perhaps you meant "${self}_${other}"?`,
      );
    }
    throw a.fail();
  }
  if (op === 'mod' && (typeof a === 'string' || a instanceof JMarkup)) {
    if (a instanceof JMarkup) throw unsupported('% formatting of a Markup value');
    return pyPercentFormat(a, b, r);
  }
  if (b instanceof JUndef) throw b.fail();
  if (a instanceof JMarkup || b instanceof JMarkup) {
    // Markup.__add__/__radd__ escape the str side; Markup * int repeats.
    const isStrLike = (x: JValue) => typeof x === 'string' || x instanceof JMarkup;
    const esc = (x: JValue) => (x instanceof JMarkup ? x.s : htmlEscape(x as string));
    if (op === 'add' && isStrLike(a) && isStrLike(b)) {
      const out = esc(a) + esc(b);
      if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return new JMarkup(out);
    }
    if (op === 'mul' && (a instanceof JMarkup ? isInt(b) : isInt(a))) {
      const m = (a instanceof JMarkup ? a : b) as JMarkup;
      const k = repeatCount((a instanceof JMarkup ? b : a) as bigint | boolean, m.s.length);
      return new JMarkup(m.s.repeat(k));
    }
    if (op === 'add' || op === 'mul') {
      const other = a instanceof JMarkup ? b : a;
      if (!(other instanceof JMarkup) && !isStrLike(other)) {
        if (op === 'add') throw typeError(`unsupported operand type(s) for +: '${typeName(a)}' and '${typeName(b)}'`);
      }
    }
    if ((op === 'sub' || op === 'div' || op === 'floordiv' || op === 'pow') && !(a instanceof JUndef) && !(b instanceof JUndef)) throw unsupportedOperands(op === 'pow' ? '** or pow()' : BINOP_SYMBOL[op], a, b);
    throw unsupported(`arithmetic on a Markup value (${BINOP_SYMBOL[op]})`);
  }
  const sym = BINOP_SYMBOL[op];
  if (isNumber(a) && isNumber(b)) {
    if (isInt(a) && isInt(b)) {
      const x = toBig(a);
      const y = toBig(b);
      switch (op) {
        case 'add':
          return checkIntSize(x + y);
        case 'sub':
          return checkIntSize(x - y);
        case 'mul':
          if (bitLength(x) + bitLength(y) > LIMITS.maxIntBits + 1) throw unsupported(`integer larger than ${LIMITS.maxIntBits} bits (limit)`);
          return checkIntSize(x * y);
        case 'div':
          return intTrueDiv(x, y);
        case 'floordiv':
        case 'mod': {
          if (y === 0n) {
            throw new PyError('ZeroDivisionError', op === 'mod' ? 'integer modulo by zero' : 'integer division or modulo by zero');
          }
          let q = x / y;
          let m = x % y;
          if (m !== 0n && m < 0n !== y < 0n) {
            q -= 1n;
            m += y;
          }
          return op === 'mod' ? m : q;
        }
        case 'pow': {
          if (y < 0n) {
            return floatPow(toFloat(x), toFloat(y));
          }
          if (x === 0n || x === 1n) return y === 0n ? 1n : x;
          if (x === -1n) return y % 2n === 0n ? 1n : -1n;
          if (BigInt(bitLength(x)) * y > BigInt(LIMITS.maxIntBits)) {
            throw unsupported(`integer larger than ${LIMITS.maxIntBits} bits (limit)`);
          }
          return x ** y;
        }
      }
    }
    const x = toFloat(a);
    const y = toFloat(b);
    switch (op) {
      case 'add':
        return x + y;
      case 'sub':
        return x - y;
      case 'mul':
        return x * y;
      case 'div':
        if (y === 0) throw new PyError('ZeroDivisionError', 'float division by zero');
        return x / y;
      case 'floordiv':
        if (y === 0) throw new PyError('ZeroDivisionError', 'float floor division by zero');
        return floatFloorDivMod(x, y)[0];
      case 'mod':
        if (y === 0) throw new PyError('ZeroDivisionError', 'float modulo');
        return floatFloorDivMod(x, y)[1];
      case 'pow':
        return floatPow(x, y);
    }
  }
  if (op === 'add') {
    if (typeof a === 'string') {
      if (typeof b !== 'string') throw typeError(`can only concatenate str (not "${typeName(b)}") to str`);
      if (a.length + b.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return a + b;
    }
    if (Array.isArray(a)) {
      if (!Array.isArray(b)) throw typeError(`can only concatenate list (not "${typeName(b)}") to list`);
      if (a.length + b.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return [...a, ...b];
    }
    if (a instanceof JTuple) {
      if (!(b instanceof JTuple)) throw typeError(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
      return new JTuple([...a.items, ...b.items]);
    }
    throw unsupportedOperands(sym, a, b);
  }
  if (op === 'mul') {
    const seqTimes = (s: JValue, n: JValue): JValue => {
      if (!isInt(n)) throw typeError(`can't multiply sequence by non-int of type '${n instanceof JFunc ? n.typeName : typeName(n)}'`);
      if (typeof s === 'string') return s.repeat(repeatCount(n, s.length));
      const items = Array.isArray(s) ? s : (s as JTuple).items;
      const k = repeatCount(n, items.length);
      const out: JValue[] = [];
      for (let i = 0; i < k; i++) pushAll(out, items);
      return Array.isArray(s) ? out : new JTuple(out);
    };
    const isSeq = (x: JValue) => typeof x === 'string' || Array.isArray(x) || x instanceof JTuple;
    if (isSeq(a)) return seqTimes(a, b);
    if (isSeq(b)) return seqTimes(b, a);
    throw unsupportedOperands(sym, a, b);
  }
  if (op === 'pow') throw typeError(`unsupported operand type(s) for ** or pow(): '${typeName(a)}' and '${typeName(b)}'`);
  throw unsupportedOperands(sym, a, b);
}

export function unaryop(op: 'neg' | 'pos', v: JValue): JValue {
  if (v instanceof JUndef) throw v.fail();
  if (isInt(v)) return op === 'neg' ? -toBig(v) : toBig(v);
  if (typeof v === 'number') return op === 'neg' ? -v : v;
  throw typeError(`bad operand type for unary ${op === 'neg' ? '-' : '+'}: '${typeName(v)}'`);
}
