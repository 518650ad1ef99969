/**
 * Provenance, derived from an outcome: for every path of the merged value
 * the place that supplied it, and for every line of the preview's body its
 * path, its place and what the merge did there (in the one vocabulary of
 * effects.ts). Values carry their origins through merging (values.ts), so
 * this only walks the result and resolves origins to places.
 */
import { Origin, PyDict, PyValue, getListOrigins } from '../py/values';
import { MergeEvent, PathSegment } from '../merge/trace';
import { DumpLine, dumpPyYamlWithLines, pyKeyDisplay } from '../yaml/dump';
import { Locator, SourceLocation, displayPath } from './locate';
import { EffectKind, eventEffect } from './effects';

export interface ProvenanceEntry {
  path: PathSegment[];
  /** `runcmd[0]` form, built knowing which segments are list indices (a float key is not one). */
  display: string;
  location: SourceLocation | null;
  /** Location of the key, for mapping entries. */
  keyLocation?: SourceLocation | null;
}

export interface CollectOptions {
  /** Stop after this many entries (aliases can make a small file expand enormously). */
  limit?: number;
}

export function collectProvenance(value: PyValue, locate: Locator, options: CollectOptions = {}): { entries: ProvenanceEntry[]; truncated: boolean } {
  const entries: ProvenanceEntry[] = [];
  const truncated = walkOrigins(value, options.limit ?? 100_000, true, (path, display, origin) => {
    entries.push({ path, display, location: origin ? locate(origin, 'value') : null, keyLocation: origin?.key ? locate(origin, 'key') : undefined });
  });
  return { entries, truncated };
}

/**
 * Where each path's value came from, by its display form (`runcmd[0]`): what the preview's line map
 * and fates need, without the segment arrays and key places collectProvenance also builds.
 * A display form that two paths share keeps the later one's place, as collectProvenance's order has it.
 */
export function provenanceByDisplay(value: PyValue, locate: Locator, options: CollectOptions = {}): Map<string, SourceLocation | null> {
  const places = new Map<string, SourceLocation | null>();
  walkOrigins(value, options.limit ?? 100_000, false, (_path, display, origin) => {
    places.set(display, origin ? locate(origin, 'value') : null);
  });
  return places;
}

/**
 * Visits every mapping entry and list item of `value` depth first, parents before children, with its
 * display path and origin (and its path segments when `withPaths`); a value inside itself (an alias
 * cycle) is not entered again. Returns whether it stopped at `limit` visits.
 */
function walkOrigins(
  value: PyValue,
  limit: number,
  withPaths: boolean,
  visit: (path: PathSegment[], display: string, origin: Origin | undefined) => void,
): boolean {
  let visited = 0;
  const noPath: PathSegment[] = [];
  const stack: Array<{ value: PyValue; path: PathSegment[]; display: string; ancestors: Set<object> }> = [{ value, path: [], display: '', ancestors: new Set() }];
  while (stack.length) {
    const { value: current, path, display, ancestors } = stack.pop()!;
    if (current === null || typeof current !== 'object' || ancestors.has(current)) continue;
    const children: Array<{ segment: PathSegment; display: string; child: PyValue; origin?: Origin }> = [];
    if (current instanceof PyDict) {
      for (const { key, value: child, origin } of current.items()) {
        const name = pyKeyDisplay(key);
        children.push({ segment: key, display: display ? `${display}.${name}` : name, child, origin });
      }
    } else if (Array.isArray(current)) {
      const origins = getListOrigins(current);
      current.forEach((child, i) => children.push({ segment: i, display: `${display}[${i}]`, child, origin: origins?.[i] }));
    }
    if (!children.length) continue;
    for (const { segment, display: childDisplay, origin } of children) {
      if (visited >= limit) return true;
      visited++;
      visit(withPaths ? [...path, segment] : noPath, childDisplay, origin);
    }
    const nextAncestors = new Set(ancestors).add(current);
    for (let i = children.length - 1; i >= 0; i--) {
      const { child, segment, display: childDisplay } = children[i];
      // Scalars have no children: not worth a stack frame.
      if (child === null || typeof child !== 'object') continue;
      stack.push({ value: child, path: withPaths ? [...path, segment] : noPath, display: childDisplay, ancestors: nextAncestors });
    }
  }
  return false;
}

/** What one merge step did at a path, said from the value that is there now. */
export interface LineEffect {
  path: PathSegment[];
  /** replaced or deleted: an earlier value; lost: this step's value lost to the one kept. */
  what: Extract<EffectKind, 'replaced' | 'deleted' | 'lost'>;
  reason: string;
  /** Where the earlier value (replaced, deleted; kept, for lost) was written. */
  from?: SourceLocation | null;
  /** Where the new value (the one that replaced, or the one lost) was written. */
  at?: SourceLocation | null;
}

