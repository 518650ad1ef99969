/** Python `str` methods whose Unicode rules differ from JavaScript's. */

/** Characters for which Python's `str.isspace()` is true. */
const PY_SPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

export function isPySpace(ch: string): boolean {
  return ch.length > 0 && PY_SPACE.includes(ch);
}

/** Python `s.strip()` with no argument (JavaScript's trim also strips U+FEFF). */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && PY_SPACE.includes(s[start])) start++;
  while (end > start && PY_SPACE.includes(s[end - 1])) end--;
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
  let end = s.length;
  while (end > 0 && PY_SPACE.includes(s[end - 1])) end--;
  return s.slice(0, end);
}

export function pyLStrip(s: string): string {
  let start = 0;
  while (start < s.length && PY_SPACE.includes(s[start])) start++;
  return s.slice(start);
}

/** Python `str.lower()`: full Unicode lower-casing, like `toLowerCase` without locale. */
export function pyLower(s: string): string {
  return s.toLowerCase();
}

/** Python `str.splitlines()` (keepends=False). */
export function pySplitLines(s: string): string[] {
  const lines: string[] = [];
  const re = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    lines.push(s.slice(last, m.index));
    last = m.index + m[0].length;
  }
  if (last < s.length) lines.push(s.slice(last));
  return lines;
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
