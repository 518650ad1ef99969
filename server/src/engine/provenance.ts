/**
 * Provenance: for every path of a merged value, the file, line and column
 * that supplied it; and, for every part, what it overrode and what it lost.
 * Values carry their origins through merging (values.ts), so this only has
 * to walk the result and resolve origins to places in files.
 */
import { Origin, PyDict, PyValue, getListOrigins } from './values';
import { pyStr } from './py/repr';
import { MergeEvent, PathSegment } from './merge/trace';
import { LineIndex } from './text/lineIndex';
import { pyKeyDisplay } from './yaml/dump';

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
}

/**
 * `30-app.yaml:4` (`:COLUMN` too with `column`); a place in decoded text says so, in a form that no
 * reader (nor the preview's header links) takes for a line of the file:
 * `archive.yaml (position in the decoded part part-002: line 2)`.
 */
export function fileLine(l: SourceLocation, column = false): string {
  return placeText(l.file, l.line + 1, column ? l.character + 1 : undefined, l.note);
}

/** fileLine's words from 1-based numbers (a report's `line` and `column`). */
export function placeText(file: string, line: number, column?: number, note?: string): string {
  if (note) return `${file} (${note}: line ${line}${column !== undefined ? `, column ${column}` : ''})`;
  return `${file}:${line}${column !== undefined ? `:${column}` : ''}`;
}

/** The location, when its line and column are in the file itself (see `note`). */
export function inFileText(l: SourceLocation | null | undefined): SourceLocation | null {
  return l && !l.note ? l : null;
}

export interface ProvenanceEntry {
  path: PathSegment[];
  /** `runcmd[0]` form, built knowing which segments are list indices (a float key is not one). */
  display: string;
  location: SourceLocation | null;
  /** Location of the key, for mapping entries. */
  keyLocation?: SourceLocation | null;
}

/** Turns an origin into a file location; mode-specific (parts, drop-ins, files). */
export type Locator = (origin: Origin, which: 'value' | 'key') => SourceLocation | null;

/**
 * A locator over plain texts: origin.source indexes `files`, offsets are `base[source] + offset`, or
 * `map(offset)` where the source is not one slice of the file (no place where it says undefined).
 */
export function textLocator(files: Array<{ name: string; text: string; base?: number; map?: (offset: number) => number | undefined; note?: string } | null>): Locator {
  const indexes = new Map<number, LineIndex>();
  // Parts of one MIME blob share its text: index it once, not once per part (5,000 parts of a 100 KB blob).
  const byText = new Map<string, LineIndex>();
  return (origin, which) => {
    const file = files[origin.source];
    if (!file) return null;
    const span = which === 'key' ? origin.key : origin.value;
    if (!span) return null;
    let index = indexes.get(origin.source);
    if (!index) {
      index = byText.get(file.text) ?? new LineIndex(file.text);
      byText.set(file.text, index);
      indexes.set(origin.source, index);
    }
    const base = file.base ?? 0;
    const startOffset = file.map ? file.map(span.start) : base + span.start;
    const endOffset = file.map ? file.map(span.end) : base + span.end;
    if (startOffset === undefined || endOffset === undefined) return null;
    const start = index.position(startOffset);
    const end = index.position(endOffset);
    return { file: file.name, source: origin.source, line: start.line, character: start.character, endLine: end.line, endCharacter: end.character, note: file.note };
  };
}

export interface CollectOptions {
  /** Stop after this many entries (aliases can make a small file expand enormously). */
  limit?: number;
}

export function collectProvenance(value: PyValue, locate: Locator, options: CollectOptions = {}): { entries: ProvenanceEntry[]; truncated: boolean } {
  const entries: ProvenanceEntry[] = [];
  const truncated = walkOrigins(value, options.limit ?? 100_000, true, (path, display, origin) => {
    entries.push({ path, display, location: origin ? locate(origin, 'value') : null, keyLocation: origin?.key ? locate(origin, 'key') : undefined });
  });
  return { entries, truncated };
}

/**
 * Where each path's value came from, by its display form (`runcmd[0]`): what the preview's line map
 * and fates need, without the segment arrays and key places collectProvenance also builds.
 * A display form that two paths share keeps the later one's place, as collectProvenance's order has it.
 */
