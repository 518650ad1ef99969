/**
 * Whitespace as Python's `str.isspace()` sees it, the set `str.strip()`, `lstrip()` and `split()`
 * remove. It differs from JavaScript's trim() and `\s`: U+FEFF (a byte-order mark) is not
 * whitespace here, \x1c-\x1f and \x85 are. The engine's Python string kernel (server/src/engine/py/str.ts)
 * and the document detection both use this one table.
 */
export const PY_WHITESPACE = '\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000';

/** Index of the first character Python's `s.lstrip()` keeps, searching from `from` (s.length when none). */
export function pyLStripIndex(s: string, from = 0): number {
  let i = from;
  while (i < s.length && PY_WHITESPACE.includes(s[i])) i++;
  return i;
}
