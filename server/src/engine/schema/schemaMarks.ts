/**
 * The line of each schema path as `cloud-init schema --annotate` finds it: `safeyaml.load_with_marks` of
 * the chosen version (cloudinit/safeyaml.py, `_CustomSafeLoaderWithMarks`). While PyYAML constructs the
 * document, cloud-init records a mark (path, start, end) per mapping entry and list item, and guesses each
 * node's path prefix from the marks already recorded on the node's first line or around it. The guess
 * depends on PyYAML's construction order (mappings breadth-first, lists depth-first with their items
 * before themselves) and on PyYAML's node marks, so both are reproduced here from the parser's events.
 *
 * - 22.4: the prefix is the first mark on the node's line, else the last mark (latest line first) whose
 *   lines and columns each enclose the node's.
 * - upstream: marks are nested by position (`SchemaPathMarks.__contains__`), a new mark that encloses
 *   earlier ones is put before them and their paths are re-parented; a list item spanning lines is
 *   recorded on each line that already has marks.
 * A guess can name a path wrongly (22.4 often inside lists); cloud-init then has no line for the path
 * and its command fails with a KeyError (see annotate.ts). Merge keys (`<<`) are flattened as PyYAML does
 * before a mapping is constructed, so the merged entries are recorded at the lines of the mapping they
 * came from, under the prefix guessed for the mapping they were merged into.
 */
import { E, Parser } from '../yaml/parser';
import { MERGE_TAG, resolveScalar } from '../yaml/resolver';
import { pushAll } from '../arrays';
import type { SchemaVersion } from './data';
import { atLeast } from '../version/versions';

interface PyMark {
  line: number;
  column: number;
}

interface MarkedNode {
  kind: 'scalar' | 'sequence' | 'mapping';
  /** The scalar's value (PyYAML's `node.value` for a scalar key). */
  value: string;
  /** A scalar that is a merge key (`<<` plain, or tagged `!!merge`). */
  merge: boolean;
  start: PyMark;
  end: PyMark;
  items: MarkedNode[];
  pairs: Array<[MarkedNode, MarkedNode]>;
}

/** `SchemaPathMarks`: a path and where its node starts and ends. Upstream re-parents paths in place. */
interface PathMark {
  path: string;
  start: PyMark;
  end: PyMark;
}

/** Raised where cloud-init's own loader raises while recording marks (upstream: a path without a dot re-parented). */
export class MarksFailure extends Error {}

/**
 * Raised where the marks would take too long to reproduce: upstream files every mark of a line again
 * and re-parents them all for each new one, so lines where many merged entries were written cost the
 * square of their marks, and more (cloud-init's own command took 24 s on 200 chained merge keys and did
 * not finish in 5 minutes on 400).
 */
export class MarksTooCostly extends Error {}

/**
 * Marks looked at while filing and re-parenting (counted from above): 250 million take about a second
 * here. 200 chained merge keys take 213 million (cloud-init's own command: 24 s), 300 take a billion.
 */
const MAX_MARK_STEPS = 250_000_000;

/** Offsets to PyYAML marks: lines end at \n, \r\n, \r, NEL, LS, PS; columns count code points, not a BOM. */
export function markTable(text: string): ((offset: number) => PyMark) & { lineCount: number } {
  const starts: number[] = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || c === '\x85' || c === '\u2028' || c === '\u2029' || (c === '\r' && text[i + 1] !== '\n')) starts.push(i + 1);
  }
  const ascii = !/[^\x00-\x7f]/.test(text);
  const at = (offset: number): PyMark => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    const before = text.slice(starts[lo], offset);
    const column = ascii ? before.length : Array.from(before).filter((ch) => ch !== '\uFEFF').length;
    return { line: lo, column };
  };
  return Object.assign(at, { lineCount: starts.length });
}

