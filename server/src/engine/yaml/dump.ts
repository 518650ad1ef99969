/**
 * A YAML emitter whose output is byte-identical to what cloud-init writes to
 * `cloud-config.txt`, i.e. to PyYAML 6.0 (CPython 3.11) running
 *
 *     yaml.dump(obj, line_break="\n", indent=4, explicit_start=True,
 *               explicit_end=True, default_flow_style=False,
 *               Dumper=yaml.dumper.SafeDumper)
 *
 * (width 80, allow_unicode off, sort_keys on, canonical off).
 *
 * It is an independent implementation of the same pipeline:
 *
 *  1. represent: Python values become a node graph. Lists, tuples, dicts,
 *     sets and timestamps are memoized by object identity, so the same JS
 *     object reached twice yields one node (None, str, bytes, bool, int,
 *     float and the empty tuple never are). Dict items are ordered with
 *     Python's `sorted()` (CPython's timsort, re-implemented below so that
 *     NaN keys and a TypeError part-way through behave the same); a mapping
 *     whose keys Python cannot order keeps its insertion order.
 *  2. anchors: a pre-order walk names every node met a second time,
 *     `id001`, `id002`, ... in the order of those second encounters.
 *  3. serialize + emit: events are produced lazily from the node graph and fed
 *     to a state machine that keeps PyYAML's emitter state (column,
 *     whitespace/indentation flags, indentation stack, simple-key checks,
 *     scalar analysis and style choice, line folding).
 *
 * Everything is iterative (no recursion) and the output is built by string
 * concatenation (a rope in V8, flattened once), so time is linear in the
 * output size and deep nesting only costs heap. Note that PyYAML's own
 * layout makes the output of deeply nested mappings quadratic in the depth
 * (each level indents by 4 more).
 *
 * Residual differences from Python (all verified against PyYAML otherwise by
 * test/oracle/yaml-dump.diff.ts):
 *  - A set whose elements Python cannot sort is written in the set's
 *    iteration order, which in Python depends on hashes (randomized for
 *    str); here it is the PySet's insertion order. Likewise a set holding a
 *    NaN (its sorted order depends on the input order).
 *  - Python raises RecursionError for values nested more than a few hundred
 *    levels deep (PyYAML's representer and serializer recurse); this module
 *    dumps them.
 *  - PyDict merges all NaN keys into one (see values.ts), so two distinct NaN
 *    keys cannot be represented; for the same reason the identity shortcut of
 *    Python's `==` on NaN inside tuple keys is not modelled.
 *  - Options are limited to the ones below; canonical output, explicit tags,
 *    flow style, allow_unicode and other line breaks are not supported.
 *
 * Like Python, it throws for an int of more than 4300 digits (ValueError in
 * Python 3.11) and for values it cannot represent.
 */

import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../values';
import { pyFloatRepr, pyRepr } from '../py/repr';
import { PyError } from '../py/errors';
import { pyIntStr } from '../py/int';
import { PyIncomparable, pyLess } from '../py/compare';
import { comparePyStr } from '../py/str';
import { pySorted } from '../py/sort';
import { b2aBase64Lines } from '../py/binascii';
import { BOOL_TAG, FLOAT_TAG, INT_TAG, NULL_TAG, STR_TAG, TIMESTAMP_TAG, resolveScalar } from './resolver';

/** The representer's tags are suffixes of tag:yaml.org,2002:, the resolver's are whole. */
const FULL_TAG: Record<string, string> = { null: NULL_TAG, bool: BOOL_TAG, int: INT_TAG, float: FLOAT_TAG, str: STR_TAG, timestamp: TIMESTAMP_TAG };

const SURROGATE = /[\uD800-\uDFFF]/;

export interface DumpOptions {
  /** Write `---` (default true). */
  explicitStart?: boolean;
  /** Write `...` (default true). */
  explicitEnd?: boolean;
  /** Block indentation, PyYAML's `indent` (default 4; values outside 2..9 mean 2). */
  indent?: number;
  /** Preferred line width, PyYAML's `width` (default 80; values <= 2*indent mean 80). */
  width?: number;
  /** Never write anchors/aliases (repeat shared values); a cycle then throws. */
  noAlias?: boolean;
  /**
   * Deepest level (the root is 1) at which PyYAML's recursive representer
   * can still represent a node; a deeper node throws Python's RecursionError
   * (PyError). Default: no limit.
   */
  maxLevels?: number;
}

/** A position in the dumped value: display form of mapping keys, indices of sequence items. */
export type YamlPath = Array<string | number>;

export interface DumpLine {
  path: YamlPath;
  /** 0-based line of the output on which the key (or the `-` of the item) is written. */
  line: number;
}

export interface DumpWithLines {
  text: string;
  /** One entry per emitted mapping key and sequence item, in output order. */
  lines: DumpLine[];
}

/** `yaml.dump(value, ...)` as cloud-init calls it (see the options for the defaults). */
export function dumpPyYaml(value: PyValue, options: DumpOptions = {}): string {
  return dumpInternal(value, options, false).text;
}

