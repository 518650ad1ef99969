/**
 * PyYAML's `constructor.py` (SafeConstructor, plus cloud-init 22.4.2's `!!python/unicode`): Python
 * values built in PyYAML's breadth-first order (scalars at once, collections filled later in FIFO
 * order), so that a document with several construction errors reports the same one; merge keys with
 * PyYAML's in-place flattening (merged pairs first, a merge sequence reversed, so earlier mappings
 * and explicit keys win); `=` keys become strings; int/float/bool/timestamp/binary built from the text
 * as Python's `int()`, `float()`, `datetime` and `base64.decodebytes` do (../py), raising the Python
 * exceptions they raise.
 *
 * Residual differences: an anchor used inside its own node is reported as 'recursive' by ./load.
 */
import { pyFloatRepr, pyStrRepr } from '../py/repr';
import { PyError } from '../py/errors';
import { pyIntFromString } from '../py/int';
import { pyFloatFromString } from '../py/float';
import { pyTimedeltaRepr } from '../py/datetime';
import { a2bBase64 } from '../py/binascii';
import { keyIdentity, PyBytes, PyDict, PySet, PyTimestamp, PyTuple, pyTypeName, setListOrigins, setListWritten } from '../py/values';
import type { Origin, PyValue, TextSpan } from '../py/values';
import { LoadError, YamlProblem } from './errors';
import { hex } from './reader';
import { objectArray, pushAll } from '../arrays';
import { K, NODE_ID, NO_SPANS, Pair, YNode, nodeSpan } from './composer';
import { MERGE_TAG, STR_TAG, TAG, VALUE_TAG } from './resolver';

// ---------------------------------------------------------------------------
// Constructor

const enum Ctor {
  Unknown,
  Null,
  Bool,
  Int,
  Float,
  Binary,
  Timestamp,
  Str,
  PythonUnicode,
  Seq,
  Omap,
  Pairs,
  Map,
  Set,
}

const CONSTRUCTORS = new Map<string, Ctor>([
  [TAG + 'null', Ctor.Null],
  [TAG + 'bool', Ctor.Bool],
  [TAG + 'int', Ctor.Int],
  [TAG + 'float', Ctor.Float],
  [TAG + 'binary', Ctor.Binary],
  [TAG + 'timestamp', Ctor.Timestamp],
  [TAG + 'str', Ctor.Str],
  [TAG + 'python/unicode', Ctor.PythonUnicode],
  [TAG + 'seq', Ctor.Seq],
  [TAG + 'omap', Ctor.Omap],
  [TAG + 'pairs', Ctor.Pairs],
  [TAG + 'map', Ctor.Map],
  [TAG + 'set', Ctor.Set],
]);

interface Task {
  node: YNode;
  ctor: Ctor;
  target: PyValue[] | PyDict | PySet;
}

export class Constructor {
  private readonly queue = objectArray<Task>();
  readonly duplicateKeys: YamlProblem[] = [];
  /** Pairs merge keys may still copy (maxMergedPairs); `cyclic`: some alias points into its own node. */
  private readonly mergeBudget: { left: number; max: number; cyclic: boolean };
  /**
   * The collection nodes whose entries and items get Origins, or null for all of them. Filled as
   * construction goes down from the root's `originKeys` entries: without aliases every node has one
   * parent, filled before it, so a node is marked before it is filled.
   */
  private readonly tracked: Set<YNode> | null;
  private root: YNode | null = null;

  /** @param originKeys see YamlLoadOptions.originKeys; null: Origins everywhere. */
  constructor(
    private readonly source: number,
    private readonly pythonUnicode: boolean,
    maxMergedPairs: number,
    cyclic: boolean,
    private readonly originKeys: readonly string[] | null = null,
  ) {
    this.mergeBudget = { left: maxMergedPairs, max: maxMergedPairs, cyclic };
    this.tracked = originKeys === null ? null : new Set();
  }