/** PyYAML's composer, keeping only what the marks need. Undefined when the text does not compose or uses `<<`. */
function composeMarked(text: string): { root: MarkedNode | null; lineCount: number } | undefined {
  const at = markTable(text);
  const parser = new Parser(text);
  const anchors = new Map<string, MarkedNode>();
  const stack: Array<{ node: MarkedNode; key: MarkedNode | null }> = [];
  let root: MarkedNode | null = null;
  const attach = (node: MarkedNode) => {
    const top = stack[stack.length - 1];
    if (!top) root = node;
    else if (top.node.kind === 'sequence') top.node.items.push(node);
    else if (top.key === null) top.key = node;
    else {
      top.node.pairs.push([top.key, node]);
      top.key = null;
    }
  };
  try {
    parser.getEvent(); // stream start
    if (parser.checkEvent(E.StreamEnd)) return { root: null, lineCount: at.lineCount };
    parser.getEvent(); // document start
    do {
      const e = parser.getEvent();
      if (e.type === E.Alias) {
        const target = anchors.get(e.anchor as string);
        if (!target) return undefined;
        attach(target);
        continue;
      }
      if (e.type === E.SequenceEnd || e.type === E.MappingEnd) {
        const done = stack.pop()!.node;
        done.end = at(e.end);
        attach(done);
        continue;
      }
      const kind = e.type === E.Scalar ? 'scalar' : e.type === E.SequenceStart ? 'sequence' : 'mapping';
      const merge = kind === 'scalar' && (e.tag === null || e.tag === '!' ? resolveScalar(e.value, e.implicit) : e.tag) === MERGE_TAG;
      const node: MarkedNode = { kind, value: e.value, merge, start: at(e.start), end: at(e.end), items: [], pairs: [] };
      if (e.anchor !== null) anchors.set(e.anchor, node);
      if (kind === 'scalar') attach(node);
      else stack.push({ node, key: null });
    } while (stack.length > 0);
  } catch {
    return undefined;
  }
  return { root, lineCount: at.lineCount };
}

const contains = (outer: { start: PyMark; end: PyMark }, inner: { start: PyMark; end: PyMark }): boolean => {
  if (inner.start.line < outer.start.line || inner.end.line > outer.end.line) return false;
  if (inner.start.line === outer.start.line && inner.start.column < outer.start.column) return false;
  if (inner.end.line === outer.end.line && inner.end.column > outer.end.column) return false;
  return true;
};

const samePlace = (a: PathMark, b: PathMark) =>
  a.start.line === b.start.line && a.start.column === b.start.column && a.end.line === b.end.line && a.end.column === b.end.column;

/** The recording of one version: how it names a node's prefix and files a new mark. */
interface Recorder {
  byLine: Map<number, PathMark[]>;
  prefix(node: MarkedNode): string;
  mappingEntry(mark: PathMark): void;
  listItem(mark: PathMark, item: MarkedNode, path: string): void;
}

/** Line numbers kept sorted as they are added (a search walks them from the latest down). */
class SortedLines {
  readonly lines: number[] = [];
  add(line: number): void {
    let lo = 0;
    let hi = this.lines.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.lines[mid] < line) lo = mid + 1;
      else hi = mid;
    }
    if (this.lines[lo] !== line) this.lines.splice(lo, 0, line);
  }
}

/**
 * The latest end line of the marks filed on each line, to find the lines whose marks can enclose a node
 * (a mark encloses a node only if it ends on or after the node's last line) without walking every line
 * above it: the backward searches below were quadratic in long lists.
 */
class EndLines {
  private readonly size: number;
  private readonly max: Int32Array;
  constructor(lineCount: number) {
    let size = 1;
    while (size < lineCount) size <<= 1;
    this.size = size;
    this.max = new Int32Array(2 * size).fill(-1);
  }
  set(line: number, endLine: number): void {
    let i = line + this.size;
    this.max[i] = endLine;
    for (i >>= 1; i >= 1; i >>= 1) this.max[i] = Math.max(this.max[2 * i], this.max[2 * i + 1]);
  }
  /** `set`, where `endLine` is later than what the line has. */
  raise(line: number, endLine: number): void {
    if (this.max[line + this.size] < endLine) this.set(line, endLine);
  }
  /** The last line at or before `line` with a mark ending on or after `endLine`, or -1. */
  lastReaching(line: number, endLine: number): number {
    if (line < 0) return -1;
    return this.descend(1, 0, this.size - 1, Math.min(line, this.size - 1), endLine);
  }
  private descend(i: number, lo: number, hi: number, line: number, endLine: number): number {
    if (lo > line || this.max[i] < endLine) return -1;
    if (lo === hi) return lo;
    const mid = (lo + hi) >> 1;
    const right = this.descend(2 * i + 1, mid + 1, hi, line, endLine);
    return right >= 0 ? right : this.descend(2 * i, lo, mid, line, endLine);
  }
}

const lastEndLine = (marks: PathMark[]) => marks.reduce((a, m) => Math.max(a, m.end.line), -1);