/**
 * Same text as `dumpPyYaml`, plus the line of every mapping key and sequence
 * item. Keys inside complex (`? `) keys are not listed; the children of an
 * aliased value are listed once, under the path where the anchor is written.
 */
export function dumpPyYamlWithLines(value: PyValue, options: DumpOptions = {}): DumpWithLines {
  return dumpInternal(value, options, true);
}

/**
 * Python's `str(key)`: the form a mapping key takes in a `YamlPath`.
 * Strings are themselves; `None` -> `None`, `True` -> `True`, `1.5` -> `1.5`,
 * dates `2001-12-14`, datetimes `2001-12-14 21:59:43+00:00`, tuples and bytes
 * their repr.
 */
export function pyKeyDisplay(key: PyValue): string {
  if (typeof key === 'string') return key;
  if (key instanceof PyTimestamp) return key.kind === 'date' ? key.isoformat() : key.isoformat(' ');
  return pyRepr(key);
}

// ---------------------------------------------------------------------------
// Driver

function dumpInternal(value: PyValue, options: DumpOptions, withLines: boolean): DumpWithLines {
  let bestIndent = 2;
  const indent = options.indent ?? 4;
  if (indent > 1 && indent < 10) bestIndent = Math.trunc(indent);
  let bestWidth = 80;
  const width = options.width ?? 80;
  if (width && width > bestIndent * 2) bestWidth = width;

  const root = represent(value, options.noAlias === true, options.maxLevels ?? Infinity);
  assignAnchors(root);
  const source = new EventSource(root, options.explicitStart ?? true, options.explicitEnd ?? true, withLines);
  const emitter = new Emitter(source, bestIndent, bestWidth, withLines);
  emitter.run();
  const text = emitter.out;
  const lines: DumpLine[] = [];
  if (withLines) {
    const marks = emitter.marks;
    for (let i = 0; i < marks.length; i += 2) {
      lines.push({ path: pathOf(marks[i] as PathNode), line: marks[i + 1] as number });
    }
  }
  return { text, lines };
}

// ---------------------------------------------------------------------------
// Representer

const SCALAR = 0;
const SEQ = 1;
const MAP = 2;

const NO_CHILDREN: YNode[] = [];

/** A representation node; `tag` is the suffix after `tag:yaml.org,2002:`. */
class YNode {
  /** Sequence items, or mapping keys and values interleaved (shared empty array for scalars). */
  children: YNode[];
  /** For mappings: the Python keys, in emitted order (for paths). */
  keys: PyValue[] | null = null;
  anchor: string | null = null;
  seen = false;
  serialized = false;
  constructor(
    readonly kind: number,
    readonly tag: string,
    readonly value: string,
    readonly style: string | null,
    /** May be reached more than once (represented from a memoizable object). */
    readonly shareable: boolean,
  ) {
    this.children = kind === SCALAR ? NO_CHILDREN : [];
  }
}

function scalarNode(tag: string, value: string): YNode {
  return new YNode(SCALAR, tag, value, null, false);
}

interface RepFrame {
  node: YNode;
  items: PyValue[];
  i: number;
  obj: object;
}

function represent(root: PyValue, noAlias: boolean, maxLevels: number): YNode {
  const memo = new Map<object, YNode>();
  const active = new Set<object>();
  const stack: RepFrame[] = [];

  const make = (v: PyValue): YNode => {
    if (stack.length >= maxLevels && !(v !== null && typeof v === 'object' && memo.has(v as object))) {
      throw new PyError('RecursionError', 'maximum recursion depth exceeded while calling a Python object');
    }
    if (v === null) return scalarNode('null', 'null');
    switch (typeof v) {
      case 'boolean':
        return scalarNode('bool', v ? 'true' : 'false');
      case 'bigint':
        return scalarNode('int', pyIntStr(v));
      case 'number':
        return scalarNode('float', floatText(v));
      case 'string':
        return scalarNode('str', v);
    }
    if (v instanceof PyBytes) return new YNode(SCALAR, 'binary', b2aBase64Lines(v.bytes), '|', false);
    const obj = v as object;
    const shareable = !(v instanceof PyTuple && v.items.length === 0);
    if (shareable) {
      if (noAlias) {
        if (active.has(obj)) {
          throw new Error('cannot dump a recursive structure without aliases (Python raises RecursionError)');
        }
      } else {
        const hit = memo.get(obj);
        if (hit) return hit;
      }
    }
    let node: YNode;
    let items: PyValue[] = [];
    if (v instanceof PyTimestamp) {
      node = new YNode(SCALAR, 'timestamp', v.kind === 'date' ? v.isoformat() : v.isoformat(' '), null, shareable);
    } else if (Array.isArray(v)) {
      node = new YNode(SEQ, 'seq', '', null, shareable);
      items = v;
    } else if (v instanceof PyTuple) {
      node = new YNode(SEQ, 'seq', '', null, shareable);
      items = v.items;
    } else if (v instanceof PyDict) {
      node = new YNode(MAP, 'map', '', null, shareable);
      const keys = v.keys();
      const values = v.values();
      const order = sortedOrder(keys);
      node.keys = new Array<PyValue>(keys.length);
      items = new Array<PyValue>(keys.length * 2);
      for (let i = 0; i < keys.length; i++) {
        const j = order ? order[i] : i;
        node.keys[i] = keys[j];
        items[2 * i] = keys[j];
        items[2 * i + 1] = values[j];
      }
    } else if (v instanceof PySet) {
      node = new YNode(MAP, 'set', '', null, shareable);
      const keys = v.values();
      const order = sortedOrder(keys);
      node.keys = new Array<PyValue>(keys.length);
      items = new Array<PyValue>(keys.length * 2);
      for (let i = 0; i < keys.length; i++) {
        const j = order ? order[i] : i;
        node.keys[i] = keys[j];
        items[2 * i] = keys[j];
        items[2 * i + 1] = null;
      }
    } else {
      throw new Error(`cannot represent an object: ${String(v)}`);
    }
    if (shareable && !noAlias) memo.set(obj, node);
    if (items.length > 0) {
      stack.push({ node, items, i: 0, obj });
      if (noAlias) active.add(obj);
    }
    return node;
  };

  const rootNode = make(root);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i >= top.items.length) {
      stack.pop();
      if (noAlias) active.delete(top.obj);
      continue;
    }
    const child = make(top.items[top.i++]);
    top.node.children.push(child);
  }
  return rootNode;
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return '.nan';
  if (x === Infinity) return '.inf';
  if (x === -Infinity) return '-.inf';
  let s = pyFloatRepr(x).toLowerCase();
  if (!s.includes('.') && s.includes('e')) s = s.replace('e', '.0e');
  return s;
}