  constructDocument(root: YNode): PyValue {
    this.root = root;
    const value = this.constructObject(root);
    // PyYAML runs the pending generators round by round; a FIFO queue gives
    // the same order.
    for (let i = 0; i < this.queue.length; i++) {
      this.fill(this.queue[i]);
      if (i > 4096 && i * 2 > this.queue.length) {
        this.queue.splice(0, i + 1);
        i = -1;
      }
    }
    return value;
  }

  private constructObject(node: YNode): PyValue {
    if (node.built) return node.result;
    let value: PyValue;
    const ctor = CONSTRUCTORS.get(node.tag) ?? Ctor.Unknown;
    switch (ctor) {
      case Ctor.Str:
        value = node.kind === K.Scalar ? node.text : this.scalarText(node);
        break;
      case Ctor.Null:
        this.scalarText(node);
        value = null;
        break;
      case Ctor.Bool:
        value = constructBool(this.scalarText(node), node);
        break;
      case Ctor.Int:
        value = constructInt(this.scalarText(node), node);
        break;
      case Ctor.Float:
        value = constructFloat(this.scalarText(node), node);
        break;
      case Ctor.Binary:
        value = constructBinary(this.scalarText(node), node);
        break;
      case Ctor.Timestamp:
        this.scalarText(node);
        value = constructTimestamp(node);
        break;
      case Ctor.PythonUnicode:
        if (!this.pythonUnicode) throw unknownTag(node);
        value = this.scalarText(node);
        break;
      case Ctor.Seq:
      case Ctor.Omap:
      case Ctor.Pairs:
        value = [];
        this.queue.push({ node, ctor, target: value });
        break;
      case Ctor.Map:
        value = new PyDict();
        this.queue.push({ node, ctor, target: value });
        break;
      case Ctor.Set:
        value = new PySet();
        this.queue.push({ node, ctor, target: value });
        break;
      default:
        throw unknownTag(node);
    }
    node.built = true;
    node.result = value;
    return value;
  }

  /** SafeConstructor.construct_scalar: a mapping with a `=` key stands for that key's value. */
  private scalarText(node: YNode): string {
    let n = node;
    let seen: Set<YNode> | null = null;
    while (n.kind === K.Mapping) {
      const pair = n.pairs.find((p) => p.key.tag === VALUE_TAG);
      if (!pair) break;
      seen ??= new Set();
      if (seen.has(n)) throw new LoadError('recursive', 'RecursionError', 'maximum recursion depth exceeded', node.span);
      seen.add(n);
      n = pair.value;
    }
    if (n.kind !== K.Scalar) {
      throw new LoadError('constructor', 'ConstructorError', `expected a scalar node, but found ${NODE_ID[n.kind]}`, n.span);
    }
    return n.text;
  }

  /** A key written twice in one mapping: the later one is reported, with the previous one as context. */
  private reportDuplicate(pair: Pair, key: PyValue, previous: TextSpan | undefined): void {
    const problem: YamlProblem = { message: `duplicate key ${describeKey(key)}`, span: pair.keySpan, kind: 'duplicate-key' };
    if (previous) problem.contextSpan = previous;
    this.duplicateKeys.push(problem);
  }

  // One function per kind of collection: each stays small enough for V8 to compile quickly, and
  // recompiling one (when V8 changes its mind about where objects live) leaves the others alone.
  private fill(task: Task): void {
    const { node, ctor } = task;
    if (ctor === Ctor.Seq) this.fillSequence(node, task.target as PyValue[]);
    else if (ctor === Ctor.Omap || ctor === Ctor.Pairs) this.fillPairs(node, ctor, task.target as PyValue[]);
    else this.fillMapping(node, task.target as PyDict | PySet);
  }

  private fillSequence(node: YNode, list: PyValue[]): void {
    const source = this.source;
    if (node.kind !== K.Sequence) throw expectedNode('sequence', node);
    const items = node.items;
    const tracked = this.tracked;
    if (tracked !== null && !tracked.has(node)) {
      for (let i = 0; i < items.length; i++) list.push(this.constructObject(items[i]));
      return;
    }
    for (let i = 0; i < items.length; i++) {
      list.push(this.constructObject(items[i]));
      tracked?.add(items[i]);
    }
    setListWritten(list, source, node.itemSpans);
  }