function recorder224(lineCount: number): Recorder {
  const byLine = new Map<number, PathMark[]>();
  const ends = new EndLines(lineCount);
  return {
    byLine,
    prefix(node) {
      const onLine = byLine.get(node.start.line);
      if (onLine) return `${onLine[0].path}.`;
      // Marks are filed under their start line, and one that starts after the node cannot enclose it.
      for (let line = ends.lastReaching(node.start.line, node.end.line); line >= 0; line = ends.lastReaching(line - 1, node.end.line)) {
        const marks = byLine.get(line)!;
        for (let j = marks.length - 1; j >= 0; j--) {
          const m = marks[j];
          if (node.start.line >= m.start.line && node.start.column >= m.start.column && node.end.line <= m.end.line && node.end.column <= m.end.column) return `${m.path}.`;
        }
      }
      return '';
    },
    mappingEntry(mark) {
      const list = byLine.get(mark.start.line);
      if (list) list.push(mark);
      else byLine.set(mark.start.line, [mark]);
      // Marks are only added here: the line's latest end is the larger of the two (merged entries can put thousands on one line).
      ends.raise(mark.start.line, mark.end.line);
    },
    listItem(mark) {
      this.mappingEntry(mark);
    },
  };
}

function recorderUpstream(lineCount: number): Recorder {
  let steps = 0;
  const spend = (n: number) => {
    steps += n;
    if (steps > MAX_MARK_STEPS) throw new MarksTooCostly(`more than ${MAX_MARK_STEPS} steps to find its lines`);
  };
  const byLine = new Map<number, PathMark[]>();
  const ends = new EndLines(lineCount);
  // Lines holding a mark that starts on an earlier line (a list item spanning lines, filed on each line).
  const late = new SortedLines();
  const file = (line: number, marks: PathMark[]) => {
    byLine.set(line, marks);
    ends.set(line, lastEndLine(marks));
    if (marks.some((m) => m.start.line < line)) late.add(line);
  };
  const search = (lines: number[], from: number, until: (line: number) => boolean, node: MarkedNode): PathMark | undefined => {
    for (let i = from; i >= 0 && until(lines[i]); i--) {
      const marks = byLine.get(lines[i])!;
      for (let j = marks.length - 1; j >= 0; j--) if (contains(marks[j], node)) return marks[j];
    }
    return undefined;
  };
  const searchReaching = (node: MarkedNode): PathMark | undefined => {
    for (let line = ends.lastReaching(node.start.line, node.end.line); line >= 0; line = ends.lastReaching(line - 1, node.end.line)) {
      const marks = byLine.get(line)!;
      for (let j = marks.length - 1; j >= 0; j--) if (contains(marks[j], node)) return marks[j];
    }
    return undefined;
  };
  const closestParent = (child: PathMark, marks: PathMark[]) => [...marks].reverse().find((m) => contains(m, child) && !samePlace(child, m));
  const reparent = (marks: PathMark[]) => {
    spend(marks.length * marks.length);
    for (const mark of marks) {
      const parent = closestParent(mark, marks);
      if (!parent) continue;
      const dot = mark.path.lastIndexOf('.');
      if (dot < 0) throw new MarksFailure(`ValueError: not enough values to unpack (re-parenting '${mark.path}')`);
      const prefix = mark.path.slice(0, dot);
      if (mark.path === parent.path || !mark.path.startsWith(parent.path)) mark.path = mark.path.replace(prefix, () => parent.path);
    }
  };
  const addAndReparent = (mark: PathMark, marks: PathMark[]): PathMark[] => {
    spend(marks.length);
    const out: PathMark[] = [];
    let reparenting = false;
    for (const m of marks) {
      if (!contains(mark, m)) {
        out.push(m);
        continue;
      }
      spend(out.length);
      if (!out.some((o) => samePlace(o, mark))) {
        reparenting = true;
        out.push(mark);
      }
      out.push(m);
    }
    if (reparenting) reparent(out);
    else out.push(mark);
    return out;
  };
  return {
    byLine,
    prefix(node) {
      const onLine = byLine.get(node.start.line);
      if (onLine) {
        let specific = onLine[0];
        for (const m of onLine.slice(1)) if (contains(m, node) && contains(specific, m)) specific = m;
        if (contains(specific, node)) return `${specific.path}.`;
      }
      // Latest line first: after the node's line only marks that start earlier can enclose it.
      const found =
        search(late.lines, late.lines.length - 1, (l) => l > node.start.line, node) ?? searchReaching(node);
      return found ? `${found.path}.` : '';
    },
    mappingEntry(mark) {
      const line = mark.start.line;
      file(line, addAndReparent(mark, byLine.get(line) ?? []));
    },
    listItem(mark, item, path) {
      const line = item.start.line;
      const existing = byLine.get(line);
      if (!existing) file(line, [mark]);
      else if (line === item.end.line) file(line, addAndReparent(mark, existing));
      else {
        for (let inner = line; inner < item.end.line; inner++) {
          const marks = byLine.get(inner);
          if (!marks) continue;
          const next = addAndReparent(mark, marks);
          if (inner === line && marks[0].path !== path) next.unshift({ path, start: marks[0].start, end: marks[marks.length - 1].end });
          file(inner, next);
        }
      }
    },
  };
}

