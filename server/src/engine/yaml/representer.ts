/**
 * PyYAML's `representer.py` (SafeRepresenter): Python values become a node graph. Lists, tuples,
 * dicts, sets and timestamps are memoized by object identity, so the same object reached twice yields
 * one node (None, str, bytes, bool, int, float and the empty tuple never are). Dict items are ordered
 * with Python's `sorted()` (../py/sort, so NaN keys and a TypeError part-way behave the same); a
 * mapping whose keys Python cannot order keeps its insertion order. Iterative, with PyYAML's depth
 * bound (`maxLevels`) instead of Python's recursion.
 */
import type { PyValue } from '../py/values';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple } from '../py/values';
import { pyFloatRepr } from '../py/repr';
import { PyError } from '../py/errors';
import { pyIntStr } from '../py/int';
import { PyIncomparable, pyLess } from '../py/compare';
import { comparePyStr, SURROGATE } from '../py/str';
import { pySorted } from '../py/sort';
import { b2aBase64Lines } from '../py/binascii';
import { hasSurrogate } from './scalarAnalysis';

// ---------------------------------------------------------------------------
// Representer

export const SCALAR = 0;
export const SEQ = 1;
const MAP = 2;

const NO_CHILDREN: RepNode[] = [];

/** A representation node; `tag` is the suffix after `tag:yaml.org,2002:`. */
export class RepNode {
  /** Sequence items, or mapping keys and values interleaved (shared empty array for scalars). */
  children: RepNode[];
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

function scalarNode(tag: string, value: string): RepNode {
  return new RepNode(SCALAR, tag, value, null, false);
}

interface RepFrame {
  node: RepNode;
  items: PyValue[];
  i: number;
  obj: object;
}

export function represent(root: PyValue, noAlias: boolean, maxLevels: number): RepNode {
  const memo = new Map<object, RepNode>();
  const active = new Set<object>();
  const stack: RepFrame[] = [];

  const make = (v: PyValue): RepNode => {
    if (stack.length >= maxLevels && !(v !== null && typeof v === 'object' && memo.has(v))) {
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
    if (v instanceof PyBytes) return new RepNode(SCALAR, 'binary', b2aBase64Lines(v.bytes), '|', false);
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
    let node: RepNode;
    let items: PyValue[] = [];
    if (v instanceof PyTimestamp) {
      node = new RepNode(SCALAR, 'timestamp', v.kind === 'date' ? v.isoformat() : v.isoformat(' '), null, shareable);
    } else if (Array.isArray(v)) {
      node = new RepNode(SEQ, 'seq', '', null, shareable);
      items = v;
    } else if (v instanceof PyTuple) {
      node = new RepNode(SEQ, 'seq', '', null, shareable);
      items = v.items;
    } else if (v instanceof PyDict) {
      node = new RepNode(MAP, 'map', '', null, shareable);
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
      node = new RepNode(MAP, 'set', '', null, shareable);
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

export function floatText(x: number): string {
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
    const strs = keys;
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

/**
 * A dict's items in the order `sortedOrder` gives them, when every key is a str: null otherwise (the
 * direct walk of the emitter then falls back to the node pipeline).
 */
export function sortedStrEntries(dict: PyDict): Array<{ key: PyValue; value: PyValue }> | null {
  const entries = dict.entryList();
  let surrogates = false;
  for (const e of entries) {
    if (typeof e.key !== 'string') return null;
    if (!surrogates && hasSurrogate(e.key)) surrogates = true;
  }
  if (entries.length < 2) return entries;
  // Distinct str keys: a total order, so every stable sort agrees with Python's sorted().
  if (surrogates) return entries.sort((a, b) => comparePyStr(a.key as string, b.key as string));
  if (entries.length > 32) return entries.sort((a, b) => ((a.key as string) < (b.key as string) ? -1 : (a.key as string) > (b.key as string) ? 1 : 0));
  // Most mappings are small: an insertion sort compares inline, with no call per comparison.
  for (let i = 1; i < entries.length; i++) {
    const entry = entries[i];
    const key = entry.key as string;
    let j = i - 1;
    while (j >= 0 && (entries[j].key as string) > key) {
      entries[j + 1] = entries[j];
      j--;
    }
    entries[j + 1] = entry;
  }
  return entries;
}
