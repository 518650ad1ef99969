/**
 * Loads one user-data part the way cloud-init 22.4.2 does:
 *
 *     yaml.load(text, Loader=<SafeLoader + tag:yaml.org,2002:python/unicode>)
 *
 * with PyYAML 6.0's pure-Python loader, and returns the Python value in the
 * model of ../values.ts together with the source span of every mapping entry
 * and list item.
 *
 * Why not the `yaml` package for the parsing itself: PyYAML's scanner is not a
 * YAML 1.2 lexer. It rejects tabs between tokens, lets quoted scalars and flow
 * collections continue at any indentation, ends plain scalars in flow context
 * at `?`, treats U+0085/U+2028/U+2029 as line breaks, limits anchor names to
 * `[0-9A-Za-z_-]`, allows `#` right after a closing quote or bracket, requires
 * block scalar content of a top-level scalar to be indented, and so on. Many
 * of these show up in hand-written cloud-config (`[url?x=1]`, a long quoted
 * string wrapped at column 0, a stray tab), and the `yaml` package parses them
 * differently or not at all. So this module is an independent implementation
 * of PyYAML's pipeline, stage by stage, keeping PyYAML's observable behaviour:
 *
 *  1. reader: the text must not contain non-printable characters (PyYAML's
 *     "unacceptable character #x...: special characters are not allowed");
 *     a BOM at offset 0 is skipped, and a BOM anywhere has zero width for
 *     column counting, as in PyYAML.
 *  2. scanner: tokens with PyYAML's simple-key bookkeeping (one possible key
 *     per flow level, single line, 1024 code points), indentation stack,
 *     BLOCK-END generation and scalar scanning rules (folding, escapes, block
 *     scalar indentation detection with PyYAML's own rules).
 *  3. parser: PyYAML's LL(1) state machine (states stack, no recursion),
 *     including its error messages ("while parsing a block mapping / expected
 *     <block end>, but found '<block sequence start>'", ...).
 *  4. composer: node graph with anchors and aliases (an alias is the same
 *     node), "found undefined alias", "found duplicate anchor", and
 *     safe_load's "expected a single document in the stream". Iterative, with
 *     a depth limit.
 *  5. resolver: PyYAML's implicit resolvers for plain scalars (and for the
 *     non-specific tag `!`, which PyYAML resolves even on quoted scalars),
 *     chosen by first character, with Python's `$` (which also matches before
 *     a final newline).
 *  6. constructor: SafeConstructor semantics in PyYAML's breadth-first order
 *     (scalars at once, collections filled later in FIFO order), so that when
 *     a document has several construction errors the same one is reported;
 *     merge keys with PyYAML's in-place flattening (merged pairs first, a
 *     merge sequence reversed, so earlier mappings and explicit keys win);
 *     `=` keys become strings; `construct_scalar` on a mapping with a `=` key;
 *     int/float/bool/timestamp/binary built from the text exactly as Python's
 *     `int()`, `float()`, `datetime`, `base64.decodebytes` do, including the
 *     Python exceptions they raise (ValueError, KeyError, ...).
 *
 * Every stage pulls lazily from the previous one as PyYAML does, so the first
 * error PyYAML would raise is the one reported (a syntax error after the
 * start of a second document is never reached: the multiple-documents error
 * comes first; construction errors only appear in a syntactically valid
 * single document).
 *
 * Spans are UTF-16 offsets into the text. A node's span starts at its first
 * property (tag or anchor) or its content and ends at the end of its content:
 * the closing quote or bracket, the end of the last child of a block
 * collection, the end of the last non-empty line of a block scalar. An empty
 * value has a zero-width span where PyYAML puts it (after the `:` or `-`). An
 * alias used as a value gets the span of the `*name` token.
 *
 * `documents` (the `yaml` package's AST of the same text, for editor features)
 * is computed on first access only; the options are YAML_DOCUMENT_OPTIONS.
 *
 * Recursive structures: an anchor used inside its own node (`&a [*a]`) gives a
 * recursive object in PyYAML; here loading then fails with kind 'recursive'
 * (the engine and JSON output cannot represent cycles). Where PyYAML itself
 * fails on them the same error as PyYAML is given (e.g. `&a {*a: 1}` is an
 * unhashable key, `&a {<<: *a}` loads as {} as in PyYAML), and where PyYAML
 * recurses forever (`&a !!str {=: *a}`) the error is also 'recursive'
 * (pyException RecursionError).
 *
 * Known residual differences from PyYAML (see test/oracle/yaml-load.diff.ts):
 *  - Error messages carry PyYAML's context and problem lines but not its
 *    "in "<unicode string>", line L, column C" mark lines (the span says where).
 *    Messages of the Python exceptions that are not YAMLErrors (ValueError
 *    from `int()`, `float()`, datetime, `chr()`; KeyError, IndexError, ...)
 *    are CPython 3.11's for every case the differential test produces; rarer
 *    ones may be worded differently.
 *  - Python raises RecursionError for nodes nested more than roughly 300-500
 *    levels (the composer recurses; the exact depth depends on the caller's
 *    stack). Here nesting is only limited by `maxDepth` (error kind 'limit').
 *  - PyDict merges all NaN keys into one (values.ts). PyYAML returns one
 *    shared NaN object for every `.nan` (also `!!float -.nan`), so that is
 *    the same; only NaNs made by `float()` (`!!float nan`) are distinct keys
 *    in Python.
 *  - Where a constructor error is about a node reached through an alias
 *    (e.g. an aliased mapping used as a key), the span is the `*alias`; PyYAML's
 *    mark is the anchored node itself.
 */

import type { Document } from 'yaml';
import { pyFloatRepr, pyStrRepr } from '../pyrepr';
import { DEFAULT_LIMITS, LimitExceededError } from '../limits';
import {
  keyIdentity,
  PyBytes,
  PyDict,
  PySet,
  PyTimestamp,
  PyTuple,
  pyTypeName,
  setListOrigins,
  type Origin,
  type PyValue,
  type TextSpan,
} from '../values';

export interface YamlLoadOptions {
  /** Stamped as Origin.source on every PyDict entry and list item (default 0). */
  source?: number;
  /** Accept `!!python/unicode` as a plain string, as cloud-init 22.4.2 does (default true). */
  pythonUnicodeTag?: boolean;
  /**
   * Aliases share objects, so loading never expands them. When set, a value
   * that would have more than this many nodes once every alias is expanded
   * (what copying it or writing it as JSON costs) is an error of kind
   * 'expansion'. Default: no check (PyYAML has none).
   */
  maxAliasExpansion?: number;
  /**
   * Most key/value pairs that merge keys (`<<`) may copy into mappings. PyYAML
   * copies the pairs of each merged mapping, so aliases of aliases merged
   * twice per level grow exponentially (a "merge-key bomb": PyYAML, and so
   * cloud-init, runs until memory is exhausted). More is an error of kind
   * 'expansion'. Default DEFAULT_LIMITS.maxExpandedNodes: always bounded.
   */
  maxMergedPairs?: number;
  /** Deepest nesting of collections (default 10000); deeper is an error of kind 'limit'. */
  maxDepth?: number;
}

export interface YamlProblem {
  message: string;
  span: TextSpan;
  /**
   * 'invalid-character' | 'syntax' | 'multiple-documents' | 'undefined-alias' |
   * 'duplicate-anchor' | 'unknown-tag' | 'unhashable-key' | 'merge' |
   * 'constructor' | 'value' | 'recursive' | 'limit' (nesting) |
   * 'expansion' (maxAliasExpansion, maxMergedPairs) | 'duplicate-key'
   */
  kind: string;
  /**
   * The Python exception class PyYAML raises here: ReaderError, ScannerError,
   * ParserError, ComposerError, ConstructorError (all yaml.YAMLError), or
   * ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError.
   * Absent for problems Python does not have (limits, duplicate keys).
   */
  pyException?: string;
  /**
   * PyYAML's context mark ("while parsing a block mapping" points here); for
   * a duplicate key, the previous occurrence of the key.
   */
  contextSpan?: TextSpan;
}

export type YamlLoadResult =
  | {
      ok: true;
      value: PyValue;
      /** Span of the document's root node; null for an empty document. */
      rootSpan: TextSpan | null;
      documents: Document.Parsed[];
      duplicateKeys: YamlProblem[];
      /** Reserved: PyYAML has no warnings, nothing is reported here yet. */
      warnings: YamlProblem[];
    }
  | { ok: false; error: YamlProblem; documents: Document.Parsed[] };

/** Options of the `yaml` package parse behind `documents`. */
export const YAML_DOCUMENT_OPTIONS = { version: '1.1', uniqueKeys: false, merge: true, keepSourceTokens: true } as const;

const DEFAULT_MAX_DEPTH = 10000;

// ---------------------------------------------------------------------------
// Errors

class LoadError extends Error {
  constructor(
    readonly kind: string,
    readonly pyException: string | undefined,
    readonly problem: string,
    readonly span: TextSpan,
    readonly context?: string,
    readonly contextSpan?: TextSpan,
  ) {
    super(context ? `${context}\n${problem}` : problem);
  }

  toProblem(): YamlProblem {
    const p: YamlProblem = { message: this.message, span: this.span, kind: this.kind };
    if (this.pyException) p.pyException = this.pyException;
    if (this.contextSpan) p.contextSpan = this.contextSpan;
    return p;
  }
}

/** A Python exception that is not a YAMLError, raised while constructing `node`. */
function pyFail(pyException: string, message: string, node: YNode): LoadError {
  return new LoadError('value', pyException, message, nodeSpan(node));
}

// ---------------------------------------------------------------------------
// Character classes (char codes). The reader check rejects NUL, so 0 is used
// for "end of text", like PyYAML's '\0' sentinel.

const enum C {
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
function isBreak(c: number): boolean {
  return c === C.LF || c === C.CR || c === C.NEL || c === C.LS || c === C.PS;
}
/** '\0\r\n\x85\u2028\u2029' */
function isBreakZ(c: number): boolean {
  return c === C.EOF || isBreak(c);
}
/** '\0 \t\r\n\x85\u2028\u2029' */
function isBlankZ(c: number): boolean {
  return c === C.SPACE || c === C.TAB || isBreakZ(c);
}
/** '\0 \r\n\x85\u2028\u2029' (no tab) */
function isSpaceZ(c: number): boolean {
  return c === C.SPACE || isBreakZ(c);
}
/** [0-9A-Za-z_-] */
function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95;
}
function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
/** Characters allowed in tag URIs besides [0-9A-Za-z]. */
const URI_CHARS = new Set(Array.from("-;/?:@&=+$,_.!~*'()[]%", (ch) => ch.charCodeAt(0)));

