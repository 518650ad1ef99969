/**
 * PyYAML's scalar scanners from `scanner.py` (scan_block_scalar and its indicators, indentation and
 * breaks; scan_flow_scalar with its escapes, spaces and breaks; scan_plain and its spaces), in
 * PyYAML's order: folding, escapes and block-scalar indentation detection, with its error messages.
 * ./scanner calls the three entries when it fetches a scalar token.
 *
 * Residual differences: none known beyond those of ./load (the mark lines of messages).
 */
import { C, isBreak, isBreakZ, isHex, isSpaceZ } from './reader';
import { ScannerCursor } from './cursor';
import { LoadError, pointSpan } from './errors';
import { Token, TokenPool } from './tokens';

export abstract class ScalarScanner extends ScannerCursor {
  /** Scanner state the scalar rules read: kept by ./scanner. */
  protected abstract flowLevel: number;
  protected abstract indent: number;
  protected abstract allowSimpleKey: boolean;
  protected readonly pool = new TokenPool();
  /** While scanning a quoted scalar: no escape so far (its value may be a slice of the source). */
  private verbatim = true;

  protected scanBlockScalar(folded: boolean): Token {
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
      breaks = this.scanBlockScalarBreaks(indent);
      end = this.breaksEnd;
    }

    let out = '';
    let lineBreak = '';
    let contentEnd = headerEnd;
    while (this.col === indent && this.at(this.pos) !== C.EOF) {
      out += breaks;
      const first = this.at(this.pos);
      const leadingNonSpace = first !== C.SPACE && first !== C.TAB;
      const lineEnd = this.lineEnd(this.pos);
      out += this.src.slice(this.pos, lineEnd);
      this.forwardInLine(lineEnd - this.pos);
      contentEnd = this.pos;
      lineBreak = this.scanLineBreak();
      breaks = this.scanBlockScalarBreaks(indent);
      end = this.breaksEnd;
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
    return this.pool.scalar(start, end, out, false, contentEnd);
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

  /** Where the last break scanBlockScalarBreaks consumed ends (a field: it runs once per line). */
  private breaksEnd = 0;

  /** The line breaks before the next content line, skipping indentation up to `indent`; sets breaksEnd. */
  private scanBlockScalarBreaks(indent: number): string {
    let breaks = '';
    this.breaksEnd = this.pos;
    this.skipSpacesTo(indent);
    while (isBreak(this.at(this.pos))) {
      breaks += this.scanLineBreak();
      this.breaksEnd = this.pos;
      this.skipSpacesTo(indent);
    }
    return breaks;
  }

  protected scanFlowScalar(double: boolean): Token {
    // Quoted scalars ignore indentation (PyYAML only checks for document
    // separators at the start of continuation lines).
    const start = this.pos;
    const quote = this.at(this.pos);
    this.forward();
    const line = this.line;
    this.verbatim = true;
    let out = this.scanFlowScalarNonSpaces(double, start);
    while (this.at(this.pos) !== quote) {
      out += this.scanFlowScalarSpaces(start);
      out += this.scanFlowScalarNonSpaces(double, start);
    }
    const closing = this.pos;
    this.forward();
    // On one line and without escapes the value is the text between the quotes: one slice of the
    // source instead of the pieces joined (a rope V8 would have to flatten).
    const value = this.verbatim && this.line === line ? this.src.slice(start + 1, closing) : out;
    return this.pool.scalar(start, this.pos, value, false, -1);
  }

  private scanFlowScalarNonSpaces(double: boolean, start: number): string {
    let out = '';
    for (;;) {
      // Up to a quote, a backslash or a blank (charCode loop; the ASCII ones by table).
      const src = this.src;
      const len = this.len;
      let i = this.pos;
      while (i < len) {
        const c = src.charCodeAt(i);
        if (c < 128 ? QUOTED_STOPS[c] === 1 : c === C.NEL || c === C.LS || c === C.PS) break;
        i++;
      }
      if (i > this.pos) {
        out += src.slice(this.pos, i);
        this.forwardInLine(i - this.pos);
      }
      const c = this.at(this.pos);
      if (!double && c === 39 && this.at(this.pos + 1) === 39) {
        out += "'";
        this.verbatim = false;
        this.forward(2);
      } else if ((double && c === 39) || (!double && (c === 34 || c === 92))) {
        out += String.fromCharCode(c);
        this.forward();
      } else if (double && c === 92) {
        this.verbatim = false;
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

  protected scanPlain(): Token {
    const src = this.src;
    const len = this.len;
    const start = this.pos;
    let end = start;
    const indent = this.indent + 1;
    const inFlow = this.flowLevel !== 0;
    const stops = inFlow ? PLAIN_STOPS_FLOW : PLAIN_STOPS_BLOCK;
    // Built piece by piece only once a line break is folded; until then the value is the source
    // text from start to end, sliced once at the end (no rope for V8 to flatten).
    let folded = false;
    let out = '';
    let spaces = '';
    for (;;) {
      if (this.pos < len && src.charCodeAt(this.pos) === 35) break;
      // One chunk: up to a blank, a ': ' (or ':' before a flow indicator in flow context), or, in
      // flow context, an indicator. A charCode loop over the ASCII table: the hottest loop of loading.
      let i = this.pos;
      while (i < len) {
        const c = src.charCodeAt(i);
        if (c < 128) {
          const stop = stops[c];
          if (stop === STOP) break;
          if (stop === COLON) {
            const d = i + 1 < len ? src.charCodeAt(i + 1) : C.EOF;
            if (d < 128 ? stops[d] === STOP && (inFlow || d <= C.SPACE) && d !== 63 : isBreak(d)) break;
          }
        } else if (c === C.NEL || c === C.LS || c === C.PS) {
          break;
        }
        i++;
      }
      const n = i - this.pos;
      if (n === 0) break;
      this.allowSimpleKey = false;
      if (folded) {
        out += spaces;
        out += src.slice(this.pos, i);
      }
      this.forwardInLine(n);
      end = this.pos;
      const line = this.line;
      const s = this.scanPlainSpaces();
      if (s === null || s === '' || (this.pos < len && src.charCodeAt(this.pos) === 35) || (!inFlow && this.col < indent)) break;
      if (!folded && this.line !== line) {
        folded = true;
        out = src.slice(start, end);
      }
      spaces = s;
    }
    return this.pool.scalar(start, end, folded ? out : src.slice(start, end), true, -1);
  }

  /** Whitespace after a plain scalar chunk, folded; null at a document separator. */
  private scanPlainSpaces(): string | null {
    const src = this.src;
    let i = this.pos;
    const len = this.len;
    while (i < len && src.charCodeAt(i) === C.SPACE) i++;
    const n = i - this.pos;
    const c = i < len ? src.charCodeAt(i) : C.EOF;
    if (!isBreak(c)) {
      if (n === 0) return '';
      const whitespaces = src.slice(this.pos, i);
      this.forwardInLine(n);
      return whitespaces;
    }
    this.forwardInLine(n);
    let lineBreak = '\n';
    if (c === C.LF) {
      this.pos++;
      this.cp++;
      this.line++;
      this.col = 0;
    } else {
      lineBreak = this.scanLineBreak();
    }
    this.allowSimpleKey = true;
    if (this.atDocumentSeparator()) return null;
    let breaks = '';
    for (;;) {
      const d = this.at(this.pos);
      if (d === C.SPACE) {
        this.skipSpaces();
      } else if (isBreak(d)) {
        breaks += this.scanLineBreak();
        if (this.atDocumentSeparator()) return null;
      } else {
        break;
      }
    }
    if (lineBreak !== '\n') return lineBreak + breaks;
    return breaks === '' ? ' ' : breaks;
  }
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

/** What ends a chunk of a plain scalar, for ASCII characters. */
const STOP = 1;
/** ':' ends a chunk only before a blank (in flow context also before ,[]{}). */
const COLON = 2;

function plainStops(flow: boolean): Uint8Array {
  const t = new Uint8Array(128);
  for (const c of [C.EOF, C.SPACE, C.TAB, C.LF, C.CR]) t[c] = STOP;
  if (flow) for (const ch of ',?[]{}') t[ch.charCodeAt(0)] = STOP;
  t[58] = COLON;
  return t;
}
const PLAIN_STOPS_BLOCK = plainStops(false);
const PLAIN_STOPS_FLOW = plainStops(true);

/** What ends a run of ordinary characters in a quoted scalar, for ASCII characters: quotes, backslash, blanks. */
const QUOTED_STOPS = new Uint8Array(128);
for (const c of [39, 34, 92, C.EOF, C.SPACE, C.TAB, C.LF, C.CR]) QUOTED_STOPS[c] = 1;
