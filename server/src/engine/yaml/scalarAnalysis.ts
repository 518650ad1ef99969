/**
 * PyYAML's `Emitter.analyze_scalar` and the scalar helpers around it (which styles a str may take, its
 * escapes, block-scalar hints, simple-key checks): what the emitter asks of a scalar before writing it.
 * Printable ASCII, the common case, is classified by a few regexes and lookup tables; `analyzeStepwise`
 * is PyYAML's character loop, kept for everything else and as the reference the tests compare against.
 */
import { SURROGATE } from '../py/str';

/** A scalar's text as Python characters: the string itself when it has no surrogates. */
export type Chars = string | string[];


export interface Analysis {
  scalar: Chars;
  empty: boolean;
  multiline: boolean;
  allowFlowPlain: boolean;
  allowBlockPlain: boolean;
  allowSingleQuoted: boolean;
  allowBlock: boolean;
}

export const isBreak = (ch: string): boolean => ch === '\n' || ch === '\x85' || ch === '\u2028' || ch === '\u2029';
export const isBreakCode = (c: number): boolean => c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029;
const isSpaceOrBreakOrNulCode = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0 || isBreakCode(c);
/** ASCII characters that are indicators as a scalar's first character, and anywhere in flow context. */
const FIRST_INDICATOR = 1;
const FLOW_INDICATOR = 2;
const INDICATORS = new Uint8Array(128);
for (const ch of '#,[]{}&*!|>\'"%@`') INDICATORS[ch.charCodeAt(0)] |= FIRST_INDICATOR;
for (const ch of ',?[]{}') INDICATORS[ch.charCodeAt(0)] |= FLOW_INDICATOR;
const indicatorsOf = (c: number): number => (c < 128 ? INDICATORS[c] : 0);

/**
 * Strings the full analysis below would find harmless in every style: no
 * indicator, whitespace only inside, printable ASCII. The common case
 * (package names, paths, words).
 */
const SAFE_FIRST = 1;
const SAFE_INSIDE = 2;
const SAFE_LAST = 4;
const PLAIN_SAFE = new Uint8Array(128);
for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./') PLAIN_SAFE[ch.charCodeAt(0)] = SAFE_FIRST | SAFE_INSIDE | SAFE_LAST;
for (const ch of '-=+') PLAIN_SAFE[ch.charCodeAt(0)] = SAFE_INSIDE | SAFE_LAST;
PLAIN_SAFE[0x20] = SAFE_INSIDE;

/** allow_unicode is off: anything but printable ASCII and the line feed is special. */
const NOT_PRINTABLE_ASCII = /[^\n\x20-\x7e]/;
const ANY_BREAK = /[\n\x85\u2028\u2029]/;

/**
 * The indicators of analyze_scalar in one line of printable ASCII (where the only whitespace is the
 * space, and the end of the text counts as whitespace after a character): a document marker or an
 * indicator first; a flow indicator or `:` later (flow); `:` before whitespace; `#` after a space.
 */
