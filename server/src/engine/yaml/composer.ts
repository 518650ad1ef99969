/**
 * PyYAML's `composer.py` and `nodes.py`: the node graph, where an alias is the same node as its
 * anchor ("found undefined alias", "found duplicate anchor"), and safe_load's "expected a single
 * document in the stream". Iterative, with a depth limit instead of Python's recursion.
 */
import { objectArray } from '../arrays';
import { pyStrRepr } from '../py/repr';
import type { PyValue, TextSpan } from '../py/values';
import { LoadError, pointSpan } from './errors';
import { E, Parser } from './parser';
import { MAP_TAG, SEQ_TAG, resolveScalar } from './resolver';

// ---------------------------------------------------------------------------
// Nodes and composer

export const enum K {
  Scalar,
  Sequence,
  Mapping,
}

export const NODE_ID = ['scalar', 'sequence', 'mapping'];

export interface Pair {
  key: YNode;
  /** Where the key / value is written (for an alias: the `*name`); shared by Origins. */
  keySpan: TextSpan;
  value: YNode;
  valueSpan: TextSpan;
  /** The mapping node this pair was written in. */
  owner: YNode;
}

export class YNode {
  // Fields are assigned in the constructor (not as class fields): one YNode per node is built while
  // the code is still cold, where define-semantics field initializers cost a call each.
  /** Scalar text. */
  declare text: string;
  /** Sequence items and where each is written. */
  declare items: YNode[];
  declare itemSpans: TextSpan[];
  declare pairs: Pair[];
  /** While composing: an alias to it now makes a cycle. */
  declare open: boolean;
  /** The constructed value, once `built`. */
  declare built: boolean;
  declare result: PyValue;
  declare readonly kind: K;
  declare tag: string;
  /** Where the node is written (properties included); shared by Origins. */
  declare readonly span: TextSpan;

  constructor(kind: K, tag: string, span: TextSpan) {
    this.text = '';
    this.items = NO_NODES;
    this.itemSpans = NO_SPANS;
    this.pairs = NO_PAIRS;
    this.open = false;
    this.built = false;
    this.result = null;
    this.kind = kind;
    this.tag = tag;
    this.span = span;
  }
}

/**
 * Shared empty lists of nodes that have none (never written to); of the same elements kind as the
 * lists of the nodes that have some, so that YNode's fields keep one array map.
 */
const NO_NODES = objectArray<YNode>();
export const NO_SPANS = objectArray<TextSpan>();
const NO_PAIRS = objectArray<Pair>();

export function nodeSpan(n: YNode): TextSpan {
  return n.span;
}

interface Frame {
  node: YNode;
  key: YNode | null;
  keySpan: TextSpan | null;
  lastEnd: number;
  flow: boolean;
}

interface Composed {
  root: YNode | null;
  aliasUsed: boolean;
  cyclicAlias: boolean;
}

export function compose(src: string, maxDepth: number): Composed {
  const parser = new Parser(src);
  const out: Composed = { root: null, aliasUsed: false, cyclicAlias: false };
  parser.getEvent(); // stream start
  if (!parser.checkEvent(E.StreamEnd)) out.root = composeDocument(parser, src, maxDepth, out);
  if (!parser.checkEvent(E.StreamEnd)) {
    const e = parser.getEvent();
    const root = out.root as YNode;
    throw new LoadError(
      'multiple-documents',
      'ComposerError',
      'but found another document',
      pointSpan(src, e.start),
      'expected a single document in the stream',
      pointSpan(src, root.span.start),
    );
  }
  parser.getEvent(); // stream end
  return out;
}

function composeDocument(parser: Parser, src: string, maxDepth: number, out: Composed): YNode {
  parser.getEvent(); // document start
  const anchors = new Map<string, YNode>();
  const stack = objectArray<Frame>();
  let root: YNode | null = null;

  const attach = (node: YNode, span: TextSpan): void => {
    const top = stack[stack.length - 1];
    if (top === undefined) {
      root = node;
      return;
    }
    if (span.end > top.lastEnd) top.lastEnd = span.end;
    const parent = top.node;
    if (parent.kind === K.Sequence) {
      parent.items.push(node);
      parent.itemSpans.push(span);
    } else if (top.key === null) {
      top.key = node;
      top.keySpan = span;
    } else {
      parent.pairs.push({ key: top.key, keySpan: top.keySpan as TextSpan, value: node, valueSpan: span, owner: parent });
      top.key = null;
      top.keySpan = null;
    }
  };

  do {
    const e = parser.getEvent();
    if (e.type === E.Alias) {
      const target = anchors.get(e.anchor as string);
      if (target === undefined) {
        throw new LoadError('undefined-alias', 'ComposerError', `found undefined alias ${pyStrRepr(e.anchor as string)}`, { start: e.start, end: e.end });
      }
      out.aliasUsed = true;
      if (target.open) out.cyclicAlias = true;
      attach(target, { start: e.start, end: e.end });
      continue;
    }
    if (e.type === E.SequenceEnd || e.type === E.MappingEnd) {
      const frame = stack.pop() as Frame;
      const node = frame.node;
      node.open = false;
      const span = node.span;
      span.end = frame.flow ? e.end : Math.max(frame.lastEnd, span.start);
      attach(node, span);
      continue;
    }
    const anchor = e.anchor;
    if (anchor !== null) {
      const first = anchors.get(anchor);
      if (first !== undefined) {
        throw new LoadError(
          'duplicate-anchor',
          'ComposerError',
          'second occurrence',
          { start: e.start, end: e.start + 1 + anchor.length },
          `found duplicate anchor ${pyStrRepr(anchor)}; first occurrence`,
          pointSpan(src, first.span.start),
        );
      }
    }
    if (e.type === E.Scalar) {
      const text = e.value;
      const tag = e.tag === null || e.tag === '!' ? resolveScalar(text, e.implicit) : e.tag;
      const end = e.contentEnd >= 0 ? Math.max(e.contentEnd, e.start) : e.end;
      const node = new YNode(K.Scalar, tag, { start: e.start, end });
      node.text = text;
      if (anchor !== null) anchors.set(anchor, node);
      attach(node, node.span);
    } else {
      const isSeq = e.type === E.SequenceStart;
      const tag = e.tag === null || e.tag === '!' ? (isSeq ? SEQ_TAG : MAP_TAG) : e.tag;
      const node = new YNode(isSeq ? K.Sequence : K.Mapping, tag, { start: e.start, end: e.end });
      if (isSeq) {
        node.items = [];
        node.itemSpans = [];
      } else {
        node.pairs = [];
      }
      node.open = true;
      if (anchor !== null) anchors.set(anchor, node);
      if (stack.length >= maxDepth) {
        throw new LoadError('limit', undefined, `nesting deeper than ${maxDepth} levels (maxDepth)`, { start: e.start, end: e.end });
      }
      stack.push({ node, key: null, keySpan: null, lastEnd: e.end, flow: e.flow && !e.pairInSequence });
    }
  } while (stack.length > 0);

  parser.getEvent(); // document end
  return root as unknown as YNode;
}
