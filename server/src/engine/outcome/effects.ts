/**
 * The one vocabulary of what a merge does to a value a part wrote, written
 * down once: the preview's provenance hovers and "What this merge lost"
 * section, fates (diagnostics, hints, `--check`, SARIF) and the report all
 * use these words. Apart from the rest of the outcome so that naming them
 * loads nothing else (the CLI's argument parser lists them).
 *
 * - replaced: a later part (or layer) wrote another value at the path;
 * - deleted: a later part's null removed the key (`allow_delete`);
 * - lost: the merger kept the other value, or dropped this one's items (`no_replace`, a list
 *   merger that iterates a mapping or a string, ...);
 * - dropped: cloud-init drops the whole part;
 * - overridden: at boot, a higher layer (user-data over vendor-data, ...) wins over this value;
 * - appended / prepended: this list's items go after / before another part's items.
 */
import { Origin, PyValue, pyTypeName } from '../py/values';
import { pyEq } from '../py/compare';
import { isListLike } from '../merge/pyops';
import type { MergeEvent } from '../merge/trace';

export type EffectKind = 'replaced' | 'deleted' | 'lost' | 'dropped' | 'overridden' | 'appended' | 'prepended';

/** Every kind, in the order a report lists them (losses first). */
export const EFFECT_KINDS: readonly EffectKind[] = ['replaced', 'deleted', 'lost', 'dropped', 'overridden', 'appended', 'prepended'];

/**
 * How much a kind matters to the writer of the value, the same in every face (the editor's severity,
 * SARIF's level): a value that never takes effect is a warning; a value replaced by a later layer is
 * information (overriding is how layered configs are meant to work); a list extended is a hint.
 */
export type EffectWeight = 'warning' | 'information' | 'hint';

export interface EffectWords {
  /** One clause for the rule that describes the kind (SARIF's rule, the README). */
  description: string;
  weight: EffectWeight;
}

export const EFFECTS: Readonly<Record<EffectKind, EffectWords>> = {
  replaced: { description: 'a later part replaces this value', weight: 'information' },
  deleted: { description: 'a later part deletes this value (allow_delete)', weight: 'warning' },
  lost: { description: 'the merge keeps another value instead of this one', weight: 'warning' },
  dropped: { description: 'cloud-init drops this whole part', weight: 'warning' },
  overridden: { description: 'user-data (or a higher layer) overrides this value at boot', weight: 'information' },
  appended: { description: "this list is appended after another part's items", weight: 'hint' },
  prepended: { description: "this list is prepended before another part's items", weight: 'hint' },
};

export function isEffectKind(value: unknown): value is EffectKind {
  return typeof value === 'string' && (EFFECT_KINDS as readonly string[]).includes(value);
}

/**
 * How the preview's header says what happened to a lost value, around the place that decided (given as
 * `by`, in whatever form the writer uses): `replaced by 30-app.yaml:4`, `lost, 10-base.yaml:2 kept`.
 */
export function lossClause<T>(kind: EffectKind, by: T | null): Array<string | T> {
  switch (kind) {
    case 'replaced':
    case 'deleted':
      return by === null ? [`${kind} by an unknown place`] : [`${kind} by `, by];
    case 'lost':
      return by === null ? ['lost'] : ['lost, ', by, ' kept'];
    default:
      return [kind];
  }
}

/**
 * What one merge event did, in the one vocabulary: the one reading of the merge trace that provenance,
 * losses and fates all derive from (the same value written again is no effect).
 */
export interface EventEffect {
  kind: Exclude<EffectKind, 'dropped' | 'overridden'>;
  /** The value the effect is about: the one replaced, deleted or lost; the list items added. */
  subject: PyValue;
  /** Where `subject` was written. */
  subjectOrigin?: Origin;
  /** Where the value that decided was written: the replacing one, the one kept, the items extended. */
  deciderOrigin?: Origin;
  /** The merger's rule, in words. */
  reason: string;
  /** lost: how (a mapping's values, a string's characters, items past a list's end). */
  how?: 'kept-other' | 'dropped-items' | 'iterated';
  /** appended, prepended: how many items. */
  count?: number;
}

export function eventEffect(e: MergeEvent): EventEffect | null {
  switch (e.kind) {
    case 'replaced':
      if (pyEq(e.old, e.value)) return null;
      return { kind: 'replaced', subject: e.old, subjectOrigin: e.oldOrigin, deciderOrigin: e.origin, reason: e.reason };
    case 'deleted':
      return { kind: 'deleted', subject: e.old, subjectOrigin: e.oldOrigin, deciderOrigin: e.origin, reason: e.reason };
    case 'kept':
      if (pyEq(e.old, e.rejected)) return null;
      return { kind: 'lost', how: 'kept-other', subject: e.rejected, subjectOrigin: e.origin, deciderOrigin: e.oldOrigin, reason: e.reason };
    case 'dropped-items':
      return { kind: 'lost', how: 'dropped-items', subject: e.rejected, subjectOrigin: e.origin, reason: `${e.rejected.length} item(s) dropped: ${e.reason}` };
    case 'extended':
      // Python extends a list by iterating the new value: a mapping gives its keys, a string its characters.
      if (!isListLike(e.value)) return { kind: 'lost', how: 'iterated', subject: e.value, subjectOrigin: e.origin, deciderOrigin: e.oldOrigin, reason: `list(${e.how}) iterates a ${pyTypeName(e.value)}` };
      return { kind: e.how === 'append' ? 'appended' : 'prepended', subject: e.value, subjectOrigin: e.origin, deciderOrigin: e.oldOrigin, reason: `list(${e.how})`, count: e.count };
    default:
      return null;
  }
}
