/**
 * PyYAML's `reader.py` as its scanner reads it (peek, prefix, forward, get_mark): a position in the
 * decoded text counted in UTF-16 units (spans), code points (PyYAML's index) and line and column,
 * with the skips, line breaks and document-separator test every scanner shares, and ScannerError
 * with its marks. The base of ./scalars and ./scanner, which split PyYAML's `scanner.py`.
 */
import { pyStrRepr } from '../py/repr';
import { LoadError, pointSpan } from './errors';
import { C, isBlankZ } from './reader';

export abstract class ScannerCursor {
  protected readonly len: number;
  /** Position in UTF-16 code units (what spans use). */
  pos = 0;
  /** Position in code points (PyYAML's index, for the 1024 limit of simple keys). */
  protected cp = 0;
  protected line = 0;
  /** Column in code points; a BOM has zero width (as in PyYAML's reader). */
  protected col = 0;

  /** No character above U+007F: every UTF-16 unit is one code point and one column (the common case). */
  protected readonly ascii: boolean;

  constructor(protected readonly src: string) {
    this.len = src.length;
    // UTF-8 length equals UTF-16 length only for ASCII; Buffer.byteLength counts natively, far faster than a regex.
    this.ascii = Buffer.byteLength(src, 'utf8') === src.length;
  }

  protected at(i: number): number {
    return i < this.len ? this.src.charCodeAt(i) : C.EOF;
  }

  /** Python's repr() of the character at i, for messages ("but found '\t'"). */
  protected reprAt(i: number): string {
    return pyStrRepr(i < this.len ? String.fromCodePoint(this.src.codePointAt(i) as number) : '\0');
  }

  protected forward(n = 1): void {
    const src = this.src;
    while (n-- > 0) {
      const c = src.charCodeAt(this.pos++);
      if (c === C.LF || c === C.NEL || c === C.LS || c === C.PS || (c === C.CR && this.at(this.pos) !== C.LF)) {
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
  protected forwardInLine(n: number): void {
    if (this.ascii) {
      this.pos += n;
      this.col += n;
      this.cp += n;
      return;
    }
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
  protected skipSpaces(): void {
    const src = this.src;
    let i = this.pos;
    // Bounds checked by hand: reading past the end makes optimized code bail out (once per site).
    const len = this.len;
    while (i < len && src.charCodeAt(i) === C.SPACE) i++;
    const n = i - this.pos;
    this.pos = i;
    this.col += n;
    this.cp += n;
  }

  /** Skips spaces while the column is below `indent`. */
  protected skipSpacesTo(indent: number): void {
    const src = this.src;
    const start = this.pos;
    const stop = Math.min(start + indent - this.col, this.len);
    let i = start;
    while (i < stop && src.charCodeAt(i) === C.SPACE) i++;
    const n = i - start;
    this.pos = i;
    this.col += n;
    this.cp += n;
  }

  /** Skips to the end of the line (a comment), not consuming the break. */
  protected skipToLineEnd(): void {
    this.forwardInLine(this.lineEnd(this.pos) - this.pos);
  }

  /** Where the line holding `from` ends: its line break, or the end of the text. */
  protected lineEnd(from: number): number {
    const src = this.src;
    const len = this.len;
    let i = from;
    while (i < len) {
      const c = src.charCodeAt(i);
      if (c === C.LF || c === C.CR || (c >= C.NEL && (c === C.NEL || c === C.LS || c === C.PS))) break;
      i++;
    }
    return i;
  }

  protected fail(context: string | undefined, contextPos: number | undefined, problem: string, pos: number): LoadError {
    return new LoadError(
      'syntax',
      'ScannerError',
      problem,
      pointSpan(this.src, pos),
      context,
      contextPos === undefined ? undefined : pointSpan(this.src, contextPos),
    );
  }

  protected isDocumentIndicator(ch: number): boolean {
    return this.at(this.pos + 1) === ch && this.at(this.pos + 2) === ch && isBlankZ(this.at(this.pos + 3));
  }

  /** Consumes one line break and returns its value ('\n', '\u2028', '\u2029'), or ''. */
  protected scanLineBreak(): string {
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

  protected atDocumentSeparator(): boolean {
    const c = this.at(this.pos);
    return (c === 45 || c === 46) && this.isDocumentIndicator(c);
  }
}