  private fillPairs(node: YNode, ctor: Ctor, list: PyValue[]): void {
    const source = this.source;
    const context = ctor === Ctor.Omap ? 'while constructing an ordered map' : 'while constructing pairs';
    if (node.kind !== K.Sequence) {
      throw new LoadError('constructor', 'ConstructorError', `expected a sequence, but found ${NODE_ID[node.kind]}`, node.span, context, node.span);
    }
    const origins: Origin[] | null = this.tracked === null || this.tracked.has(node) ? [] : null;
    for (let i = 0; i < node.items.length; i++) {
      const sub = node.items[i];
      const at = node.itemSpans[i];
      if (sub.kind !== K.Mapping) {
        throw new LoadError('constructor', 'ConstructorError', `expected a mapping of length 1, but found ${NODE_ID[sub.kind]}`, at, context, node.span);
      }
      if (sub.pairs.length !== 1) {
        throw new LoadError('constructor', 'ConstructorError', `expected a single mapping item, but found ${sub.pairs.length} items`, at, context, node.span);
      }
      const k = this.constructObject(sub.pairs[0].key);
      const v = this.constructObject(sub.pairs[0].value);
      list.push(new PyTuple([k, v]));
      origins?.push({ source, value: at });
    }
    if (origins !== null) setListOrigins(list, origins);
  }

  /** Map and set: SafeConstructor.construct_mapping. */
  private fillMapping(node: YNode, target: PyDict | PySet): void {
    const source = this.source;
    if (node.kind === K.Mapping) flattenMapping(node, this.mergeBudget);
    if (node.kind !== K.Mapping) throw expectedNode('mapping', node);
    const dict = target instanceof PyDict ? target : new PyDict();
    const pairs = node.pairs;
    // Without merged pairs every pair is the mapping's own, and a key seen
    // before does not grow the dict; otherwise track the own keys.
    let merged = false;
    for (let i = 0; i < pairs.length; i++) if (pairs[i].owner !== node) merged = true;
    const ownKeys = merged ? new Set<string>() : null;
    const tracked = this.tracked;
    const allOrigins = tracked === null || tracked.has(node);
    const originKeys = !allOrigins && node === this.root ? this.originKeys : null;
    // Where each own key was last written, for duplicate messages: built at the first duplicate
    // (most mappings have none), then kept up to date, so 20,000 copies of one key stay linear.
    let lastSpans: Map<string, TextSpan> | null = null;
    for (let index = 0; index < pairs.length; index++) {
      const pair = pairs[index];
      const key = this.constructObject(pair.key);
      if (typeof key === 'object' && key !== null && (Array.isArray(key) || key instanceof PyDict || key instanceof PySet)) {
        throw new LoadError('unhashable-key', 'ConstructorError', 'found unhashable key', pair.keySpan, 'while constructing a mapping', node.span);
      }
      const value = this.constructObject(pair.value);
      const written = allOrigins || (originKeys !== null && typeof key === 'string' && originKeys.includes(key));
      if (written) tracked?.add(pair.value);
      let duplicate = false;
      if (ownKeys !== null && pair.owner === node) {
        const id = keyIdentity(key);
        duplicate = ownKeys.has(id);
        ownKeys.add(id);
      }
      const before = dict.size;
      if (written) dict.setWritten(key, value, source, pair.keySpan, pair.valueSpan);
      else dict.set(key, value);
      if (ownKeys === null) duplicate = dict.size === before;
      if (duplicate && lastSpans === null) {
        lastSpans = new Map();
        for (let j = 0; j < index; j++) {
          const p = pairs[j];
          if (p.owner === node) lastSpans.set(keyIdentity(p.key.result), p.keySpan);
        }
      }
      if (lastSpans !== null && pair.owner === node) {
        const id = keyIdentity(key);
        if (duplicate) this.reportDuplicate(pair, key, lastSpans.get(id));
        lastSpans.set(id, pair.keySpan);
      }
    }
    if (target instanceof PySet) for (const k of dict.keys()) target.add(k);
  }
}