const NON_PRINTABLE = /[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

// ---------------------------------------------------------------------------
// Tokens

const enum T {
  StreamStart,
  StreamEnd,
  Directive,
  DocumentStart,
  DocumentEnd,
  BlockSequenceStart,
  BlockMappingStart,
  BlockEnd,
  FlowSequenceStart,
  FlowMappingStart,
  FlowSequenceEnd,
  FlowMappingEnd,
  Key,
  Value,
  BlockEntry,
  FlowEntry,
  Alias,
  Anchor,
  Tag,
  Scalar,
}

const TOKEN_ID = [
  '<stream start>',
  '<stream end>',
  '<directive>',
  '<document start>',
  '<document end>',
  '<block sequence start>',
  '<block mapping start>',
  '<block end>',
  '[',
  '{',
  ']',
  '}',
  '?',
  ':',
  '-',
  ',',
  '<alias>',
  '<anchor>',
  '<tag>',
  '<scalar>',
];

class Token {
  /** Scalar text, alias/anchor name, directive name. */
  value = '';
  plain = false;
  /** End of the last content line of a block scalar (for spans), or -1. */
  contentEnd = -1;
  /** Tag handle (null for verbatim and `!`) and suffix. */
  handle: string | null = null;
  suffix = '';
  /** %YAML version or %TAG handle/prefix. */
  version: [number, number] | null = null;
  tagDirective: [string, string] | null = null;

  constructor(
    readonly type: T,
    readonly start: number,
    public end: number,
  ) {}
}

function scalarToken(start: number, end: number, value: string, plain: boolean, contentEnd: number): Token {
  const t = new Token(T.Scalar, start, end);
  t.value = value;
  t.plain = plain;
  t.contentEnd = contentEnd;
  return t;
}

interface SimpleKey {
  tokenNumber: number;
  required: boolean;
  cp: number;
  line: number;
  column: number;
  pos: number;
  level: number;
  live: boolean;
}

// ---------------------------------------------------------------------------
// Scanner

class Scanner {
  private readonly len: number;
  /** Position in UTF-16 code units (what spans use). */
  pos = 0;
  /** Position in code points (PyYAML's index, for the 1024 limit of simple keys). */
  private cp = 0;
  private line = 0;
  /** Column in code points; a BOM has zero width (as in PyYAML's reader). */
  private col = 0;

  private done = false;
  private flowLevel = 0;
  /** Token queue: tokens[head..tail) are scanned but not yet taken. */
  private readonly tokens: Array<Token | undefined> = [];
  private head = 0;
  private tail = 0;
  private tokensTaken = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private allowSimpleKey = true;
  /** Possible simple keys by flow level (a stray ']' can make the level negative)... */
  private readonly keyAt: Array<SimpleKey | undefined> = [];
  private readonly keyAtNegative = new Map<number, SimpleKey>();
  /** ...and in the order they were saved; keyQueue[keyHead..keyTail), dropped ones skipped lazily. */
  private readonly keyQueue: Array<SimpleKey | undefined> = [];
  private keyHead = 0;
  private keyTail = 0;
  /** Bumped whenever tokens are produced or taken; needMoreTokens() is cached per version. */
  private version = 0;
  private settledVersion = -1;

  constructor(private readonly src: string) {
    this.len = src.length;
    this.push(new Token(T.StreamStart, 0, 0));
  }

  // -- public --

  checkToken(type: T): boolean {
    const t = this.peekToken();
    return t !== undefined && t.type === type;
  }

  peekToken(): Token | undefined {
    while (this.needMoreTokens()) this.fetchMoreTokens();
    return this.head < this.tail ? this.tokens[this.head] : undefined;
  }

  /** Next token; only called after a peek showed there is one. */
  getToken(): Token {
    while (this.needMoreTokens()) this.fetchMoreTokens();
    const t = this.tokens[this.head] as Token;
    this.tokens[this.head++] = undefined;
    if (this.head === this.tail) this.head = this.tail = 0;
    this.tokensTaken++;
    this.version++;
    return t;
  }

  // -- reader --

  private at(i: number): number {
    return i < this.len ? this.src.charCodeAt(i) : C.EOF;
  }

  /** Python's repr() of the character at i, for messages ("but found '\t'"). */
  private reprAt(i: number): string {
    return pyStrRepr(i < this.len ? String.fromCodePoint(this.src.codePointAt(i) as number) : '\0');
  }

  private forward(n = 1): void {
    const src = this.src;
    while (n-- > 0) {
      const c = src.charCodeAt(this.pos++);
      if (c === C.LF || c === C.NEL || c === C.LS || c === C.PS || (c === C.CR && src.charCodeAt(this.pos) !== C.LF)) {
        this.line++;
        this.col = 0;
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        continue; // second half of a surrogate pair: same code point
      } else if (c !== C.BOM) {
        this.col++;
      }
      this.cp++;
    }
  }

  /** forward(n) over characters known not to be line breaks. */
  private forwardInLine(n: number): void {
    const src = this.src;
    const end = this.pos + n;
    let cols = 0;
    let cps = 0;
    for (let i = this.pos; i < end; i++) {
      const c = src.charCodeAt(i);
      if (c >= 0xdc00 && c <= 0xdfff) continue;
      cps++;
      if (c !== C.BOM) cols++;
    }
    this.pos = end;
    this.col += cols;
    this.cp += cps;
  }

  /** Skips spaces. */
  private skipSpaces(): void {
    const src = this.src;
    let i = this.pos;
    while (src.charCodeAt(i) === C.SPACE) i++;
    const n = i - this.pos;
    this.pos = i;
    this.col += n;
    this.cp += n;
  }

  /** Skips spaces while the column is below `indent`. */
  private skipSpacesTo(indent: number): void {
    const src = this.src;
    while (this.col < indent && src.charCodeAt(this.pos) === C.SPACE) {
      this.pos++;
      this.col++;
      this.cp++;
    }
  }

  /** Skips to the end of the line (a comment), not consuming the break. */
  private skipToLineEnd(): void {
    let n = 0;
    while (!isBreakZ(this.at(this.pos + n))) n++;
    this.forwardInLine(n);
  }

  private fail(context: string | undefined, contextPos: number | undefined, problem: string, pos: number): LoadError {
    return new LoadError(
      'syntax',
      'ScannerError',
      problem,
      pointSpan(this.src, pos),
      context,
      contextPos === undefined ? undefined : pointSpan(this.src, contextPos),
    );
  }

  private pending(): number {
    return this.tail - this.head;
  }

  private push(token: Token): void {
    this.makeRoom();
    this.tokens[this.tail++] = token;
  }

  /** Inserts a token `offset` places after the first pending one. */
  private insert(offset: number, token: Token): void {
    this.makeRoom();
    const at = this.head + offset;
    const q = this.tokens;
    for (let i = this.tail; i > at; i--) q[i] = q[i - 1];
    q[at] = token;
    this.tail++;
  }

  private makeRoom(): void {
    // Compact only when at least half of the array is taken tokens (amortized O(1)).
    if (this.tail === this.tokens.length && this.head > 0 && this.head >= this.tail - this.head) {
      const q = this.tokens;
      const n = this.tail - this.head;
      for (let i = 0; i < n; i++) q[i] = q[this.head + i];
      for (let i = n; i < this.tail; i++) q[i] = undefined;
      this.head = 0;
      this.tail = n;
    }
  }

  // -- driver --

  private needMoreTokens(): boolean {
    if (this.done || this.settledVersion === this.version) return false;
    if (this.pending() === 0) return true;
    this.staleSimpleKeys();
    const first = this.firstKey();
    if (first !== undefined && first.tokenNumber === this.tokensTaken) return true;
    this.settledVersion = this.version;
    return false;
  }

  private fetchMoreTokens(): void {
    this.version++;
    this.scanToNextToken();
    this.staleSimpleKeys();
    this.unwindIndent(this.col);
    const c = this.at(this.pos);
    switch (c) {
      case C.EOF:
        return this.fetchStreamEnd();
      case 37: // %
        if (this.col === 0) return this.fetchDirective();
        break;
      case 45: // -
        if (this.col === 0 && this.isDocumentIndicator(45)) return this.fetchDocumentIndicator(T.DocumentStart);
        break;
      case 46: // .
        if (this.col === 0 && this.isDocumentIndicator(46)) return this.fetchDocumentIndicator(T.DocumentEnd);
        break;
    }
    switch (c) {
      case 91: // [
        return this.fetchFlowCollectionStart(T.FlowSequenceStart);
      case 123: // {
        return this.fetchFlowCollectionStart(T.FlowMappingStart);
      case 93: // ]
        return this.fetchFlowCollectionEnd(T.FlowSequenceEnd);
      case 125: // }
        return this.fetchFlowCollectionEnd(T.FlowMappingEnd);
      case 44: // ,
        return this.fetchFlowEntry();
      case 45: // -
        if (isBlankZ(this.at(this.pos + 1))) return this.fetchBlockEntry();
        break;
      case 63: // ?
        if (this.flowLevel !== 0 || isBlankZ(this.at(this.pos + 1))) return this.fetchKey();
        break;
      case 58: // :
        if (this.flowLevel !== 0 || isBlankZ(this.at(this.pos + 1))) return this.fetchValue();
        break;
      case 42: // *
        return this.fetchAnchorOrAlias(T.Alias);
      case 38: // &
        return this.fetchAnchorOrAlias(T.Anchor);
      case 33: // !
        return this.fetchTag();
      case 124: // |
        if (this.flowLevel === 0) return this.fetchBlockScalar(false);
        break;
      case 62: // >
        if (this.flowLevel === 0) return this.fetchBlockScalar(true);
        break;
      case 39: // '
        return this.fetchFlowScalar(false);
      case 34: // "
        return this.fetchFlowScalar(true);
    }
    if (this.checkPlain(c)) return this.fetchPlain();
    throw this.fail('while scanning for the next token', undefined, `found character ${this.reprAt(this.pos)} that cannot start any token`, this.pos);
  }

  private isDocumentIndicator(ch: number): boolean {
    return this.at(this.pos + 1) === ch && this.at(this.pos + 2) === ch && isBlankZ(this.at(this.pos + 3));
  }

  private checkPlain(c: number): boolean {
    // A plain scalar cannot start with a blank or an indicator, except that
    // '-' (anywhere) and '?', ':' (block context) may start one when followed
    // by a non-blank.
    if (!isBlankZ(c) && '-?:,[]{}#&*!|>\'"%@`'.indexOf(String.fromCharCode(c)) < 0) return true;
    return !isBlankZ(this.at(this.pos + 1)) && (c === 45 || (this.flowLevel === 0 && (c === 63 || c === 58)));
  }

  // -- simple keys --

  /** The oldest live possible simple key (it has the smallest token number). */
  private firstKey(): SimpleKey | undefined {
    const q = this.keyQueue;
    while (this.keyHead < this.keyTail && !(q[this.keyHead] as SimpleKey).live) q[this.keyHead++] = undefined;
    if (this.keyHead === this.keyTail) {
      this.keyHead = this.keyTail = 0;
      return undefined;
    }
    return q[this.keyHead];
  }

  private keyOf(level: number): SimpleKey | undefined {
    return level >= 0 ? this.keyAt[level] : this.keyAtNegative.get(level);
  }

  private dropKey(key: SimpleKey): void {
    key.live = false;
    if (key.level >= 0) {
      if (this.keyAt[key.level] === key) this.keyAt[key.level] = undefined;
    } else if (this.keyAtNegative.get(key.level) === key) {
      this.keyAtNegative.delete(key.level);
    }
  }

  private addKey(key: SimpleKey): void {
    if (key.level >= 0) this.keyAt[key.level] = key;
    else this.keyAtNegative.set(key.level, key);
    const q = this.keyQueue;
    if (this.keyTail === q.length && this.keyHead > 0 && this.keyHead >= this.keyTail - this.keyHead) {
      const n = this.keyTail - this.keyHead;
      for (let i = 0; i < n; i++) q[i] = q[this.keyHead + i];
      for (let i = n; i < this.keyTail; i++) q[i] = undefined;
      this.keyHead = 0;
      this.keyTail = n;
    }
    q[this.keyTail++] = key;
  }

  private staleSimpleKeys(): void {
    // Keys are saved in position order, so the stale ones are a prefix.
    for (let key = this.firstKey(); key !== undefined; key = this.firstKey()) {
      if (key.line !== this.line || this.cp - key.cp > 1024) {
        if (key.required) throw this.fail('while scanning a simple key', key.pos, "could not find expected ':'", this.pos);
        this.dropKey(key);
      } else {
        break;
      }
    }
  }

  private savePossibleSimpleKey(): void {
    const required = this.flowLevel === 0 && this.indent === this.col;
    if (this.allowSimpleKey) {
      this.removePossibleSimpleKey();
      const key: SimpleKey = {
        tokenNumber: this.tokensTaken + this.pending(),
        required,
        cp: this.cp,
        line: this.line,
        column: this.col,
        pos: this.pos,
        level: this.flowLevel,
        live: true,
      };
      this.addKey(key);
    }
  }

  private removePossibleSimpleKey(): void {
    const key = this.keyOf(this.flowLevel);
    if (key) {
      if (key.required) throw this.fail('while scanning a simple key', key.pos, "could not find expected ':'", this.pos);
      this.dropKey(key);
    }
  }

  // -- indentation --

  private unwindIndent(column: number): void {
    if (this.flowLevel !== 0) return;
    while (this.indent > column) {
      this.indent = this.indents.pop() as number;
      this.push(new Token(T.BlockEnd, this.pos, this.pos));
    }
  }

  private addIndent(column: number): boolean {
    if (this.indent < column) {
      this.indents.push(this.indent);
      this.indent = column;
      return true;
    }
    return false;
  }

  // -- fetchers --

  private fetchStreamEnd(): void {
    this.unwindIndent(-1);
    this.removePossibleSimpleKey();
    this.allowSimpleKey = false;
    for (let i = this.keyHead; i < this.keyTail; i++) this.dropKey(this.keyQueue[i] as SimpleKey);
    this.keyQueue.fill(undefined);
    this.keyHead = this.keyTail = 0;
    this.push(new Token(T.StreamEnd, this.pos, this.pos));
    this.done = true;
  }

  private fetchDirective(): void {
    this.unwindIndent(-1);
    this.removePossibleSimpleKey();
    this.allowSimpleKey = false;
    this.push(this.scanDirective());
  }

  private fetchDocumentIndicator(type: T): void {
    this.unwindIndent(-1);
    this.removePossibleSimpleKey();
    this.allowSimpleKey = false;
    const start = this.pos;
    this.forward(3);
    this.push(new Token(type, start, this.pos));
  }

  private fetchFlowCollectionStart(type: T): void {
    this.savePossibleSimpleKey();
    this.flowLevel++;
    this.allowSimpleKey = true;
    const start = this.pos;
    this.forward();
    this.push(new Token(type, start, this.pos));
  }

  private fetchFlowCollectionEnd(type: T): void {
    this.removePossibleSimpleKey();
    this.flowLevel--;
    this.allowSimpleKey = false;
    const start = this.pos;
    this.forward();
    this.push(new Token(type, start, this.pos));
  }

  private fetchFlowEntry(): void {
    this.allowSimpleKey = true;
    this.removePossibleSimpleKey();
    const start = this.pos;
    this.forward();
    this.push(new Token(T.FlowEntry, start, this.pos));
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.allowSimpleKey) throw this.fail(undefined, undefined, 'sequence entries are not allowed here', this.pos);
      if (this.addIndent(this.col)) this.push(new Token(T.BlockSequenceStart, this.pos, this.pos));
    }
    // A '-' in flow context is left for the parser to reject.
    this.allowSimpleKey = true;
    this.removePossibleSimpleKey();
    const start = this.pos;
    this.forward();
    this.push(new Token(T.BlockEntry, start, this.pos));
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.allowSimpleKey) throw this.fail(undefined, undefined, 'mapping keys are not allowed here', this.pos);
      if (this.addIndent(this.col)) this.push(new Token(T.BlockMappingStart, this.pos, this.pos));
    }
    this.allowSimpleKey = this.flowLevel === 0;
    this.removePossibleSimpleKey();
    const start = this.pos;
    this.forward();
    this.push(new Token(T.Key, start, this.pos));
  }

  private fetchValue(): void {
    const key = this.keyOf(this.flowLevel);
    if (key) {
      // The saved token starts a simple key: insert KEY (and maybe
      // BLOCK-MAPPING-START) before it.
      this.dropKey(key);
      const offset = key.tokenNumber - this.tokensTaken;
      this.insert(offset, new Token(T.Key, key.pos, key.pos));
      if (this.flowLevel === 0 && this.addIndent(key.column)) {
        this.insert(offset, new Token(T.BlockMappingStart, key.pos, key.pos));
      }
      this.allowSimpleKey = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.allowSimpleKey) throw this.fail(undefined, undefined, 'mapping values are not allowed here', this.pos);
        if (this.addIndent(this.col)) this.push(new Token(T.BlockMappingStart, this.pos, this.pos));
      }
      this.allowSimpleKey = this.flowLevel === 0;
      this.removePossibleSimpleKey();
    }
    const start = this.pos;
    this.forward();
    this.push(new Token(T.Value, start, this.pos));
  }

  private fetchAnchorOrAlias(type: T): void {
    this.savePossibleSimpleKey();
    this.allowSimpleKey = false;
    this.push(this.scanAnchor(type));
  }

  private fetchTag(): void {
    this.savePossibleSimpleKey();
    this.allowSimpleKey = false;
    this.push(this.scanTag());
  }

  private fetchBlockScalar(folded: boolean): void {
    this.allowSimpleKey = true;
    this.removePossibleSimpleKey();
    this.push(this.scanBlockScalar(folded));
  }

  private fetchFlowScalar(double: boolean): void {
    this.savePossibleSimpleKey();
    this.allowSimpleKey = false;
    this.push(this.scanFlowScalar(double));
  }

  private fetchPlain(): void {
    this.savePossibleSimpleKey();
    this.allowSimpleKey = false;
    this.push(this.scanPlain());
  }

  // -- scanners --

  private scanToNextToken(): void {
    if (this.pos === 0 && this.at(0) === C.BOM) this.forward();
    for (;;) {
      this.skipSpaces();
      if (this.at(this.pos) === 35 /* # */) this.skipToLineEnd();
      if (this.scanLineBreak() !== '') {
        if (this.flowLevel === 0) this.allowSimpleKey = true;
      } else {
        return;
      }
    }
  }

  /** Consumes one line break and returns its value ('\n', '\u2028', '\u2029'), or ''. */
  private scanLineBreak(): string {
    const c = this.at(this.pos);
    if (c === C.CR || c === C.LF || c === C.NEL) {
      this.forward(c === C.CR && this.at(this.pos + 1) === C.LF ? 2 : 1);
      return '\n';
    }
    if (c === C.LS || c === C.PS) {
      this.forward();
      return String.fromCharCode(c);
    }
    return '';
  }

  private scanDirective(): Token {
    const start = this.pos;
    this.forward();
    const name = this.scanDirectiveName(start);
    const token = new Token(T.Directive, start, start);
    token.value = name;
    if (name === 'YAML') {
      token.version = this.scanYamlDirectiveValue(start);
      token.end = this.pos;
    } else if (name === 'TAG') {
      token.tagDirective = this.scanTagDirectiveValue(start);
      token.end = this.pos;
    } else {
      token.end = this.pos;
      this.skipToLineEnd();
    }
    this.scanDirectiveIgnoredLine(start);
    return token;
  }

  private scanDirectiveName(start: number): string {
    let n = 0;
    while (isWordChar(this.at(this.pos + n))) n++;
    if (n === 0) {
      throw this.fail('while scanning a directive', start, `expected alphabetic or numeric character, but found ${this.reprAt(this.pos)}`, this.pos);
    }
    const value = this.src.slice(this.pos, this.pos + n);
    this.forward(n);
    const c = this.at(this.pos);
    if (!isSpaceZ(c)) {
      throw this.fail('while scanning a directive', start, `expected alphabetic or numeric character, but found ${this.reprAt(this.pos)}`, this.pos);
    }
    return value;
  }

  private scanYamlDirectiveValue(start: number): [number, number] {
    this.skipSpaces();
    const major = this.scanYamlDirectiveNumber(start);
    if (this.at(this.pos) !== 46) {
      throw this.fail('while scanning a directive', start, `expected a digit or '.', but found ${this.reprAt(this.pos)}`, this.pos);
    }
    this.forward();
    const minor = this.scanYamlDirectiveNumber(start);
    if (!isSpaceZ(this.at(this.pos))) {
      throw this.fail('while scanning a directive', start, `expected a digit or ' ', but found ${this.reprAt(this.pos)}`, this.pos);
    }
    return [major, minor];
  }

  private scanYamlDirectiveNumber(start: number): number {
    const c = this.at(this.pos);
    if (!(c >= 48 && c <= 57)) throw this.fail('while scanning a directive', start, `expected a digit, but found ${this.reprAt(this.pos)}`, this.pos);
    let n = 0;
    while (this.at(this.pos + n) >= 48 && this.at(this.pos + n) <= 57) n++;
    const value = Number(this.src.slice(this.pos, this.pos + n));
    this.forward(n);
    return value;
  }

  private scanTagDirectiveValue(start: number): [string, string] {
    this.skipSpaces();
    const handle = this.scanTagHandle('directive', start);
    if (this.at(this.pos) !== C.SPACE) {
      throw this.fail('while scanning a directive', start, `expected ' ', but found ${this.reprAt(this.pos)}`, this.pos);
    }
    this.skipSpaces();
    const prefix = this.scanTagUri('directive', start);
    if (!isSpaceZ(this.at(this.pos))) {
      throw this.fail('while scanning a directive', start, `expected ' ', but found ${this.reprAt(this.pos)}`, this.pos);
    }
    return [handle, prefix];
  }

  private scanDirectiveIgnoredLine(start: number): void {
    this.skipSpaces();
    if (this.at(this.pos) === 35) {
      this.skipToLineEnd();
    }
    if (!isBreakZ(this.at(this.pos))) {
      throw this.fail('while scanning a directive', start, `expected a comment or a line break, but found ${this.reprAt(this.pos)}`, this.pos);
    }
    this.scanLineBreak();
  }

  private scanAnchor(type: T): Token {
    // PyYAML restricts anchor and alias names to [0-9A-Za-z_-].
    const start = this.pos;
    const name = type === T.Alias ? 'alias' : 'anchor';
    this.forward();
    let n = 0;
    while (isWordChar(this.at(this.pos + n))) n++;
    if (n === 0) {
      throw this.fail(`while scanning an ${name}`, start, `expected alphabetic or numeric character, but found ${this.reprAt(this.pos)}`, this.pos);
    }
    const value = this.src.slice(this.pos, this.pos + n);
    this.forward(n);
    const c = this.at(this.pos);
    if (!isBlankZ(c) && '?:,]}%@`'.indexOf(String.fromCharCode(c)) < 0) {
      throw this.fail(`while scanning an ${name}`, start, `expected alphabetic or numeric character, but found ${this.reprAt(this.pos)}`, this.pos);
    }
    const token = new Token(type, start, this.pos);
    token.value = value;
    return token;
  }

  private scanTag(): Token {
    const start = this.pos;
    let c = this.at(this.pos + 1);
    let handle: string | null;
    let suffix: string;
    if (c === 60 /* < */) {
      handle = null;
      this.forward(2);
      suffix = this.scanTagUri('tag', start);
      if (this.at(this.pos) !== 62 /* > */) {
        throw this.fail('while parsing a tag', start, `expected '>', but found ${this.reprAt(this.pos)}`, this.pos);
      }
      this.forward();
    } else if (isBlankZ(c)) {
      handle = null;
      suffix = '!';
      this.forward();
    } else {
      let n = 1;
      let useHandle = false;
      while (!isSpaceZ(c)) {
        if (c === 33) {
          useHandle = true;
          break;
        }
        n++;
        c = this.at(this.pos + n);
      }
      if (useHandle) {
        handle = this.scanTagHandle('tag', start);
      } else {
        handle = '!';
        this.forward();
      }
      suffix = this.scanTagUri('tag', start);
    }
    if (!isSpaceZ(this.at(this.pos))) {
      throw this.fail('while scanning a tag', start, `expected ' ', but found ${this.reprAt(this.pos)}`, this.pos);
    }
    const token = new Token(T.Tag, start, this.pos);
    token.handle = handle;
    token.suffix = suffix;
    return token;
  }

  private scanTagHandle(name: string, start: number): string {
    let c = this.at(this.pos);
    if (c !== 33) throw this.fail(`while scanning a ${name}`, start, `expected '!', but found ${this.reprAt(this.pos)}`, this.pos);
    let n = 1;
    c = this.at(this.pos + n);
    if (c !== C.SPACE) {
      while (isWordChar(c)) {
        n++;
        c = this.at(this.pos + n);
      }
      if (c !== 33) {
        this.forward(n);
        throw this.fail(`while scanning a ${name}`, start, `expected '!', but found ${this.reprAt(this.pos)}`, this.pos);
      }
      n++;
    }
    const value = this.src.slice(this.pos, this.pos + n);
    this.forward(n);
    return value;
  }

  private scanTagUri(name: string, start: number): string {
    let out = '';
    let any = false;
    let n = 0;
    let c = this.at(this.pos);
    while ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || URI_CHARS.has(c)) {
      if (c === 37 /* % */) {
        out += this.src.slice(this.pos, this.pos + n);
        this.forward(n);
        n = 0;
        out += this.scanUriEscapes(name, start);
        any = true;
      } else {
        n++;
      }
      c = this.at(this.pos + n);
    }
    if (n) {
      out += this.src.slice(this.pos, this.pos + n);
      this.forward(n);
      any = true;
    }
    if (!any) throw this.fail(`while parsing a ${name}`, start, `expected URI, but found ${this.reprAt(this.pos)}`, this.pos);
    return out;
  }

  private scanUriEscapes(name: string, start: number): string {
    const bytes: number[] = [];
    const mark = this.pos;
    while (this.at(this.pos) === 37) {
      this.forward();
      for (let k = 0; k < 2; k++) {
        if (!isHex(this.at(this.pos + k))) {
          throw this.fail(
            `while scanning a ${name}`,
            start,
            `expected URI escape sequence of 2 hexadecimal numbers, but found ${this.reprAt(this.pos + k)}`,
            this.pos,
          );
        }
      }
      bytes.push(parseInt(this.src.slice(this.pos, this.pos + 2), 16));
      this.forward(2);
    }
    const bad = utf8Error(bytes);
    if (bad !== null) throw this.fail(`while scanning a ${name}`, start, bad, mark);
    return new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array(bytes));
  }

  private scanBlockScalar(folded: boolean): Token {
    const start = this.pos;
    this.forward();
    const [chomping, increment] = this.scanBlockScalarIndicators(start);
    const headerEnd = this.pos;
    this.scanBlockScalarIgnoredLine(start);

    let minIndent = this.indent + 1;
    if (minIndent < 1) minIndent = 1;
    let indent: number;
    let breaks: string;
    let end: number;
    if (increment === null) {
      const r = this.scanBlockScalarIndentation();
      breaks = r.breaks;
      end = r.end;
      indent = Math.max(minIndent, r.maxIndent);
    } else {
      indent = minIndent + increment - 1;
      const r = this.scanBlockScalarBreaks(indent);
      breaks = r.breaks;
      end = r.end;
    }

    let out = '';
    let lineBreak = '';
    let contentEnd = headerEnd;
    while (this.col === indent && this.at(this.pos) !== C.EOF) {
      out += breaks;
      const first = this.at(this.pos);
      const leadingNonSpace = first !== C.SPACE && first !== C.TAB;
      let n = 0;
      while (!isBreakZ(this.at(this.pos + n))) n++;
      out += this.src.slice(this.pos, this.pos + n);
      this.forwardInLine(n);
      contentEnd = this.pos;
      lineBreak = this.scanLineBreak();
      const r = this.scanBlockScalarBreaks(indent);
      breaks = r.breaks;
      end = r.end;
      if (this.col === indent && this.at(this.pos) !== C.EOF) {
        const next = this.at(this.pos);
        if (folded && lineBreak === '\n' && leadingNonSpace && next !== C.SPACE && next !== C.TAB) {
          if (breaks === '') out += ' ';
        } else {
          out += lineBreak;
        }
      } else {
        break;
      }
    }
    if (chomping !== false) out += lineBreak;
    if (chomping === true) out += breaks;
    return scalarToken(start, end, out, false, contentEnd);
  }

  private scanBlockScalarIndicators(start: number): [boolean | null, number | null] {
    let chomping: boolean | null = null;
    let increment: number | null = null;
    let c = this.at(this.pos);
    const zero = () =>
      this.fail('while scanning a block scalar', start, 'expected indentation indicator in the range 1-9, but found 0', this.pos);
    if (c === 43 || c === 45) {
      chomping = c === 43;
      this.forward();
      c = this.at(this.pos);
      if (c >= 48 && c <= 57) {
        increment = c - 48;
        if (increment === 0) throw zero();
        this.forward();
      }
    } else if (c >= 48 && c <= 57) {
      increment = c - 48;
      if (increment === 0) throw zero();
      this.forward();
      c = this.at(this.pos);
      if (c === 43 || c === 45) {
        chomping = c === 43;
        this.forward();
      }
    }
    c = this.at(this.pos);
    if (!isSpaceZ(c)) {
      throw this.fail('while scanning a block scalar', start, `expected chomping or indentation indicators, but found ${this.reprAt(this.pos)}`, this.pos);
    }
    return [chomping, increment];
  }

  private scanBlockScalarIgnoredLine(start: number): void {
    this.skipSpaces();
    if (this.at(this.pos) === 35) {
      this.skipToLineEnd();
    }
    const c = this.at(this.pos);
    if (!isBreakZ(c)) {
      throw this.fail('while scanning a block scalar', start, `expected a comment or a line break, but found ${this.reprAt(this.pos)}`, this.pos);
    }
    this.scanLineBreak();
  }

  private scanBlockScalarIndentation(): { breaks: string; maxIndent: number; end: number } {
    let breaks = '';
    let maxIndent = 0;
    let end = this.pos;
    for (;;) {
      const c = this.at(this.pos);
      if (c === C.SPACE) {
        this.forward();
        if (this.col > maxIndent) maxIndent = this.col;
      } else if (isBreak(c)) {
        breaks += this.scanLineBreak();
        end = this.pos;
      } else {
        break;
      }
    }
    return { breaks, maxIndent, end };
  }

  private scanBlockScalarBreaks(indent: number): { breaks: string; end: number } {
    let breaks = '';
    let end = this.pos;
    this.skipSpacesTo(indent);
    while (isBreak(this.at(this.pos))) {
      breaks += this.scanLineBreak();
      end = this.pos;
      this.skipSpacesTo(indent);
    }
    return { breaks, end };
  }

  private scanFlowScalar(double: boolean): Token {
    // Quoted scalars ignore indentation (PyYAML only checks for document
    // separators at the start of continuation lines).
    const start = this.pos;
    const quote = this.at(this.pos);
    this.forward();
    let out = this.scanFlowScalarNonSpaces(double, start);
    while (this.at(this.pos) !== quote) {
      out += this.scanFlowScalarSpaces(start);
      out += this.scanFlowScalarNonSpaces(double, start);
    }
    this.forward();
    return scalarToken(start, this.pos, out, false, -1);
  }

  private scanFlowScalarNonSpaces(double: boolean, start: number): string {
    let out = '';
    for (;;) {
      let n = 0;
      for (;;) {
        const c = this.at(this.pos + n);
        if (c === 39 || c === 34 || c === 92 || isBlankZ(c)) break;
        n++;
      }
      if (n) {
        out += this.src.slice(this.pos, this.pos + n);
        this.forwardInLine(n);
      }
      const c = this.at(this.pos);
      if (!double && c === 39 && this.at(this.pos + 1) === 39) {
        out += "'";
        this.forward(2);
      } else if ((double && c === 39) || (!double && (c === 34 || c === 92))) {
        out += String.fromCharCode(c);
        this.forward();
      } else if (double && c === 92) {
        this.forward();
        const e = this.at(this.pos);
        const simple = ESCAPES.get(e);
        if (simple !== undefined) {
          out += simple;
          this.forward();
        } else if (e === 120 || e === 117 || e === 85) {
          const len = e === 120 ? 2 : e === 117 ? 4 : 8;
          this.forward();
          for (let k = 0; k < len; k++) {
            if (!isHex(this.at(this.pos + k))) {
              throw this.fail(
                'while scanning a double-quoted scalar',
                start,
                `expected escape sequence of ${len} hexadecimal numbers, but found ${this.reprAt(this.pos + k)}`,
                this.pos,
              );
            }
          }
          const code = parseInt(this.src.slice(this.pos, this.pos + len), 16);
          if (code > 0x10ffff) {
            throw new LoadError('value', 'ValueError', 'chr() arg not in range(0x110000)', pointSpan(this.src, this.pos));
          }
          out += String.fromCodePoint(code);
          this.forward(len);
        } else if (isBreak(e)) {
          this.scanLineBreak();
          out += this.scanFlowScalarBreaks(start);
        } else {
          throw this.fail('while scanning a double-quoted scalar', start, `found unknown escape character ${this.reprAt(this.pos)}`, this.pos);
        }
      } else {
        return out;
      }
    }
  }

  private scanFlowScalarSpaces(start: number): string {
    let n = 0;
    while (this.at(this.pos + n) === C.SPACE || this.at(this.pos + n) === C.TAB) n++;
    const whitespaces = this.src.slice(this.pos, this.pos + n);
    this.forwardInLine(n);
    const c = this.at(this.pos);
    if (c === C.EOF) throw this.fail('while scanning a quoted scalar', start, 'found unexpected end of stream', this.pos);
    if (isBreak(c)) {
      const lineBreak = this.scanLineBreak();
      const breaks = this.scanFlowScalarBreaks(start);
      let out = '';
      if (lineBreak !== '\n') out += lineBreak;
      else if (breaks === '') out += ' ';
      return out + breaks;
    }
    return whitespaces;
  }

  private scanFlowScalarBreaks(start: number): string {
    let out = '';
    for (;;) {
      const c = this.at(this.pos);
      if ((c === 45 || c === 46) && this.isDocumentIndicator(c)) {
        throw this.fail('while scanning a quoted scalar', start, 'found unexpected document separator', this.pos);
      }
      let n = 0;
      while (this.at(this.pos + n) === C.SPACE || this.at(this.pos + n) === C.TAB) n++;
      this.forwardInLine(n);
      if (isBreak(this.at(this.pos))) out += this.scanLineBreak();
      else return out;
    }
  }

  private scanPlain(): Token {
    const start = this.pos;
    let end = start;
    const indent = this.indent + 1;
    const inFlow = this.flowLevel !== 0;
    let out = '';
    let spaces = '';
    for (;;) {
      if (this.at(this.pos) === 35) break;
      let n = 0;
      for (;;) {
        const c = this.at(this.pos + n);
        if (isBlankZ(c)) break;
        if (c === 58 /* : */) {
          const d = this.at(this.pos + n + 1);
          if (isBlankZ(d) || (inFlow && (d === 44 || d === 91 || d === 93 || d === 123 || d === 125))) break;
        }
        if (inFlow && (c === 44 || c === 63 || c === 91 || c === 93 || c === 123 || c === 125)) break;
        n++;
      }
      if (n === 0) break;
      this.allowSimpleKey = false;
      out += spaces;
      out += this.src.slice(this.pos, this.pos + n);
      this.forwardInLine(n);
      end = this.pos;
      const s = this.scanPlainSpaces();
      if (s === null || s === '' || this.at(this.pos) === 35 || (!inFlow && this.col < indent)) break;
      spaces = s;
    }
    return scalarToken(start, end, out, true, -1);
  }

  /** Whitespace after a plain scalar chunk, folded; null at a document separator. */
  private scanPlainSpaces(): string | null {
    let n = 0;
    while (this.at(this.pos + n) === C.SPACE) n++;
    const whitespaces = this.src.slice(this.pos, this.pos + n);
    this.forwardInLine(n);
    const c = this.at(this.pos);
    if (isBreak(c)) {
      const lineBreak = this.scanLineBreak();
      this.allowSimpleKey = true;
      if (this.atDocumentSeparator()) return null;
      let breaks = '';
      for (;;) {
        const d = this.at(this.pos);
        if (d === C.SPACE) {
          this.forward();
        } else if (isBreak(d)) {
          breaks += this.scanLineBreak();
          if (this.atDocumentSeparator()) return null;
        } else {
          break;
        }
      }
      let out = '';
      if (lineBreak !== '\n') out += lineBreak;
      else if (breaks === '') out += ' ';
      return out + breaks;
    }
    return whitespaces;
  }

  private atDocumentSeparator(): boolean {
    const c = this.at(this.pos);
    return (c === 45 || c === 46) && this.isDocumentIndicator(c);
  }
}