/** Thrown where PyYAML's flatten_mapping raises (the document's loader then fails before any mark). */
class NotMergeable extends Error {}

/**
 * PyYAML's `SafeConstructor.flatten_mapping`, in place as there: each merge key's pairs (a mapping, or
 * the mappings of a list, the last one's first) are taken out and put before the mapping's own pairs.
 */
function flattenMapping(node: MarkedNode): void {
  const merged: Array<[MarkedNode, MarkedNode]> = [];
  const own: Array<[MarkedNode, MarkedNode]> = [];
  for (const pair of node.pairs) {
    const [key, value] = pair;
    if (!key.merge) {
      own.push(pair);
      continue;
    }
    if (value.kind === 'mapping') {
      flattenMapping(value);
      pushAll(merged, value.pairs);
    } else if (value.kind === 'sequence') {
      const each: Array<Array<[MarkedNode, MarkedNode]>> = [];
      for (const sub of value.items) {
        if (sub.kind !== 'mapping') throw new NotMergeable();
        flattenMapping(sub);
        each.push(sub.pairs);
      }
      for (const pairs of each.reverse()) pushAll(merged, pairs);
    } else throw new NotMergeable();
  }
  if (merged.length || own.length !== node.pairs.length) node.pairs = [...merged, ...own];
}

/**
 * The path → line map `load_with_marks` returns for `text` (1-based lines), or undefined where this
 * reproduction does not apply (see above). Throws MarksFailure where cloud-init's loader itself raises.
 */
export function cloudInitSchemaMarks(text: string, version: SchemaVersion): Map<string, number> | undefined {
  const composed = composeMarked(text);
  const root = composed?.root;
  if (!composed || !root || root.kind !== 'mapping') return undefined;
  const rec = atLeast(version, '23.4') ? recorderUpstream(composed.lineCount) : recorder224(composed.lineCount);
  const constructed = new Set<MarkedNode>();
  let deep = false;
  let pending: Array<() => void> = [];

  const constructObject = (node: MarkedNode, deepHere: boolean) => {
    if (constructed.has(node)) return;
    constructed.add(node);
    const outer = deep;
    if (deepHere) deep = true;
    if (node.kind !== 'scalar') {
      const build = node.kind === 'mapping' ? () => constructMapping(node) : () => constructSequence(node);
      if (deep) build();
      else pending.push(build);
    }
    if (deepHere) deep = outer;
  };
  const constructMapping = (node: MarkedNode) => {
    flattenMapping(node);
    for (const [key, value] of node.pairs) {
      constructObject(key, false);
      constructObject(value, false);
    }
    const prefix = rec.prefix(node);
    for (const [key, value] of node.pairs) rec.mappingEntry({ path: `${prefix}${key.kind === 'scalar' ? key.value : '?'}`, start: key.start, end: value.end });
  };
  const constructSequence = (node: MarkedNode) => {
    for (const item of node.items) constructObject(item, true);
    const prefix = rec.prefix(node);
    node.items.forEach((item, i) => rec.listItem({ path: `${prefix}${i}`, start: item.start, end: item.end }, item, `${prefix}${i}`));
  };

  try {
    constructObject(root, false);
    while (pending.length) {
      const round = pending;
      pending = [];
      for (const build of round) build();
    }
  } catch (e) {
    if (e instanceof NotMergeable) return undefined;
    throw e;
  }
  const lines = new Map<string, number>();
  for (const marks of rec.byLine.values()) for (const m of marks) lines.set(m.path, m.start.line + 1);
  return lines;
}
