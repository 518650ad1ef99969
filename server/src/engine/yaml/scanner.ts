/**
 * PyYAML's `scanner.py`: tokens with its simple-key bookkeeping (one possible key per flow level,
 * single line, 1024 code points), the indentation stack and BLOCK-END generation, directives,
 * anchors and tags, with its error messages; its scalar rules (folding, escapes, block-scalar
 * indentation detection) are ./scalars, its reader primitives ./cursor, its tokens ./tokens. Pulled
 * lazily by the parser, as in PyYAML, so the first error PyYAML raises is the one reported.
 *
 * Residual differences: none known beyond those of ./load (the mark lines of messages).
 */
import { C, URI_CHARS, hex, isBlankZ, isBreakZ, isHex, isSpaceZ, isWordChar } from './reader';
import { ScalarScanner } from './scalars';
import { objectArray } from '../arrays';
import { T, Token } from './tokens';

export { T, TOKEN_ID, Token } from './tokens';

/** A possible simple key: where a scalar (or flow collection, alias, tag) that may turn out to be a key starts. */
class SimpleKey {
  tokenNumber = 0;
  required = false;
  cp = 0;
  line = 0;
  column = 0;
  pos = 0;
  level = 0;
  live = true;
  nextSpare: SimpleKey | null = null;
}

/** The indicator characters, which cannot start a plain scalar (with the exceptions in checkPlain). */
const INDICATORS = new Uint8Array(128);
for (const ch of '-?:,[]{}#&*!|>\'"%@`') INDICATORS[ch.charCodeAt(0)] = 1;

// ---------------------------------------------------------------------------
// Scanner

export class Scanner extends ScalarScanner {
  private done = false;
  protected flowLevel = 0;
  /** Token queue: tokens[head..tail) are scanned but not yet taken. */
  private readonly tokens = objectArray<Token | undefined>();
  private head = 0;
  private tail = 0;
  private tokensTaken = 0;
  protected indent = -1;
  private readonly indents: number[] = [];
  protected allowSimpleKey = true;
  /** Possible simple keys by flow level (a stray ']' can make the level negative)... */
  private readonly keyAt = objectArray<SimpleKey | undefined>();
  private readonly keyAtNegative = new Map<number, SimpleKey>();
  /** ...and in the order they were saved; keyQueue[keyHead..keyTail), dropped ones skipped lazily. */
  private readonly keyQueue = objectArray<SimpleKey | undefined>();
  private keyHead = 0;
  private keyTail = 0;
  /** Keys out of the queue, for reuse (one per scalar otherwise), linked through nextSpare. */
  private spareKeys: SimpleKey | null = null;
  /** Bumped whenever tokens are produced or taken; settle() runs once per version. */
  private version = 0;
  private settledVersion = -1;

  constructor(src: string) {
    super(src);
    this.push(this.pool.token(T.StreamStart, 0, 0));
    // PyYAML's scan_to_next_token skips a BOM at index 0; only the first call can be there.
    if (this.at(0) === C.BOM) this.forward();
  }

  // -- public --

  peekToken(): Token | undefined {
    if (this.settledVersion !== this.version) this.settle();
    return this.head < this.tail ? this.tokens[this.head] : undefined;
  }

  /** Next token; only called after a peek showed there is one. */
  getToken(): Token {
    if (this.settledVersion !== this.version) this.settle();
    const t = this.tokens[this.head] as Token;
    this.tokens[this.head++] = undefined;
    this.pool.taken(t);
    if (this.head === this.tail) this.head = this.tail = 0;
    this.tokensTaken++;
    this.version++;
    return t;
  }

  private pending(): number {
    return this.tail - this.head;
  }