/**
 * The message of the UnicodeDecodeError Python's strict UTF-8 decoder raises
 * for these bytes (CPython's error ranges and reasons), or null if valid.
 */
function utf8Error(b: readonly number[]): string | null {
  const cont = (x: number | undefined) => x !== undefined && x >= 0x80 && x <= 0xbf;
  const fail = (start: number, end: number, reason: string) =>
    end - start === 1
      ? `'utf-8' codec can't decode byte 0x${hex(b[start], 2)} in position ${start}: ${reason}`
      : `'utf-8' codec can't decode bytes in position ${start}-${end - 1}: ${reason}`;
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    const left = b.length - i;
    if (c < 0x80) {
      i++;
      continue;
    }
    if (c < 0xc2 || c >= 0xf5) return fail(i, i + 1, 'invalid start byte');
    const c2 = b[i + 1];
    const need = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    // Second byte: a continuation byte, narrowed after E0, ED, F0, F4.
    const bad2 =
      left >= 2 &&
      (!cont(c2) ||
        (c === 0xe0 && c2 < 0xa0) ||
        (c === 0xed && c2 >= 0xa0) ||
        (c === 0xf0 && c2 < 0x90) ||
        (c === 0xf4 && c2 >= 0x90));
    if (bad2) return fail(i, i + 1, 'invalid continuation byte');
    if (left < need) {
      if (need === 4 && left === 3 && !cont(b[i + 2])) return fail(i, i + 2, 'invalid continuation byte');
      return fail(i, b.length, 'unexpected end of data');
    }
    if (need >= 3 && !cont(b[i + 2])) return fail(i, i + 2, 'invalid continuation byte');
    if (need === 4 && !cont(b[i + 3])) return fail(i, i + 3, 'invalid continuation byte');
    i += need;
  }
  return null;
}