const FLOW_INDICATORS = /^(?:---|\.\.\.|[#,[\]{}&*!|>'"%@`?:]|-(?: |$))|.[,?[\]{}:]| #/;
const BLOCK_INDICATORS = /^(?:---|\.\.\.|[#,[\]{}&*!|>'"%@`]|[?:-](?: |$))|:(?: |$)| #/;

/** A first character in [A-Za-z0-9_./], then [-A-Za-z0-9_./=+ ], none last but a space; not `...` first. */
export function isPlainSafe(value: string): boolean {
  const n = value.length;
  if (n === 0) return false;
  let c = value.charCodeAt(0);
  if (c >= 128 || (PLAIN_SAFE[c] & SAFE_FIRST) === 0) return false;
  for (let i = 1; i < n - 1; i++) {
    c = value.charCodeAt(i);
    if (c >= 128 || (PLAIN_SAFE[c] & SAFE_INSIDE) === 0) return false;
  }
  if (n > 1) {
    c = value.charCodeAt(n - 1);
    if (c >= 128 || (PLAIN_SAFE[c] & SAFE_LAST) === 0) return false;
  }
  return !value.startsWith('...');
}

export function analyzeScalar(value: string): Analysis {
  if (isPlainSafe(value)) {
    return {
      scalar: value,
      empty: false,
      multiline: false,
      allowFlowPlain: true,
      allowBlockPlain: true,
      allowSingleQuoted: true,
      allowBlock: true,
    };
  }
  const scalar: Chars = SURROGATE.test(value) ? Array.from(value) : value;
  const n = scalar.length;
  if (n === 0) {
    return {
      scalar,
      empty: true,
      multiline: false,
      allowFlowPlain: false,
      allowBlockPlain: true,
      allowSingleQuoted: true,
      allowBlock: false,
    };
  }
  if (typeof scalar === 'string') {
    // Long texts (file contents, scripts) settle without the loop: with a special character or a line
    // break, or a space at either end, no plain style is allowed, whatever the indicators.
    const special = NOT_PRINTABLE_ASCII.test(value);
    const multiline = special ? ANY_BREAK.test(value) : value.includes('\n');
    if (special) {
      return { scalar, empty: false, multiline, allowFlowPlain: false, allowBlockPlain: false, allowSingleQuoted: false, allowBlock: false };
    }
    const trailingSpace = value.charCodeAt(n - 1) === 0x20;
    if (multiline || trailingSpace || value.charCodeAt(0) === 0x20) {
      const breakSpace = multiline && value.includes('\n ');
      const spaceBreak = multiline && value.includes(' \n');
      return {
        scalar,
        empty: false,
        multiline,
        allowFlowPlain: false,
        allowBlockPlain: false,
        allowSingleQuoted: !breakSpace && !spaceBreak,
        allowBlock: !trailingSpace && !spaceBreak,
      };
    }
    // One line of printable ASCII, spaces only inside: the indicators alone decide the plain styles.
    return {
      scalar,
      empty: false,
      multiline: false,
      allowFlowPlain: !FLOW_INDICATORS.test(value),
      allowBlockPlain: !BLOCK_INDICATORS.test(value),
      allowSingleQuoted: true,
      allowBlock: true,
    };
  }
  return analyzeStepwise(value, scalar);
}

/**
 * analyze_scalar character by character, as PyYAML does it (for a text with surrogates; for any
 * non-empty text, the reference the shortcuts above are tested against).
 */
export function analyzeStepwise(value: string, scalar: Chars = SURROGATE.test(value) ? Array.from(value) : value): Analysis {
  const n = scalar.length;
  // Code points, not one-character strings: the loop below runs once per character of every scalar.
  const codes = typeof scalar === 'string' ? null : scalar.map((ch) => ch.codePointAt(0) as number);
  const codeAt = (i: number): number => (codes === null ? value.charCodeAt(i) : codes[i]);
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;

  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  let followedByWhitespace = n === 1 || isSpaceOrBreakOrNulCode(codeAt(1));
  let previousSpace = false;
  let previousBreak = false;

  for (let index = 0; index < n; ) {
    const c = codeAt(index);
    if (index === 0) {
      if (indicatorsOf(c) & FIRST_INDICATOR) {
        flowIndicators = true;
        blockIndicators = true;
      }
      if (c === 0x3f /* ? */ || c === 0x3a /* : */) {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (c === 0x2d /* - */ && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else {
      if (indicatorsOf(c) & FLOW_INDICATOR) flowIndicators = true;
      if (c === 0x3a /* : */) {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (c === 0x23 /* # */ && precededByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    }
    const brk = isBreakCode(c);
    if (brk) lineBreaks = true;
    // allow_unicode is off: everything but printable ASCII (and the line feed) is special.
    if (c !== 0x0a && (c < 0x20 || c > 0x7e)) specialCharacters = true;
    if (c === 0x20) {
      if (index === 0) leadingSpace = true;
      if (index === n - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (brk) {
      if (index === 0) leadingBreak = true;
      if (index === n - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    index++;
    precededByWhitespace = isSpaceOrBreakOrNulCode(c);
    followedByWhitespace = index + 1 >= n || isSpaceOrBreakOrNulCode(codeAt(index + 1));
  }

  let allowFlowPlain = true;
  let allowBlockPlain = true;
  let allowSingleQuoted = true;
  let allowBlock = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) allowFlowPlain = allowBlockPlain = false;
  if (trailingSpace) allowBlock = false;
  if (breakSpace) allowFlowPlain = allowBlockPlain = allowSingleQuoted = false;
  if (spaceBreak || specialCharacters) allowFlowPlain = allowBlockPlain = allowSingleQuoted = allowBlock = false;
  if (lineBreaks) allowFlowPlain = allowBlockPlain = false;
  if (flowIndicators) allowFlowPlain = false;
  if (blockIndicators) allowBlockPlain = false;
  return {
    scalar,
    empty: false,
    multiline: lineBreaks,
    allowFlowPlain,
    allowBlockPlain,
    allowSingleQuoted,
    allowBlock,
  };
}

const ESCAPE_REPLACEMENTS: Record<string, string> = {
  '\0': '0',
  '\x07': 'a',
  '\x08': 'b',
  '\x09': 't',
  '\x0A': 'n',
  '\x0B': 'v',
  '\x0C': 'f',
  '\x0D': 'r',
  '\x1B': 'e',
  '"': '"',
  '\\': '\\',
  '\x85': 'N',
  '\xA0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

export function escapeChar(ch: string): string {
  const r = ESCAPE_REPLACEMENTS[ch];
  if (r !== undefined) return '\\' + r;
  const cp = ch.codePointAt(0) as number;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (cp <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}


/** A str key check_simple_key accepts: `!!str` and the text under 128 characters, one line, not empty. */
export function isSimpleStrKey(key: string): boolean {
  if (isPlainSafe(key)) return key.length + 5 < 128;
  const a = analyzeScalar(key);
  return a.scalar.length + 5 < 128 && !a.empty && !a.multiline;
}

/** SURROGATE.test without a regex call: keys are short and many. */
export function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

export function needsEscape(ch: string): boolean {
  if (ch.length > 1) return true;
  const c = ch.charCodeAt(0);
  return c < 0x20 || c > 0x7e || ch === '"' || ch === '\\';
}

export function blockHints(text: Chars, bestIndent: number): string {
  let hints = '';
  const n = text.length;
  if (n) {
    const first = text[0];
    if (first === ' ' || isBreak(first)) hints += String(bestIndent);
    const last = text[n - 1];
    if (!isBreak(last)) hints += '-';
    else if (n === 1 || isBreak(text[n - 2])) hints += '+';
  }
  return hints;
}