  private push(token: Token): void {
    if (this.tail === this.tokens.length) this.makeRoom();
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

  /** Fetches tokens until the first pending one cannot become a simple key's KEY any more. */
  private settle(): void {
    while (this.needMoreTokens()) this.fetchMoreTokens();
    this.settledVersion = this.version;
  }

  private needMoreTokens(): boolean {
    if (this.done) return false;
    if (this.tail === this.head) return true;
    if (this.keyHead === this.keyTail) return false;
    this.staleSimpleKeys();
    const first = this.firstKey();
    return first !== undefined && first.tokenNumber === this.tokensTaken;
  }

  private fetchMoreTokens(): void {
    this.version++;
    this.scanToNextToken();
    if (this.keyHead !== this.keyTail) this.staleSimpleKeys();
    if (this.indent > this.col) this.unwindIndent(this.col);
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

  private checkPlain(c: number): boolean {
    // A plain scalar cannot start with a blank or an indicator, except that
    // '-' (anywhere) and '?', ':' (block context) may start one when followed
    // by a non-blank.
    if (!isBlankZ(c) && (c >= 128 || INDICATORS[c] === 0)) return true;
    return !isBlankZ(this.at(this.pos + 1)) && (c === 45 || (this.flowLevel === 0 && (c === 63 || c === 58)));
  }

  // -- simple keys --

  /** The oldest live possible simple key (it has the smallest token number). */
  private firstKey(): SimpleKey | undefined {
    const q = this.keyQueue;
    while (this.keyHead < this.keyTail && !(q[this.keyHead] as SimpleKey).live) {
      // Out of the queue and dropped: nothing refers to it any more.
      const spare = q[this.keyHead] as SimpleKey;
      spare.nextSpare = this.spareKeys;
      this.spareKeys = spare;
      q[this.keyHead++] = undefined;
    }
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
      let key = this.spareKeys;
      if (key === null) key = new SimpleKey();
      else this.spareKeys = key.nextSpare;
      key.tokenNumber = this.tokensTaken + this.pending();
      key.required = required;
      key.cp = this.cp;
      key.line = this.line;
      key.column = this.col;
      key.pos = this.pos;
      key.level = this.flowLevel;
      key.live = true;
      this.addKey(key);
    }
  }

  private removePossibleSimpleKey(): void {
    const level = this.flowLevel;
    const key = level >= 0 ? this.keyAt[level] : this.keyAtNegative.get(level);
    if (key !== undefined) {
      if (key.required) throw this.fail('while scanning a simple key', key.pos, "could not find expected ':'", this.pos);
      this.dropKey(key);
    }
  }

  // -- indentation --

  private unwindIndent(column: number): void {
    if (this.flowLevel !== 0) return;
    while (this.indent > column) {
      this.indent = this.indents.pop() as number;
      this.push(this.pool.token(T.BlockEnd, this.pos, this.pos));
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
    this.push(this.pool.token(T.StreamEnd, this.pos, this.pos));
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
    this.push(this.pool.token(type, start, this.pos));
  }

  private fetchFlowCollectionStart(type: T): void {
    this.savePossibleSimpleKey();
    this.flowLevel++;
    this.allowSimpleKey = true;
    const start = this.pos;
    this.forward();
    this.push(this.pool.token(type, start, this.pos));
  }

  private fetchFlowCollectionEnd(type: T): void {
    this.removePossibleSimpleKey();
    this.flowLevel--;
    this.allowSimpleKey = false;
    const start = this.pos;
    this.forward();
    this.push(this.pool.token(type, start, this.pos));
  }

  private fetchFlowEntry(): void {
    this.allowSimpleKey = true;
    this.removePossibleSimpleKey();
    const start = this.pos;
    this.forward();
    this.push(this.pool.token(T.FlowEntry, start, this.pos));
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.allowSimpleKey) throw this.fail(undefined, undefined, 'sequence entries are not allowed here', this.pos);
      if (this.addIndent(this.col)) this.push(this.pool.token(T.BlockSequenceStart, this.pos, this.pos));
    }
    // A '-' in flow context is left for the parser to reject.
    this.allowSimpleKey = true;
    this.removePossibleSimpleKey();
    const start = this.pos;
    this.forward();
    this.push(this.pool.token(T.BlockEntry, start, this.pos));
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.allowSimpleKey) throw this.fail(undefined, undefined, 'mapping keys are not allowed here', this.pos);
      if (this.addIndent(this.col)) this.push(this.pool.token(T.BlockMappingStart, this.pos, this.pos));
    }
    this.allowSimpleKey = this.flowLevel === 0;
    this.removePossibleSimpleKey();
    const start = this.pos;
    this.forward();
    this.push(this.pool.token(T.Key, start, this.pos));
  }

  private fetchValue(): void {
    const key = this.keyOf(this.flowLevel);
    if (key) {
      // The saved token starts a simple key: insert KEY (and maybe
      // BLOCK-MAPPING-START) before it.
      this.dropKey(key);
      const offset = key.tokenNumber - this.tokensTaken;
      this.insert(offset, this.pool.token(T.Key, key.pos, key.pos));
      if (this.flowLevel === 0 && this.addIndent(key.column)) {
        this.insert(offset, this.pool.token(T.BlockMappingStart, key.pos, key.pos));
      }
      this.allowSimpleKey = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.allowSimpleKey) throw this.fail(undefined, undefined, 'mapping values are not allowed here', this.pos);
        if (this.addIndent(this.col)) this.push(this.pool.token(T.BlockMappingStart, this.pos, this.pos));
      }
      this.allowSimpleKey = this.flowLevel === 0;
      this.removePossibleSimpleKey();
    }
    const start = this.pos;
    this.forward();
    this.push(this.pool.token(T.Value, start, this.pos));
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
    const src = this.src;
    for (;;) {
      if (this.pos >= this.len) return;
      if (src.charCodeAt(this.pos) === C.SPACE) this.skipSpaces();
      let c = this.at(this.pos);
      if (c === 35 /* # */) {
        this.skipToLineEnd();
        c = this.at(this.pos);
      }
      if (c === C.LF) {
        // The common line break, without scanLineBreak's generality.
        this.pos++;
        this.cp++;
        this.line++;
        this.col = 0;
        if (this.flowLevel === 0) this.allowSimpleKey = true;
      } else if (this.scanLineBreak() !== '') {
        if (this.flowLevel === 0) this.allowSimpleKey = true;
      } else {
        return;
      }
    }
  }

  private scanDirective(): Token {
    const start = this.pos;
    this.forward();
    const name = this.scanDirectiveName(start);
    const token = this.pool.token(T.Directive, start, start);
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
    const token = this.pool.token(type, start, this.pos);
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
    const token = this.pool.token(T.Tag, start, this.pos);
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
