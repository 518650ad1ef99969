/**
 * The emitter's text as bytes (it writes ASCII only). Each full buffer is decoded at once and the
 * buffer reused, so a large output costs its text and one buffer; the pieces are joined as a rope,
 * which V8 flattens only if the caller needs it flat.
 */
export class AsciiOutput {
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

  /** One character (an indicator, a space, a line break): no loop for it. */
  appendChar(code: number): void {
    if (this.length === AsciiOutput.SIZE) this.flush();
    this.codes |= code;
    this.bytes[this.length++] = code;
  }

  /**
   * Copies `s` from `start` up to its first space or line break (or quote, with `quoted`), and returns
   * where it stopped: the scan and the copy in one pass.
   */
  appendWord(s: string, start: number, quoted: boolean): number {
    const n = s.length;
    if (this.length + n - start > AsciiOutput.SIZE) {
      this.flush();
      if (n - start > AsciiOutput.SIZE) {
        let end = start;
        while (end < n && !endsWord(s.charCodeAt(end), quoted)) end++;
        this.appendRange(s, start, end);
        return end;
      }
    }
    const bytes = this.bytes;
    let length = this.length;
    let codes = this.codes;
    let i = start;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      if (endsWord(c, quoted)) break;
      codes |= c;
      bytes[length++] = c;
    }
    this.codes = codes;
    this.length = length;
    return i;
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

/** A space, a line break (YAML's four), or with `quoted` a single quote. */
function endsWord(c: number, quoted: boolean): boolean {
  if (c < 0x80) return c === 0x20 || c === 0x0a || (quoted && c === 0x27);
  return c === 0x85 || c === 0x2028 || c === 0x2029;
}
