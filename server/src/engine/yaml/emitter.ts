/**
 * PyYAML's `emitter.py`: a state machine that keeps the emitter's state (column, whitespace and
 * indentation flags, the indentation stack, simple-key checks, scalar analysis and style choice, line
 * folding) and writes the text into one growing byte buffer (the output is ASCII: allow_unicode is
 * off, so everything else is escaped), so time is linear in the output. PyYAML's own layout makes
 * deeply nested mappings quadratic in the depth (4 more spaces a level).
 *
 * Two drivers share the writers: the event state machine (any node graph: anchors, aliases, tags,
 * complex keys) and `emitValue`, a direct walk of the common value (no shared objects, str keys,
 * lists, dicts and plain scalars) that writes the same bytes without building nodes or events.
 */
import { SURROGATE, comparePyStr } from '../py/str';
import { PyDict, PyValue } from '../values';
import { pyIntStr } from '../py/int';
import { RepNode, floatText } from './representer';
import { BOOL_TAG, FLOAT_TAG, INT_TAG, NULL_TAG, STR_TAG, resolveScalar } from './resolver';
import { ALIAS, DOCUMENT_END, DOCUMENT_START, EventSource, MAPPING_END, MAPPING_START, PathNode, SCALAR_EVENT, SEQUENCE_END, SEQUENCE_START, STREAM_END, STREAM_START, STREAM_START_EVENT, YEvent } from './serializer';

// ---------------------------------------------------------------------------
// Scalar analysis

/** A scalar's text as Python characters: the string itself when it has no surrogates. */
type Chars = string | string[];


export interface Analysis {
  scalar: Chars;
  empty: boolean;
  multiline: boolean;
  allowFlowPlain: boolean;
  allowBlockPlain: boolean;
  allowSingleQuoted: boolean;
  allowBlock: boolean;
}