const ESCAPES = new Map<number, string>([
  [48, '\0'],
  [97, '\x07'],
  [98, '\x08'],
  [116, '\t'],
  [9, '\t'],
  [110, '\n'],
  [118, '\x0b'],
  [102, '\x0c'],
  [114, '\r'],
  [101, '\x1b'],
  [32, ' '],
  [34, '"'],
  [92, '\\'],
  [47, '/'],
  [78, '\x85'],
  [95, '\xa0'],
  [76, '\u2028'],
  [80, '\u2029'],
]);

/** A span for a point error: the character there, or empty at a line end or the end. */
function pointSpan(src: string, pos: number): TextSpan {
  if (pos >= src.length) return { start: src.length, end: src.length };
  const c = src.charCodeAt(pos);
  if (isBreak(c)) return { start: pos, end: pos };
  const wide = c >= 0xd800 && c <= 0xdbff && pos + 1 < src.length;
  return { start: pos, end: pos + (wide ? 2 : 1) };
}

// ---------------------------------------------------------------------------
// Parser (events)

const enum E {
  StreamStart,
  StreamEnd,
  DocumentStart,
  DocumentEnd,
  Alias,
  Scalar,
  SequenceStart,
  SequenceEnd,
  MappingStart,
  MappingEnd,
}

class Event {
  anchor: string | null = null;
  tag: string | null = null;
  /** Scalars: may the implicit resolvers be used (PyYAML's implicit[0])? */
  implicit = false;
  value = '';
  /** Block scalars: end of the last content line, or -1. */
  contentEnd = -1;
  /** Collections: written with brackets ([...] or {...}). */
  flow = false;
  /** A single-pair mapping inside a flow sequence (`[a: b]`). */
  pairInSequence = false;

  constructor(
    readonly type: E,
    readonly start: number,
    readonly end: number,
  ) {}
}

/** A node start event with its properties. */
function nodeEvent(type: E, start: number, end: number, anchor: string | null, tag: string | null): Event {
  const e = new Event(type, start, end);
  e.anchor = anchor;
  e.tag = tag;
  return e;
}

function collectionStart(type: E, start: number, end: number, anchor: string | null, tag: string | null, flow: boolean): Event {
  const e = nodeEvent(type, start, end, anchor, tag);
  e.flow = flow;
  return e;
}

const enum S {
  StreamStart,
  ImplicitDocumentStart,
  DocumentStart,
  DocumentEnd,
  DocumentContent,
  BlockNode,
  BlockSequenceFirstEntry,
  BlockSequenceEntry,
  IndentlessSequenceEntry,
  BlockMappingFirstKey,
  BlockMappingKey,
  BlockMappingValue,
  FlowSequenceFirstEntry,
  FlowSequenceEntry,
  FlowSequenceEntryMappingKey,
  FlowSequenceEntryMappingValue,
  FlowSequenceEntryMappingEnd,
  FlowMappingFirstKey,
  FlowMappingKey,
  FlowMappingValue,
  FlowMappingEmptyValue,
  FlowNode,
  BlockNodeOrIndentlessSequence,
  Done,
}

const DEFAULT_TAG_HANDLES: ReadonlyMap<string, string> = new Map([
  ['!', '!'],
  ['!!', 'tag:yaml.org,2002:'],
]);

class Parser {
  private state: S = S.StreamStart;
  private readonly states: S[] = [];
  private readonly marks: number[] = [];
  private current: Event | null = null;
  private tagHandles: ReadonlyMap<string, string> = DEFAULT_TAG_HANDLES;
  private readonly scanner: Scanner;

  constructor(private readonly src: string) {
    this.scanner = new Scanner(src);
  }

