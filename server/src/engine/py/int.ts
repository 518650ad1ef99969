/**
 * CPython 3.11's `int`: `int(s, base)` (base 0 and 2 to 36) and the limit on decimal digits in
 * int <-> str conversions (3.11.2+), with Python's messages. Shared by the YAML loader and dumper,
 * JSON, JSON patch, Jinja's `int` filter and messages.
 *
 * Residual differences: Unicode decimal digits follow the JS engine's tables (Unicode 15, Python 3.11
 * has 14).
 */
import { PyError } from './errors';
import { pyStrRepr } from './repr';

/** CPython's default limit on decimal digits in int <-> str conversions (`sys.int_info.default_max_str_digits`). */
export const PY_INT_MAX_STR_DIGITS = 4300;

/** The ValueError over the digit limit; str -> int says how many digits the value has, int -> str does not. */
export function intDigitLimitError(digits: number | null): PyError {
  const has = digits === null ? '' : `: value has ${digits} digits`;
  return new PyError('ValueError', `Exceeds the limit (${PY_INT_MAX_STR_DIGITS} digits) for integer string conversion${has}; use sys.set_int_max_str_digits() to increase the limit`);
}

/** `str(int)` / `repr(int)`, including CPython's digit limit. */
export function pyIntStr(n: bigint): string {
  const s = n.toString();
  const digits = s.startsWith('-') ? s.length - 1 : s.length;
  if (digits > PY_INT_MAX_STR_DIGITS) throw intDigitLimitError(null);
  return s;
}

/** Characters Python's `str.strip()` removes, at either end. */
const PY_SPACE_ENDS = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
const ND = /\p{Nd}/u;

/** Python turns Unicode decimal digits into ASCII ones before parsing numbers (`int('١٢')` is 12). */
export function asciiDigits(s: string): string {
  if (!/[^\x00-\x7f]/.test(s)) return s;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (cp > 0x7f && ND.test(ch)) {
      // Decimal digits come in runs of ten starting at zero.
      let first = cp;
      while (first > 0 && ND.test(String.fromCodePoint(first - 1))) first--;
      out += String((cp - first) % 10);
    } else {
      out += ch;
    }
  }
  return out;
}

/** The number text as Python's int() and float() see it: Unicode digits as ASCII, surrounding white space gone. */
export function pyNumberText(s: string): string {
  return asciiDigits(s).replace(PY_SPACE_ENDS, '');
}

const ASCII_DECIMAL = /^[0-9]+$/;

const PREFIX_BASES: Record<string, number> = { '0x': 16, '0o': 8, '0b': 2 };

/**
 * Python's `int(s, base)` for base 0 (the prefix decides) and 2 to 36; a PyError('ValueError') where
 * Python raises one, the digit limit included (it applies to bases that are not powers of two).
 */
export function pyIntFromString(s: string, base: number): bigint {
  // Plain ASCII decimal digits (what YAML ints mostly are): nothing to strip, check or convert.
  if (base === 10 && s.length <= PY_INT_MAX_STR_DIGITS && ASCII_DECIMAL.test(s)) return BigInt(s);
  // CPython formats the literal with %.200R: its repr, cut to 200 characters.
  const bad = () => new PyError('ValueError', `invalid literal for int() with base ${base}: ${[...pyStrRepr(s)].slice(0, 200).join('')}`);
  let t = pyNumberText(s);
  let negative = false;
  if (t[0] === '+' || t[0] === '-') {
    negative = t[0] === '-';
    t = t.slice(1);
  }
  const prefix = t.slice(0, 2).toLowerCase();
  let b = base;
  if (b === 0) {
    b = PREFIX_BASES[prefix] ?? 10;
    // Base 0 refuses leading zeros, except in zero itself.
    if (b === 10 && t[0] === '0') {
      if (/^0+(?:_?0)*$/.test(t)) return 0n;
      throw bad();
    }
  }
  if (PREFIX_BASES[prefix] === b) t = t.slice(t[2] === '_' ? 3 : 2);
  if (!t || t.startsWith('_') || t.endsWith('_') || t.includes('__')) throw bad();
  const digits = (t.includes('_') ? t.replace(/_/g, '') : t).toLowerCase();
  const valid = DIGIT_CHARS.slice(0, b);
  for (let i = 0; i < digits.length; i++) if (!valid.includes(digits[i])) throw bad();
  if ((b & (b - 1)) !== 0 && digits.length > PY_INT_MAX_STR_DIGITS) throw intDigitLimitError(digits.length);
  const n = b === 10 ? BigInt(digits) : b === 16 ? BigInt('0x' + digits) : b === 8 ? BigInt('0o' + digits) : b === 2 ? BigInt('0b' + digits) : otherBase(digits, b);
  return negative ? -n : n;
}

const DIGIT_CHARS = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Validated digits in a base other than 2, 8, 10 and 16 (at most the digit limit, or a power of two). */
function otherBase(digits: string, base: number): bigint {
  if ((base & (base - 1)) === 0) {
    const bits = Math.log2(base);
    let binary = '';
    for (const ch of digits) binary += DIGIT_CHARS.indexOf(ch).toString(2).padStart(bits, '0');
    return BigInt('0b' + (binary || '0'));
  }
  let n = 0n;
  const big = BigInt(base);
  for (const ch of digits) n = n * big + BigInt(DIGIT_CHARS.indexOf(ch));
  return n;
}