const isBreak = (ch: string): boolean => ch === '\n' || ch === '\x85' || ch === '\u2028' || ch === '\u2029';
const isBreakCode = (c: number): boolean => c === 0x0a || c === 0x85 || c === 0x2028 || c === 0x2029;
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
function isPlainSafe(value: string): boolean {
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

function escapeChar(ch: string): string {
  const r = ESCAPE_REPLACEMENTS[ch];
  if (r !== undefined) return '\\' + r;
  const cp = ch.codePointAt(0) as number;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (cp <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}

// ---------------------------------------------------------------------------
// Output

/**
 * The emitter's text as bytes (it writes ASCII only). Each full buffer is decoded at once and the
 * buffer reused, so a large output costs its text and one buffer; the pieces are joined as a rope,
 * which V8 flattens only if the caller needs it flat.
 */
class AsciiOutput {
  private static readonly SIZE = 1 << 20;
  /** One buffer for every dump (they never overlap; a dump inside a dump would get its own). */
  private static spare: Uint8Array | null = null;
  private bytes: Uint8Array;
  private length = 0;
  private readonly pieces: string[] = [];
  /** Every character code written, or-ed: proves the ASCII invariant at the end. */
  private codes = 0;

  constructor() {
    this.bytes = AsciiOutput.spare ?? new Uint8Array(AsciiOutput.SIZE);
    AsciiOutput.spare = null;
  }

  append(s: string): void {
    this.appendRange(s, 0, s.length);
  }

  /** `s.slice(start, end)` without making the slice. */
  appendRange(s: string, start: number, end: number): void {
    if (this.length + end - start > AsciiOutput.SIZE) {
      this.flush();
      if (end - start > AsciiOutput.SIZE) {
        for (let i = start; i < end; i++) this.codes |= s.charCodeAt(i);
        this.pieces.push(s.slice(start, end));
        return;
      }
    }
    const bytes = this.bytes;
    let n = this.length;
    let codes = this.codes;
    for (let i = start; i < end; i++) {
      const c = s.charCodeAt(i);
      codes |= c;
      bytes[n++] = c;
    }
    this.codes = codes;
    this.length = n;
  }

  appendSpaces(count: number): void {
    if (this.length + count > AsciiOutput.SIZE) this.flush();
    if (count > AsciiOutput.SIZE) {
      this.pieces.push(' '.repeat(count));
      return;
    }
    const bytes = this.bytes;
    const end = this.length + count;
    for (let i = this.length; i < end; i++) bytes[i] = 0x20;
    this.length = end;
  }

  private flush(): void {
    if (this.length === 0) return;
    this.pieces.push(Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length).toString('latin1'));
    this.length = 0;
  }

  text(): string {
    if (this.codes > 0x7f) throw new Error('internal error: the YAML emitter wrote a character outside ASCII');
    this.flush();
    AsciiOutput.spare = this.bytes;
    let text = '';
    for (const piece of this.pieces) text += piece;
    return text;
  }
}

// ---------------------------------------------------------------------------
// Emitter

/** Thrown inside emitValue for a value only the node pipeline writes right. */
class NeedsNodes extends Error {}

/** A collection emitValue is writing: a list's items, or a dict's items in sorted order. */
interface WalkFrame {
  items: PyValue[] | null;
  entries: Array<{ key: PyValue; value: PyValue }> | null;
  i: number;
  path: PathNode | null;
}

export class Emitter {
  private readonly output = new AsciiOutput();
  /** Flat pairs: PathNode, line. */
  readonly marks: Array<PathNode | number> = [];

  private readonly states: Array<() => void> = [];
  private state: () => void;
  private event: YEvent = STREAM_START_EVENT;
  private source: EventSource | null = null;

  private readonly indents: Array<number | null> = [];
  private indent: number | null = null;
  private flowLevel = 0;

  private rootContext = false;
  private mappingContext = false;
  private simpleKeyContext = false;

  private line = 0;
  private column = 0;
  private whitespace = true;
  private indention = true;
  private openEnded = false;

  private analysis: Analysis | null = null;
  private style: string | null = null;

  // States as bound functions, created once.
  private readonly sFirstDocumentStart = (): void => this.expectDocumentStart(true);
  private readonly sDocumentStart = (): void => this.expectDocumentStart(false);
  private readonly sDocumentRoot = (): void => this.expectDocumentRoot();
  private readonly sDocumentEnd = (): void => this.expectDocumentEnd();
  private readonly sNothing = (): void => {
    throw new Error('expected nothing');
  };
  private readonly sFirstFlowSequenceItem = (): void => this.expectFirstFlowSequenceItem();
  private readonly sFirstFlowMappingKey = (): void => this.expectFirstFlowMappingKey();
  private readonly sFirstBlockSequenceItem = (): void => this.expectBlockSequenceItem(true);
  private readonly sBlockSequenceItem = (): void => this.expectBlockSequenceItem(false);
  private readonly sFirstBlockMappingKey = (): void => this.expectBlockMappingKey(true);
  private readonly sBlockMappingKey = (): void => this.expectBlockMappingKey(false);
  private readonly sBlockMappingSimpleValue = (): void => this.expectBlockMappingSimpleValue();
  private readonly sBlockMappingValue = (): void => this.expectBlockMappingValue();

  constructor(
    private readonly bestIndent: number,
    private readonly bestWidth: number,
    private readonly withLines: boolean,
    private readonly explicitStart: boolean,
    private readonly explicitEnd: boolean,
  ) {
    this.state = (): void => this.expectStreamStart();
  }

  /** Writes the events of `source` (the node pipeline). */
  run(source: EventSource): void {
    this.source = source;
    for (;;) {
      this.event = source.next();
      this.state();
      if (this.event.type === STREAM_END) return;
    }
  }

  private get events(): EventSource {
    return this.source as EventSource;
  }

  // -------------------------------------------------------------------------
  // The direct driver

  /**
   * Writes `root` as the event pipeline would, walking the value itself. Returns false, with the
   * output unusable, when the value has what only the node pipeline writes right: an object reached
   * twice (anchors; not looked for without `checkShared`), a non-str key, a tuple, set, bytes or
   * timestamp, or nesting at `maxLevels`.
   */
  emitValue(root: PyValue, maxLevels: number, checkShared = true): boolean {
    try {
      this.walk(root, maxLevels, checkShared ? new Set<object>() : null);
      return true;
    } catch (e) {
      if (e instanceof NeedsNodes) return false;
      throw e;
    }
  }

  /** @param seen the collections met so far, or null when the caller knows none is met twice */
  private walk(root: PyValue, maxLevels: number, seen: Set<object> | null): void {
    const stack: WalkFrame[] = [];
    /** Opens `value` in the current context: a scalar is written, a non-empty collection pushed. */
    const node = (value: PyValue, path: PathNode | null): void => {
      if (stack.length >= maxLevels) throw new NeedsNodes();
      if (typeof value === 'string') return this.writeDirectScalar(value);
      if (value instanceof PyDict || Array.isArray(value)) {
        if (seen !== null) {
          if (seen.has(value)) throw new NeedsNodes();
          seen.add(value);
        }
        if (Array.isArray(value)) {
          if (value.length === 0) return this.writeEmptyFlow('[', ']');
          this.increaseIndent(false, this.mappingContext && !this.indention);
          stack.push({ items: value, entries: null, i: 0, path });
        } else {
          if (value.size === 0) return this.writeEmptyFlow('{', '}');
          this.increaseIndent(false);
          stack.push({ items: null, entries: sortedStrEntries(value), i: 0, path });
        }
        return;
      }
      this.writeDirectScalar(value);
    };

    this.writeDocumentStart(true);
    this.setContext(true, false, false);
    node(root, null);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const items = top.items;
      if (items !== null) {
        if (top.i >= items.length) {
          this.indent = this.indents.pop() as number | null;
          stack.pop();
          continue;
        }
        const index = top.i++;
        this.writeIndent();
        const mark = this.withLines ? { parent: top.path, seg: index } : null;
        if (mark) this.marks.push(mark, this.line);
        this.writeIndicator('-', true, false, true);
        this.setContext(false, false, false);
        node(items[index], mark);
        continue;
      }
      const entries = top.entries as Array<{ key: PyValue; value: PyValue }>;
      if (top.i >= entries.length) {
        this.indent = this.indents.pop() as number | null;
        stack.pop();
        continue;
      }
      const { key, value } = entries[top.i++];
      this.writeIndent();
      const mark = this.withLines ? { parent: top.path, seg: key as string } : null;
      if (mark) this.marks.push(mark, this.line);
      if (stack.length >= maxLevels) throw new NeedsNodes();
      if (isSimpleStrKey(key as string)) {
        this.setContext(false, true, true);
        this.writeDirectScalar(key);
        this.writeIndicator(':', false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.setContext(false, true, false);
        this.writeDirectScalar(key);
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.setContext(false, true, false);
      node(value, mark);
    }
    this.writeDocumentEnd();
    this.writeStreamEnd();
  }

  private setContext(root: boolean, mapping: boolean, simpleKey: boolean): void {
    this.rootContext = root;
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
  }

  /** An empty list or dict: the flow collection the event pipeline writes, with no items. */
  private writeEmptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true);
    this.writeIndicator(close, false);
  }

  /** A None, bool, int, float or str, as the representer and expectScalar write it. */
  private writeDirectScalar(value: PyValue): void {
    let tag: string;
    let text: string;
    if (typeof value === 'string') {
      // The common scalar: plain when it reads back as a str, else single-quoted; never tagged.
      if (isPlainSafe(value)) {
        this.increaseIndent(true);
        if (resolveScalar(value, true) === STR_TAG) this.writePlain(value, !this.simpleKeyContext);
        else this.writeSingleQuoted(value, !this.simpleKeyContext);
        this.indent = this.indents.pop() as number | null;
        return;
      }
      tag = STR_TAG;
      text = value;
    } else if (value === null) {
      tag = NULL_TAG;
      text = 'null';
    } else if (typeof value === 'boolean') {
      tag = BOOL_TAG;
      text = value ? 'true' : 'false';
    } else if (typeof value === 'bigint') {
      tag = INT_TAG;
      text = pyIntStr(value);
    } else if (typeof value === 'number') {
      tag = FLOAT_TAG;
      text = floatText(value);
    } else {
      throw new NeedsNodes();
    }
    const implicitPlain = resolveScalar(text, true) === tag;
    this.analysis = analyzeScalar(text);
    this.style = this.chooseScalarStyle(null, implicitPlain);
    if (!((this.style === '' && implicitPlain) || (this.style !== '' && tag === STR_TAG))) {
      this.writeIndicator('!!' + tag.slice(tag.lastIndexOf(':') + 1), true);
    }
    this.increaseIndent(true);
    this.processScalar();
    this.indent = this.indents.pop() as number | null;
  }

  // -------------------------------------------------------------------------
  // The event driver

  private popState(): void {
    this.state = this.states.pop() as () => void;
  }

  private increaseIndent(flow: boolean, indentless = false): void {
    this.indents.push(this.indent);
    if (this.indent === null) {
      this.indent = flow ? this.bestIndent : 0;
    } else if (!indentless) {
      this.indent += this.bestIndent;
    }
  }

  // Stream and document handlers.

  private expectStreamStart(): void {
    if (this.event.type !== STREAM_START) throw new Error('expected StreamStartEvent');
    this.state = this.sFirstDocumentStart;
  }

  private expectDocumentStart(first: boolean): void {
    const ev = this.event;
    if (ev.type === DOCUMENT_START) {
      // check_empty_document never holds: represented scalars always carry a tag.
      this.writeDocumentStart(first);
      this.state = this.sDocumentRoot;
    } else if (ev.type === STREAM_END) {
      this.writeStreamEnd();
      this.state = this.sNothing;
    } else {
      throw new Error('expected DocumentStartEvent');
    }
  }

  private writeDocumentStart(first: boolean): void {
    const implicit = first && !this.explicitStart;
    if (!implicit) {
      this.writeIndent();
      this.writeIndicator('---', true);
    }
  }

  private writeStreamEnd(): void {
    if (this.openEnded) {
      this.writeIndicator('...', true);
      this.writeIndent();
    }
  }

  private expectDocumentEnd(): void {
    if (this.event.type !== DOCUMENT_END) throw new Error('expected DocumentEndEvent');
    this.writeDocumentEnd();
    this.state = this.sDocumentStart;
  }

  private writeDocumentEnd(): void {
    this.writeIndent();
    if (this.explicitEnd) {
      this.writeIndicator('...', true);
      this.writeIndent();
    }
  }

  private expectDocumentRoot(): void {
    this.states.push(this.sDocumentEnd);
    this.expectNode(true, false, false);
  }

  // Node handlers.

  private expectNode(root: boolean, mapping: boolean, simpleKey: boolean): void {
    this.setContext(root, mapping, simpleKey);
    const ev = this.event;
    switch (ev.type) {
      case ALIAS:
        this.processAnchor('*');
        this.popState();
        return;
      case SCALAR_EVENT:
        this.processAnchor('&');
        this.processTag();
        this.expectScalar();
        return;
      case SEQUENCE_START:
        this.processAnchor('&');
        this.processTag();
        if (this.flowLevel || this.checkEmptySequence()) this.expectFlowSequence();
        else this.expectBlockSequence();
        return;
      case MAPPING_START:
        this.processAnchor('&');
        this.processTag();
        if (this.flowLevel || this.checkEmptyMapping()) this.expectFlowMapping();
        else this.expectBlockMapping();
        return;
      default:
        throw new Error('expected NodeEvent');
    }
  }

  private expectScalar(): void {
    this.increaseIndent(true);
    this.processScalar();
    this.indent = this.indents.pop() as number | null;
    this.popState();
  }

  // Flow collections: with default_flow_style=False only empty ones are flow.

  private expectFlowSequence(): void {
    this.writeIndicator('[', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    this.state = this.sFirstFlowSequenceItem;
  }

  private expectFirstFlowSequenceItem(): void {
    if (this.event.type !== SEQUENCE_END) throw new Error('non-empty flow sequence is not supported');
    this.indent = this.indents.pop() as number | null;
    this.flowLevel--;
    this.writeIndicator(']', false);
    this.popState();
  }

  private expectFlowMapping(): void {
    this.writeIndicator('{', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    this.state = this.sFirstFlowMappingKey;
  }

  private expectFirstFlowMappingKey(): void {
    if (this.event.type !== MAPPING_END) throw new Error('non-empty flow mapping is not supported');
    this.indent = this.indents.pop() as number | null;
    this.flowLevel--;
    this.writeIndicator('}', false);
    this.popState();
  }

  // Block collections.

  private expectBlockSequence(): void {
    const indentless = this.mappingContext && !this.indention;
    this.increaseIndent(false, indentless);
    this.state = this.sFirstBlockSequenceItem;
  }

  private expectBlockSequenceItem(first: boolean): void {
    if (!first && this.event.type === SEQUENCE_END) {
      this.indent = this.indents.pop() as number | null;
      this.popState();
      return;
    }
    this.writeIndent();
    if (this.withLines && this.event.mark) this.marks.push(this.event.mark, this.line);
    this.writeIndicator('-', true, false, true);
    this.states.push(this.sBlockSequenceItem);
    this.expectNode(false, false, false);
  }

  private expectBlockMapping(): void {
    this.increaseIndent(false);
    this.state = this.sFirstBlockMappingKey;
  }

  private expectBlockMappingKey(first: boolean): void {
    if (!first && this.event.type === MAPPING_END) {
      this.indent = this.indents.pop() as number | null;
      this.popState();
      return;
    }
    this.writeIndent();
    if (this.withLines && this.event.mark) this.marks.push(this.event.mark, this.line);
    if (this.checkSimpleKey()) {
      this.states.push(this.sBlockMappingSimpleValue);
      this.expectNode(false, true, true);
    } else {
      this.writeIndicator('?', true, false, true);
      this.states.push(this.sBlockMappingValue);
      this.expectNode(false, true, false);
    }
  }

  private expectBlockMappingSimpleValue(): void {
    this.writeIndicator(':', false);
    this.states.push(this.sBlockMappingKey);
    this.expectNode(false, true, false);
  }

  private expectBlockMappingValue(): void {
    this.writeIndent();
    this.writeIndicator(':', true, false, true);
    this.states.push(this.sBlockMappingKey);
    this.expectNode(false, true, false);
  }

  // Checkers.

  private checkEmptySequence(): boolean {
    return this.event.type === SEQUENCE_START && this.events.peek().type === SEQUENCE_END;
  }

  private checkEmptyMapping(): boolean {
    return this.event.type === MAPPING_START && this.events.peek().type === MAPPING_END;
  }

  private checkSimpleKey(): boolean {
    const ev = this.event;
    let length = 0;
    if (ev.anchor !== null) length += ev.anchor.length;
    if (ev.type !== ALIAS) length += 2 + (ev.node as RepNode).tag.length; // prepared tag `!!suffix`
    if (ev.type === SCALAR_EVENT) {
      if (this.analysis === null) this.analysis = analyzeScalar((ev.node as RepNode).value);
      length += this.analysis.scalar.length;
    }
    if (length >= 128) return false;
    if (ev.type === ALIAS) return true;
    if (ev.type === SCALAR_EVENT) {
      const a = this.analysis as Analysis;
      return !a.empty && !a.multiline;
    }
    return this.checkEmptySequence() || this.checkEmptyMapping();
  }

  // Anchor, tag and scalar processors.

  private processAnchor(indicator: string): void {
    const anchor = this.event.anchor;
    if (anchor === null) return;
    this.writeIndicator(indicator + anchor, true);
  }

  private processTag(): void {
    const ev = this.event;
    const node = ev.node as RepNode;
    if (ev.type === SCALAR_EVENT) {
      if (this.analysis === null) this.analysis = analyzeScalar(node.value);
      if (this.style === null) this.style = this.chooseScalarStyle(node.style, ev.implicit0);
      if ((this.style === '' && ev.implicit0) || (this.style !== '' && ev.implicit1)) return;
    } else if (ev.implicit0) {
      return;
    }
    this.writeIndicator('!!' + node.tag, true);
  }

  /**
   * choose_scalar_style for the analysed scalar.
   * @param style the representer's style for the node
   * @param implicitPlain plain style would resolve back to the node's tag
   */
  private chooseScalarStyle(style: string | null, implicitPlain: boolean): string {
    const a = this.analysis as Analysis;
    if (!style && implicitPlain) {
      if (
        !(this.simpleKeyContext && (a.empty || a.multiline)) &&
        ((this.flowLevel && a.allowFlowPlain) || (!this.flowLevel && a.allowBlockPlain))
      ) {
        return '';
      }
    }
    if (style === '|' || style === '>') {
      if (!this.flowLevel && !this.simpleKeyContext && a.allowBlock) return style;
    }
    if (!style || style === "'") {
      if (a.allowSingleQuoted && !(this.simpleKeyContext && a.multiline)) return "'";
    }
    return '"';
  }

  /** Writes the analysed scalar in the chosen style (both were set by the caller). */
  private processScalar(): void {
    const node = this.event.node as RepNode;
    if (this.analysis === null) this.analysis = analyzeScalar(node.value);
    if (this.style === null) this.style = this.chooseScalarStyle(node.style, this.event.implicit0);
    const split = !this.simpleKeyContext;
    const text = this.analysis.scalar;
    switch (this.style) {
      case '"':
        this.writeDoubleQuoted(text, split);
        break;
      case "'":
        this.writeSingleQuoted(text, split);
        break;
      case '|':
        this.writeLiteral(text);
        break;
      case '':
        this.writePlain(text, split);
        break;
      default:
        throw new Error(`unsupported scalar style ${this.style}`);
    }
    this.analysis = null;
    this.style = null;
  }

  /** The text written, once run() or emitValue() has finished. */
  get out(): string {
    return this.output.text();
  }

  // Writers.

  private write(data: string): void {
    this.output.append(data);
  }

  /** Writes `text[start:end]` (Python characters). */
  private writeRange(text: Chars, start: number, end: number): void {
    if (typeof text === 'string') this.output.appendRange(text, start, end);
    else this.output.append(text.slice(start, end).join(''));
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, whitespace = false, indention = false): void {
    if (!this.whitespace && needWhitespace) {
      this.output.append(' ');
      this.column++;
    }
    this.whitespace = whitespace;
    this.indention = this.indention && indention;
    this.column += indicator.length;
    this.openEnded = false;
    this.write(indicator);
  }

  private writeIndent(): void {
    const indent = this.indent ?? 0;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.writeLineBreak();
    }
    if (this.column < indent) {
      this.whitespace = true;
      this.output.appendSpaces(indent - this.column);
      this.column = indent;
    }
  }

  private writeLineBreak(data = '\n'): void {
    this.whitespace = true;
    this.indention = true;
    this.line++;
    this.column = 0;
    this.write(data);
  }

  private writeBreaks(text: Chars, start: number, end: number): void {
    for (let i = start; i < end; i++) this.writeLineBreak(text[i]);
  }

  private writeSingleQuoted(text: Chars, split: boolean): void {
    this.writeIndicator("'", true);
    const n = text.length;
    // No quote to double, no line break, and no fold (no space, or the line stays within the width).
    if (typeof text === 'string' && text.indexOf("'") < 0 && text.indexOf('\n') < 0 && (!split || this.column + n <= this.bestWidth || text.indexOf(' ') < 0)) {
      this.column += n;
      this.write(text);
      this.writeIndicator("'", false);
      return;
    }
    let spaces = false;
    let breaks = false;
    let start = 0;
    let end = 0;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (spaces) {
        if (ch === null || ch !== ' ') {
          if (start + 1 === end && this.column > this.bestWidth && split && start !== 0 && end !== n) {
            this.writeIndent();
          } else {
            this.column += end - start;
            this.writeRange(text, start, end);
          }
          start = end;
        }
      } else if (breaks) {
        if (ch === null || !isBreak(ch)) {
          if (text[start] === '\n') this.writeLineBreak();
          this.writeBreaks(text, start, end);
          this.writeIndent();
          start = end;
        }
      } else if (ch === null || ch === ' ' || isBreak(ch) || ch === "'") {
        if (start < end) {
          this.column += end - start;
          this.writeRange(text, start, end);
          start = end;
        }
      }
      if (ch === "'") {
        this.column += 2;
        this.write("''");
        start = end + 1;
      }
      if (ch !== null) {
        spaces = ch === ' ';
        breaks = isBreak(ch);
      }
      end++;
    }
    this.writeIndicator("'", false);
  }

  private writeDoubleQuoted(text: Chars, split: boolean): void {
    this.writeIndicator('"', true);
    let start = 0;
    let end = 0;
    const n = text.length;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (ch === null || needsEscape(ch)) {
        if (start < end) {
          this.column += end - start;
          this.writeRange(text, start, end);
          start = end;
        }
        if (ch !== null) {
          const data = escapeChar(ch);
          this.column += data.length;
          this.write(data);
          start = end + 1;
        }
      }
      if (
        0 < end &&
        end < n - 1 &&
        (ch === ' ' || start >= end) &&
        this.column + (end - start) > this.bestWidth &&
        split
      ) {
        this.column += end - start + 1;
        this.writeRange(text, start, end);
        this.write('\\');
        if (start < end) start = end;
        this.writeIndent();
        this.whitespace = false;
        this.indention = false;
        if (text[start] === ' ') {
          this.column += 1;
          this.write('\\');
        }
      }
      end++;
    }
    this.writeIndicator('"', false);
  }

  private writeLiteral(text: Chars): void {
    const hints = blockHints(text, this.bestIndent);
    this.writeIndicator('|' + hints, true);
    if (hints.endsWith('+')) this.openEnded = true;
    this.writeLineBreak();
    let breaks = true;
    let start = 0;
    let end = 0;
    const n = text.length;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (breaks) {
        if (ch === null || !isBreak(ch)) {
          this.writeBreaks(text, start, end);
          if (ch !== null) this.writeIndent();
          start = end;
        }
      } else if (ch === null || isBreak(ch)) {
        this.writeRange(text, start, end);
        if (ch === null) this.writeLineBreak();
        start = end;
      }
      if (ch !== null) breaks = isBreak(ch);
      end++;
    }
  }

  private writePlain(text: Chars, split: boolean): void {
    if (this.rootContext) this.openEnded = true;
    const n = text.length;
    if (n === 0) return;
    if (!this.whitespace) {
      this.column += 1;
      this.write(' ');
    }
    this.whitespace = false;
    this.indention = false;
    // Plain scalars have no line breaks; one that cannot be folded here (no space, or it ends before
    // the width where a fold is considered) is written whole.
    if (typeof text === 'string' && (!split || this.column + n <= this.bestWidth || text.indexOf(' ') < 0)) {
      this.column += n;
      this.write(text);
      return;
    }
    let spaces = false;
    let breaks = false;
    let start = 0;
    let end = 0;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (spaces) {
        if (ch !== ' ') {
          if (start + 1 === end && this.column > this.bestWidth && split) {
            this.writeIndent();
            this.whitespace = false;
            this.indention = false;
          } else {
            this.column += end - start;
            this.writeRange(text, start, end);
          }
          start = end;
        }
      } else if (breaks) {
        // Unreachable: scalars with line breaks are never plain.
        if (ch === null || !isBreak(ch)) {
          if (text[start] === '\n') this.writeLineBreak();
          this.writeBreaks(text, start, end);
          this.writeIndent();
          this.whitespace = false;
          this.indention = false;
          start = end;
        }
      } else if (ch === null || ch === ' ' || isBreak(ch)) {
        this.column += end - start;
        this.writeRange(text, start, end);
        start = end;
      }
      if (ch !== null) {
        spaces = ch === ' ';
        breaks = isBreak(ch);
      }
      end++;
    }
  }
}