  checkEvent(type: E): boolean {
    const e = this.peekEvent();
    return e !== null && e.type === type;
  }

  peekEvent(): Event | null {
    if (this.current === null && this.state !== S.Done) this.current = this.next();
    return this.current;
  }

  getEvent(): Event {
    const e = this.peekEvent() as Event;
    this.current = null;
    return e;
  }

  private fail(context: string | undefined, contextPos: number | undefined, problem: string, token: Token): LoadError {
    const span = token.end > token.start ? { start: token.start, end: token.end } : pointSpan(this.src, token.start);
    return new LoadError('syntax', 'ParserError', problem, span, context, contextPos === undefined ? undefined : pointSpan(this.src, contextPos));
  }

  private peek(): Token {
    return this.scanner.peekToken() as Token;
  }

  private check(type: T): boolean {
    return this.scanner.checkToken(type);
  }

  /** Type of the next token (PyYAML's check_token with several choices peeks once). */
  private peekType(): T {
    return this.peek().type;
  }

  private popState(): void {
    this.state = this.states.pop() as S;
  }

  private next(): Event {
    switch (this.state) {
      case S.StreamStart: {
        const t = this.scanner.getToken();
        this.state = S.ImplicitDocumentStart;
        return new Event(E.StreamStart, t.start, t.end);
      }
      case S.ImplicitDocumentStart: {
        const nt = this.peekType();
        if (nt !== T.Directive && nt !== T.DocumentStart && nt !== T.StreamEnd) {
          this.tagHandles = DEFAULT_TAG_HANDLES;
          const t = this.peek();
          this.states.push(S.DocumentEnd);
          this.state = S.BlockNode;
          return new Event(E.DocumentStart, t.start, t.start);
        }
        return this.parseDocumentStart();
      }
      case S.DocumentStart:
        return this.parseDocumentStart();
      case S.DocumentEnd: {
        const t = this.peek();
        let end = t.start;
        if (this.check(T.DocumentEnd)) end = this.scanner.getToken().end;
        this.state = S.DocumentStart;
        return new Event(E.DocumentEnd, t.start, end);
      }
      case S.DocumentContent: {
        const nt = this.peekType();
        if (nt === T.Directive || nt === T.DocumentStart || nt === T.DocumentEnd || nt === T.StreamEnd) {
          const e = emptyScalar(this.peek().start);
          this.popState();
          return e;
        }
        return this.parseNode(true, false);
      }
      case S.BlockNode:
        return this.parseNode(true, false);
      case S.BlockNodeOrIndentlessSequence:
        return this.parseNode(true, true);
      case S.FlowNode:
        return this.parseNode(false, false);
      case S.BlockSequenceFirstEntry:
        this.marks.push(this.scanner.getToken().start);
        return this.parseBlockSequenceEntry();
      case S.BlockSequenceEntry:
        return this.parseBlockSequenceEntry();
      case S.IndentlessSequenceEntry:
        return this.parseIndentlessSequenceEntry();
      case S.BlockMappingFirstKey:
        this.marks.push(this.scanner.getToken().start);
        return this.parseBlockMappingKey();
      case S.BlockMappingKey:
        return this.parseBlockMappingKey();
      case S.BlockMappingValue:
        return this.parseBlockMappingValue();
      case S.FlowSequenceFirstEntry:
        this.marks.push(this.scanner.getToken().start);
        return this.parseFlowSequenceEntry(true);
      case S.FlowSequenceEntry:
        return this.parseFlowSequenceEntry(false);
      case S.FlowSequenceEntryMappingKey: {
        const t = this.scanner.getToken();
        const nt = this.peekType();
        if (nt !== T.Value && nt !== T.FlowEntry && nt !== T.FlowSequenceEnd) {
          this.states.push(S.FlowSequenceEntryMappingValue);
          return this.parseNode(false, false);
        }
        this.state = S.FlowSequenceEntryMappingValue;
        return emptyScalar(t.end);
      }
      case S.FlowSequenceEntryMappingValue:
        if (this.check(T.Value)) {
          const t = this.scanner.getToken();
          const nt = this.peekType();
          if (nt !== T.FlowEntry && nt !== T.FlowSequenceEnd) {
            this.states.push(S.FlowSequenceEntryMappingEnd);
            return this.parseNode(false, false);
          }
          this.state = S.FlowSequenceEntryMappingEnd;
          return emptyScalar(t.end);
        }
        this.state = S.FlowSequenceEntryMappingEnd;
        return emptyScalar(this.peek().start);
      case S.FlowSequenceEntryMappingEnd: {
        this.state = S.FlowSequenceEntry;
        const t = this.peek();
        return new Event(E.MappingEnd, t.start, t.start);
      }
      case S.FlowMappingFirstKey:
        this.marks.push(this.scanner.getToken().start);
        return this.parseFlowMappingKey(true);
      case S.FlowMappingKey:
        return this.parseFlowMappingKey(false);
      case S.FlowMappingValue:
        if (this.check(T.Value)) {
          const t = this.scanner.getToken();
          const nt = this.peekType();
          if (nt !== T.FlowEntry && nt !== T.FlowMappingEnd) {
            this.states.push(S.FlowMappingKey);
            return this.parseNode(false, false);
          }
          this.state = S.FlowMappingKey;
          return emptyScalar(t.end);
        }
        this.state = S.FlowMappingKey;
        return emptyScalar(this.peek().start);
      case S.FlowMappingEmptyValue:
        this.state = S.FlowMappingKey;
        return emptyScalar(this.peek().start);
      case S.Done:
        throw new Error('parser: no more events');
    }
  }

  private parseDocumentStart(): Event {
    while (this.check(T.DocumentEnd)) this.scanner.getToken();
    if (!this.check(T.StreamEnd)) {
      const start = this.peek().start;
      this.processDirectives();
      if (!this.check(T.DocumentStart)) {
        const t = this.peek();
        throw this.fail(undefined, undefined, `expected '<document start>', but found '${TOKEN_ID[t.type]}'`, t);
      }
      const t = this.scanner.getToken();
      this.states.push(S.DocumentEnd);
      this.state = S.DocumentContent;
      return new Event(E.DocumentStart, start, t.end);
    }
    const t = this.scanner.getToken();
    this.state = S.Done;
    return new Event(E.StreamEnd, t.start, t.end);
  }

  private processDirectives(): void {
    let version: [number, number] | null = null;
    const handles = new Map<string, string>();
    while (this.check(T.Directive)) {
      const t = this.scanner.getToken();
      if (t.value === 'YAML') {
        if (version !== null) throw this.fail(undefined, undefined, 'found duplicate YAML directive', t);
        const v = t.version as [number, number];
        if (v[0] !== 1) throw this.fail(undefined, undefined, 'found incompatible YAML document (version 1.* is required)', t);
        version = v;
      } else if (t.value === 'TAG') {
        const [handle, prefix] = t.tagDirective as [string, string];
        if (handles.has(handle)) throw this.fail(undefined, undefined, `duplicate tag handle ${pyStrRepr(handle)}`, t);
        handles.set(handle, prefix);
      }
    }
    for (const [k, v] of DEFAULT_TAG_HANDLES) if (!handles.has(k)) handles.set(k, v);
    this.tagHandles = handles;
  }

  private parseNode(block: boolean, indentlessSequence: boolean): Event {
    if (this.check(T.Alias)) {
      const t = this.scanner.getToken();
      this.popState();
      return nodeEvent(E.Alias, t.start, t.end, t.value, null);
    }
    let anchor: string | null = null;
    let tagToken: Token | null = null;
    let start: number | null = null;
    let end = 0;
    if (this.check(T.Anchor)) {
      const t = this.scanner.getToken();
      start = t.start;
      end = t.end;
      anchor = t.value as string;
      if (this.check(T.Tag)) {
        tagToken = this.scanner.getToken();
        end = tagToken.end;
      }
    } else if (this.check(T.Tag)) {
      tagToken = this.scanner.getToken();
      start = tagToken.start;
      end = tagToken.end;
      if (this.check(T.Anchor)) {
        const t = this.scanner.getToken();
        end = t.end;
        anchor = t.value as string;
      }
    }
    let tag: string | null = null;
    if (tagToken) {
      const handle = tagToken.handle as string | null;
      if (handle !== null) {
        const prefix = this.tagHandles.get(handle);
        if (prefix === undefined) {
          throw this.fail('while parsing a node', start as number, `found undefined tag handle ${pyStrRepr(handle)}`, tagToken);
        }
        tag = prefix + tagToken.suffix;
      } else {
        tag = tagToken.suffix as string;
      }
    }
    if (start === null) start = end = this.peek().start;
    const implicit = tag === null || tag === '!';
    if (indentlessSequence && this.check(T.BlockEntry)) {
      this.state = S.IndentlessSequenceEntry;
      return collectionStart(E.SequenceStart, start, this.peek().end, anchor, tag, false);
    }
    const t = this.peek();
    switch (t.type) {
      case T.Scalar: {
        this.scanner.getToken();
        this.popState();
        const e = nodeEvent(E.Scalar, start, t.end, anchor, tag);
        e.implicit = (t.plain && tag === null) || tag === '!';
        e.value = t.value;
        e.contentEnd = t.contentEnd;
        return e;
      }
      case T.FlowSequenceStart:
        this.state = S.FlowSequenceFirstEntry;
        return collectionStart(E.SequenceStart, start, t.end, anchor, tag, true);
      case T.FlowMappingStart:
        this.state = S.FlowMappingFirstKey;
        return collectionStart(E.MappingStart, start, t.end, anchor, tag, true);
      case T.BlockSequenceStart:
        if (!block) break;
        this.state = S.BlockSequenceFirstEntry;
        return collectionStart(E.SequenceStart, start, t.start, anchor, tag, false);
      case T.BlockMappingStart:
        if (!block) break;
        this.state = S.BlockMappingFirstKey;
        return collectionStart(E.MappingStart, start, t.start, anchor, tag, false);
    }
    if (anchor !== null || tag !== null) {
      // Empty scalars are allowed even if a tag or an anchor is specified.
      this.popState();
      const e = nodeEvent(E.Scalar, start, end, anchor, tag);
      e.implicit = implicit;
      return e;
    }
    throw this.fail(`while parsing a ${block ? 'block' : 'flow'} node`, start, `expected the node content, but found '${TOKEN_ID[t.type]}'`, t);
  }