/** The effects of one traced merge step, at most `limit` of them, as a line's history says them. */
export function stepEffects(events: readonly MergeEvent[] | undefined, locate: Locator, limit = 1000): LineEffect[] {
  const effects: LineEffect[] = [];
  const place = (o: Origin | undefined) => (o ? locate(o, 'value') : null);
  for (const e of events ?? []) {
    if (effects.length >= limit) break;
    const effect = eventEffect(e);
    if (!effect) continue;
    const { kind, reason } = effect;
    // replaced, deleted: from the earlier value to the one that decided; lost: from the value kept to the one lost.
    if (kind === 'replaced' || kind === 'deleted') effects.push({ path: e.path, what: kind, reason, from: place(effect.subjectOrigin), at: place(effect.deciderOrigin) });
    else if (kind === 'lost') effects.push({ path: e.path, what: kind, reason, ...(effect.how === 'dropped-items' ? {} : { from: place(effect.deciderOrigin) }), at: place(effect.subjectOrigin) });
  }
  return effects;
}

/** A line of the preview's body: its path in display form (`runcmd[0]`), where its value was written and what the merge did there. */
export interface LineProvenance {
  /** 0-based line in the rendered text. */
  line: number;
  path: string;
  source: SourceLocation | null;
  history: ReadonlyArray<{ what: LineEffect['what']; reason: string; from?: SourceLocation | null; at?: SourceLocation | null }>;
}

/** The history of the lines no merge step changed: most of them, one shared empty list. */
const NO_HISTORY: LineProvenance['history'] = Object.freeze([]);

/**
 * One entry per dumped line: its display path, the place its value was written and what it changed.
 * The value is followed down each line's path from the previous line's (lines come in document
 * order), so only the nodes that have a line are looked at.
 */
export function lineProvenance(
  value: PyValue,
  locate: Locator,
  offset: number,
  effects: readonly LineEffect[],
  dumpedLines: DumpLine[] = dumpPyYamlWithLines(value).lines,
  override?: (path: string) => SourceLocation | null,
): LineProvenance[] {
  const history = new Map<string, Array<LineProvenance['history'][number]>>();
  for (const e of effects) {
    const key = displayPath(e.path);
    const list = history.get(key) ?? [];
    list.push({ what: e.what, reason: e.reason, from: e.from, at: e.at });
    history.set(key, list);
  }
  // Along the previous line's path: the node, its origin and its display path at each depth.
  const nodes: Array<PyValue | undefined> = [value];
  const origins: Array<Origin | undefined> = [undefined];
  const displays: string[] = [''];
  const byDisplay = new Map<PyDict, Map<string, { value: PyValue; origin?: Origin }>>();
  let previous: DumpLine['path'] = [];
  return dumpedLines.map((l) => {
    const segments = l.path;
    let depth = 0;
    while (depth < segments.length && depth < previous.length && segments[depth] === previous[depth]) depth++;
    for (; depth < segments.length; depth++) {
      const segment = segments[depth];
      const parent = nodes[depth];
      let child: { value: PyValue; origin?: Origin } | undefined;
      if (parent instanceof PyDict && typeof segment === 'string') child = childByDisplay(parent, segment, byDisplay);
      else if (Array.isArray(parent) && typeof segment === 'number' && segment < parent.length) child = { value: parent[segment], origin: getListOrigins(parent)?.[segment] };
      nodes[depth + 1] = child?.value;
      origins[depth + 1] = child?.origin;
      const above = displays[depth];
      displays[depth + 1] = typeof segment === 'number' ? `${above}[${segment}]` : above ? `${above}.${segment}` : segment;
    }
    previous = segments;
    // formatPath's form: an empty key alone is the root's name too.
    const path = displays[segments.length] || '(root)';
    const origin = origins[segments.length];
    return { line: l.line + offset, path, source: override ? override(path) : origin ? locate(origin, 'value') : null, history: (history.size && history.get(path)) || NO_HISTORY };
  });
}

/**
 * The entry of a mapping whose key is written `display` in a dumped path: the string key itself, else
 * (a key of another type: `1`, `None`, a date) the last key shown that way.
 */
function childByDisplay(dict: PyDict, display: string, cache: Map<PyDict, Map<string, { value: PyValue; origin?: Origin }>>): { value: PyValue; origin?: Origin } | undefined {
  const value = dict.get(display);
  if (value !== undefined) return { value, origin: dict.originOf(display) };
  let shown = cache.get(dict);
  if (!shown) {
    shown = new Map();
    for (const item of dict.items()) shown.set(pyKeyDisplay(item.key), item);
    cache.set(dict, shown);
  }
  return shown.get(display);
}