/** A str key check_simple_key accepts: `!!str` and the text under 128 characters, one line, not empty. */
function isSimpleStrKey(key: string): boolean {
  if (isPlainSafe(key)) return key.length + 5 < 128;
  const a = analyzeScalar(key);
  return a.scalar.length + 5 < 128 && !a.empty && !a.multiline;
}

/** SURROGATE.test without a regex call: keys are short and many. */
function hasSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

/** A dict's items as the representer orders them, when every key is a str (else the node pipeline). */
function sortedStrEntries(dict: PyDict): Array<{ key: PyValue; value: PyValue }> {
  const entries = dict.entryList();
  let surrogates = false;
  for (const e of entries) {
    if (typeof e.key !== 'string') throw new NeedsNodes();
    if (!surrogates && hasSurrogate(e.key)) surrogates = true;
  }
  if (entries.length < 2) return entries;
  // Distinct str keys: a total order, so every stable sort agrees with Python's sorted().
  if (surrogates) return entries.sort((a, b) => comparePyStr(a.key as string, b.key as string));
  if (entries.length > 32) return entries.sort((a, b) => ((a.key as string) < (b.key as string) ? -1 : (a.key as string) > (b.key as string) ? 1 : 0));
  // Most mappings are small: an insertion sort compares inline, with no call per comparison.
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i];
    const key = entry.key as string;
    let j = i - 1;
    while (j >= 0 && (entries[j].key as string) > key) {
      entries[j + 1] = entries[j];
      j--;
    }
    entries[j + 1] = entry;
  }
  return entries;
}
function needsEscape(ch: string): boolean {
  if (ch.length > 1) return true;
  const c = ch.charCodeAt(0);
  return c < 0x20 || c > 0x7e || ch === '"' || ch === '\\';
}

function blockHints(text: Chars, bestIndent: number): string {
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