  private parseBlockSequenceEntry(): Event {
    if (this.check(T.BlockEntry)) {
      const t = this.scanner.getToken();
      const nt = this.peekType();
      if (nt !== T.BlockEntry && nt !== T.BlockEnd) {
        this.states.push(S.BlockSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = S.BlockSequenceEntry;
      return emptyScalar(t.end);
    }
    if (!this.check(T.BlockEnd)) {
      const t = this.peek();
      throw this.fail('while parsing a block collection', this.marks[this.marks.length - 1], `expected <block end>, but found '${TOKEN_ID[t.type]}'`, t);
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return new Event(E.SequenceEnd, t.start, t.end);
  }

  private parseIndentlessSequenceEntry(): Event {
    if (this.check(T.BlockEntry)) {
      const t = this.scanner.getToken();
      const nt = this.peekType();
      if (nt !== T.BlockEntry && nt !== T.Key && nt !== T.Value && nt !== T.BlockEnd) {
        this.states.push(S.IndentlessSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = S.IndentlessSequenceEntry;
      return emptyScalar(t.end);
    }
    const t = this.peek();
    this.popState();
    return new Event(E.SequenceEnd, t.start, t.start);
  }

  private parseBlockMappingKey(): Event {
    if (this.check(T.Key)) {
      const t = this.scanner.getToken();
      const nt = this.peekType();
      if (nt !== T.Key && nt !== T.Value && nt !== T.BlockEnd) {
        this.states.push(S.BlockMappingValue);
        return this.parseNode(true, true);
      }
      this.state = S.BlockMappingValue;
      return emptyScalar(t.end);
    }
    if (!this.check(T.BlockEnd)) {
      const t = this.peek();
      throw this.fail('while parsing a block mapping', this.marks[this.marks.length - 1], `expected <block end>, but found '${TOKEN_ID[t.type]}'`, t);
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return new Event(E.MappingEnd, t.start, t.end);
  }

  private parseBlockMappingValue(): Event {
    if (this.check(T.Value)) {
      const t = this.scanner.getToken();
      const nt = this.peekType();
      if (nt !== T.Key && nt !== T.Value && nt !== T.BlockEnd) {
        this.states.push(S.BlockMappingKey);
        return this.parseNode(true, true);
      }
      this.state = S.BlockMappingKey;
      return emptyScalar(t.end);
    }
    this.state = S.BlockMappingKey;
    return emptyScalar(this.peek().start);
  }

  private parseFlowSequenceEntry(first: boolean): Event {
    if (!this.check(T.FlowSequenceEnd)) {
      if (!first) {
        if (this.check(T.FlowEntry)) {
          this.scanner.getToken();
        } else {
          const t = this.peek();
          throw this.fail('while parsing a flow sequence', this.marks[this.marks.length - 1], `expected ',' or ']', but got '${TOKEN_ID[t.type]}'`, t);
        }
      }
      if (this.check(T.Key)) {
        const t = this.peek();
        this.state = S.FlowSequenceEntryMappingKey;
        const e = collectionStart(E.MappingStart, t.start, t.end, null, null, true);
        e.pairInSequence = true;
        return e;
      }
      if (!this.check(T.FlowSequenceEnd)) {
        this.states.push(S.FlowSequenceEntry);
        return this.parseNode(false, false);
      }
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return new Event(E.SequenceEnd, t.start, t.end);
  }

  private parseFlowMappingKey(first: boolean): Event {
    if (!this.check(T.FlowMappingEnd)) {
      if (!first) {
        if (this.check(T.FlowEntry)) {
          this.scanner.getToken();
        } else {
          const t = this.peek();
          throw this.fail('while parsing a flow mapping', this.marks[this.marks.length - 1], `expected ',' or '}', but got '${TOKEN_ID[t.type]}'`, t);
        }
      }
      if (this.check(T.Key)) {
        const t = this.scanner.getToken();
        const nt = this.peekType();
        if (nt !== T.Value && nt !== T.FlowEntry && nt !== T.FlowMappingEnd) {
          this.states.push(S.FlowMappingValue);
          return this.parseNode(false, false);
        }
        this.state = S.FlowMappingValue;
        return emptyScalar(t.end);
      }
      if (!this.check(T.FlowMappingEnd)) {
        this.states.push(S.FlowMappingEmptyValue);
        return this.parseNode(false, false);
      }
    }
    const t = this.scanner.getToken();
    this.popState();
    this.marks.pop();
    return new Event(E.MappingEnd, t.start, t.end);
  }
}

function emptyScalar(mark: number): Event {
  const e = new Event(E.Scalar, mark, mark);
  e.implicit = true;
  return e;
}

// ---------------------------------------------------------------------------
// Nodes and composer

const TAG = 'tag:yaml.org,2002:';
const STR_TAG = TAG + 'str';
const SEQ_TAG = TAG + 'seq';
const MAP_TAG = TAG + 'map';
const MERGE_TAG = TAG + 'merge';
const VALUE_TAG = TAG + 'value';
// Constant strings, so that tag comparisons and lookups are cheap.
const NULL_TAG = TAG + 'null';
const BOOL_TAG = TAG + 'bool';
const INT_TAG = TAG + 'int';
const FLOAT_TAG = TAG + 'float';
const TIMESTAMP_TAG = TAG + 'timestamp';
const YAML_TAG = TAG + 'yaml';

const enum K {
  Scalar,
  Sequence,
  Mapping,
}

const NODE_ID = ['scalar', 'sequence', 'mapping'];

interface Pair {
  key: YNode;
  /** Where the key / value is written (for an alias: the `*name`); shared by Origins. */
  keySpan: TextSpan;
  value: YNode;
  valueSpan: TextSpan;
  /** The mapping node this pair was written in. */
  owner: YNode;
}

class YNode {
  /** Scalar text. */
  text = '';
  /** Sequence items and where each is written. */
  items: YNode[] = NO_NODES;
  itemSpans: TextSpan[] = NO_SPANS;
  pairs: Pair[] = NO_PAIRS;
  /** While composing: an alias to it now makes a cycle. */
  open = false;
  /** The constructed value, once `built`. */
  built = false;
  result: PyValue = null;

  constructor(
    readonly kind: K,
    public tag: string,
    /** Where the node is written (properties included); shared by Origins. */
    readonly span: TextSpan,
  ) {}
}

/** Shared empty lists of nodes that have none (never written to). */
const NO_NODES: YNode[] = [];
const NO_SPANS: TextSpan[] = [];
const NO_PAIRS: Pair[] = [];

function nodeSpan(n: YNode): TextSpan {
  return n.span;
}

interface Frame {
  node: YNode;
  key: YNode | null;
  keySpan: TextSpan | null;
  lastEnd: number;
  flow: boolean;
}

interface Composed {
  root: YNode | null;
  aliasUsed: boolean;
  cyclicAlias: boolean;
}

function compose(src: string, maxDepth: number): Composed {
  const parser = new Parser(src);
  const out: Composed = { root: null, aliasUsed: false, cyclicAlias: false };
  parser.getEvent(); // stream start
  if (!parser.checkEvent(E.StreamEnd)) out.root = composeDocument(parser, src, maxDepth, out);
  if (!parser.checkEvent(E.StreamEnd)) {
    const e = parser.getEvent();
    const root = out.root as YNode;
    throw new LoadError(
      'multiple-documents',
      'ComposerError',
      'but found another document',
      pointSpan(src, e.start),
      'expected a single document in the stream',
      pointSpan(src, root.span.start),
    );
  }
  parser.getEvent(); // stream end
  return out;
}

function composeDocument(parser: Parser, src: string, maxDepth: number, out: Composed): YNode {
  parser.getEvent(); // document start
  const anchors = new Map<string, YNode>();
  const stack: Frame[] = [];
  let root: YNode | null = null;

  const attach = (node: YNode, span: TextSpan): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      root = node;
      return;
    }
    if (span.end > top.lastEnd) top.lastEnd = span.end;
    const parent = top.node;
    if (parent.kind === K.Sequence) {
      parent.items.push(node);
      parent.itemSpans.push(span);
    } else if (top.key === null) {
      top.key = node;
      top.keySpan = span;
    } else {
      parent.pairs.push({ key: top.key, keySpan: top.keySpan as TextSpan, value: node, valueSpan: span, owner: parent });
      top.key = null;
      top.keySpan = null;
    }
  };

  do {
    const e = parser.getEvent();
    if (e.type === E.Alias) {
      const target = anchors.get(e.anchor as string);
      if (target === undefined) {
        throw new LoadError('undefined-alias', 'ComposerError', `found undefined alias ${pyStrRepr(e.anchor as string)}`, { start: e.start, end: e.end });
      }
      out.aliasUsed = true;
      if (target.open) out.cyclicAlias = true;
      attach(target, { start: e.start, end: e.end });
      continue;
    }
    if (e.type === E.SequenceEnd || e.type === E.MappingEnd) {
      const frame = stack.pop() as Frame;
      const node = frame.node;
      node.open = false;
      const span = node.span as { start: number; end: number };
      span.end = frame.flow ? e.end : Math.max(frame.lastEnd, span.start);
      attach(node, span);
      continue;
    }
    const anchor = e.anchor;
    if (anchor !== null) {
      const first = anchors.get(anchor);
      if (first !== undefined) {
        throw new LoadError(
          'duplicate-anchor',
          'ComposerError',
          'second occurrence',
          { start: e.start, end: e.start + 1 + anchor.length },
          `found duplicate anchor ${pyStrRepr(anchor)}; first occurrence`,
          pointSpan(src, first.span.start),
        );
      }
    }
    if (e.type === E.Scalar) {
      const text = e.value;
      const tag = e.tag === null || e.tag === '!' ? resolveScalar(text, e.implicit) : e.tag;
      const end = e.contentEnd >= 0 ? Math.max(e.contentEnd, e.start) : e.end;
      const node = new YNode(K.Scalar, tag, { start: e.start, end });
      node.text = text;
      if (anchor !== null) anchors.set(anchor, node);
      attach(node, node.span);
    } else {
      const isSeq = e.type === E.SequenceStart;
      const tag = e.tag === null || e.tag === '!' ? (isSeq ? SEQ_TAG : MAP_TAG) : e.tag;
      const node = new YNode(isSeq ? K.Sequence : K.Mapping, tag, { start: e.start, end: e.end });
      if (isSeq) {
        node.items = [];
        node.itemSpans = [];
      } else {
        node.pairs = [];
      }
      node.open = true;
      if (anchor !== null) anchors.set(anchor, node);
      if (stack.length >= maxDepth) {
        throw new LoadError('limit', undefined, `nesting deeper than ${maxDepth} levels (maxDepth)`, { start: e.start, end: e.end });
      }
      stack.push({ node, key: null, keySpan: null, lastEnd: e.end, flow: e.flow && !e.pairInSequence });
    }
  } while (stack.length > 0);

  parser.getEvent(); // document end
  return root as unknown as YNode;
}

// ---------------------------------------------------------------------------
// Resolver (PyYAML's implicit resolvers, by first character, in PyYAML's order)

// Python's `$` also matches just before a final newline.
const RE_BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)\n?$/;
const RE_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\n?$/;
const RE_INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)\n?$/;
const RE_MERGE = /^(?:<<)\n?$/;
const RE_NULL = /^(?:~|null|Null|NULL|)\n?$/;
const RE_TIMESTAMP =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)\n?$/;
const RE_VALUE = /^(?:=)\n?$/;
const RE_YAML = /^(?:!|&|\*)\n?$/;

function resolveScalar(value: string, implicit: boolean): string {
  if (!implicit) return STR_TAG;
  if (value === '') return NULL_TAG;
  // Cheap filters before the regexes (they never change the result): bool and
  // null words are at most 5 characters (plus the final newline `$` allows),
  // every float form contains '.', a timestamp contains '-'.
  const len = value.length;
  switch (value[0]) {
    case 'y':
    case 'Y':
    case 't':
    case 'T':
    case 'f':
    case 'F':
    case 'o':
    case 'O':
      if (len <= 6 && RE_BOOL.test(value)) return BOOL_TAG;
      break;
    case 'n':
    case 'N':
      if (len <= 6 && RE_BOOL.test(value)) return BOOL_TAG;
      if (len <= 6 && RE_NULL.test(value)) return NULL_TAG;
      break;
    case '-':
    case '+':
      if (value.includes('.') && RE_FLOAT.test(value)) return FLOAT_TAG;
      if (RE_INT.test(value)) return INT_TAG;
      break;
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9':
      if (value.includes('.') && RE_FLOAT.test(value)) return FLOAT_TAG;
      if (RE_INT.test(value)) return INT_TAG;
      if (len >= 10 && value.charCodeAt(4) === 45 /* - */ && RE_TIMESTAMP.test(value)) return TIMESTAMP_TAG;
      break;
    case '.':
      if (RE_FLOAT.test(value)) return FLOAT_TAG;
      break;
    case '<':
      if (RE_MERGE.test(value)) return MERGE_TAG;
      break;
    case '~':
      if (RE_NULL.test(value)) return NULL_TAG;
      break;
    case '=':
      if (RE_VALUE.test(value)) return VALUE_TAG;
      break;
    case '!':
    case '&':
    case '*':
      if (RE_YAML.test(value)) return YAML_TAG;
      break;
  }
  return STR_TAG;
}

// ---------------------------------------------------------------------------
// Constructor

const enum Ctor {
  Unknown,
  Null,
  Bool,
  Int,
  Float,
  Binary,
  Timestamp,
  Str,
  PythonUnicode,
  Seq,
  Omap,
  Pairs,
  Map,
  Set,
}

const CONSTRUCTORS = new Map<string, Ctor>([
  [TAG + 'null', Ctor.Null],
  [TAG + 'bool', Ctor.Bool],
  [TAG + 'int', Ctor.Int],
  [TAG + 'float', Ctor.Float],
  [TAG + 'binary', Ctor.Binary],
  [TAG + 'timestamp', Ctor.Timestamp],
  [TAG + 'str', Ctor.Str],
  [TAG + 'python/unicode', Ctor.PythonUnicode],
  [TAG + 'seq', Ctor.Seq],
  [TAG + 'omap', Ctor.Omap],
  [TAG + 'pairs', Ctor.Pairs],
  [TAG + 'map', Ctor.Map],
  [TAG + 'set', Ctor.Set],
]);

interface Task {
  node: YNode;
  ctor: Ctor;
  target: PyValue[] | PyDict | PySet;
}

class Constructor {
  private readonly queue: Task[] = [];
  readonly duplicateKeys: YamlProblem[] = [];
  /** Pairs merge keys may still copy (maxMergedPairs); `cyclic`: some alias points into its own node. */
  private readonly mergeBudget: { left: number; max: number; cyclic: boolean };

  constructor(
    private readonly source: number,
    private readonly pythonUnicode: boolean,
    maxMergedPairs: number,
    cyclic: boolean,
  ) {
    this.mergeBudget = { left: maxMergedPairs, max: maxMergedPairs, cyclic };
  }

  constructDocument(root: YNode): PyValue {
    const value = this.constructObject(root);
    // PyYAML runs the pending generators round by round; a FIFO queue gives
    // the same order.
    for (let i = 0; i < this.queue.length; i++) {
      this.fill(this.queue[i]);
      if (i > 4096 && i * 2 > this.queue.length) {
        this.queue.splice(0, i + 1);
        i = -1;
      }
    }
    return value;
  }

  private constructObject(node: YNode): PyValue {
    if (node.built) return node.result;
    let value: PyValue;
    const ctor = CONSTRUCTORS.get(node.tag) ?? Ctor.Unknown;
    switch (ctor) {
      case Ctor.Str:
        value = node.kind === K.Scalar ? node.text : this.scalarText(node);
        break;
      case Ctor.Null:
        this.scalarText(node);
        value = null;
        break;
      case Ctor.Bool:
        value = constructBool(this.scalarText(node), node);
        break;
      case Ctor.Int:
        value = constructInt(this.scalarText(node), node);
        break;
      case Ctor.Float:
        value = constructFloat(this.scalarText(node), node);
        break;
      case Ctor.Binary:
        value = constructBinary(this.scalarText(node), node);
        break;
      case Ctor.Timestamp:
        this.scalarText(node);
        value = constructTimestamp(node);
        break;
      case Ctor.PythonUnicode:
        if (!this.pythonUnicode) throw unknownTag(node);
        value = this.scalarText(node);
        break;
      case Ctor.Seq:
      case Ctor.Omap:
      case Ctor.Pairs:
        value = [];
        this.queue.push({ node, ctor, target: value });
        break;
      case Ctor.Map:
        value = new PyDict();
        this.queue.push({ node, ctor, target: value });
        break;
      case Ctor.Set:
        value = new PySet();
        this.queue.push({ node, ctor, target: value });
        break;
      default:
        throw unknownTag(node);
    }
    node.built = true;
    node.result = value;
    return value;
  }

  /** SafeConstructor.construct_scalar: a mapping with a `=` key stands for that key's value. */
  private scalarText(node: YNode): string {
    let n = node;
    let seen: Set<YNode> | null = null;
    while (n.kind === K.Mapping) {
      const pair = n.pairs.find((p) => p.key.tag === VALUE_TAG);
      if (!pair) break;
      seen ??= new Set();
      if (seen.has(n)) throw new LoadError('recursive', 'RecursionError', 'maximum recursion depth exceeded', node.span);
      seen.add(n);
      n = pair.value;
    }
    if (n.kind !== K.Scalar) {
      throw new LoadError('constructor', 'ConstructorError', `expected a scalar node, but found ${NODE_ID[n.kind]}`, n.span);
    }
    return n.text;
  }

  /** A key written twice in one mapping: the later one is reported, with the previous one as context. */
  private reportDuplicate(pair: Pair, key: PyValue, previous: TextSpan | undefined): void {
    const problem: YamlProblem = { message: `duplicate key ${describeKey(key)}`, span: pair.keySpan, kind: 'duplicate-key' };
    if (previous) problem.contextSpan = previous;
    this.duplicateKeys.push(problem);
  }

  private fill(task: Task): void {
    const { node, ctor } = task;
    const source = this.source;
    if (ctor === Ctor.Seq) {
      if (node.kind !== K.Sequence) throw expectedNode('sequence', node);
      const list = task.target as PyValue[];
      const items = node.items;
      const spans = node.itemSpans;
      const origins: Origin[] = new Array(items.length);
      for (let i = 0; i < items.length; i++) {
        list.push(this.constructObject(items[i]));
        origins[i] = { source, value: spans[i] };
      }
      setListOrigins(list, origins);
      return;
    }
    if (ctor === Ctor.Omap || ctor === Ctor.Pairs) {
      const context = ctor === Ctor.Omap ? 'while constructing an ordered map' : 'while constructing pairs';
      if (node.kind !== K.Sequence) {
        throw new LoadError('constructor', 'ConstructorError', `expected a sequence, but found ${NODE_ID[node.kind]}`, node.span, context, node.span);
      }
      const list = task.target as PyValue[];
      const origins: Origin[] = [];
      for (let i = 0; i < node.items.length; i++) {
        const sub = node.items[i];
        const at = node.itemSpans[i];
        if (sub.kind !== K.Mapping) {
          throw new LoadError('constructor', 'ConstructorError', `expected a mapping of length 1, but found ${NODE_ID[sub.kind]}`, at, context, node.span);
        }
        if (sub.pairs.length !== 1) {
          throw new LoadError('constructor', 'ConstructorError', `expected a single mapping item, but found ${sub.pairs.length} items`, at, context, node.span);
        }
        const k = this.constructObject(sub.pairs[0].key);
        const v = this.constructObject(sub.pairs[0].value);
        list.push(new PyTuple([k, v]));
        origins.push({ source, value: at });
      }
      setListOrigins(list, origins);
      return;
    }
    // map and set: SafeConstructor.construct_mapping
    if (node.kind === K.Mapping) flattenMapping(node, this.mergeBudget);
    if (node.kind !== K.Mapping) throw expectedNode('mapping', node);
    const dict = task.target instanceof PyDict ? task.target : new PyDict();
    const pairs = node.pairs;
    // Without merged pairs every pair is the mapping's own, and a key seen
    // before does not grow the dict; otherwise track the own keys.
    let merged = false;
    for (const p of pairs) if (p.owner !== node) merged = true;
    const ownKeys = merged ? new Set<string>() : null;
    // Where each own key was last written, for duplicate messages: built at the first duplicate
    // (most mappings have none), then kept up to date, so 20,000 copies of one key stay linear.
    let lastSpans: Map<string, TextSpan> | null = null;
    for (let index = 0; index < pairs.length; index++) {
      const pair = pairs[index];
      const key = this.constructObject(pair.key);
      if (Array.isArray(key) || key instanceof PyDict || key instanceof PySet) {
        throw new LoadError('unhashable-key', 'ConstructorError', 'found unhashable key', pair.keySpan, 'while constructing a mapping', node.span);
      }
      const value = this.constructObject(pair.value);
      const origin: Origin = { source, key: pair.keySpan, value: pair.valueSpan };
      let duplicate = false;
      if (ownKeys === null) {
        const before = dict.size;
        dict.set(key, value, origin);
        duplicate = dict.size === before;
      } else {
        if (pair.owner === node) {
          const id = keyIdentity(key);
          duplicate = ownKeys.has(id);
          ownKeys.add(id);
        }
        dict.set(key, value, origin);
      }
      if (duplicate && lastSpans === null) {
        lastSpans = new Map();
        for (let j = 0; j < index; j++) {
          const p = pairs[j];
          if (p.owner === node) lastSpans.set(keyIdentity(p.key.result), p.keySpan);
        }
      }
      if (lastSpans !== null && pair.owner === node) {
        const id = keyIdentity(key);
        if (duplicate) this.reportDuplicate(pair, key, lastSpans.get(id));
        lastSpans.set(id, pair.keySpan);
      }
    }
    if (task.target instanceof PySet) for (const k of dict.keys()) task.target.add(k);
  }
}

/** Python's repr() of a key, for messages. */
function describeKey(key: PyValue): string {
  if (key === null) return 'None';
  switch (typeof key) {
    case 'string':
      return pyStrRepr(key);
    case 'boolean':
      return key ? 'True' : 'False';
    case 'bigint':
      return key.toString();
    case 'number':
      return pyFloatRepr(key);
  }
  if (key instanceof PyTimestamp) return key.isoformat(' ');
  return pyTypeName(key);
}

function unknownTag(node: YNode): LoadError {
  return new LoadError('unknown-tag', 'ConstructorError', `could not determine a constructor for the tag ${pyStrRepr(node.tag)}`, node.span);
}

function expectedNode(what: string, node: YNode): LoadError {
  return new LoadError('constructor', 'ConstructorError', `expected a ${what} node, but found ${NODE_ID[node.kind]}`, node.span);
}

function pushAll<X>(to: X[], from: readonly X[]): void {
  for (const x of from) to.push(x);
}

/**
 * SafeConstructor.flatten_mapping, in place: `<<` pairs are removed and the
 * pairs of the merged mappings (flattened first) put before the remaining
 * ones; in a merge sequence the later mappings come first so that earlier
 * ones win. A `=` key becomes a string. Done with an explicit stack; like
 * PyYAML it re-reads `node.pairs` after each step (a cyclic merge can
 * replace it).
 */
function flattenMapping(root: YNode, budget: { left: number; max: number; cyclic: boolean }): void {
  let special = false;
  for (const p of root.pairs) if (p.key.tag === MERGE_TAG || p.key.tag === VALUE_TAG) special = true;
  if (!special) return;

  interface FFrame {
    node: YNode;
    index: number;
    merge: Pair[];
    /** Merging a sequence: its subnodes and their spans, the next one, the collected pair lists. */
    seq: YNode[] | null;
    seqSpans: TextSpan[];
    seqIndex: number;
    sub: Pair[][];
    /** Waiting for this node's flattening to finish. */
    waiting: YNode | null;
    /** The pairs kept so far, once a `<<` pair was dropped (see `inPlace`). */
    kept: Pair[] | null;
  }
  const frame = (node: YNode): FFrame => ({ node, index: 0, merge: [], seq: null, seqSpans: NO_SPANS, seqIndex: 0, sub: [], waiting: null, kept: null });
  // PyYAML deletes each `<<` pair from the live list (`del node.value[index]`), which a merge that
  // leads back into the same node can observe. Only then is that reproduced with splice; otherwise
  // the kept pairs are collected, so 50,000 `<<` keys in one mapping stay linear.
  const inPlace = budget.cyclic;
  const stack: FFrame[] = [frame(root)];
  const mergeError = (node: YNode, problem: string, at: TextSpan) =>
    new LoadError('merge', 'ConstructorError', problem, at, 'while constructing a mapping', node.span);
  const copy = (to: Pair[], from: readonly Pair[], node: YNode) => {
    budget.left -= from.length;
    if (budget.left < 0) {
      throw new LoadError('expansion', undefined, `merge keys (<<) would copy more than ${budget.max} key/value pairs into mappings (limit maxExpandedNodes = ${budget.max}). PyYAML copies every merged pair: where each level merges the level before more than once (a merge-key bomb), cloud-init runs until memory is exhausted`, node.span);
    }
    pushAll(to, from);
  };
  const push = (node: YNode) => {
    if (stack.length > 100000) throw new LoadError('recursive', 'RecursionError', 'maximum recursion depth exceeded', node.span);
    stack.push(frame(node));
  };

  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.waiting !== null) {
      // A child flattening finished.
      const child = f.waiting;
      f.waiting = null;
      if (f.seq === null) {
        copy(f.merge, child.pairs, f.node);
      } else {
        f.sub.push(child.pairs);
        f.seqIndex++;
      }
    }
    if (f.seq !== null) {
      if (f.seqIndex < f.seq.length) {
        const sub = f.seq[f.seqIndex];
        if (sub.kind !== K.Mapping) {
          throw mergeError(f.node, `expected a mapping for merging, but found ${NODE_ID[sub.kind]}`, f.seqSpans[f.seqIndex]);
        }
        f.waiting = sub;
        push(sub);
        continue;
      }
      for (let i = f.sub.length - 1; i >= 0; i--) copy(f.merge, f.sub[i], f.node);
      f.seq = null;
      f.sub = [];
      f.seqIndex = 0;
    }
    const pairs = f.node.pairs;
    if (f.index < pairs.length) {
      const pair = pairs[f.index];
      const keyNode = pair.key;
      if (keyNode.tag === MERGE_TAG) {
        if (inPlace) pairs.splice(f.index, 1);
        else {
          f.kept ??= pairs.slice(0, f.index);
          f.index++;
        }
        const v = pair.value;
        if (v.kind === K.Mapping) {
          f.waiting = v;
          push(v);
        } else if (v.kind === K.Sequence) {
          f.seq = v.items;
          f.seqSpans = v.itemSpans;
          f.seqIndex = 0;
          f.sub = [];
        } else {
          throw mergeError(f.node, `expected a mapping or list of mappings for merging, but found ${NODE_ID[v.kind]}`, pair.valueSpan);
        }
      } else {
        if (keyNode.tag === VALUE_TAG) keyNode.tag = STR_TAG;
        f.kept?.push(pair);
        f.index++;
      }
      continue;
    }
    if (f.kept) f.node.pairs = f.kept;
    if (f.merge.length > 0) f.node.pairs = f.merge.concat(f.node.pairs);
    stack.pop();
  }
}

