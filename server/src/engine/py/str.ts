/** Python `str` methods whose Unicode rules differ from JavaScript's. */
import { PyError } from './errors';
import { PY_WHITESPACE, pyLStripIndex } from '../../../../common/pyWhitespace';

/** Characters for which Python's `str.isspace()` is true (shared with the document detection in common/). */
const PY_SPACE = PY_WHITESPACE;

export function isPySpace(ch: string): boolean {
  return ch.length > 0 && PY_SPACE.includes(ch);
}

/** Python `s.strip()` with no argument (JavaScript's trim also strips U+FEFF). */
export function pyStrip(s: string): string {
  const [start, end] = pyStripSpan(s);
  return s.slice(start, end);
}

/** Offsets [start, end) of `pyStrip(s)` inside s. */
export function pyStripSpan(s: string): [number, number] {
  let start = 0;
  let end = s.length;
  while (start < end && PY_SPACE.includes(s[start])) start++;
  while (end > start && PY_SPACE.includes(s[end - 1])) end--;
  return [start, end];
}

export function pyRStrip(s: string): string {
  return pyRStripChars(s, PY_SPACE);
}

/** Python's `s.rstrip(chars)`: in linear time, where a regex like /[ \t]+$/ retries at every character of a long run. */
export function pyRStripChars(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1])) end--;
  return s.slice(0, end);
}

export function pyLStrip(s: string): string {
  return s.slice(pyLStripIndex(s));
}

/** Python `str.lower()`: full Unicode lower-casing, like `toLowerCase` without locale. */
export function pyLower(s: string): string {
  return s.toLowerCase();
}

/** Python's `str` ordering: by code point (JavaScript's `<` orders by UTF-16 unit). */
export function comparePyStr(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    // Compare whole code points; when the first difference is in the low half
    // of a pair, the code point starts one unit earlier (shared by a and b).
    const at = i > 0 && isHigh(a.charCodeAt(i - 1)) && (isLow(x) || isLow(y)) ? i - 1 : i;
    const xv = a.codePointAt(at) as number;
    const yv = b.codePointAt(at) as number;
    if (xv !== yv) return xv < yv ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** UTF-16 surrogates: where a string's code points and UTF-16 units differ. */
export const SURROGATE = /[\uD800-\uDFFF]/;

/** Python `s.split(sep, maxsplit)` for a non-empty separator. */
export function pySplitMax(s: string, sep: string, maxsplit: number): string[] {
  const out: string[] = [];
  let pos = 0;
  while (out.length < maxsplit) {
    const i = s.indexOf(sep, pos);
    if (i < 0) break;
    out.push(s.slice(pos, i));
    pos = i + sep.length;
  }
  out.push(s.slice(pos));
  return out;
}

// Strings: Python semantics on code points

/** The same set as the body of a regular-expression character class. */
export const PY_SPACE_CLASS_BODY = [...PY_SPACE].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
export const PY_WS_CLASS = `[${PY_SPACE_CLASS_BODY}]`;
export const RE_WS_RUN = new RegExp(`${PY_WS_CLASS}+`);

export function isPySpaceText(ch: string): boolean {
  return ch.length > 0 && new RegExp(`^${PY_WS_CLASS}+$`).test(ch);
}

export function codePoints(s: string): string[] {
  return SURROGATE.test(s) ? Array.from(s) : s.split('');
}

export function pyLen(s: string): number {
  if (!SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export function pyStripChars(s: string, chars: string | null, left: boolean, right: boolean): string {
  const arr = codePoints(s);
  const isStrip = chars === null ? (c: string) => isPySpaceText(c) : (c: string) => chars.includes(c);
  let a = 0;
  let b = arr.length;
  if (left) while (a < b && isStrip(arr[a])) a++;
  if (right) while (b > a && isStrip(arr[b - 1])) b--;
  return arr.slice(a, b).join('');
}

export const SPLITLINES_RE = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

export function pySplitLines(s: string, keepends = false): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest.length) {
    const m = SPLITLINES_RE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    out.push(rest.slice(0, keepends ? m.index + m[0].length : m.index));
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

export function pyReplace(s: string, old: string, neu: string, count: number): string {
  if (count < 0) count = Infinity;
  if (old === '') {
    const arr = codePoints(s);
    let out = '';
    let n = 0;
    for (let i = 0; i <= arr.length; i++) {
      if (n < count) {
        out += neu;
        n++;
      }
      if (i < arr.length) out += arr[i];
    }
    return out;
  }
  let out = '';
  let pos = 0;
  let n = 0;
  while (n < count) {
    const i = s.indexOf(old, pos);
    if (i < 0) break;
    out += s.slice(pos, i) + neu;
    pos = i + old.length;
    n++;
  }
  return out + s.slice(pos);
}

export function pySplit(s: string, sep: string | null, maxsplit: number): string[] {
  if (maxsplit < 0) maxsplit = Infinity;
  if (sep === null) {
    const out: string[] = [];
    let rest = pyStripChars(s, null, true, false);
    while (rest.length) {
      if (out.length >= maxsplit) {
        out.push(rest);
        return out;
      }
      const m = RE_WS_RUN.exec(rest);
      if (!m) {
        out.push(rest);
        return out;
      }
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    return out;
  }
  if (sep === '') throw new PyError('ValueError', 'empty separator');
  return pySplitMax(s, sep, maxsplit);
}

export function pyRsplit(s: string, sep: string | null, maxsplit: number): string[] {
  if (maxsplit < 0) return pySplit(s, sep, maxsplit);
  if (sep === null) {
    const out: string[] = [];
    let rest = pyStripChars(s, null, false, true);
    while (rest.length) {
      if (out.length >= maxsplit) {
        out.unshift(rest);
        return out;
      }
      const m = new RegExp(`${PY_WS_CLASS}+(?=[^${PY_SPACE_CLASS_BODY}]*$)`).exec(rest);
      if (!m) {
        out.unshift(rest);
        return out;
      }
      out.unshift(rest.slice(m.index + m[0].length));
      rest = rest.slice(0, m.index);
    }
    return out;
  }
  if (sep === '') throw new PyError('ValueError', 'empty separator');
  const out: string[] = [];
  let end = s.length;
  while (out.length < maxsplit) {
    const i = end - sep.length >= 0 ? s.lastIndexOf(sep, end - sep.length) : -1;
    if (i < 0) break;
    out.unshift(s.slice(i + sep.length, end));
    end = i;
  }
  out.unshift(s.slice(0, end));
  return out;
}

export function isCased(c: string): boolean {
  return c.toLowerCase() !== c.toUpperCase();
}
export function pyIsLower(s: string): boolean {
  let cased = false;
  for (const c of s) {
    if (!isCased(c)) continue;
    if (c !== c.toLowerCase() || c === c.toUpperCase()) return false;
    cased = true;
  }
  return cased;
}
export function pyIsUpper(s: string): boolean {
  let cased = false;
  for (const c of s) {
    if (!isCased(c)) continue;
    if (c !== c.toUpperCase() || c === c.toLowerCase()) return false;
    cased = true;
  }
  return cased;
}

export function pyCapitalize(s: string): string {
  const arr = codePoints(s);
  if (!arr.length) return '';
  return arr[0].toUpperCase() + arr.slice(1).join('').toLowerCase();
}

