/**
 * The preview's incremental answer (`cloudConfigMerge/previewUpdate`): what changed since the answer a
 * client holds, as splices of the text's lines, the line map's entries and the folds, so that what crosses
 * the wire after a one-character edit grows with what changed rather than with the whole preview (a
 * preview of 100 parts is some 800 KB of JSON). The server makes it (`diffPreview`), the client applies it
 * (`applyPreviewDelta`) to the answer it holds; both sides import this file, as they do `protocol.ts`.
 *
 * The splices are found with Myers' O((N+M)D) difference of sequences, after the common head and tail are
 * cut off; past `MAX_EDITS` edits the changed middle is sent as one splice (still correct, only larger).
 */
import { PREVIEW_LINE_FIELDS, type PreviewLineMap, type PreviewResult } from './protocol';

/** Replace `remove` items at `at` (an index of the old sequence) with `insert`. */
export interface Splice<T> {
  at: number;
  remove: number;
  insert: T[];
}

/** What changed between two answers; the fields not named here are sent whole when they changed. */
export interface PreviewDelta {
  /** Splices of the text's lines (`text.split('\n')`). */
  lines: Array<Splice<string>>;
  /** Splices of the line map's entries: `insert` holds their paths, `rows` their `PREVIEW_LINE_FIELDS` numbers each. */
  entries: Array<Splice<string> & { rows: number[] }>;
  /** Splices of `dataFolds` written as differences (each number minus the one before it). */
  folds?: Array<Splice<number>>;
  bodyStart: number;
  /** The rest, each only when it differs from the held answer's. */
  changed: Partial<Pick<PreviewResult, 'parts' | 'headerLinks' | 'headerSections' | 'problems' | 'sources' | 'failure'>> & {
    files?: PreviewLineMap['files'];
    history?: PreviewLineMap['history'];
    /** The held answer had a failure and this one has none. */
    noFailure?: true;
  };
}

/** A range of the old sequence (`at`, `remove`) replaced by a range of the new one (`from`, `count`). */
export interface Hunk {
  at: number;
  remove: number;
  from: number;
  count: number;
}

/** Beyond this many inserted plus deleted items, the changed middle is one hunk. */
export const MAX_EDITS = 400;

/**
 * The hunks that turn a sequence of `n` items into one of `m`, `same(i, j)` saying whether old item `i`
 * equals new item `j`; in increasing order of `at`, not overlapping.
 */
export function diffSequences(n: number, m: number, same: (i: number, j: number) => boolean, maxEdits = MAX_EDITS): Hunk[] {
  let start = 0;
  while (start < n && start < m && same(start, start)) start++;
  let endA = n;
  let endB = m;
  while (endA > start && endB > start && same(endA - 1, endB - 1)) {
    endA--;
    endB--;
  }
  if (start === endA && start === endB) return [];
  const whole: Hunk[] = [{ at: start, remove: endA - start, from: start, count: endB - start }];
  if (start === endA || start === endB) return whole;
  const N = endA - start;
  const M = endB - start;
  const max = Math.min(N + M, maxEdits);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < N && y < M && same(start + x, start + y)) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= N && y >= M) return shift(backtrack(trace, d, k, N), start);
    }
  }
  return whole;
}

/** The path of Myers' search back from (N, M) on diagonal `k` after `d` edits, as hunks. */
function backtrack(trace: Int32Array[], d: number, k: number, N: number): Hunk[] {
  // Each edit as its starting point: a deletion goes (x, y) → (x + 1, y), an insertion (x, y) → (x, y + 1).
  const edits: Array<{ x: number; y: number; del: boolean }> = [];
  let x = N;
  for (; d > 0; d--) {
    // trace[d] is the state before step d, stored from diagonal -d - 1 (index 0) on.
    const before = trace[d];
    const at = (diagonal: number) => before[diagonal + d + 1];
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    if (down) edits.push({ x: prevX, y: prevX - prevK, del: false });
    else edits.push({ x: prevX, y: prevX - prevK, del: true });
    x = prevX;
    k = prevK;
  }
  void x;
  edits.reverse();
  const hunks: Hunk[] = [];
  for (const e of edits) {
    const last = hunks[hunks.length - 1];
    if (last && last.at + last.remove === e.x && last.from + last.count === e.y) {
      if (e.del) last.remove++;
      else last.count++;
    } else {
      hunks.push({ at: e.x, remove: e.del ? 1 : 0, from: e.y, count: e.del ? 0 : 1 });
    }
  }
  return hunks;
}

