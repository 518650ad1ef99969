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

/** Python's `<` on str: by code point (JavaScript's default sort compares UTF-16 units). */
export function comparePyStr(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done && y.done ? 0 : x.done ? -1 : 1;
    const cx = x.value.codePointAt(0) as number;
    const cy = y.value.codePointAt(0) as number;
    if (cx !== cy) return cx - cy;
  }
}

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
