/**
 * Loads one user-data part the way cloud-init 22.4.2 does:
 *
 *     yaml.load(text, Loader=<SafeLoader + tag:yaml.org,2002:python/unicode>)
 *
 * with PyYAML 6.0's pure-Python loader, and returns the Python value in the
 * model of ../values.ts together with the source span of every mapping entry
 * and list item.
 *
 * Why not the `yaml` package for the parsing itself: PyYAML's scanner is not a
 * YAML 1.2 lexer. It rejects tabs between tokens, lets quoted scalars and flow
 * collections continue at any indentation, ends plain scalars in flow context
 * at `?`, treats U+0085/U+2028/U+2029 as line breaks, limits anchor names to
 * `[0-9A-Za-z_-]`, allows `#` right after a closing quote or bracket, requires
 * block scalar content of a top-level scalar to be indented, and so on. Many
 * of these show up in hand-written cloud-config (`[url?x=1]`, a long quoted
 * string wrapped at column 0, a stray tab), and the `yaml` package parses them
 * differently or not at all. So this is an independent implementation of
 * PyYAML's pipeline, one module per stage as in PyYAML's `lib/yaml/`, keeping
 * PyYAML's observable behaviour:
 *
 *  1. ./reader       the printable-character check, character classes
 *  2. ./scanner      tokens
 *  3. ./parser       events
 *  4. ./composer     nodes, anchors and aliases
 *  5. ./resolver     implicit tags of plain scalars (shared with ./dump)
 *  6. ./constructor  Python values
 *
 * with ./errors for what they raise; this module only combines them.
 *
 * Every stage pulls lazily from the previous one as PyYAML does, so the first
 * error PyYAML would raise is the one reported (a syntax error after the
 * start of a second document is never reached: the multiple-documents error
 * comes first; construction errors only appear in a syntactically valid
 * single document).
 *
 * Spans are UTF-16 offsets into the text. A node's span starts at its first
 * property (tag or anchor) or its content and ends at the end of its content:
 * the closing quote or bracket, the end of the last child of a block
 * collection, the end of the last non-empty line of a block scalar. An empty
 * value has a zero-width span where PyYAML puts it (after the `:` or `-`). An
 * alias used as a value gets the span of the `*name` token.
 *
 * Recursive structures: an anchor used inside its own node (`&a [*a]`) gives a
 * recursive object in PyYAML; here loading then fails with kind 'recursive'
 * (the engine and JSON output cannot represent cycles). Where PyYAML itself
 * fails on them the same error as PyYAML is given (e.g. `&a {*a: 1}` is an
 * unhashable key, `&a {<<: *a}` loads as {} as in PyYAML), and where PyYAML
 * recurses forever (`&a !!str {=: *a}`) the error is also 'recursive'
 * (pyException RecursionError).
 *
 * Known residual differences from PyYAML (see test/oracle/yaml-load.diff.ts):
 *  - Error messages carry PyYAML's context and problem lines but not its
 *    "in "<unicode string>", line L, column C" mark lines (the span says where).
 *    Messages of the Python exceptions that are not YAMLErrors (ValueError
 *    from `int()`, `float()`, datetime, `chr()`; KeyError, IndexError, ...)
 *    are CPython 3.11's for every case the differential test produces; rarer
 *    ones may be worded differently.
 *  - Python raises RecursionError for nodes nested more than roughly 300-500
 *    levels (the composer recurses; the exact depth depends on the caller's
 *    stack). Here nesting is only limited by `maxDepth` (error kind 'limit').
 *  - PyDict merges all NaN keys into one (values.ts). PyYAML returns one
 *    shared NaN object for every `.nan` (also `!!float -.nan`), so that is
 *    the same; only NaNs made by `float()` (`!!float nan`) are distinct keys
 *    in Python.
 *  - Where a constructor error is about a node reached through an alias
 *    (e.g. an aliased mapping used as a key), the span is the `*alias`; PyYAML's
 *    mark is the anchored node itself.
 */

import { DEFAULT_LIMITS, LimitExceededError } from '../limits';
import { PyDict, PySet, PyTuple } from '../py/values';
import { pushAll } from '../arrays';
import type { PyValue, TextSpan } from '../py/values';
import { LoadError, type YamlProblem } from './errors';