function shift(hunks: Hunk[], by: number): Hunk[] {
  for (const h of hunks) {
    h.at += by;
    h.from += by;
  }
  return hunks;
}

/** `old` with the splices applied (in increasing order of `at`, not overlapping). */
export function applySplices<T>(old: readonly T[], splices: ReadonlyArray<Splice<T>>): T[] {
  if (!splices.length) return old.slice();
  const out: T[] = [];
  let from = 0;
  for (const s of splices) {
    if (s.at < from || s.at + s.remove > old.length) throw new Error(`a preview update does not fit the preview it was made for (splice at ${s.at} of ${old.length})`);
    for (let i = from; i < s.at; i++) out.push(old[i]);
    for (const item of s.insert) out.push(item);
    from = s.at + s.remove;
  }
  for (let i = from; i < old.length; i++) out.push(old[i]);
  return out;
}

function differences(numbers: readonly number[]): number[] {
  const out = new Array<number>(numbers.length);
  for (let i = 0; i < numbers.length; i++) out[i] = numbers[i] - (i ? numbers[i - 1] : 0);
  return out;
}

function sums(numbers: readonly number[]): number[] {
  const out = new Array<number>(numbers.length);
  for (let i = 0; i < numbers.length; i++) out[i] = numbers[i] + (i ? out[i - 1] : 0);
  return out;
}

function spliceOf<T>(h: Hunk, items: readonly T[]): Splice<T> {
  return { at: h.at, remove: h.remove, insert: items.slice(h.from, h.from + h.count) };
}

/** The lines of a text, as the delta counts them. */
export function linesOf(text: string): string[] {
  return text.split('\n');
}

