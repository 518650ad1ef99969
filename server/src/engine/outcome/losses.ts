/**
 * What a merge lost, derived from an outcome: every value of a source (a
 * user-data part, a drop-in, a boot layer) that a later one replaced or
 * deleted, every value the merge kept another value over or dropped, grouped
 * by the source that had it and the source that displaced it; every option a
 * merger ignored, with what the merger did instead; and the parts dropped
 * whole. Computed from the merge trace (the same events the provenance and
 * the fates read), so it never disagrees with the merge. The preview's "What
 * this merge lost" and the report's `lost` say it.
 */
import { PyDict, PyValue } from '../py/values';
import { pyRepr } from '../py/repr';
import { MergeEvent, PathSegment } from '../merge/trace';
import { Locator, SourceLocation, displayPath } from './locate';
import { UserDataRun } from '../userdata/run';
import { ConfdResult } from '../system/confd';
import { BootResult } from '../system/boot';
import { OPTION_NAMES, OptionName, canonicalMergerName, mergerClause, optionsReadBy } from '../spec/catalogue';
import { pushAll } from '../arrays';
import { EffectKind, eventEffect } from './effects';
import { Outcome, cloudCfgName, confdLocator, userDataLocator } from './run';
import { provenanceByDisplay } from './provenance';

export interface LostValue {
  /** `runcmd[0]` form. */
  path: string;
  /** A short repr of the value that was lost. */
  value: string;
  /** replaced or deleted by a later source; lost: the merger kept the existing value, or dropped these items. */
  what: Extract<EffectKind, 'replaced' | 'deleted' | 'lost'>;
  /** The merger's rule, in words. */
  reason: string;
  /** Where the lost value was written. */
  at: SourceLocation | null;
  /** Where the value that displaced it was written (replaced, deleted; the value kept, for lost). */
  by: SourceLocation | null;
}

export interface LostGroup {
  /** Index (into `run.reports`) of the part whose values were lost; -1 when unknown. */
  owner: number;
  /** Index of the part whose merge lost them. */
  by: number;
  values: LostValue[];
}

export interface IgnoredOption {
  part: number;
  merger: string;
  option: string;
  /** The merger's spec as written, e.g. `list(apend)`. */
  written: string;
  /** What the merger did instead, as one clause. */
  instead: string;
}

export interface DroppedPart {
  part: number;
  reason: string;
}

export interface MergeLosses {
  groups: LostGroup[];
  ignored: IgnoredOption[];
  dropped: DroppedPart[];
  /** Lost values in all groups. */
  total: number;
}

/** Lost values kept per merge (the rest are counted): a merge of thousands of parts must stay readable and fast. */
export const MAX_LOST_VALUES = 1000;

const REPR_CHARS = 60;

/** A repr short enough for one line: `'curl'`, `{'path': '/etc/motd', …}`. */
export function shortValue(value: PyValue): string {
  let text: string;
  try {
    text = pyRepr(value, 400);
  } catch {
    return '<a large value>';
  }
  text = text.replace(/\s+/g, ' ');
  return text.length > REPR_CHARS ? `${text.slice(0, REPR_CHARS - 1)}…` : text;
}

export function userDataLosses(run: UserDataRun, locate: Locator): MergeLosses {
  const ignored: IgnoredOption[] = [];
  const dropped: DroppedPart[] = [];
  const steps: TracedStep[] = [];
  run.reports.forEach((r, index) => {
    const h = r.handled;
    if ((r.disposition === 'merged' && h?.discarded) || r.disposition === 'failed') dropped.push({ part: index, reason: r.note });
    if (r.disposition !== 'merged' || !h || h.discarded) return;
    pushAll(ignored, ignoredOptions(index, h.effective ?? []));
    steps.push({ index, events: h.events });
  });
  return { ...stepLosses(steps, originPlaces(locate)), ignored, dropped };
}

/** One step of a traced merge: the source merged (an index the caller names) and what the merge did. */
export interface TracedStep {
  index: number;
  events?: readonly MergeEvent[];
  /** The spec the source was merged with, for its ignored options. */
  spec?: ReadonlyArray<{ name: PyValue; options: PyValue }>;
}