/** Python's repr() of a key, for messages. */
function describeKey(key: PyValue): string {
  if (key === null) return 'None';
  switch (typeof key) {
    case 'string':
      return pyStrRepr(key);
    case 'boolean':
      return key ? 'True' : 'False';
    case 'bigint':
      return key.toString();
    case 'number':
      return pyFloatRepr(key);
  }
  if (key instanceof PyTimestamp) return key.isoformat(' ');
  return pyTypeName(key);
}

function unknownTag(node: YNode): LoadError {
  return new LoadError('unknown-tag', 'ConstructorError', `could not determine a constructor for the tag ${pyStrRepr(node.tag)}`, node.span);
}

function expectedNode(what: string, node: YNode): LoadError {
  return new LoadError('constructor', 'ConstructorError', `expected a ${what} node, but found ${NODE_ID[node.kind]}`, node.span);
}

/**
 * SafeConstructor.flatten_mapping, in place: `<<` pairs are removed and the
 * pairs of the merged mappings (flattened first) put before the remaining
 * ones; in a merge sequence the later mappings come first so that earlier
 * ones win. A `=` key becomes a string. Done with an explicit stack; like
 * PyYAML it re-reads `node.pairs` after each step (a cyclic merge can
 * replace it).
 */
function flattenMapping(root: YNode, budget: { left: number; max: number; cyclic: boolean }): void {
  let special = false;
  const rootPairs = root.pairs;
  for (let i = 0; i < rootPairs.length; i++) {
    const tag = rootPairs[i].key.tag;
    if (tag === MERGE_TAG || tag === VALUE_TAG) special = true;
  }
  if (!special) return;

  interface FFrame {
    node: YNode;
    index: number;
    merge: Pair[];
    /** Merging a sequence: its subnodes and their spans, the next one, the collected pair lists. */
    seq: YNode[] | null;
    seqSpans: TextSpan[];
    seqIndex: number;
    sub: Pair[][];
    /** Waiting for this node's flattening to finish. */
    waiting: YNode | null;
    /** The pairs kept so far, once a `<<` pair was dropped (see `inPlace`). */
    kept: Pair[] | null;
  }
  const frame = (node: YNode): FFrame => ({ node, index: 0, merge: [], seq: null, seqSpans: NO_SPANS, seqIndex: 0, sub: [], waiting: null, kept: null });
  // PyYAML deletes each `<<` pair from the live list (`del node.value[index]`), which a merge that
  // leads back into the same node can observe. Only then is that reproduced with splice; otherwise
  // the kept pairs are collected, so 50,000 `<<` keys in one mapping stay linear.
  const inPlace = budget.cyclic;
  const stack: FFrame[] = [frame(root)];
  const mergeError = (node: YNode, problem: string, at: TextSpan) =>
    new LoadError('merge', 'ConstructorError', problem, at, 'while constructing a mapping', node.span);
  const copy = (to: Pair[], from: readonly Pair[], node: YNode) => {
    budget.left -= from.length;
    if (budget.left < 0) {
      throw new LoadError('expansion', undefined, `merge keys (<<) would copy more than ${budget.max} key/value pairs into mappings (limit maxExpandedNodes = ${budget.max}). PyYAML copies every merged pair: where each level merges the level before more than once (a merge-key bomb), cloud-init runs until memory is exhausted`, node.span);
    }
    pushAll(to, from);
  };
  const push = (node: YNode) => {
    if (stack.length > 100000) throw new LoadError('recursive', 'RecursionError', 'maximum recursion depth exceeded', node.span);
    stack.push(frame(node));
  };

  while (stack.length > 0) {
    const f = stack[stack.length - 1];
    if (f.waiting !== null) {
      // A child flattening finished.
      const child = f.waiting;
      f.waiting = null;
      if (f.seq === null) {
        copy(f.merge, child.pairs, f.node);
      } else {
        f.sub.push(child.pairs);
        f.seqIndex++;
      }
    }
    if (f.seq !== null) {
      if (f.seqIndex < f.seq.length) {
        const sub = f.seq[f.seqIndex];
        if (sub.kind !== K.Mapping) {
          throw mergeError(f.node, `expected a mapping for merging, but found ${NODE_ID[sub.kind]}`, f.seqSpans[f.seqIndex]);
        }
        f.waiting = sub;
        push(sub);
        continue;
      }
      for (let i = f.sub.length - 1; i >= 0; i--) copy(f.merge, f.sub[i], f.node);
      f.seq = null;
      f.sub = [];
      f.seqIndex = 0;
    }
    const pairs = f.node.pairs;
    if (f.index < pairs.length) {
      const pair = pairs[f.index];
      const keyNode = pair.key;
      if (keyNode.tag === MERGE_TAG) {
        if (inPlace) pairs.splice(f.index, 1);
        else {
          f.kept ??= pairs.slice(0, f.index);
          f.index++;
        }
        const v = pair.value;
        if (v.kind === K.Mapping) {
          f.waiting = v;
          push(v);
        } else if (v.kind === K.Sequence) {
          f.seq = v.items;
          f.seqSpans = v.itemSpans;
          f.seqIndex = 0;
          f.sub = [];
        } else {
          throw mergeError(f.node, `expected a mapping or list of mappings for merging, but found ${NODE_ID[v.kind]}`, pair.valueSpan);
        }
      } else {
        if (keyNode.tag === VALUE_TAG) keyNode.tag = STR_TAG;
        f.kept?.push(pair);
        f.index++;
      }
      continue;
    }
    if (f.kept) f.node.pairs = f.kept;
    if (f.merge.length > 0) f.node.pairs = f.merge.concat(f.node.pairs);
    stack.pop();
  }
}

