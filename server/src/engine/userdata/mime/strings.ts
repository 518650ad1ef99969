/**
 * The few `str` operations the `email` package's modules use on header text: `rstrip(chars)`,
 * `lstrip(chars)`, `lower()` and `str.isascii()`.
 *
 * Residual difference: `lower()` uses the JavaScript engine's Unicode tables, which may differ from
 * Python 3.11's for a few rare characters.
 */

export function stripCharsRight(s: string, chars: string): string {
  let b = s.length;
  while (b > 0 && chars.includes(s[b - 1])) b--;
  return s.slice(0, b);
}

export function stripCharsLeft(s: string, chars: string): string {
  let a = 0;
  while (a < s.length && chars.includes(s[a])) a++;
  return s.slice(a);
}

export function pyLower(s: string): string {
  return s.toLowerCase();
}

export function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
}
