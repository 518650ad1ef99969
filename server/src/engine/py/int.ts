/**
 * CPython 3.11's `int`: `int(s, base)` for the bases YAML and JSON use, and the limit on decimal digits
 * in int <-> str conversions (3.11.2+), with Python's messages. Shared by the YAML loader and dumper,
 * JSON, JSON patch and messages.
 *
 * Residual differences: only bases 2, 8, 10 and 16 are parsed (the only ones PyYAML and json use).
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

/** Digits (with single underscores between them) and optional prefix of Python's int() per base. */
const INT_SYNTAX: Record<number, { prefix: RegExp | null; digits: RegExp }> = {
  2: { prefix: /^0[bB]_?/, digits: /^[01]+(?:_[01]+)*$/ },
  8: { prefix: /^0[oO]_?/, digits: /^[0-7]+(?:_[0-7]+)*$/ },
  10: { prefix: null, digits: /^[0-9]+(?:_[0-9]+)*$/ },
  16: { prefix: /^0[xX]_?/, digits: /^[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*$/ },
};

/** Python's `int(s, base)` for bases 2, 8, 10 and 16; a PyError('ValueError') where Python raises one. */
export function pyIntFromString(s: string, base: 2 | 8 | 10 | 16): bigint {
  // CPython formats the literal with %.200R: its repr, cut to 200 characters.
  const bad = () => new PyError('ValueError', `invalid literal for int() with base ${base}: ${[...pyStrRepr(s)].slice(0, 200).join('')}`);
  let t = pyNumberText(s);
  let negative = false;
  if (t[0] === '+' || t[0] === '-') {
    negative = t[0] === '-';
    t = t.slice(1);
  }
  const syntax = INT_SYNTAX[base];
  if (syntax.prefix && syntax.prefix.test(t)) t = t.replace(syntax.prefix, '');
  if (!syntax.digits.test(t)) throw bad();
  if (t.includes('_')) t = t.replace(/_/g, '');
  if (base === 10 && t.length > PY_INT_MAX_STR_DIGITS) throw intDigitLimitError(t.length);
  const prefixed = base === 16 ? '0x' + t : base === 8 ? '0o' + t : base === 2 ? '0b' + t : t;
  const n = BigInt(prefixed);
  return negative ? -n : n;
}