// -- scalar constructors (Python semantics) --

function constructBool(text: string, node: YNode): boolean {
  switch (text.toLowerCase()) {
    case 'yes':
    case 'true':
    case 'on':
      return true;
    case 'no':
    case 'false':
    case 'off':
      return false;
  }
  throw pyFail('KeyError', pyStrRepr(text.toLowerCase()), node);
}

function constructInt(text: string, node: YNode): bigint {
  let v = text.replace(/_/g, '');
  if (v === '') throw pyFail('IndexError', 'string index out of range', node);
  const sign = v[0] === '-' ? -1n : 1n;
  if (v[0] === '+' || v[0] === '-') v = v.slice(1);
  if (v === '0') return 0n;
  if (v.startsWith('0b')) return sign * pyInt(v.slice(2), 2, node);
  if (v.startsWith('0x')) return sign * pyInt(v.slice(2), 16, node);
  if (v === '') throw pyFail('IndexError', 'string index out of range', node);
  if (v[0] === '0') return sign * pyInt(v, 8, node);
  if (v.includes(':')) {
    const digits = v.split(':').map((part) => pyInt(part, 10, node));
    digits.reverse();
    let base = 1n;
    let value = 0n;
    for (const d of digits) {
      value += d * base;
      base *= 60n;
    }
    return sign * value;
  }
  return sign * pyInt(v, 10, node);
}

function constructFloat(text: string, node: YNode): number {
  let v = text.replace(/_/g, '').toLowerCase();
  if (v === '') throw pyFail('IndexError', 'string index out of range', node);
  const sign = v[0] === '-' ? -1 : 1;
  if (v[0] === '+' || v[0] === '-') v = v.slice(1);
  if (v === '.inf') return sign * Infinity;
  if (v === '.nan') return NaN;
  if (v.includes(':')) {
    const digits = v.split(':').map((part) => pyFloat(part, node));
    digits.reverse();
    let base = 1;
    let value = 0.0;
    for (const d of digits) {
      value += d * base;
      base *= 60;
    }
    return sign * value;
  }
  return sign * pyFloat(v, node);
}

