/**
 * PyYAML's `scanner.py`: tokens with its simple-key bookkeeping (one possible key per flow level,
 * single line, 1024 code points), the indentation stack and BLOCK-END generation, and its scalar
 * rules (folding, escapes, block-scalar indentation detection), with its error messages. Pulled
 * lazily by the parser, as in PyYAML, so the first error PyYAML raises is the one reported.
 *
 * Residual differences: none known beyond those of ./load (the mark lines of messages).
 */
import { pyStrRepr } from '../py/repr';
import { LoadError, pointSpan } from './errors';
import { C, URI_CHARS, hex, isBlankZ, isBreak, isBreakZ, isHex, isSpaceZ, isWordChar } from './reader';

// ---------------------------------------------------------------------------
// Tokens

export const enum T {
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

export const TOKEN_ID = [
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

export class Token {
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

export class Scanner {
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