export type { YamlProblem } from './errors';
import { NON_PRINTABLE, hex } from './reader';
import { compose } from './composer';
import { Constructor } from './constructor';

export interface YamlLoadOptions {
  /** Stamped as Origin.source on every PyDict entry and list item (default 0). */
  source?: number;
  /** Accept `!!python/unicode` as a plain string, as cloud-init 22.4.2 does (default true). */
  pythonUnicodeTag?: boolean;
  /**
   * Aliases share objects, so loading never expands them. When set, a value
   * that would have more than this many nodes once every alias is expanded
   * (what copying it or writing it as JSON costs) is an error of kind
   * 'expansion'. Default: no check (PyYAML has none).
   */
  maxAliasExpansion?: number;
  /**
   * Most key/value pairs that merge keys (`<<`) may copy into mappings. PyYAML
   * copies the pairs of each merged mapping, so aliases of aliases merged
   * twice per level grow exponentially (a "merge-key bomb": PyYAML, and so
   * cloud-init, runs until memory is exhausted). More is an error of kind
   * 'expansion'. Default DEFAULT_LIMITS.maxExpandedNodes: always bounded.
   */
  maxMergedPairs?: number;
  /** Deepest nesting of collections (default 10000); deeper is an error of kind 'limit'. */
  maxDepth?: number;
  /**
   * When set, only the root mapping's entries with these keys, and everything inside their values,
   * get Origins; other entries and list items get none (their allocation is most of what provenance
   * costs, for callers that never read it). A document that uses aliases gets Origins everywhere.
   */
  originKeys?: readonly string[];
}

export type YamlLoadResult =
  | {
      ok: true;
      value: PyValue;
      /** Span of the document's root node; null for an empty document. */
      rootSpan: TextSpan | null;
      duplicateKeys: YamlProblem[];
      /** Reserved: PyYAML has no warnings, nothing is reported here yet. */
      warnings: YamlProblem[];
    }
  | { ok: false; error: YamlProblem };

const DEFAULT_MAX_DEPTH = 10000;

// ---------------------------------------------------------------------------
// Whole-value checks (only when aliases were used)

/** Does the value graph have a cycle? Iterative DFS. */
function hasCycle(root: PyValue): boolean {
  const state = new Map<object, number>(); // 1 = on the path, 2 = done
  const stack: Array<{ obj: object; children: PyValue[]; i: number }> = [];
  const enter = (v: PyValue): boolean => {
    const children = childrenOf(v);
    if (children === null) return false;
    const obj = v as object;
    const s = state.get(obj);
    if (s === 1) return true;
    if (s === 2) return false;
    state.set(obj, 1);
    stack.push({ obj, children, i: 0 });
    return false;
  };
  if (enter(root)) return true;
  while (stack.length) {
    const top = stack[stack.length - 1];
    if (top.i < top.children.length) {
      if (enter(top.children[top.i++])) return true;
    } else {
      state.set(top.obj, 2);
      stack.pop();
    }
  }
  return false;
}

/**
 * Nodes of `root` with every shared (aliased) value counted each time it appears, as if written out as
 * a tree; `limit + 1` once past `limit`. Counted one node at a time, so an alias bomb stops after
 * `limit + 1` steps with nothing remembered, and an ordinary document costs one step per node.
 */
export function expandedSize(root: PyValue, limit: number): number {
  const stack: PyValue[] = [root];
  let count = 0;
  while (stack.length) {
    const v = stack.pop() as PyValue;
    if (++count > limit) return limit + 1;
    if (Array.isArray(v)) pushAll(stack, v);
    else if (v instanceof PyDict) {
      for (const e of v.items()) stack.push(e.key, e.value);
    } else if (v instanceof PySet) pushAll(stack, v.values());
    else if (v instanceof PyTuple) pushAll(stack, v.items);
  }
  return count;
}

/**
 * Nodes that expanding shared values adds to `root`: every container met again (a YAML alias of it)
 * counts with all its nodes, each time; `limit + 1` once past `limit`. A value without shared containers
 * adds 0, however large: its walk is already one step per node written. One step per distinct node plus
 * one per node counted, so an alias bomb stops after `limit + 1` counted steps.
 *
 * Aliases of scalars cost one node each, as the scalar does where it is written.
 */