/** Python's int(s, base), raised as a construction error of `node`. */
function pyInt(s: string, base: 2 | 8 | 10 | 16, node: YNode): bigint {
  try {
    return pyIntFromString(s, base);
  } catch (e) {
    throw e instanceof PyError ? pyFail(e.pyType, e.message, node) : e;
  }
}

/** Python's float(s), raised as a construction error of `node`. */
function pyFloat(s: string, node: YNode): number {
  try {
    return pyFloatFromString(s);
  } catch (e) {
    throw e instanceof PyError ? pyFail(e.pyType, e.message, node) : e;
  }
}

const RE_TIMESTAMP_PARTS =
  /^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:(?:[Tt]|[ \t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?)?\n?$/;

function constructTimestamp(node: YNode): PyTimestamp {
  if (node.kind !== K.Scalar) throw pyFail('TypeError', "expected string or bytes-like object, got 'list'", node);
  const m = RE_TIMESTAMP_PARTS.exec(node.text);
  if (!m) throw pyFail('AttributeError', "'NoneType' object has no attribute 'groupdict'", node);
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const checkDate = () => {
    if (year < 1) throw pyFail('ValueError', `year ${year} is out of range`, node);
    if (month < 1 || month > 12) throw pyFail('ValueError', 'month must be in 1..12', node);
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
    if (day < 1 || day > days) throw pyFail('ValueError', 'day is out of range for month', node);
  };
  if (m[4] === undefined) {
    checkDate();
    return new PyTimestamp('date', year, month, day);
  }
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  let fraction = 0;
  if (m[7]) fraction = Number(m[7].slice(0, 6).padEnd(6, '0'));
  let offset: number | null = null;
  if (m[9]) {
    const minutes = Number(m[10]) * 60 + Number(m[11] ?? 0);
    if (minutes >= 24 * 60) {
      throw pyFail(
        'ValueError',
        `offset must be a timedelta strictly between -timedelta(hours=24) and timedelta(hours=24), not ${pyTimedeltaRepr(m[9] === '-' ? -minutes : minutes)}.`,
        node,
      );
    }
    offset = m[9] === '-' ? -minutes : minutes;
  } else if (m[8]) {
    offset = 0;
  }
  checkDate();
  if (hour > 23) throw pyFail('ValueError', 'hour must be in 0..23', node);
  if (minute > 59) throw pyFail('ValueError', 'minute must be in 0..59', node);
  if (second > 59) throw pyFail('ValueError', 'second must be in 0..59', node);
  return new PyTimestamp('datetime', year, month, day, hour, minute, second, fraction, offset);
}


/** base64.decodebytes (binascii.a2b_base64, non-strict) of text that must be ASCII. */
function constructBinary(text: string, node: YNode): PyBytes {
  const nonAscii = /[^\x00-\x7f]+/u.exec(text);
  if (nonAscii) {
    const at = [...text.slice(0, nonAscii.index)].length;
    const run = [...nonAscii[0]];
    const cp = run[0].codePointAt(0) as number;
    const escaped = cp <= 0xff ? '\\x' + hex(cp, 2) : cp <= 0xffff ? '\\u' + hex(cp, 4) : '\\U' + hex(cp, 8);
    const what = run.length === 1 ? `character '${escaped}' in position ${at}` : `characters in position ${at}-${at + run.length - 1}`;
    throw new LoadError(
      'constructor',
      'ConstructorError',
      `failed to convert base64 data into ascii: 'ascii' codec can't encode ${what}: ordinal not in range(128)`,
      nodeSpan(node),
    );
  }
  try {
    return new PyBytes(a2bBase64(Buffer.from(text, 'latin1'), false));
  } catch (e) {
    if (e instanceof PyError) throw new LoadError('constructor', 'ConstructorError', `failed to decode base64 data: ${e.message}`, nodeSpan(node));
    throw e;
  }
}

/** A Python exception that is not a YAMLError, raised while constructing `node`. */
function pyFail(pyException: string, message: string, node: YNode): LoadError {
  return new LoadError('value', pyException, message, nodeSpan(node));
}
