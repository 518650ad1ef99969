/**
 * Where the cursor is in a YAML block document, read from the text alone (the document is often broken
 * while it is typed): the keys and list items above it by indentation, and whether it is on a key or
 * after `key:` on the value. Flow collections (`{...}`, `[...]`) and multi-line scalars are not entered.
 */
import type { NavSegment } from './navigate';

export interface TextCursor {
  /** The path of the mapping the cursor's key belongs to. */
  parent: NavSegment[];
  /** The key on the cursor's line, where it is written. */
  key?: { text: string; start: number; end: number };
  /** The cursor is on (or typing) the key, or in the value after `key:`. */
  at: 'key' | 'value';
  /** The value's text span on the line, for `at: 'value'`. */
  value?: { start: number; end: number };
}

interface Line {
  start: number;
  text: string;
}

// A key ends on a character that is not a space (no lazy `[^:#]*?` before `\s*`: on a line of 40,000 spaces
// that pair backtracked quadratically, and completion took seconds: found by the fuzzer).
const KEY_LINE = /^(\s*)((?:-\s+)*)((?:"[^"]*"|'[^']*'|[^\s#:'"\-[\]{}](?:[^:#]*[^\s:#])?|-[^\s:#](?:[^:#]*[^\s:#])?))\s*:(?:\s|$)/;

/** The lines before the one starting at `lineStart`, nearest first, read lazily (a 20,000-line file is not split). */
function* linesAbove(text: string, lineStart: number): Generator<Line> {
  let end = lineStart - 1;
  while (end >= 0) {
    // At end 0 the line above is the empty first line: lastIndexOf would clamp -1 to 0, find that very
    // newline and never get past it (regression: completion hung on a document starting with a blank line).
    const start = end > 0 ? text.lastIndexOf('\n', end - 1) + 1 : 0;
    yield { start, text: text.slice(start, end).replace(/\r$/, '') };
    end = start - 1;
  }
}

/** The lines after the one ending at `lineEnd` (its newline or the end of the text). */
function* linesBelow(text: string, lineEnd: number): Generator<Line> {
  let start = lineEnd + 1;
  while (start <= text.length && lineEnd < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    yield { start, text: text.slice(start, end).replace(/\r$/, '') };
    if (end >= text.length) return;
    start = end + 1;
  }
}

function lineAround(text: string, offset: number): Line & { end: number } {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let end = text.indexOf('\n', offset);
  if (end < 0) end = text.length;
  return { start, end, text: text.slice(start, end).replace(/\r$/, '') };
}

function unquote(k: string): string {
  return (k.startsWith('"') && k.endsWith('"')) || (k.startsWith("'") && k.endsWith("'")) ? k.slice(1, -1) : k.trim();
}

/** The structure of one line: dashes (list items opened), the key and its column. */
function parse(line: string): { indent: number; dashes: number[]; key?: string; keyCol: number; keyEnd: number; colon: number } | null {
  const m = KEY_LINE.exec(line);
  if (m) {
    const indent = m[1].length;
    const dashes: number[] = [];
    let col = indent;
    for (const d of m[2].matchAll(/-\s+/g)) {
      dashes.push(col);
      col += d[0].length;
    }
    const keyCol = indent + m[2].length;
    return { indent, dashes, key: unquote(m[3]), keyCol, keyEnd: keyCol + m[3].length, colon: line.indexOf(':', keyCol + m[3].length) };
  }
  const d = /^(\s*)((?:-(?:\s+|$))+)/.exec(line);
  if (d) {
    const dashes: number[] = [];
    let col = d[1].length;
    for (const x of d[2].matchAll(/-(?:\s+|$)/g)) {
      dashes.push(col);
      col += x[0].length;
    }
    return { indent: d[1].length, dashes, keyCol: col, keyEnd: col, colon: -1 };
  }
  return null;
}

export function textCursorAt(text: string, offset: number): TextCursor | null {
  const current = lineAround(text, offset);
  const column = offset - current.start;
  const here = current.text;
  const parsed = parse(here);
  let keyColumn: number;
  let result: TextCursor;
  if (parsed?.key !== undefined && column > parsed.colon && parsed.colon >= 0) {
    const valueStart = parsed.colon + 1 + (/^\s*/.exec(here.slice(parsed.colon + 1))?.[0].length ?? 0);
    const comment = here.slice(valueStart).search(/\s#/);
    const valueEnd = comment >= 0 ? valueStart + comment : here.trimEnd().length;
    result = { parent: [], key: { text: parsed.key, start: current.start + parsed.keyCol, end: current.start + parsed.keyEnd }, at: 'value', value: { start: current.start + valueStart, end: current.start + Math.max(valueStart, valueEnd) } };
    keyColumn = parsed.keyCol;
  } else {
    // Typing a key: `  pack|`, `- na|`, or on a key (`pack|ages:`).
    const typing = /^(\s*)((?:-\s+)*)([A-Za-z0-9_-]*)$/.exec(here.slice(0, column));
    if (!typing) return null;
    keyColumn = typing[1].length + typing[2].length;
    const word = /^[A-Za-z0-9_-]*/.exec(here.slice(keyColumn))![0];
    result = { parent: [], key: { text: word, start: current.start + keyColumn, end: current.start + keyColumn + word.length }, at: 'key' };
    // `- ` items opened on this line
    const dashes = typing[2].match(/-\s+/g)?.length ?? 0;
    const path: NavSegment[] = [];
    for (let i = 0; i < dashes; i++) path.push({ item: true });
    result.parent = [...ancestors(linesAbove(text, current.start), typing[1].length, dashes > 0), ...path];
    return result;
  }
  const dashes = parsed.dashes.length;
  const own: NavSegment[] = [];
  for (let i = 0; i < dashes; i++) own.push({ item: true });
  result.parent = [...ancestors(linesAbove(text, current.start), dashes ? parsed.dashes[0] : keyColumn, dashes > 0), ...own];
  return result;
}

/**
 * The path to a node that starts at `column` on the next line, from the lines above: each line whose key
 * (or dash) is left of it contains it. A `-` at the same column as its parent key (`key:\n- item`) counts.
 */
function ancestors(lines: Iterable<Line>, column: number, isItem: boolean): NavSegment[] {
  const path: NavSegment[] = [];
  let target = column;
  let item = isItem;
  for (const line of lines) {
    if (target === 0 && !item) break;
    const t = line.text;
    if (!t.trim() || /^\s*#/.test(t)) continue;
    const p = parse(t);
    if (!p) {
      if (/^\S/.test(t) && target === 0) break;
      continue;
    }
    // The list our item belongs to hangs from a key at this column or left of it.
    if (p.key !== undefined && (p.keyCol < target || (item && p.keyCol === target && !p.dashes.length))) {
      path.unshift(p.key);
      for (let d = p.dashes.length - 1; d >= 0; d--) path.unshift({ item: true });
      target = p.dashes.length ? p.dashes[0] : p.keyCol;
      item = p.dashes.length > 0;
      if (target === 0 && !item) break;
      continue;
    }
    if (p.dashes.length && p.dashes[0] < target) {
      // An item that contains us (its mapping continues on our line): `- name: a` above `  groups: ...`
      for (let d = p.dashes.length - 1; d >= 0; d--) path.unshift({ item: true });
      target = p.dashes[0];
      item = true;
    }
  }
  return path;
}

/**
 * Keys written beside the one at `keyStart` (same mapping, read from the text): lines at the same key
 * column, up and down, until the block ends (a line left of it, or the dash that opens its list item).
 */
export function siblingKeys(text: string, keyStart: number): Set<string> {
  const out = new Set<string>();
  const current = lineAround(text, keyStart);
  const column = keyStart - current.start;
  const scan = (lines: Iterable<Line>) => {
    for (const line of lines) {
      const t = line.text;
      if (!t.trim() || /^\s*#/.test(t)) continue;
      const p = parse(t);
      const indent = /^\s*/.exec(t)![0].length;
      if (p?.key !== undefined && p.keyCol === column) {
        out.add(p.key);
        // A dash here opens a list item: going up, ours (nothing above belongs to it); going down, the next.
        if (p.dashes.length) return;
        continue;
      }
      if (indent < column || (p && p.dashes.length && p.keyCol <= column)) return;
    }
  };
  scan(linesAbove(text, current.start));
  scan(linesBelow(text, current.end));
  return out;
}