export function provenanceByDisplay(value: PyValue, locate: Locator, options: CollectOptions = {}): Map<string, SourceLocation | null> {
  const places = new Map<string, SourceLocation | null>();
  walkOrigins(value, options.limit ?? 100_000, false, (_path, display, origin) => {
    places.set(display, origin ? locate(origin, 'value') : null);
  });
  return places;
}

/**
 * Visits every mapping entry and list item of `value` depth first, parents before children, with its
 * display path and origin (and its path segments when `withPaths`); a value inside itself (an alias
 * cycle) is not entered again. Returns whether it stopped at `limit` visits.
 */
function walkOrigins(
  value: PyValue,
  limit: number,
  withPaths: boolean,
  visit: (path: PathSegment[], display: string, origin: Origin | undefined) => void,
): boolean {
  let visited = 0;
  const noPath: PathSegment[] = [];
  const stack: Array<{ value: PyValue; path: PathSegment[]; display: string; ancestors: Set<object> }> = [{ value, path: [], display: '', ancestors: new Set() }];
  while (stack.length) {
    const { value: current, path, display, ancestors } = stack.pop()!;
    if (current === null || typeof current !== 'object' || ancestors.has(current)) continue;
    const children: Array<{ segment: PathSegment; display: string; child: PyValue; origin?: Origin }> = [];
    if (current instanceof PyDict) {
      for (const { key, value: child, origin } of current.items()) {
        const name = pyKeyDisplay(key);
        children.push({ segment: key, display: display ? `${display}.${name}` : name, child, origin });
      }
    } else if (Array.isArray(current)) {
      const origins = getListOrigins(current);
      current.forEach((child, i) => children.push({ segment: i, display: `${display}[${i}]`, child, origin: origins?.[i] }));
    }
    if (!children.length) continue;
    for (const { segment, display: childDisplay, origin } of children) {
      if (visited >= limit) return true;
      visited++;
      visit(withPaths ? [...path, segment] : noPath, childDisplay, origin);
    }
    const nextAncestors = new Set(ancestors).add(current);
    for (let i = children.length - 1; i >= 0; i--) {
      const { child, segment, display: childDisplay } = children[i];
      // Scalars have no children: not worth a stack frame.
      if (child === null || typeof child !== 'object') continue;
      stack.push({ value: child, path: withPaths ? [...path, segment] : noPath, display: childDisplay, ancestors: nextAncestors });
    }
  }
  return false;
}

/** What one part changed, in words with places. */
export interface PartEffect {
  path: PathSegment[];
  what: 'overrode' | 'lost' | 'deleted';
  reason: string;
  /** Where the value that lost (or was overridden) came from. */
  from?: SourceLocation | null;
  /** Where the winning or rejected new value is. */
  at?: SourceLocation | null;
}

export function partEffects(events: MergeEvent[] | undefined, locate: Locator, limit = 1000): PartEffect[] {
  const effects: PartEffect[] = [];
  for (const e of events ?? []) {
    if (effects.length >= limit) break;
    switch (e.kind) {
      case 'replaced':
        effects.push({ path: e.path, what: 'overrode', reason: e.reason, from: e.oldOrigin ? locate(e.oldOrigin, 'value') : null, at: e.origin ? locate(e.origin, 'value') : null });
        break;
      case 'deleted':
        effects.push({ path: e.path, what: 'deleted', reason: e.reason, from: e.oldOrigin ? locate(e.oldOrigin, 'value') : null, at: e.origin ? locate(e.origin, 'value') : null });
        break;
      case 'kept':
        effects.push({ path: e.path, what: 'lost', reason: e.reason, from: e.oldOrigin ? locate(e.oldOrigin, 'value') : null, at: e.origin ? locate(e.origin, 'value') : null });
        break;
      case 'dropped-items':
        effects.push({ path: e.path, what: 'lost', reason: `${e.rejected.length} item(s) dropped: ${e.reason}`, at: e.origin ? locate(e.origin, 'value') : null });
        break;
      default:
        break;
    }
  }
  return effects;
}

/** `runcmd[0].name` style display of a path. */
export function formatPath(path: PathSegment[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else {
      const text = pyStr(seg as PyValue);
      out += out ? `.${text}` : text;
    }
  }
  return out || '(root)';
}