/** Where the two sides of a merge event were written, and which source had the earlier value (-1: unknown). */
export type EventPlaces = (e: MergeEvent, step: number) => { old: SourceLocation | null; new: SourceLocation | null; oldOwner: number };

/** Places from the values' origins: the locator's source index is the owner. */
export function originPlaces(locate: Locator): EventPlaces {
  return (e) => {
    const oldOrigin = 'oldOrigin' in e ? e.oldOrigin : undefined;
    const old = oldOrigin ? locate(oldOrigin, 'value') : null;
    return { old, new: e.origin ? locate(e.origin, 'value') : null, oldOwner: old?.source ?? -1 };
  };
}

/**
 * What a series of merges lost, grouped by the source that had each value and the source whose merge
 * displaced it: user-data parts, cloud.cfg.d drop-ins, boot-time layers.
 */
export function stepLosses(steps: readonly TracedStep[], places: EventPlaces): Pick<MergeLosses, 'groups' | 'total'> {
  const groups = new Map<string, LostGroup>();
  let total = 0;
  for (const step of steps) {
    for (const e of step.events ?? []) {
      const where = places(e, step.index);
      const lost = lostValue(e, where.old, where.new);
      if (!lost) continue;
      total++;
      if (total > MAX_LOST_VALUES) continue;
      const owner = lost.what === 'replaced' || lost.what === 'deleted' ? where.oldOwner : step.index;
      const key = `${owner}/${step.index}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { owner, by: step.index, values: [] }));
      group.values.push(lost);
    }
  }
  return { groups: [...groups.values()].sort((a, b) => a.owner - b.owner || a.by - b.by), total };
}

/** The losses of merges whose steps carry their specs (system config): values and ignored options. */
export function specStepLosses(steps: readonly TracedStep[], places: EventPlaces): MergeLosses {
  const ignored = steps.flatMap((s) => (s.spec ? ignoredOptions(s.index, s.spec) : []));
  return { ...stepLosses(steps, places), ignored, dropped: [] };
}

/** A value the merge lost, from the one reading of the event (effects.ts); appended and prepended lists lose nothing. */
function lostValue(e: MergeEvent, old: SourceLocation | null, now: SourceLocation | null): LostValue | null {
  const effect = eventEffect(e);
  if (!effect) return null;
  const { kind, subject, reason } = effect;
  if (kind === 'replaced' || kind === 'deleted') return { path: displayPath(e.path), value: shortValue(subject), what: kind, reason, at: old, by: now };
  if (kind === 'lost') return { path: displayPath(e.path), value: shortValue(subject), what: kind, reason, at: now, by: effect.how === 'dropped-items' ? null : old };
  return null;
}

/** Distinct ignored options listed per merger of a part (a hostile spec can repeat thousands). */
export const MAX_IGNORED_OPTIONS = 20;

/** Options of a part's effective spec that its merger never reads, with what the merger did instead: each distinct option once. */
function ignoredOptions(part: number, effective: ReadonlyArray<{ name: PyValue; options: PyValue }>): IgnoredOption[] {
  const out: IgnoredOption[] = [];
  for (const m of effective) {
    const merger = typeof m.name === 'string' ? canonicalMergerName(m.name) : undefined;
    if (!merger || !Array.isArray(m.options) || !m.options.every((o) => typeof o === 'string')) continue;
    const words = m.options;
    const read = new Set<string>(optionsReadBy(merger));
    const ignoredWords = [...new Set(words.filter((o) => !read.has(o)))].slice(0, MAX_IGNORED_OPTIONS);
    if (!ignoredWords.length) continue;
    // What the merger does is the same whichever option is ignored: worked out once per merger.
    const present = new Set(words);
    const clause = mergerClause(merger, (o: OptionName) => present.has(o));
    const written = `${merger}(${shortList(words)})`;
    for (const option of ignoredWords) {
      const known = (OPTION_NAMES as string[]).includes(option);
      out.push({ part, merger, option, written, instead: `${known ? `${merger}() never reads '${option}'` : `'${option}' is not an option of ${merger}()`}: ignored, so ${clause}` });
    }
  }
  return out;
}

/** The options as written, cut after 60 characters. */
function shortList(words: string[]): string {
  const text = words.join(',');
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/**
 * The drop-ins' merge and `cloud.cfg`'s merge under it. Sources are numbered as the locator numbers
 * them: a drop-in by its index in the input list, `cloud.cfg` after the last one.
 */
export function confdLosses(result: ConfdResult, locate: Locator): MergeLosses {
  const steps: TracedStep[] = result.files
    .filter((f) => f.step && !f.step.skipped)
    .sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0))
    .map((f) => ({ index: f.input, events: f.step?.events, spec: f.step?.defaulted ? undefined : f.step?.spec }));
  // cloud.cfg is merged last, under what the drop-ins set
  const cloudCfg = result.cloudCfg?.steps[result.cloudCfg.steps.length - 1];
  if (cloudCfg && !cloudCfg.skipped) steps.push({ index: result.files.length, events: cloudCfg.events, spec: cloudCfg.defaulted ? undefined : cloudCfg.spec });
  return specStepLosses(steps, originPlaces(locate));
}

/**
 * The final boot-time merge, layer by layer (a layer is numbered by its index in `boot.layers`). Its
 * values are read back from the instance's cloud-config files, so their origins no longer name the
 * files: `placeIn` finds a path in a layer's own merge, and the earlier value belongs to the first
 * layer that has the path.
 */
export function bootLosses(boot: BootResult, placeIn: (layer: number, path: string) => SourceLocation | null): MergeLosses {
  const steps: TracedStep[] = boot.layers.map((l, index) => ({ index, events: l.step?.skipped ? [] : l.step?.events, spec: l.step?.defaulted ? undefined : l.step?.spec }));
  const places: EventPlaces = (e, step) => {
    const path = displayPath(e.path);
    const owner = boot.layers.findIndex((l, j) => j < step && hasPath(l.value, e.path));
    return { old: owner >= 0 ? placeIn(owner, path) : null, new: placeIn(step, path), oldOwner: owner };
  };
  return specStepLosses(steps, places);
}

function hasPath(value: PyValue | undefined, path: PathSegment[]): boolean {
  let current: PyValue | undefined = value;
  for (const segment of path) {
    if (current instanceof PyDict && current.has(segment)) current = current.get(segment);
    else if (Array.isArray(current) && typeof segment === 'number' && segment < current.length) current = current[segment];
    else return false;
  }
  return true;
}

/**
 * What the boot-time layering lost (user-data over vendor-data over the datasource and system config),
 * each value placed by its path in its layer's own merge.
 */
export function bootLayeringLosses(boot: BootResult, cloudCfg: string): MergeLosses {
  const byPath = new Map<number, Map<string, SourceLocation | null>>();
  const provenanceOf = (layer: number): Map<string, SourceLocation | null> => {
    const known = byPath.get(layer);
    if (known) return known;
    const name = boot.layers[layer]?.layer;
    const run = name === 'user-data' ? boot.userData : name === 'vendor-data' ? boot.vendor : name === 'vendor-data2' ? boot.vendor2 : undefined;
    const map = run?.result
      ? provenanceByDisplay(run.result, userDataLocator(run))
      : name === 'base'
        ? provenanceByDisplay(boot.system.value, confdLocator(boot.system, cloudCfg))
        : new Map<string, SourceLocation | null>();
    byPath.set(layer, map);
    return map;
  };
  return bootLosses(boot, (layer, path) => provenanceOf(layer).get(path) ?? null);
}

/**
 * What the outcome's merge lost: the user-data parts' merge, the drop-ins' (and cloud.cfg's) merge, or
 * the boot-time layering (undefined: a Chef merge or a failed run, which have no specs to lose by).
 */
export function lossesOf(outcome: Outcome): MergeLosses | undefined {
  switch (outcome.kind) {
    case 'user-data':
      return userDataLosses(outcome.run, outcome.locate);
    case 'confd':
      return confdLosses(outcome.result, outcome.locate);
    case 'boot':
      return bootLayeringLosses(outcome.boot, cloudCfgName(outcome.inputs));
    default:
      return undefined;
  }
}