// ---------------------------------------------------------------------------
// Python ordering of dict keys (`sorted(d.items())`)

/** Permutation that sorts `keys` as Python's sorted() would, or null on TypeError. */
function sortedOrder(keys: PyValue[]): number[] | null {
  const n = keys.length;
  if (n < 2) return null;
  const idx = new Array<number>(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  if (keys.every((k) => typeof k === 'string')) {
    // A consistent total order: every stable sort agrees with Python's.
    const strs = keys as string[];
    if (!strs.some((k) => SURROGATE.test(k))) {
      return idx.sort((a, b) => (strs[a] < strs[b] ? -1 : strs[a] > strs[b] ? 1 : 0));
    }
    return idx.sort((a, b) => comparePyStr(strs[a], strs[b]));
  }
  try {
    // Items are (key, value) tuples whose keys are never equal, so tuple
    // comparison reduces to comparing the keys.
    return pySorted(idx, (a, b) => pyLess(keys[a], keys[b]));
  } catch (e) {
    if (e instanceof PyIncomparable) return null;
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Anchors (serializer's first pass)

function assignAnchors(root: YNode): void {
  let last = 0;
  const stack: YNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as YNode;
    if (node.shareable) {
      if (node.seen) {
        if (node.anchor === null) node.anchor = 'id' + String(++last).padStart(3, '0');
        continue;
      }
      node.seen = true;
    }
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      // Unshared scalars are met once and never anchored: skip them.
      if (child.shareable || child.kind !== SCALAR) stack.push(child);
    }
  }
}

// ---------------------------------------------------------------------------
// Events (serializer's second pass, produced on demand)

const STREAM_START = 0;
const STREAM_END = 1;
const DOCUMENT_START = 2;
const DOCUMENT_END = 3;
const ALIAS = 4;
const SCALAR_EVENT = 5;
const SEQUENCE_START = 6;
const SEQUENCE_END = 7;
const MAPPING_START = 8;
const MAPPING_END = 9;

interface PathNode {
  parent: PathNode | null;
  seg: string | number;
}

function pathOf(p: PathNode): YamlPath {
  const out: YamlPath = [];
  for (let q: PathNode | null = p; q; q = q.parent) out.push(q.seg);
  return out.reverse();
}

class YEvent {
  constructor(
    readonly type: number,
    readonly node: YNode | null,
    readonly anchor: string | null,
    /** Scalars: plain style would resolve back to the tag. Collections: the tag is the default one. */
    readonly implicit0: boolean,
    /** Scalars: a quoted scalar would resolve back to the tag (i.e. it is a str). */
    readonly implicit1: boolean,
    /** The mapping key / sequence item this event starts, for the line map. */
    readonly mark: PathNode | null,
  ) {}
}

const STREAM_START_EVENT = new YEvent(STREAM_START, null, null, false, false, null);
const STREAM_END_EVENT = new YEvent(STREAM_END, null, null, false, false, null);
const DOCUMENT_START_EVENT = new YEvent(DOCUMENT_START, null, null, false, false, null);
const DOCUMENT_END_EVENT = new YEvent(DOCUMENT_END, null, null, false, false, null);
const SEQUENCE_END_EVENT = new YEvent(SEQUENCE_END, null, null, false, false, null);
const MAPPING_END_EVENT = new YEvent(MAPPING_END, null, null, false, false, null);

interface SerFrame {
  node: YNode;
  i: number;
  path: PathNode | null;
  inKey: boolean;
  keyPath: PathNode | null;
}

class EventSource {
  private stage = 0;
  private readonly frames: SerFrame[] = [];
  private buffered: YEvent | null = null;

  constructor(
    private readonly root: YNode,
    readonly explicitStart: boolean,
    readonly explicitEnd: boolean,
    private readonly withLines: boolean,
  ) {}

  next(): YEvent {
    const b = this.buffered;
    if (b) {
      this.buffered = null;
      return b;
    }
    return this.produce();
  }

  peek(): YEvent {
    if (!this.buffered) this.buffered = this.produce();
    return this.buffered;
  }

  private produce(): YEvent {
    switch (this.stage) {
      case 0:
        this.stage = 1;
        return STREAM_START_EVENT;
      case 1:
        this.stage = 2;
        return DOCUMENT_START_EVENT;
      case 2:
        this.stage = 3;
        return this.start(this.root, null, false, null);
      case 3: {
        const frames = this.frames;
        if (frames.length === 0) {
          this.stage = 4;
          return DOCUMENT_END_EVENT;
        }
        const top = frames[frames.length - 1];
        const node = top.node;
        if (top.i >= node.children.length) {
          frames.pop();
          return node.kind === SEQ ? SEQUENCE_END_EVENT : MAPPING_END_EVENT;
        }
        const index = top.i++;
        const child = node.children[index];
        if (node.kind === SEQ) {
          const mark = this.withLines && !top.inKey ? { parent: top.path, seg: index } : null;
          return this.start(child, mark, top.inKey, mark);
        }
        if ((index & 1) === 0) {
          const key = (node.keys as PyValue[])[index >> 1];
          const mark = this.withLines && !top.inKey ? { parent: top.path, seg: pyKeyDisplay(key) } : null;
          top.keyPath = mark;
          return this.start(child, mark, true, null);
        }
        return this.start(child, null, top.inKey, top.keyPath);
      }
      case 4:
        this.stage = 5;
        return STREAM_END_EVENT;
      default:
        throw new Error('event stream exhausted');
    }
  }

  private start(node: YNode, mark: PathNode | null, inKey: boolean, path: PathNode | null): YEvent {
    if (node.serialized) return new YEvent(ALIAS, node, node.anchor, false, false, mark);
    if (node.shareable) node.serialized = true;
    if (node.kind === SCALAR) {
      const implicit0 = FULL_TAG[node.tag] === resolveScalar(node.value, true);
      return new YEvent(SCALAR_EVENT, node, node.anchor, implicit0, node.tag === 'str', mark);
    }
    this.frames.push({ node, i: 0, path, inKey, keyPath: null });
    const implicit = node.tag === (node.kind === SEQ ? 'seq' : 'map');
    return new YEvent(node.kind === SEQ ? SEQUENCE_START : MAPPING_START, node, node.anchor, implicit, false, mark);
  }
}

// ---------------------------------------------------------------------------
// Implicit resolvers (which tag a plain scalar would load as)

// Python's `$` also matches before a final newline, hence `\n?$`.
// ---------------------------------------------------------------------------
// Scalar analysis

/** A scalar's text as Python characters: the string itself when it has no surrogates. */
type Chars = string | string[];

function slice(t: Chars, start: number, end: number): string {
  return typeof t === 'string' ? t.slice(start, end) : t.slice(start, end).join('');
}

interface Analysis {
  scalar: Chars;
  empty: boolean;
  multiline: boolean;
  allowFlowPlain: boolean;
  allowBlockPlain: boolean;
  allowSingleQuoted: boolean;
  allowBlock: boolean;
}

const isSpaceOrBreakOrNul = (ch: string): boolean =>
  ch === ' ' || ch === '\n' || ch === '\0' || ch === '\t' || ch === '\r' || ch === '\x85' || ch === '\u2028' || ch === '\u2029';
const isBreak = (ch: string): boolean => ch === '\n' || ch === '\x85' || ch === '\u2028' || ch === '\u2029';

/**
 * Strings the full analysis below would find harmless in every style: no
 * indicator, whitespace only inside, printable ASCII. The common case
 * (package names, paths, words).
 */
const PLAIN_SAFE = /^[A-Za-z0-9_./](?:[-A-Za-z0-9_./=+ ]*[-A-Za-z0-9_./=+])?$/;

function analyzeScalar(value: string): Analysis {
  if (PLAIN_SAFE.test(value) && !value.startsWith('...')) {
    return {
      scalar: value,
      empty: false,
      multiline: false,
      allowFlowPlain: true,
      allowBlockPlain: true,
      allowSingleQuoted: true,
      allowBlock: true,
    };
  }
  const scalar: Chars = SURROGATE.test(value) ? Array.from(value) : value;
  const n = scalar.length;
  if (n === 0) {
    return {
      scalar,
      empty: true,
      multiline: false,
      allowFlowPlain: false,
      allowBlockPlain: true,
      allowSingleQuoted: true,
      allowBlock: false,
    };
  }
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;

  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  let followedByWhitespace = n === 1 || isSpaceOrBreakOrNul(scalar[1]);
  let previousSpace = false;
  let previousBreak = false;

  for (let index = 0; index < n; ) {
    const ch = scalar[index];
    if (index === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) {
        flowIndicators = true;
        blockIndicators = true;
      }
      if (ch === '?' || ch === ':') {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (ch === '-' && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else {
      if (',?[]{}'.includes(ch)) flowIndicators = true;
      if (ch === ':') {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (ch === '#' && precededByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    }
    const brk = isBreak(ch);
    if (brk) lineBreaks = true;
    if (ch !== '\n') {
      const c = ch.charCodeAt(0);
      // allow_unicode is off: everything but printable ASCII is special.
      if (c < 0x20 || c > 0x7e || ch.length > 1) specialCharacters = true;
    }
    if (ch === ' ') {
      if (index === 0) leadingSpace = true;
      if (index === n - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (brk) {
      if (index === 0) leadingBreak = true;
      if (index === n - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    index++;
    precededByWhitespace = isSpaceOrBreakOrNul(ch);
    followedByWhitespace = index + 1 >= n || isSpaceOrBreakOrNul(scalar[index + 1]);
  }

  let allowFlowPlain = true;
  let allowBlockPlain = true;
  let allowSingleQuoted = true;
  let allowBlock = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) allowFlowPlain = allowBlockPlain = false;
  if (trailingSpace) allowBlock = false;
  if (breakSpace) allowFlowPlain = allowBlockPlain = allowSingleQuoted = false;
  if (spaceBreak || specialCharacters) allowFlowPlain = allowBlockPlain = allowSingleQuoted = allowBlock = false;
  if (lineBreaks) allowFlowPlain = allowBlockPlain = false;
  if (flowIndicators) allowFlowPlain = false;
  if (blockIndicators) allowBlockPlain = false;
  return {
    scalar,
    empty: false,
    multiline: lineBreaks,
    allowFlowPlain,
    allowBlockPlain,
    allowSingleQuoted,
    allowBlock,
  };
}

const ESCAPE_REPLACEMENTS: Record<string, string> = {
  '\0': '0',
  '\x07': 'a',
  '\x08': 'b',
  '\x09': 't',
  '\x0A': 'n',
  '\x0B': 'v',
  '\x0C': 'f',
  '\x0D': 'r',
  '\x1B': 'e',
  '"': '"',
  '\\': '\\',
  '\x85': 'N',
  '\xA0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

function escapeChar(ch: string): string {
  const r = ESCAPE_REPLACEMENTS[ch];
  if (r !== undefined) return '\\' + r;
  const cp = ch.codePointAt(0) as number;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return '\\x' + hex.padStart(2, '0');
  if (cp <= 0xffff) return '\\u' + hex.padStart(4, '0');
  return '\\U' + hex.padStart(8, '0');
}

// ---------------------------------------------------------------------------
// Emitter

class Emitter {
  /** The output so far (V8 concatenation builds a rope: linear overall). */
  out = '';
  /** Flat pairs: PathNode, line. */
  readonly marks: Array<PathNode | number> = [];

  private readonly states: Array<() => void> = [];
  private state: () => void;
  private event: YEvent = STREAM_START_EVENT;

  private readonly indents: Array<number | null> = [];
  private indent: number | null = null;
  private flowLevel = 0;

  private rootContext = false;
  private mappingContext = false;
  private simpleKeyContext = false;

  private line = 0;
  private column = 0;
  private whitespace = true;
  private indention = true;
  private openEnded = false;

  private analysis: Analysis | null = null;
  private style: string | null = null;

  // States as bound functions, created once.
  private readonly sFirstDocumentStart = (): void => this.expectDocumentStart(true);
  private readonly sDocumentStart = (): void => this.expectDocumentStart(false);
  private readonly sDocumentRoot = (): void => this.expectDocumentRoot();
  private readonly sDocumentEnd = (): void => this.expectDocumentEnd();
  private readonly sNothing = (): void => {
    throw new Error('expected nothing');
  };
  private readonly sFirstFlowSequenceItem = (): void => this.expectFirstFlowSequenceItem();
  private readonly sFirstFlowMappingKey = (): void => this.expectFirstFlowMappingKey();
  private readonly sFirstBlockSequenceItem = (): void => this.expectBlockSequenceItem(true);
  private readonly sBlockSequenceItem = (): void => this.expectBlockSequenceItem(false);
  private readonly sFirstBlockMappingKey = (): void => this.expectBlockMappingKey(true);
  private readonly sBlockMappingKey = (): void => this.expectBlockMappingKey(false);
  private readonly sBlockMappingSimpleValue = (): void => this.expectBlockMappingSimpleValue();
  private readonly sBlockMappingValue = (): void => this.expectBlockMappingValue();

  constructor(
    private readonly source: EventSource,
    private readonly bestIndent: number,
    private readonly bestWidth: number,
    private readonly withLines: boolean,
  ) {
    this.state = (): void => this.expectStreamStart();
  }

  run(): void {
    for (;;) {
      this.event = this.source.next();
      this.state();
      if (this.event.type === STREAM_END) return;
    }
  }

  private popState(): void {
    this.state = this.states.pop() as () => void;
  }

  private increaseIndent(flow: boolean, indentless = false): void {
    this.indents.push(this.indent);
    if (this.indent === null) {
      this.indent = flow ? this.bestIndent : 0;
    } else if (!indentless) {
      this.indent += this.bestIndent;
    }
  }

  // Stream and document handlers.

  private expectStreamStart(): void {
    if (this.event.type !== STREAM_START) throw new Error('expected StreamStartEvent');
    this.state = this.sFirstDocumentStart;
  }

  private expectDocumentStart(first: boolean): void {
    const ev = this.event;
    if (ev.type === DOCUMENT_START) {
      // check_empty_document never holds: represented scalars always carry a tag.
      const implicit = first && !this.source.explicitStart;
      if (!implicit) {
        this.writeIndent();
        this.writeIndicator('---', true);
      }
      this.state = this.sDocumentRoot;
    } else if (ev.type === STREAM_END) {
      if (this.openEnded) {
        this.writeIndicator('...', true);
        this.writeIndent();
      }
      this.state = this.sNothing;
    } else {
      throw new Error('expected DocumentStartEvent');
    }
  }

  private expectDocumentEnd(): void {
    if (this.event.type !== DOCUMENT_END) throw new Error('expected DocumentEndEvent');
    this.writeIndent();
    if (this.source.explicitEnd) {
      this.writeIndicator('...', true);
      this.writeIndent();
    }
    this.state = this.sDocumentStart;
  }

  private expectDocumentRoot(): void {
    this.states.push(this.sDocumentEnd);
    this.expectNode(true, false, false);
  }

  // Node handlers.

  private expectNode(root: boolean, mapping: boolean, simpleKey: boolean): void {
    this.rootContext = root;
    this.mappingContext = mapping;
    this.simpleKeyContext = simpleKey;
    const ev = this.event;
    switch (ev.type) {
      case ALIAS:
        this.processAnchor('*');
        this.popState();
        return;
      case SCALAR_EVENT:
        this.processAnchor('&');
        this.processTag();
        this.expectScalar();
        return;
      case SEQUENCE_START:
        this.processAnchor('&');
        this.processTag();
        if (this.flowLevel || this.checkEmptySequence()) this.expectFlowSequence();
        else this.expectBlockSequence();
        return;
      case MAPPING_START:
        this.processAnchor('&');
        this.processTag();
        if (this.flowLevel || this.checkEmptyMapping()) this.expectFlowMapping();
        else this.expectBlockMapping();
        return;
      default:
        throw new Error('expected NodeEvent');
    }
  }

  private expectScalar(): void {
    this.increaseIndent(true);
    this.processScalar();
    this.indent = this.indents.pop() as number | null;
    this.popState();
  }

  // Flow collections: with default_flow_style=False only empty ones are flow.

  private expectFlowSequence(): void {
    this.writeIndicator('[', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    this.state = this.sFirstFlowSequenceItem;
  }

  private expectFirstFlowSequenceItem(): void {
    if (this.event.type !== SEQUENCE_END) throw new Error('non-empty flow sequence is not supported');
    this.indent = this.indents.pop() as number | null;
    this.flowLevel--;
    this.writeIndicator(']', false);
    this.popState();
  }

  private expectFlowMapping(): void {
    this.writeIndicator('{', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    this.state = this.sFirstFlowMappingKey;
  }

  private expectFirstFlowMappingKey(): void {
    if (this.event.type !== MAPPING_END) throw new Error('non-empty flow mapping is not supported');
    this.indent = this.indents.pop() as number | null;
    this.flowLevel--;
    this.writeIndicator('}', false);
    this.popState();
  }

  // Block collections.

  private expectBlockSequence(): void {
    const indentless = this.mappingContext && !this.indention;
    this.increaseIndent(false, indentless);
    this.state = this.sFirstBlockSequenceItem;
  }

  private expectBlockSequenceItem(first: boolean): void {
    if (!first && this.event.type === SEQUENCE_END) {
      this.indent = this.indents.pop() as number | null;
      this.popState();
      return;
    }
    this.writeIndent();
    if (this.withLines && this.event.mark) this.marks.push(this.event.mark, this.line);
    this.writeIndicator('-', true, false, true);
    this.states.push(this.sBlockSequenceItem);
    this.expectNode(false, false, false);
  }

  private expectBlockMapping(): void {
    this.increaseIndent(false);
    this.state = this.sFirstBlockMappingKey;
  }

  private expectBlockMappingKey(first: boolean): void {
    if (!first && this.event.type === MAPPING_END) {
      this.indent = this.indents.pop() as number | null;
      this.popState();
      return;
    }
    this.writeIndent();
    if (this.withLines && this.event.mark) this.marks.push(this.event.mark, this.line);
    if (this.checkSimpleKey()) {
      this.states.push(this.sBlockMappingSimpleValue);
      this.expectNode(false, true, true);
    } else {
      this.writeIndicator('?', true, false, true);
      this.states.push(this.sBlockMappingValue);
      this.expectNode(false, true, false);
    }
  }

  private expectBlockMappingSimpleValue(): void {
    this.writeIndicator(':', false);
    this.states.push(this.sBlockMappingKey);
    this.expectNode(false, true, false);
  }

  private expectBlockMappingValue(): void {
    this.writeIndent();
    this.writeIndicator(':', true, false, true);
    this.states.push(this.sBlockMappingKey);
    this.expectNode(false, true, false);
  }

  // Checkers.

  private checkEmptySequence(): boolean {
    return this.event.type === SEQUENCE_START && this.source.peek().type === SEQUENCE_END;
  }

  private checkEmptyMapping(): boolean {
    return this.event.type === MAPPING_START && this.source.peek().type === MAPPING_END;
  }

  private checkSimpleKey(): boolean {
    const ev = this.event;
    let length = 0;
    if (ev.anchor !== null) length += ev.anchor.length;
    if (ev.type !== ALIAS) length += 2 + (ev.node as YNode).tag.length; // prepared tag `!!suffix`
    if (ev.type === SCALAR_EVENT) {
      if (this.analysis === null) this.analysis = analyzeScalar((ev.node as YNode).value);
      length += this.analysis.scalar.length;
    }
    if (length >= 128) return false;
    if (ev.type === ALIAS) return true;
    if (ev.type === SCALAR_EVENT) {
      const a = this.analysis as Analysis;
      return !a.empty && !a.multiline;
    }
    return this.checkEmptySequence() || this.checkEmptyMapping();
  }

  // Anchor, tag and scalar processors.

  private processAnchor(indicator: string): void {
    const anchor = this.event.anchor;
    if (anchor === null) return;
    this.writeIndicator(indicator + anchor, true);
  }

  private processTag(): void {
    const ev = this.event;
    const node = ev.node as YNode;
    if (ev.type === SCALAR_EVENT) {
      if (this.style === null) this.style = this.chooseScalarStyle();
      if ((this.style === '' && ev.implicit0) || (this.style !== '' && ev.implicit1)) return;
    } else if (ev.implicit0) {
      return;
    }
    this.writeIndicator('!!' + node.tag, true);
  }

  private chooseScalarStyle(): string {
    const ev = this.event;
    if (this.analysis === null) this.analysis = analyzeScalar((ev.node as YNode).value);
    const a = this.analysis;
    const style = (ev.node as YNode).style;
    if (!style && ev.implicit0) {
      if (
        !(this.simpleKeyContext && (a.empty || a.multiline)) &&
        ((this.flowLevel && a.allowFlowPlain) || (!this.flowLevel && a.allowBlockPlain))
      ) {
        return '';
      }
    }
    if (style === '|' || style === '>') {
      if (!this.flowLevel && !this.simpleKeyContext && a.allowBlock) return style;
    }
    if (!style || style === "'") {
      if (a.allowSingleQuoted && !(this.simpleKeyContext && a.multiline)) return "'";
    }
    return '"';
  }

  private processScalar(): void {
    const node = this.event.node as YNode;
    if (this.analysis === null) this.analysis = analyzeScalar(node.value);
    if (this.style === null) this.style = this.chooseScalarStyle();
    const split = !this.simpleKeyContext;
    const text = this.analysis.scalar;
    switch (this.style) {
      case '"':
        this.writeDoubleQuoted(text, split);
        break;
      case "'":
        this.writeSingleQuoted(text, split);
        break;
      case '|':
        this.writeLiteral(text);
        break;
      case '':
        this.writePlain(text, split);
        break;
      default:
        throw new Error(`unsupported scalar style ${this.style}`);
    }
    this.analysis = null;
    this.style = null;
  }

  // Writers.

  private write(data: string): void {
    this.out += data;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, whitespace = false, indention = false): void {
    const data = this.whitespace || !needWhitespace ? indicator : ' ' + indicator;
    this.whitespace = whitespace;
    this.indention = this.indention && indention;
    this.column += data.length;
    this.openEnded = false;
    this.write(data);
  }

  private writeIndent(): void {
    const indent = this.indent ?? 0;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) {
      this.writeLineBreak();
    }
    if (this.column < indent) {
      this.whitespace = true;
      this.write(' '.repeat(indent - this.column));
      this.column = indent;
    }
  }

  private writeLineBreak(data = '\n'): void {
    this.whitespace = true;
    this.indention = true;
    this.line++;
    this.column = 0;
    this.write(data);
  }

  private writeBreaks(text: Chars, start: number, end: number): void {
    for (let i = start; i < end; i++) this.writeLineBreak(text[i]);
  }

  private writeSingleQuoted(text: Chars, split: boolean): void {
    this.writeIndicator("'", true);
    let spaces = false;
    let breaks = false;
    let start = 0;
    let end = 0;
    const n = text.length;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (spaces) {
        if (ch === null || ch !== ' ') {
          if (start + 1 === end && this.column > this.bestWidth && split && start !== 0 && end !== n) {
            this.writeIndent();
          } else {
            this.column += end - start;
            this.write(slice(text, start, end));
          }
          start = end;
        }
      } else if (breaks) {
        if (ch === null || !isBreak(ch)) {
          if (text[start] === '\n') this.writeLineBreak();
          this.writeBreaks(text, start, end);
          this.writeIndent();
          start = end;
        }
      } else if (ch === null || ch === ' ' || isBreak(ch) || ch === "'") {
        if (start < end) {
          this.column += end - start;
          this.write(slice(text, start, end));
          start = end;
        }
      }
      if (ch === "'") {
        this.column += 2;
        this.write("''");
        start = end + 1;
      }
      if (ch !== null) {
        spaces = ch === ' ';
        breaks = isBreak(ch);
      }
      end++;
    }
    this.writeIndicator("'", false);
  }

  private writeDoubleQuoted(text: Chars, split: boolean): void {
    this.writeIndicator('"', true);
    let start = 0;
    let end = 0;
    const n = text.length;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (ch === null || needsEscape(ch)) {
        if (start < end) {
          this.column += end - start;
          this.write(slice(text, start, end));
          start = end;
        }
        if (ch !== null) {
          const data = escapeChar(ch);
          this.column += data.length;
          this.write(data);
          start = end + 1;
        }
      }
      if (
        0 < end &&
        end < n - 1 &&
        (ch === ' ' || start >= end) &&
        this.column + (end - start) > this.bestWidth &&
        split
      ) {
        const data = slice(text, start, end) + '\\';
        if (start < end) start = end;
        this.column += data.length;
        this.write(data);
        this.writeIndent();
        this.whitespace = false;
        this.indention = false;
        if (text[start] === ' ') {
          this.column += 1;
          this.write('\\');
        }
      }
      end++;
    }
    this.writeIndicator('"', false);
  }

  private writeLiteral(text: Chars): void {
    const hints = blockHints(text, this.bestIndent);
    this.writeIndicator('|' + hints, true);
    if (hints.endsWith('+')) this.openEnded = true;
    this.writeLineBreak();
    let breaks = true;
    let start = 0;
    let end = 0;
    const n = text.length;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (breaks) {
        if (ch === null || !isBreak(ch)) {
          this.writeBreaks(text, start, end);
          if (ch !== null) this.writeIndent();
          start = end;
        }
      } else if (ch === null || isBreak(ch)) {
        this.write(slice(text, start, end));
        if (ch === null) this.writeLineBreak();
        start = end;
      }
      if (ch !== null) breaks = isBreak(ch);
      end++;
    }
  }

  private writePlain(text: Chars, split: boolean): void {
    if (this.rootContext) this.openEnded = true;
    const n = text.length;
    if (n === 0) return;
    if (!this.whitespace) {
      this.column += 1;
      this.write(' ');
    }
    this.whitespace = false;
    this.indention = false;
    let spaces = false;
    let breaks = false;
    let start = 0;
    let end = 0;
    while (end <= n) {
      const ch = end < n ? text[end] : null;
      if (spaces) {
        if (ch !== ' ') {
          if (start + 1 === end && this.column > this.bestWidth && split) {
            this.writeIndent();
            this.whitespace = false;
            this.indention = false;
          } else {
            this.column += end - start;
            this.write(slice(text, start, end));
          }
          start = end;
        }
      } else if (breaks) {
        // Unreachable: scalars with line breaks are never plain.
        if (ch === null || !isBreak(ch)) {
          if (text[start] === '\n') this.writeLineBreak();
          this.writeBreaks(text, start, end);
          this.writeIndent();
          this.whitespace = false;
          this.indention = false;
          start = end;
        }
      } else if (ch === null || ch === ' ' || isBreak(ch)) {
        this.column += end - start;
        this.write(slice(text, start, end));
        start = end;
      }
      if (ch !== null) {
        spaces = ch === ' ';
        breaks = isBreak(ch);
      }
      end++;
    }
  }
}

function needsEscape(ch: string): boolean {
  if (ch.length > 1) return true;
  const c = ch.charCodeAt(0);
  return c < 0x20 || c > 0x7e || ch === '"' || ch === '\\';
}

function blockHints(text: Chars, bestIndent: number): string {
  let hints = '';
  const n = text.length;
  if (n) {
    const first = text[0];
    if (first === ' ' || isBreak(first)) hints += String(bestIndent);
    const last = text[n - 1];
    if (!isBreak(last)) hints += '-';
    else if (n === 1 || isBreak(text[n - 2])) hints += '+';
  }
  return hints;
}
