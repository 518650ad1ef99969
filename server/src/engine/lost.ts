/**
 * What a user-data merge lost: every value of a part that a later part
 * overwrote or deleted, every value of a part that the merge rejected or
 * dropped, grouped by the part that had it and the part that displaced it;
 * every option a merger ignored, with what the merger did instead; and the
 * parts dropped whole. Computed from the merge trace (the same events the
 * provenance hovers read), so it never disagrees with the merge. The editor's
 * preview, the CLI's `--format preview` and `--format report` all read it.
 */
import { PyValue } from './values';
import { pyEq } from './py/compare';
import { pyRepr } from './py/repr';
import { MergeEvent } from './merge/trace';
import { Locator, SourceLocation, formatPath } from './provenance';
import { UserDataRun } from './userdata/run';
import { OPTION_NAMES, OptionName, canonicalMergerName, mergerClause, optionsReadBy } from './catalogue';
import { pyKeyDisplay } from './yaml/dump';
import { pushAll } from './arrays';

export interface LostValue {
  /** `runcmd[0]` form. */
  path: string;
  /** A short repr of the value that was lost. */
  value: string;
  /** overwritten or deleted by a later part; rejected (the existing value was kept) or dropped by the merger. */
  what: 'overwritten' | 'deleted' | 'rejected' | 'dropped';
  /** The merger's rule, in words. */
  reason: string;
  /** Where the lost value was written. */
  at: SourceLocation | null;
  /** Where the value that displaced it was written (overwritten, deleted, rejected). */
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

export function mergeLosses(run: UserDataRun, locate: Locator): MergeLosses {
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
      const owner = lost.what === 'overwritten' || lost.what === 'deleted' ? where.oldOwner : step.index;
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

function lostValue(e: MergeEvent, old: SourceLocation | null, now: SourceLocation | null): LostValue | null {
  const path = formatPath(e.path.map((s) => (typeof s === 'number' ? s : pyKeyDisplay(s))));
  switch (e.kind) {
    case 'replaced':
      // The same value written again is not a loss.
      if (pyEq(e.old, e.value)) return null;
      return { path, value: shortValue(e.old), what: 'overwritten', reason: e.reason, at: old, by: now };
    case 'deleted':
      return { path, value: shortValue(e.old), what: 'deleted', reason: e.reason, at: old, by: now };
    case 'kept':
      if (pyEq(e.old, e.rejected)) return null;
      return { path, value: shortValue(e.rejected), what: 'rejected', reason: e.reason, at: now, by: old };
    case 'dropped-items':
      return { path, value: shortValue(e.rejected), what: 'dropped', reason: e.reason, at: now, by: null };
    default:
      return null;
  }
}

/** Distinct ignored options listed per merger of a part (a hostile spec can repeat thousands). */
export const MAX_IGNORED_OPTIONS = 20;

/** Options of a part's effective spec that its merger never reads, with what the merger did instead: each distinct option once. */
function ignoredOptions(part: number, effective: ReadonlyArray<{ name: PyValue; options: PyValue }>): IgnoredOption[] {
  const out: IgnoredOption[] = [];
  for (const m of effective) {
    const merger = typeof m.name === 'string' ? canonicalMergerName(m.name) : undefined;
    if (!merger || !Array.isArray(m.options) || !m.options.every((o) => typeof o === 'string')) continue;
    const words = m.options as string[];
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