/** How many line breaks `text` has before `end`. */
function breaksBefore(text: string, end: number): number {
  let n = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < end; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

/**
 * The line splices from `old` to `now`. Only the lines between the texts' common head and tail are split
 * and compared: after a one-character edit that is one line of a preview's 14,000.
 */
export function diffLines(old: string, now: string): Array<Splice<string>> {
  if (old === now) return [];
  const limit = Math.min(old.length, now.length);
  // Compared a block at a time, then a smaller one: a string comparison is one native call, and a text made by
  // concatenation is flattened by its first slice instead of being walked a character at a time.
  let head = 0;
  for (let step = 4096; step >= 1; step >>= 4) {
    while (head + step <= limit && old.slice(head, head + step) === now.slice(head, head + step)) head += step;
  }
  let tail = 0;
  for (let step = 4096; step >= 1; step >>= 4) {
    while (tail + step <= limit - head && old.slice(old.length - tail - step, old.length - tail) === now.slice(now.length - tail - step, now.length - tail)) tail += step;
  }
  // Whole lines: back to the start of the line the first difference is on, on to the end of the last one's.
  const start = head ? old.lastIndexOf('\n', head - 1) + 1 : 0;
  const oldEnd = endOfLine(old, old.length - tail);
  const nowEnd = endOfLine(now, now.length - tail);
  const a = old.slice(start, oldEnd).split('\n');
  const b = now.slice(start, nowEnd).split('\n');
  const first = breaksBefore(old, start);
  return diffSequences(a.length, b.length, (i, j) => a[i] === b[j]).map((h) => ({ at: first + h.at, remove: h.remove, insert: b.slice(h.from, h.from + h.count) }));
}

/** The end of the line `at` is on (the offset of its line break, or the text's end). */
function endOfLine(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

/** `text` with its line splices applied (as `applySplices` on its lines); only the lines the splices name are split off. */
export function applyLineSplices(text: string, splices: ReadonlyArray<Splice<string>>): string {
  if (!splices.length) return text;
  // The start of line `line` (the text's length + 1 for the line after the last), found moving forward only.
  let cursor = 0;
  let cursorLine = 0;
  const lineStart = (line: number): number => {
    while (cursorLine < line) {
      if (cursor > text.length) throw new Error(`a preview update does not fit the preview it was made for (line ${line})`);
      const at = text.indexOf('\n', cursor);
      cursor = at < 0 ? text.length + 1 : at + 1;
      cursorLine++;
    }
    if (cursor > text.length + 1) throw new Error(`a preview update does not fit the preview it was made for (line ${line})`);
    return cursor;
  };
  // Runs of whole lines, joined by line breaks at the end.
  const runs: string[] = [];
  let kept = 0;
  for (const s of splices) {
    if (s.at < kept) throw new Error(`a preview update does not fit the preview it was made for (splice at line ${s.at})`);
    if (s.at > kept) runs.push(text.slice(lineStart(kept), lineStart(s.at) - 1));
    if (s.insert.length) runs.push(s.insert.join('\n'));
    kept = s.at + s.remove;
    lineStart(kept);
  }
  if (cursor <= text.length) runs.push(text.slice(lineStart(kept)));
  return runs.join('\n');
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What changed from `old` to `now`. */
export function diffPreview(old: PreviewResult, now: PreviewResult): PreviewDelta {
  const lines = diffLines(old.text, now.text);
  const a = old.lineMap;
  const b = now.lineMap;
  const F = PREVIEW_LINE_FIELDS;
  const sameEntry = (i: number, j: number) => {
    if (a.paths[i] !== b.paths[j]) return false;
    for (let f = 0; f < F; f++) if (a.rows[i * F + f] !== b.rows[j * F + f]) return false;
    return true;
  };
  const entries = diffSequences(a.paths.length, b.paths.length, sameEntry).map((h) => ({
    at: h.at,
    remove: h.remove,
    insert: b.paths.slice(h.from, h.from + h.count),
    rows: b.rows.slice(h.from * F, (h.from + h.count) * F),
  }));
  const delta: PreviewDelta = { lines, entries, bodyStart: now.bodyStart, changed: {} };
  const oldFolds = differences(old.dataFolds ?? []);
  const nowFolds = differences(now.dataFolds ?? []);
  const folds = diffSequences(oldFolds.length, nowFolds.length, (i, j) => oldFolds[i] === nowFolds[j]).map((h) => spliceOf(h, nowFolds));
  if (folds.length || (old.dataFolds === undefined) !== (now.dataFolds === undefined)) delta.folds = folds;
  const c = delta.changed;
  if (!sameJson(a.files, b.files)) c.files = b.files;
  if (!sameJson(a.history, b.history)) c.history = b.history;
  if (!sameJson(old.parts, now.parts)) c.parts = now.parts;
  if (!sameJson(old.headerLinks, now.headerLinks)) c.headerLinks = now.headerLinks ?? [];
  if (!sameJson(old.headerSections, now.headerSections)) c.headerSections = now.headerSections ?? [];
  if (!sameJson(old.problems, now.problems)) c.problems = now.problems;
  if (!sameJson(old.sources, now.sources)) c.sources = now.sources ?? [];
  if (old.failure !== now.failure) {
    if (now.failure === undefined) c.noFailure = true;
    else c.failure = now.failure;
  }
  return delta;
}

/** The answer `delta` was made from, rebuilt from the answer it was made against. */
export function applyPreviewDelta(old: PreviewResult, delta: PreviewDelta): PreviewResult {
  const text = applyLineSplices(old.text, delta.lines);
  const F = PREVIEW_LINE_FIELDS;
  let paths = old.lineMap.paths;
  let rows = old.lineMap.rows;
  if (delta.entries.length) {
    paths = applySplices(old.lineMap.paths, delta.entries);
    rows = [];
    let from = 0;
    for (const s of delta.entries) {
      for (let i = from * F; i < s.at * F; i++) rows.push(old.lineMap.rows[i]);
      for (const n of s.rows) rows.push(n);
      from = s.at + s.remove;
    }
    for (let i = from * F; i < old.lineMap.rows.length; i++) rows.push(old.lineMap.rows[i]);
  }
  const c = delta.changed;
  const result: PreviewResult = {
    text,
    bodyStart: delta.bodyStart,
    lineMap: { files: c.files ?? old.lineMap.files, rows, paths, history: c.history ?? old.lineMap.history },
    parts: c.parts ?? old.parts,
    problems: c.problems ?? old.problems,
  };
  const headerLinks = c.headerLinks ?? old.headerLinks;
  if (headerLinks !== undefined) result.headerLinks = headerLinks;
  const headerSections = c.headerSections ?? old.headerSections;
  if (headerSections !== undefined) result.headerSections = headerSections;
  if (delta.folds) result.dataFolds = sums(applySplices(differences(old.dataFolds ?? []), delta.folds));
  else if (old.dataFolds !== undefined) result.dataFolds = old.dataFolds;
  const sources = c.sources ?? old.sources;
  if (sources !== undefined) result.sources = sources;
  const failure = c.noFailure ? undefined : (c.failure ?? old.failure);
  if (failure !== undefined) result.failure = failure;
  return result;
}
