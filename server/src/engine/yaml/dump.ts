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
 * It is an independent implementation of the same pipeline, one module per
 * stage as in PyYAML's `lib/yaml/`: ./representer (values to nodes, keys
 * sorted as Python sorts them), ./serializer (anchors, then events on
 * demand), ./emitter (the text), with ./resolver shared with the loader;
 * this module only combines them. The common value (nothing shared, str
 * keys, no tuples, sets, bytes or timestamps: what cloud-config merges into)
 * skips the nodes and events: the emitter walks it directly, writing the
 * same bytes at a fraction of the cost and memory. Everything is iterative
 * (no recursion), so deep nesting only costs heap.
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

import type { PyValue } from '../py/values';
import { represent } from './representer';
import { EventSource, PathNode, YamlPath, assignAnchors, pathOf } from './serializer';
import { Emitter } from './emitter';

export type { YamlPath } from './serializer';
export { pyKeyDisplay } from './serializer';

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
  /**
   * The caller knows that no object is reached twice in the value (nothing to anchor): the check
   * for shared objects is skipped. Only with a finite `maxLevels`, which still ends a cycle.
   */
  unshared?: boolean;
}

/** A position in the dumped value: display form of mapping keys, indices of sequence items. */
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
 * The same dump through the representer's nodes and the serializer's events only, never the direct
 * walk: the reference the direct walk is tested against.
 */
export function dumpPyYamlThroughNodes(value: PyValue, options: DumpOptions = {}, withLines = false): DumpWithLines {
  return dumpInternal(value, options, withLines, true);
}

// ---------------------------------------------------------------------------
// Driver

function dumpInternal(value: PyValue, options: DumpOptions, withLines: boolean, throughNodes = false): DumpWithLines {
  let bestIndent = 2;
  const indent = options.indent ?? 4;
  if (indent > 1 && indent < 10) bestIndent = Math.trunc(indent);
  let bestWidth = 80;
  const width = options.width ?? 80;
  if (width && width > bestIndent * 2) bestWidth = width;

  const explicitStart = options.explicitStart ?? true;
  const explicitEnd = options.explicitEnd ?? true;
  const maxLevels = options.maxLevels ?? Infinity;
  let emitter = new Emitter(bestIndent, bestWidth, withLines, explicitStart, explicitEnd);
  const checkShared = !(options.unshared && Number.isFinite(maxLevels));
  if (throughNodes || !emitter.emitValue(value, maxLevels, checkShared)) {
    // Shared objects, non-str keys, tuples, sets, bytes, timestamps or the depth bound: nodes and events.
    const root = represent(value, options.noAlias === true, maxLevels);
    assignAnchors(root);
    emitter = new Emitter(bestIndent, bestWidth, withLines, explicitStart, explicitEnd);
    emitter.run(new EventSource(root, withLines));
  }
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