// -- scalar constructors (Python semantics) --

function constructBool(text: string, node: YNode): boolean {
  switch (text.toLowerCase()) {
    case 'yes':
    case 'true':
    case 'on':
      return true;
    case 'no':
    case 'false':
    case 'off':
      return false;
  }
  throw pyFail('KeyError', pyStrRepr(text.toLowerCase()), node);
}

function constructInt(text: string, node: YNode): bigint {
  let v = text.replace(/_/g, '');
  if (v === '') throw pyFail('IndexError', 'string index out of range', node);
  const sign = v[0] === '-' ? -1n : 1n;
  if (v[0] === '+' || v[0] === '-') v = v.slice(1);
  if (v === '0') return 0n;
  if (v.startsWith('0b')) return sign * pyInt(v.slice(2), 2, node);
  if (v.startsWith('0x')) return sign * pyInt(v.slice(2), 16, node);
  if (v === '') throw pyFail('IndexError', 'string index out of range', node);
  if (v[0] === '0') return sign * pyInt(v, 8, node);
  if (v.includes(':')) {
    const digits = v.split(':').map((part) => pyInt(part, 10, node));
    digits.reverse();
    let base = 1n;
    let value = 0n;
    for (const d of digits) {
      value += d * base;
      base *= 60n;
    }
    return sign * value;
  }
  return sign * pyInt(v, 10, node);
}

function constructFloat(text: string, node: YNode): number {
  let v = text.replace(/_/g, '').toLowerCase();
  if (v === '') throw pyFail('IndexError', 'string index out of range', node);
  const sign = v[0] === '-' ? -1 : 1;
  if (v[0] === '+' || v[0] === '-') v = v.slice(1);
  if (v === '.inf') return sign * Infinity;
  if (v === '.nan') return NaN;
  if (v.includes(':')) {
    const digits = v.split(':').map((part) => pyFloat(part, node));
    digits.reverse();
    let base = 1;
    let value = 0.0;
    for (const d of digits) {
      value += d * base;
      base *= 60;
    }
    return sign * value;
  }
  return sign * pyFloat(v, node);
}

