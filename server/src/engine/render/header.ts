/**
 * The preview's header as it is written: comment lines wrapped to a width,
 * with the places they name (a part's file, `30-app.yaml:4`) recorded as
 * links while the text is made, so that no face has to find them in the
 * text again.
 */

/** The widest header line by default: wider lines are wrapped (the body, cloud-init's own text, is never touched). */
export const HEADER_WIDTH = 100;
/** The narrowest and widest header a client may ask for (`headerWidthOf`). */
export const MIN_HEADER_WIDTH = 40;
export const MAX_HEADER_WIDTH = 1000;

/** The header width to write for a requested one (a client's setting, its window's width): whole, within bounds. */
export function headerWidthOf(requested: unknown): number {
  if (typeof requested !== 'number' || !Number.isFinite(requested)) return HEADER_WIDTH;
  return Math.min(MAX_HEADER_WIDTH, Math.max(MIN_HEADER_WIDTH, Math.floor(requested)));
}

export const PREVIEW_BODY_MARKER = '# ---- what cloud-init writes ----';

/** A place a header line names: a file of the outcome (as the engine names it), at a 0-based line. */
export interface HeaderTarget {
  file: string;
  line: number;
}

/** A link in the written header: 0-based line and columns of the header text. */
export interface HeaderLink {
  line: number;
  character: number;
  endCharacter: number;
  target: HeaderTarget;
}

/** The header's sections, each a heading line and the lines under it. */
export type HeaderSectionKind = 'parts' | 'notes' | 'lost' | 'schema' | 'plan';

/** A section as written: 0-based first (its heading) and last lines of the header text. */
export interface HeaderSection {
  kind: HeaderSectionKind;
  line: number;
  endLine: number;
}

/** A piece of a header line: plain text, or text that links to a place. */
export type HeaderPiece = string | { text: string; target: HeaderTarget | null };

/** Where each copied run of a line's characters went when the line was wrapped. */
interface Chunk {
  /** Offset in the unwrapped line. */
  from: number;
  length: number;
  /** Index of the wrapped line, and the column there. */
  line: number;
  column: number;
}

/**
 * A header line wrapped at spaces to `width` characters, continuation lines indented under the
 * item's text; a word longer than a whole line is cut. Header items start 1, 3 or 5 spaces after
 * the '#'; continuations 4 or 6 and more, so `unwrapHeader` can join them again.
 */
export function wrapHeaderLine(line: string, width = HEADER_WIDTH): string[] {
  return wrapMapped(line, width).lines;
}

function wrapMapped(line: string, width: number): { lines: string[]; chunks: Chunk[] } {
  if (line.length <= width) return { lines: [line], chunks: [{ from: 0, length: line.length, line: 0, column: 0 }] };
  const prefix = /^#\s*(?:\d+\.\s+)?/.exec(line)?.[0] ?? '';
  // Deeper than the item's own text and than the items nested under it, so a continuation never reads as a new item.
  const indent = '#' + ' '.repeat(Math.min(prefix.length + 2, Math.floor(width / 2)));
  const lines: string[] = [];
  const chunks: Chunk[] = [{ from: 0, length: prefix.length, line: 0, column: 0 }];
  let current = prefix;
  let fresh = true;
  let offset = prefix.length;
  const copy = (text: string, from: number) => {
    chunks.push({ from, length: text.length, line: lines.length, column: current.length });
    current += text;
  };
  for (let word of line.slice(prefix.length).split(' ')) {
    let from = offset;
    offset += word.length + 1;
    for (;;) {
      const room = width - current.length - (fresh ? 0 : 1);
      if (word.length <= room) {
        if (!fresh) current += ' ';
        copy(word, from);
        fresh = false;
        break;
      }
      if (!fresh) {
        lines.push(current);
        current = indent;
        fresh = true;
        continue;
      }
      // A word longer than a whole line (a long spec): cut after its last '+' or ',' that fits, else at the edge.
      const natural = Math.max(word.lastIndexOf('+', room - 1), word.lastIndexOf(',', room - 1)) + 1;
      const cut = natural > room / 2 ? natural : room;
      copy(word.slice(0, cut), from);
      from += cut;
      word = word.slice(cut);
      lines.push(current);
      current = indent;
    }
  }
  if (!fresh) lines.push(current);
  return { lines, chunks };
}

/**
 * The preview's text with every wrapped header line joined again (for tools and tests that read
 * sentences). A word that was cut because it is longer than a line comes back with a space in it.
 */
export function unwrapHeader(text: string): string {
  const marker = text.indexOf(PREVIEW_BODY_MARKER);
  const end = marker < 0 ? text.length : marker;
  return text.slice(0, end).replace(/\n#(?: {4}| {6,})(?=\S)/g, ' ') + text.slice(end);
}

/** Header lines written piece by piece, wrapped, with their links where the pieces put them. */
export class HeaderWriter {
  readonly lines: string[] = [];
  readonly links: HeaderLink[] = [];
  /** The sections written with `section`, in the order they end. */
  readonly sections: HeaderSection[] = [];

  constructor(readonly width = HEADER_WIDTH) {}

  /** The lines `write` adds are one section (none when it adds no line). */
  section(kind: HeaderSectionKind, write: () => void): void {
    const line = this.lines.length;
    write();
    if (this.lines.length > line) this.sections.push({ kind, line, endLine: this.lines.length - 1 });
  }

  /** One logical line (line breaks inside pieces become spaces), wrapped. */
  add(...pieces: HeaderPiece[]): void {
    let raw = '';
    const spans: Array<{ start: number; end: number; target: HeaderTarget }> = [];
    for (const piece of pieces) {
      const text = (typeof piece === 'string' ? piece : piece.text).replace(/[\r\n]+/g, ' ');
      if (typeof piece !== 'string' && piece.target && text) spans.push({ start: raw.length, end: raw.length + text.length, target: piece.target });
      raw += text;
    }
    const wrapped = wrapMapped(raw, this.width);
    const first = this.lines.length;
    for (const span of spans) {
      // A link wrapped onto two lines (a name with a space in it) is a link on each.
      for (const c of wrapped.chunks) {
        const start = Math.max(span.start, c.from);
        const end = Math.min(span.end, c.from + c.length);
        if (start >= end) continue;
        const character = c.column + start - c.from;
        this.links.push({ line: first + c.line, character, endCharacter: character + end - start, target: span.target });
      }
    }
    for (const l of wrapped.lines) this.lines.push(l);
  }
}
