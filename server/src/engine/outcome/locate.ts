/**
 * Places: where a value of the outcome was written (file, line, column),
 * from the origins values carry through merging (values.ts), and how a
 * place and a path are written in every answer (`30-app.yaml:4`,
 * `runcmd[0]`).
 */
import { Origin, PyValue } from '../py/values';
import { pyStr } from '../py/repr';
import { PathSegment } from '../merge/trace';
import { LineIndex } from '../text/lineIndex';
import { pyKeyDisplay } from '../yaml/dump';

/** A place in a file; lines and columns are 0-based (LSP style); `toDisplay` makes them 1-based. */
export interface SourceLocation {
  file: string;
  /** Index of the source in the caller's table (a part, a file). */
  source: number;
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  /**
   * Present when the line and column are not in the file's own text but in the text cloud-init decoded
   * or rendered from it (an encoded part, a template): say so wherever the position is shown, and do
   * not place anything in the file by it.
   */
  note?: string;
  /**
   * With `note`, for text decoded from the file (a base64 or quoted-printable MIME part): the place in the
   * file that stands for it (the part's Content-Type header), where a file position must be given.
   */
  anchor?: { line: number; character: number };
}

/**
 * `30-app.yaml:4` (`:COLUMN` too with `column`); a place in decoded text says so, in a form that no
 * reader (nor the preview's header links) takes for a line of the file:
 * `archive.yaml (position in the decoded part part-002: line 2)`.
 */
export function fileLine(l: SourceLocation, column = false): string {
  return placeText(l.file, l.line + 1, column ? l.character + 1 : undefined, l.note, l.anchor && l.anchor.line + 1);
}

/**
 * fileLine's words from 1-based numbers (a report's `line` and `column`); a place in decoded text with the
 * line of the file that stands for it reads `built.mime:14 (position in the decoded part web.yaml: line 3)`.
 */
export function placeText(file: string, line: number, column?: number, note?: string, anchorLine?: number): string {
  if (note) return `${file}${anchorLine !== undefined ? `:${anchorLine}` : ''} (${note}: line ${line}${column !== undefined ? `, column ${column}` : ''})`;
  return `${file}:${line}${column !== undefined ? `:${column}` : ''}`;
}

/** The location as answers write it in JSON: 1-based, with the note and the file's line for decoded text. */
export function locationJson(l: SourceLocation): { file: string; line: number; column: number; note?: string; anchor?: { line: number; column: number } } {
  return { file: l.file, line: l.line + 1, column: l.character + 1, ...(l.note ? { note: l.note } : {}), ...(l.note && l.anchor ? { anchor: { line: l.anchor.line + 1, column: l.anchor.character + 1 } } : {}) };
}

/** Where a location is in the file itself, 0-based: its own place, or for decoded text the place that stands for it (none without one). */
export function fileAnchor(l: SourceLocation | null | undefined): { line: number; character: number } | null {
  if (!l) return null;
  return l.note ? l.anchor ?? null : { line: l.line, character: l.character };
}

/** The location, when its line and column are in the file itself (see `note`). */
export function inFileText(l: SourceLocation | null | undefined): SourceLocation | null {
  return l && !l.note ? l : null;
}

/** Turns an origin into a file location; mode-specific (parts, drop-ins, files). */
export type Locator = (origin: Origin, which: 'value' | 'key') => SourceLocation | null;

/**
 * A locator over plain texts: origin.source indexes `files`, offsets are `base[source] + offset`, or
 * `map(offset)` where the source is not one slice of the file (no place where it says undefined).
 */
export function textLocator(
  files: Array<{ name: string; text: string; base?: number; map?: (offset: number) => number | undefined; note?: string; anchor?: { text: string; offset: number } } | null>,
): Locator {
  const indexes = new Map<number, LineIndex>();
  // Parts of one MIME blob share its text: index it once, not once per part (5,000 parts of a 100 KB blob).
  const byText = new Map<string, LineIndex>();
  return (origin, which) => {
    const file = files[origin.source];
    if (!file) return null;
    const span = which === 'key' ? origin.key : origin.value;
    if (!span) return null;
    const indexOf = (text: string): LineIndex => {
      const found = byText.get(text) ?? new LineIndex(text);
      byText.set(text, found);
      return found;
    };
    let index = indexes.get(origin.source);
    if (!index) {
      index = indexOf(file.text);
      indexes.set(origin.source, index);
    }
    const base = file.base ?? 0;
    const startOffset = file.map ? file.map(span.start) : base + span.start;
    const endOffset = file.map ? file.map(span.end) : base + span.end;
    if (startOffset === undefined || endOffset === undefined) return null;
    const start = index.position(startOffset);
    const end = index.position(endOffset);
    const at: SourceLocation = { file: file.name, source: origin.source, line: start.line, character: start.character, endLine: end.line, endCharacter: end.character, note: file.note };
    if (file.note && file.anchor) at.anchor = indexOf(file.anchor.text).position(file.anchor.offset);
    return at;
  };
}

/** `runcmd[0].name` style display of a path. */
export function formatPath(path: PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const text = pyStr(seg);
      out += out ? `.${text}` : text;
    }
  }
  return out || '(root)';
}

/** `runcmd[0]` for a path as the merge trace holds it (keys shown as cloud-init's YAML dump shows them). */
export function displayPath(path: readonly PyValue[]): string {
  return formatPath(path.map((s) => (typeof s === 'number' ? s : pyKeyDisplay(s))));
}
