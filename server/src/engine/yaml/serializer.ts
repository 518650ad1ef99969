/**
 * PyYAML's `serializer.py`: anchors (a pre-order walk names every node met a second time, `id001`,
 * `id002`, ... in the order of those second encounters) and the event stream, produced lazily from
 * the node graph for the emitter, with the data path of every node for the preview's line map.
 */
import type { PyValue } from '../py/values';
import { BOOL_TAG, FLOAT_TAG, INT_TAG, NULL_TAG, STR_TAG, TIMESTAMP_TAG, resolveScalar } from './resolver';
import { RepNode, SCALAR, SEQ } from './representer';
import { PyTimestamp } from '../py/values';
import { pyRepr } from '../py/repr';

/** The representer's tags are suffixes of tag:yaml.org,2002:, the resolver's are whole. */
const FULL_TAG: Record<string, string> = { null: NULL_TAG, bool: BOOL_TAG, int: INT_TAG, float: FLOAT_TAG, str: STR_TAG, timestamp: TIMESTAMP_TAG };

export type YamlPath = Array<string | number>;

// ---------------------------------------------------------------------------
// Anchors (serializer's first pass)

export function assignAnchors(root: RepNode): void {
  let last = 0;
  const stack: RepNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as RepNode;
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

export const STREAM_START = 0;
export const STREAM_END = 1;
export const DOCUMENT_START = 2;
export const DOCUMENT_END = 3;
export const ALIAS = 4;
export const SCALAR_EVENT = 5;
export const SEQUENCE_START = 6;
export const SEQUENCE_END = 7;
export const MAPPING_START = 8;
export const MAPPING_END = 9;

export interface PathNode {
  parent: PathNode | null;
  seg: string | number;
}

export function pathOf(p: PathNode): YamlPath {
  const out: YamlPath = [];
  for (let q: PathNode | null = p; q; q = q.parent) out.push(q.seg);
  return out.reverse();
}

export class YEvent {
  constructor(
    readonly type: number,
    readonly node: RepNode | null,
    readonly anchor: string | null,
    /** Scalars: plain style would resolve back to the tag. Collections: the tag is the default one. */
    readonly implicit0: boolean,
    /** Scalars: a quoted scalar would resolve back to the tag (i.e. it is a str). */
    readonly implicit1: boolean,
    /** The mapping key / sequence item this event starts, for the line map. */
    readonly mark: PathNode | null,
  ) {}
}

export const STREAM_START_EVENT = new YEvent(STREAM_START, null, null, false, false, null);
const STREAM_END_EVENT = new YEvent(STREAM_END, null, null, false, false, null);
const DOCUMENT_START_EVENT = new YEvent(DOCUMENT_START, null, null, false, false, null);
const DOCUMENT_END_EVENT = new YEvent(DOCUMENT_END, null, null, false, false, null);
const SEQUENCE_END_EVENT = new YEvent(SEQUENCE_END, null, null, false, false, null);
const MAPPING_END_EVENT = new YEvent(MAPPING_END, null, null, false, false, null);

interface SerFrame {
  node: RepNode;
  i: number;
  path: PathNode | null;
  inKey: boolean;
  keyPath: PathNode | null;
}

export class EventSource {
  private stage = 0;
  private readonly frames: SerFrame[] = [];
  private buffered: YEvent | null = null;

  constructor(
    private readonly root: RepNode,
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

  private start(node: RepNode, mark: PathNode | null, inKey: boolean, path: PathNode | null): YEvent {
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
