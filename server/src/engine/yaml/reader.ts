/**
 * PyYAML's `reader.py`, as far as a str input needs it: the printable-character check
 * ("unacceptable character #x...: special characters are not allowed") and the character classes
 * the scanner tests (as char codes; the reader rejects NUL, so 0 stands for PyYAML's '\0' end
 * sentinel). A BOM at offset 0 is skipped by the scanner; anywhere else it has zero width for
 * column counting, as in PyYAML.
 */


// ---------------------------------------------------------------------------
// Character classes (char codes). The reader check rejects NUL, so 0 is used
// for "end of text", like PyYAML's '\0' sentinel.

export const enum C {
  EOF = 0,
  TAB = 9,
  LF = 10,
  CR = 13,
  SPACE = 32,
  NEL = 0x85,
  LS = 0x2028,
  PS = 0x2029,
  BOM = 0xfeff,
}

/** '\r\n\x85\u2028\u2029' */
export function isBreak(c: number): boolean {
  return c === C.LF || c === C.CR || c === C.NEL || c === C.LS || c === C.PS;
}
/** '\0\r\n\x85\u2028\u2029' */
export function isBreakZ(c: number): boolean {
  return c === C.EOF || isBreak(c);
}
/** '\0 \t\r\n\x85\u2028\u2029' */
export function isBlankZ(c: number): boolean {
  return c === C.SPACE || c === C.TAB || isBreakZ(c);
}
/** '\0 \r\n\x85\u2028\u2029' (no tab) */
export function isSpaceZ(c: number): boolean {
  return c === C.SPACE || isBreakZ(c);
}
/** [0-9A-Za-z_-] */
export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95;
}
export function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
/** Characters allowed in tag URIs besides [0-9A-Za-z]. */
export const URI_CHARS = new Set(Array.from("-;/?:@&=+$,_.!~*'()[]%", (ch) => ch.charCodeAt(0)));

export const NON_PRINTABLE = /[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

export function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}