/** Python's str.isspace() characters. */
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;
const ND = /\p{Nd}/u;

/** Python turns Unicode decimal digits into ASCII ones before parsing numbers. */
function asciiDigits(s: string): string {
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

/** Digits (with single underscores between them) and optional prefix of Python's int() per base. */
const INT_SYNTAX: Record<number, { prefix: RegExp | null; digits: RegExp }> = {
  2: { prefix: /^0[bB]_?/, digits: /^[01]+(?:_[01]+)*$/ },
  8: { prefix: /^0[oO]_?/, digits: /^[0-7]+(?:_[0-7]+)*$/ },
  10: { prefix: null, digits: /^[0-9]+(?:_[0-9]+)*$/ },
  16: { prefix: /^0[xX]_?/, digits: /^[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*$/ },
};

/** Python's int(s, base) for bases 2, 8, 10, 16. */
function pyInt(s: string, base: number, node: YNode): bigint {
  // CPython formats the literal with %.200R: its repr, cut to 200 characters.
  const bad = () => pyFail('ValueError', `invalid literal for int() with base ${base}: ${[...pyStrRepr(s)].slice(0, 200).join('')}`, node);
  let t = asciiDigits(s).replace(PY_SPACE, '');
  let negative = false;
  if (t[0] === '+' || t[0] === '-') {
    negative = t[0] === '-';
    t = t.slice(1);
  }
  const syntax = INT_SYNTAX[base];
  if (syntax.prefix && syntax.prefix.test(t)) t = t.replace(syntax.prefix, '');
  if (!syntax.digits.test(t)) throw bad();
  if (t.includes('_')) t = t.replace(/_/g, '');
  if (base === 10 && t.length > 4300) {
    throw pyFail(
      'ValueError',
      `Exceeds the limit (4300 digits) for integer string conversion: value has ${t.length} digits; use sys.set_int_max_str_digits() to increase the limit`,
      node,
    );
  }
  const prefixed = base === 16 ? '0x' + t : base === 8 ? '0o' + t : base === 2 ? '0b' + t : t;
  const n = BigInt(prefixed);
  return negative ? -n : n;
}

/** Python's float(s). */
function pyFloat(s: string, node: YNode): number {
  const t = asciiDigits(s).replace(PY_SPACE, '');
  const m = /^([+-]?)(?:(inf|infinity|nan)|((?:[0-9](?:_?[0-9])*)?(?:\.(?:[0-9](?:_?[0-9])*)?)?)(?:[eE]([+-]?[0-9](?:_?[0-9])*))?)$/i.exec(t);
  if (m && m[2]) {
    const word = m[2].toLowerCase();
    if (word === 'nan') return NaN;
    return m[1] === '-' ? -Infinity : Infinity;
  }
  if (m && m[3] !== undefined && /[0-9]/.test(m[3])) {
    return Number(t.replace(/_/g, ''));
  }
  throw pyFail('ValueError', `could not convert string to float: ${pyStrRepr(s)}`, node);
}

const RE_TIMESTAMP_PARTS =
  /^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?\n?$/;

function constructTimestamp(node: YNode): PyTimestamp {
  if (node.kind !== K.Scalar) throw pyFail('TypeError', "expected string or bytes-like object, got 'list'", node);
  const m = RE_TIMESTAMP_PARTS.exec(node.text);
  if (!m) throw pyFail('AttributeError', "'NoneType' object has no attribute 'groupdict'", node);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const checkDate = () => {
    if (year < 1) throw pyFail('ValueError', `year ${year} is out of range`, node);
    if (month < 1 || month > 12) throw pyFail('ValueError', 'month must be in 1..12', node);
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
    if (day < 1 || day > days) throw pyFail('ValueError', 'day is out of range for month', node);
  };
  if (m[4] === undefined) {
    checkDate();
    return new PyTimestamp('date', year, month, day);
  }
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  let fraction = 0;
  if (m[7]) fraction = Number(m[7].slice(0, 6).padEnd(6, '0'));
  let offset: number | null = null;
  if (m[9]) {
    const minutes = Number(m[10]) * 60 + Number(m[11] ?? 0);
    if (minutes >= 24 * 60) {
      throw pyFail(
        'ValueError',
        `offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not ${pyTimedeltaRepr(m[9] === '-' ? -minutes : minutes)}.`,
        node,
      );
    }
    offset = m[9] === '-' ? -minutes : minutes;
  } else if (m[8]) {
    offset = 0;
  }
  checkDate();
  if (hour > 23) throw pyFail('ValueError', 'hour must be in 0..23', node);
  if (minute > 59) throw pyFail('ValueError', 'minute must be in 0..59', node);
  if (second > 59) throw pyFail('ValueError', 'second must be in 0..59', node);
  return new PyTimestamp('datetime', year, month, day, hour, minute, second, fraction, offset);
}

function pyTimedeltaRepr(minutes: number): string {
  if (minutes < 0) {
    const total = 86400 * Math.ceil(-minutes / 1440) + minutes * 60;
    return `datetime.timedelta(days=-${Math.ceil(-minutes / 1440)}${total ? `, seconds=${total}` : ''})`;
  }
  const days = Math.floor(minutes / 1440);
  const seconds = (minutes % 1440) * 60;
  const parts = [];
  if (days) parts.push(`days=${days}`);
  if (seconds) parts.push(`seconds=${seconds}`);
  return `datetime.timedelta(${parts.join(', ')})`;
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

const B64 = (() => {
  const table = new Int16Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
})();

/** base64.decodebytes (binascii.a2b_base64, non-strict) of text that must be ASCII. */
function constructBinary(text: string, node: YNode): PyBytes {
  const nonAscii = /[^\x00-\x7f]+/u.exec(text);
  if (nonAscii) {
    const at = [...text.slice(0, nonAscii.index)].length;
    const run = [...nonAscii[0]];
    const cp = run[0].codePointAt(0) as number;
    const escaped = cp <= 0xff ? '\\x' + hex(cp, 2) : cp <= 0xffff ? '\\u' + hex(cp, 4) : '\\U' + hex(cp, 8);
    const what = run.length === 1 ? `character '${escaped}' in position ${at}` : `characters in position ${at}-${at + run.length - 1}`;
    throw new LoadError(
      'constructor',
      'ConstructorError',
      `failed to convert base64 data into ascii: 'ascii' codec can't encode ${what}: ordinal not in range(128)`,
      nodeSpan(node),
    );
  }
  const out: number[] = [];
  let quad = 0;
  let left = 0;
  let pads = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61 /* = */) {
      if (quad >= 2 && quad + ++pads >= 4) return new PyBytes(Uint8Array.from(out));
      continue;
    }
    const v = B64[c];
    if (v < 0) continue;
    pads = 0;
    switch (quad) {
      case 0:
        quad = 1;
        left = v;
        break;
      case 1:
        quad = 2;
        out.push(((left << 2) | (v >> 4)) & 0xff);
        left = v & 0x0f;
        break;
      case 2:
        quad = 3;
        out.push(((left << 4) | (v >> 2)) & 0xff);
        left = v & 0x03;
        break;
      default:
        quad = 0;
        out.push(((left << 6) | v) & 0xff);
        left = 0;
    }
  }
  if (quad !== 0) {
    const detail =
      quad === 1
        ? `Invalid base64-encoded string: number of data characters (${Math.floor(out.length / 3) * 4 + 1}) cannot be 1 more than a multiple of 4`
        : 'Incorrect padding';
    throw new LoadError('constructor', 'ConstructorError', `failed to decode base64 data: ${detail}`, nodeSpan(node));
  }
  return new PyBytes(Uint8Array.from(out));
}

// ---------------------------------------------------------------------------
// Whole-value checks (only when aliases were used)

/** Does the value graph have a cycle? Iterative DFS. */
function hasCycle(root: PyValue): boolean {
  const state = new Map<object, number>(); // 1 = on the path, 2 = done
  const stack: Array<{ obj: object; children: PyValue[]; i: number }> = [];
  const enter = (v: PyValue): boolean => {
    const children = childrenOf(v);
    if (children === null) return false;
    const obj = v as object;
    const s = state.get(obj);
    if (s === 1) return true;
    if (s === 2) return false;
    state.set(obj, 1);
    stack.push({ obj, children, i: 0 });
    return false;
  };
  if (enter(root)) return true;
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i < top.children.length) {
      if (enter(top.children[top.i++])) return true;
    } else {
      state.set(top.obj, 2);
      stack.pop();
    }
  }
  return false;
}

/** Number of nodes of the value written out as a tree (aliases expanded); acyclic input. */
/** Nodes of `root` with every shared (aliased) value counted each time it appears; stops counting past `limit`. */
export function expandedSize(root: PyValue, limit: number): number {
  const memo = new Map<object, number>();
  const stack: Array<{ obj: object; children: PyValue[]; i: number; size: number }> = [];
  let result = 0;
  const visit = (v: PyValue): number | null => {
    const children = childrenOf(v);
    if (children === null) return 1;
    const known = memo.get(v as object);
    if (known !== undefined) return known;
    stack.push({ obj: v as object, children, i: 0, size: 1 });
    return null;
  };
  const r = visit(root);
  if (r !== null) return r;
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i < top.children.length) {
      const s = visit(top.children[top.i++]);
      if (s !== null) top.size += s;
    } else {
      stack.pop();
      const size = Math.min(top.size, limit + 1);
      memo.set(top.obj, size);
      if (stack.length) stack[stack.length - 1].size += size;
      else result = size;
    }
  }
  return result;
}

function childrenOf(v: PyValue): PyValue[] | null {
  if (Array.isArray(v)) return v;
  if (v instanceof PyDict) return v.entries().flat();
  if (v instanceof PySet) return v.values();
  if (v instanceof PyTuple) return v.items;
  return null;
}

// ---------------------------------------------------------------------------
// Entry point

export function loadYaml(text: string, options: YamlLoadOptions = {}): YamlLoadResult {
  const source = options.source ?? 0;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  let documents: Document.Parsed[] | undefined;
  const lazyDocuments = {
    get documents(): Document.Parsed[] {
      if (documents === undefined) {
        // Loaded on first use: the yaml package costs ~70 ms of start-up and most callers never need it.
        const { parseAllDocuments } = require('yaml') as typeof import('yaml');
        const docs = parseAllDocuments(text, YAML_DOCUMENT_OPTIONS);
        documents = Array.isArray(docs) ? (docs as Document.Parsed[]) : [];
      }
      return documents;
    },
  };
  const failed = (error: YamlProblem): YamlLoadResult => {
    const r = { ok: false as const, error };
    return Object.defineProperty(r, 'documents', { get: () => lazyDocuments.documents, enumerable: true }) as YamlLoadResult;
  };

  try {
    const bad = NON_PRINTABLE.exec(text);
    if (bad) {
      const cp = bad[0].codePointAt(0) as number;
      return failed({
        message: `unacceptable character #x${hex(cp, 4)}: special characters are not allowed`,
        span: { start: bad.index, end: bad.index + bad[0].length },
        kind: 'invalid-character',
        pyException: 'ReaderError',
      });
    }
    const composed = compose(text, maxDepth);
    const ctor = new Constructor(source, options.pythonUnicodeTag ?? true, options.maxMergedPairs ?? DEFAULT_LIMITS.maxExpandedNodes, composed.cyclicAlias);
    const value = composed.root === null ? null : ctor.constructDocument(composed.root);
    if (composed.cyclicAlias && hasCycle(value)) {
      return failed({
        message: 'recursive structure: an anchor is used inside its own node (PyYAML builds a self-referencing object)',
        span: composed.root?.span ?? { start: 0, end: 0 },
        kind: 'recursive',
      });
    }
    const maxExpansion = options.maxAliasExpansion;
    if (composed.aliasUsed && maxExpansion !== undefined && Number.isFinite(maxExpansion)) {
      const size = expandedSize(value, maxExpansion);
      if (size > maxExpansion) {
        return failed({
          message: `aliases expand this document to more than ${maxExpansion} nodes (maxAliasExpansion)`,
          span: composed.root?.span ?? { start: 0, end: 0 },
          kind: 'expansion',
        });
      }
    }
    const r = { ok: true as const, value, rootSpan: composed.root?.span ?? null, duplicateKeys: ctor.duplicateKeys, warnings: [] as YamlProblem[] };
    return Object.defineProperty(r, 'documents', { get: () => lazyDocuments.documents, enumerable: true }) as YamlLoadResult;
  } catch (err) {
    if (err instanceof LoadError) return failed(err.toProblem());
    if (err instanceof RangeError) {
      // Should not happen (everything is iterative), but never crash the server.
      return failed({ message: `loading failed: ${err.message}`, span: { start: 0, end: 0 }, kind: 'limit' });
    }
    throw err;
  }
}

/**
 * The merge-key expansion failure of a load (kind 'expansion') as our limit error. Callers that
 * reproduce cloud-init throw it: cloud-init would not skip such a part, it would never finish.
 */
export function mergeExpansionError(result: YamlLoadResult, maxMergedPairs: number = DEFAULT_LIMITS.maxExpandedNodes): LimitExceededError | undefined {
  if (result.ok || result.error.kind !== 'expansion' || !/^merge keys/.test(result.error.message)) return undefined;
  return new LimitExceededError('maxExpandedNodes', maxMergedPairs, 'YAML merge keys', result.error.message);
}