export function sharedExpansion(root: PyValue, limit: number): number {
  const seen = new Set<object>();
  // Values whose subtree is a repetition (inside a container met before) are kept apart from the first walk.
  const first: PyValue[] = [root];
  const again: PyValue[] = [];
  let count = 0;
  const push = (into: PyValue[], v: PyValue) => {
    if (Array.isArray(v)) pushAll(into, v);
    else if (v instanceof PyDict) {
      for (const e of v.items()) into.push(e.key, e.value);
    } else if (v instanceof PySet) pushAll(into, v.values());
    else if (v instanceof PyTuple) pushAll(into, v.items);
  };
  while (first.length) {
    const v = first.pop() as PyValue;
    if (v === null || typeof v !== 'object') continue;
    if (seen.has(v)) {
      again.push(v);
      while (again.length) {
        const w = again.pop() as PyValue;
        if (++count > limit) return limit + 1;
        push(again, w);
      }
      continue;
    }
    seen.add(v);
    push(first, v);
  }
  return count;
}

function childrenOf(v: PyValue): PyValue[] | null {
  if (Array.isArray(v)) return v;
  if (v instanceof PyDict) return v.entries().flat();
  if (v instanceof PySet) return v.values();
  if (v instanceof PyTuple) return v.items;
  return null;
}

// ---------------------------------------------------------------------------
// Entry point

export function loadYaml(text: string, options: YamlLoadOptions = {}): YamlLoadResult {
  const source = options.source ?? 0;
  const maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
  const failed = (error: YamlProblem): YamlLoadResult => ({ ok: false, error });

  try {
    const bad = NON_PRINTABLE.exec(text);
    if (bad) {
      const cp = bad[0].codePointAt(0) as number;
      return failed({
        message: `unacceptable character #x${hex(cp, 4)}: special characters are not allowed`,
        span: { start: bad.index, end: bad.index + bad[0].length },
        kind: 'invalid-character',
        pyException: 'ReaderError',
      });
    }
    const composed = compose(text, maxDepth);
    // With aliases a node can be reached (and filled) before the path from an origin key marks it.
    const originKeys = composed.aliasUsed ? null : (options.originKeys ?? null);
    const ctor = new Constructor(source, options.pythonUnicodeTag ?? true, options.maxMergedPairs ?? DEFAULT_LIMITS.maxExpandedNodes, composed.cyclicAlias, originKeys);
    const value = composed.root === null ? null : ctor.constructDocument(composed.root);
    if (composed.cyclicAlias && hasCycle(value)) {
      return failed({
        message: 'recursive structure: an anchor is used inside its own node (PyYAML builds a self-referencing object)',
        span: composed.root?.span ?? { start: 0, end: 0 },
        kind: 'recursive',
      });
    }
    const maxExpansion = options.maxAliasExpansion;
    if (composed.aliasUsed && maxExpansion !== undefined && Number.isFinite(maxExpansion)) {
      const size = expandedSize(value, maxExpansion);
      if (size > maxExpansion) {
        return failed({
          message: `aliases expand this document to more than ${maxExpansion} nodes (maxAliasExpansion)`,
          span: composed.root?.span ?? { start: 0, end: 0 },
          kind: 'expansion',
        });
      }
    }
    return { ok: true, value, rootSpan: composed.root?.span ?? null, duplicateKeys: ctor.duplicateKeys, warnings: [] };
  } catch (err) {
    if (err instanceof LoadError) return failed(err.toProblem());
    if (err instanceof RangeError) {
      // Should not happen (everything is iterative), but never crash the server.
      return failed({ message: `loading failed: ${err.message}`, span: { start: 0, end: 0 }, kind: 'limit' });
    }
    throw err;
  }
}

/**
 * The merge-key expansion failure of a load (kind 'expansion') as our limit error. Callers that
 * reproduce cloud-init throw it: cloud-init would not skip such a part, it would never finish.
 */
export function mergeExpansionError(result: YamlLoadResult, maxMergedPairs: number = DEFAULT_LIMITS.maxExpandedNodes): LimitExceededError | undefined {
  if (result.ok || result.error.kind !== 'expansion' || !/^merge keys/.test(result.error.message)) return undefined;
  return new LimitExceededError('maxExpandedNodes', maxMergedPairs, 'YAML merge keys', result.error.message);
}
