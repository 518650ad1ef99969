/**
 * Fates: for an ordered set of parts, what the merge decides about each value
 * a part wrote, said from that value's side, with the place of both values.
 * Replaced, deleted (allow_delete), lost (the merger kept the other value or
 * dropped items), appended or prepended after another part's items, a whole
 * part dropped, and, at boot, vendor-data or system config overridden by
 * user-data. Values that simply survive have no fate. Read from the merge
 * trace (effects.ts eventEffect), like the losses and the preview's provenance, so a fate never
 * disagrees with the merge; the CLI's report and check, and the language
 * server's diagnostics and hints, all read this.
 */
import { Origin, PyDict, PyValue, getListOrigins } from '../py/values';
import { MergeEvent } from '../merge/trace';
import { Locator, SourceLocation, displayPath, fileLine, textLocator } from './locate';
import { provenanceByDisplay } from './provenance';
import { shortValue } from './losses';
import { specText } from './parts';
import { Outcome, cloudCfgName, userDataLocator } from './run';
import { UserDataRun } from '../userdata/run';
import { BootLayer, BootResult } from '../system/boot';
import { MergeManyStep } from '../system/mergemany';
import { EffectKind, EventEffect, eventEffect } from './effects';

export interface Fate {
  kind: EffectKind;
  /** `runcmd[0]` form; '(root)' for a whole part. */
  path: string;
  /** The path as keys and indices (user-data and drop-in merges; not at boot). */
  segments?: PyValue[];
  /** A short repr of this value. */
  value: string;
  /** The value itself (for tests and fixes; not part of any output format). */
  subject: PyValue;
  /** Where this value was written. */
  at: SourceLocation | null;
  /** Where the value that decided its fate was written (the replacing value, the kept one, the items it follows). */
  by: SourceLocation | null;
  /** The spec of the merge step that decided, as cloud-init read it. */
  spec?: string;
  /** The merger's rule, in words. */
  reason: string;
  /** One sentence for the place where the value is written. */
  message: string;
}

export interface FateReport {
  fates: Fate[];
  /** More fates than MAX_FATES: the rest are counted only. */
  omitted: number;
  /** Why no fates could be worked out (cloud-init fails, the mode has none). */
  failure?: string;
}

/** Fates kept per set (the rest are counted): thousands of parts must stay fast and readable. */
export const MAX_FATES = 2000;

/**
 * The fates of an outcome: what its merge decided about each value a source wrote. Where cloud-init
 * itself raises (a bad spec in system config), a limit of ours is hit or the mode has no merge specs,
 * `failure` says so.
 */
export function fatesOf(outcome: Outcome): FateReport {
  const out = new FateList();
  switch (outcome.kind) {
    case 'failed': {
      const f = outcome.failure;
      return { fates: [], omitted: 0, failure: f.pyError ? `cloud-init fails: ${f.message}` : `over a limit of this tool (${f.limit}): ${f.message}` };
    }
    case 'user-data': {
      const run = outcome.run;
      if (outcome.mode === 'handler') return { fates: [], omitted: 0, failure: 'the handler mode has no fates' };
      if (run.fatal) return { fates: [], omitted: 0, failure: `cloud-init processes none of this user-data: ${run.fatal.pyType}: ${run.fatal.message}` };
      userDataFates(run, outcome.locate, out);
      return out.report();
    }
    case 'confd': {
      const result = outcome.result;
      for (const f of result.files) if (f.step) stepFates(f.step, outcome.locate, out);
      for (const step of result.cloudCfg?.steps ?? []) stepFates(step, outcome.locate, out);
      return out.report();
    }
    case 'boot':
      bootFates(outcome.boot, outcome, out);
      return out.report();
    case 'chef':
      return { fates: [], omitted: 0, failure: 'Chef deep merges have no merge specs: every later value wins, and the preview lists them' };
    case 'system':
      return { fates: [], omitted: 0, failure: 'the system mode has no fates' };
  }
}

/** Fates of a traced user-data run (also the user-data and vendor-data layers at boot). */
export function userDataFates(run: UserDataRun, locate: Locator, out: FateList): void {
  run.reports.forEach((r, index) => {
    const h = r.handled;
    const start = partStart(r.part.text, index, locate);
    if (r.disposition === 'failed') {
      out.push({ kind: 'dropped', path: '(root)', value: '(the whole part)', subject: null, at: start, by: null, reason: r.note, message: `this whole part is dropped: ${r.note}` });
      return;
    }
    if (r.disposition !== 'merged' || !h || h.kind === 'jsonp') return;
    const spec = specText(h.effective ?? [], h.defaulted);
    if (h.discarded) {
      out.push({ kind: 'dropped', path: '(root)', value: '(the whole part)', subject: null, at: start, by: null, spec, reason: r.note, message: `this whole part is dropped: its spec ${spec} has no dict() to merge a mapping with` });
      return;
    }
    for (const e of h.events ?? []) eventFates(e, locate, spec, out);
  });
}

/** Fates of one `mergemanydict` step whose values carry origins (drop-ins, cloud.cfg). */
function stepFates(step: MergeManyStep, locate: Locator, out: FateList): void {
  if (step.skipped) return;
  const spec = specText(step.spec ?? [], step.defaulted);
  for (const e of step.events ?? []) eventFates(e, locate, spec, out);
}

function eventFates(e: MergeEvent, locate: Locator, spec: string, out: FateList): void {
  const effect = eventEffect(e);
  if (!effect) return;
  const path = displayPath(e.path);
  const place = (o: Origin | undefined) => (o ? locate(o, 'value') : null);
  const push = (fate: Fate) => out.push({ ...fate, segments: e.path });
  const { kind, subject, reason } = effect;
  const by = place(effect.deciderOrigin);
  const at = place(effect.subjectOrigin);
  switch (kind) {
    case 'replaced':
    case 'deleted':
      // A merged list or mapping can hold values of several parts: each of them has this fate.
      for (const owner of owners(subject, effect.subjectOrigin)) {
        push({ kind, path, value: shortValue(owner.value), subject: owner.value, at: place(owner.origin), by, spec, reason, message: `${kind} by \`${path}\` of ${where(by)} (that part's spec: ${spec})${kind === 'deleted' ? ': its null deletes the key' : ''}` });
      }
      return;
    case 'lost':
      push({ kind, path, value: shortValue(subject), subject, at, by, spec, reason, message: lostMessage(effect, `this part's spec: ${spec}`, by) });
      return;
    case 'appended':
    case 'prepended':
      push({ kind, path, value: `${effect.count} item(s)`, subject: null, at, by, spec, reason, message: `${kind} ${kind === 'appended' ? 'after' : 'before'} the items of ${where(by)} (this part's spec: ${spec})` });
      return;
  }
}

/** How a lost value's fate is said, with the spec that decided (`this part's spec: …`, `vendor-data's spec: …`). */
function lostMessage(effect: EventEffect, spec: string, by: SourceLocation | null): string {
  if (effect.how === 'iterated') return `lost: ${effect.reason.replace(/ a (\w+)$/, ' this $1')}: ${iterated(effect.subject)} (${spec})`;
  if (effect.how === 'dropped-items') return `lost: ${effect.reason} (${spec})`;
  return `lost: ${effect.reason} (${spec}), so ${where(by)} keeps its value`;
}

/** Boot: user-data's and vendor-data's own merges, then the layering (user-data over vendor-data over system config). */
function bootFates(boot: BootResult, outcome: Outcome, out: FateList): void {
  const layers = outcome.inputs.layers ?? {};
  const layerValues = new Map<BootLayer, Map<string, SourceLocation | null>>();
  const provenance = (value: PyValue | null, locate: Locator) => (value === null ? new Map<string, SourceLocation | null>() : provenanceByDisplay(value, locate));
  for (const [layer, run] of [
    ['user-data', boot.userData],
    ['vendor-data2', boot.vendor2],
    ['vendor-data', boot.vendor],
  ] as const) {
    if (!run || run.fatal) continue;
    const locate = userDataLocator(run);
    userDataFates(run, locate, out);
    layerValues.set(layer, provenance(run.result, locate));
  }
  const systemTexts = [...boot.system.files.map((f) => (f.read ? { name: f.file.name, text: f.read.text } : null)), boot.system.cloudCfg ? { name: cloudCfgName(outcome.inputs), text: boot.system.cloudCfg.read.text } : null];
  if (layers.confd?.length || layers.cloudCfg) layerValues.set('base', provenance(boot.system.value, textLocator(systemTexts)));
  boot.layers.forEach(({ layer, step }, i) => {
    if (!step || i === 0) return;
    const spec = specText(step.spec ?? [], step.defaulted) + (step.leftoverMergeType ? ', from the merge_type left in its cloud-config.txt' : '');
    const mine = layerValues.get(layer);
    const owner = (path: string) => {
      for (const earlier of boot.layers.slice(0, i)) {
        const found = layerValues.get(earlier.layer)?.get(path);
        if (found !== undefined) return { layer: earlier.layer, at: found };
      }
      return { layer: boot.layers[0].layer, at: null };
    };
    for (const e of step.events ?? []) {
      const effect = eventEffect(e);
      if (!effect) continue;
      const path = displayPath(e.path);
      const other = owner(path);
      const here = mine?.get(path) ?? null;
      const { subject, reason } = effect;
      switch (effect.kind) {
        case 'lost':
          // A higher layer's value kept over this layer's is how layering is meant to work: overridden.
          if (effect.how === 'kept-other') out.push({ kind: 'overridden', path, value: shortValue(subject), subject, at: here, by: other.at, spec, reason, message: `overridden by ${other.layer}: \`${path}\` of ${where(other.at)} wins over ${layer} (${layer}'s spec: ${spec})` });
          else out.push({ kind: 'lost', path, value: shortValue(subject), subject, at: here, by: other.at, spec, reason, message: lostMessage(effect, `${layer}'s spec: ${spec}`, other.at) });
          break;
        case 'replaced':
        case 'deleted':
          out.push({ kind: effect.kind, path, value: shortValue(subject), subject, at: other.at, by: here, spec, reason, message: `${effect.kind} by ${layer}'s ${effect.kind === 'deleted' ? 'null ' : ''}\`${path}\` of ${where(here)} (${layer}'s spec: ${spec})` });
          break;
        case 'appended':
        case 'prepended':
          out.push({ kind: effect.kind, path, value: `${effect.count} item(s)`, subject: null, at: here, by: other.at, spec, reason, message: `${effect.kind} ${effect.kind === 'appended' ? 'after' : 'before'} ${other.layer}'s items at ${where(other.at)} (${layer}'s spec: ${spec})` });
          break;
      }
    }
  });
}

/** What adding a value that is not a list does: Python iterates it (a mapping gives its keys, a string its characters). */
function iterated(value: PyValue): string {
  return value instanceof PyDict ? 'only its keys are added, its values are lost' : typeof value === 'string' ? 'it is added character by character' : 'its items are added one by one';
}

/** The fates found so far, capped at MAX_FATES. */
export class FateList {
  private readonly fates: Fate[] = [];
  private omitted = 0;

  push(fate: Fate): void {
    if (this.fates.length >= MAX_FATES) this.omitted++;
    else this.fates.push(fate);
  }

  report(): FateReport {
    const order = (l: SourceLocation | null) => (l ? [l.file, l.line, l.character] : ['\uffff', 0, 0]);
    const sorted = this.fates.slice().sort((a, b) => {
      const [fa, la, ca] = order(a.at);
      const [fb, lb, cb] = order(b.at);
      return fa < fb ? -1 : fa > fb ? 1 : (la as number) - (lb as number) || (ca as number) - (cb as number);
    });
    return { fates: sorted, omitted: this.omitted };
  }
}

/**
 * The value and, inside it, every value another part wrote (a merged list holds the items of
 * several parts): `origin` is where each one was written. Shared and cyclic values are walked once.
 */
function owners(value: PyValue, origin: Origin | undefined): Array<{ value: PyValue; origin: Origin | undefined }> {
  const out = [{ value, origin }];
  const seen = new Set<object>();
  const walk = (v: PyValue, source: number | undefined) => {
    if (v === null || typeof v !== 'object' || seen.has(v) || out.length > MAX_FATES) return;
    seen.add(v);
    const children: Array<{ value: PyValue; origin: Origin | undefined }> = [];
    if (Array.isArray(v)) {
      const origins = getListOrigins(v);
      v.forEach((item, i) => children.push({ value: item, origin: origins?.[i] }));
    } else if (v instanceof PyDict) {
      for (const { value: child, origin: o } of v.items()) children.push({ value: child, origin: o });
    }
    for (const child of children) {
      if (child.origin && child.origin.source !== source) out.push(child);
      walk(child.value, child.origin?.source ?? source);
    }
  };
  walk(value, origin?.source);
  return out;
}

/** The first line of a part, where a fate of the whole part is shown. */
function partStart(text: string | null, source: number, locate: Locator): SourceLocation | null {
  const end = text === null ? 0 : (() => {
    const nl = text.search(/\r|\n/);
    return nl < 0 ? text.length : nl;
  })();
  return locate({ source, value: { start: 0, end } }, 'value');
}

/** `30-app.yaml:4`, or words when the place is unknown. */
export function where(l: SourceLocation | null): string {
  return l ? fileLine(l) : 'an earlier value';
}

/** The fates of the kinds `--fail-on` names. */
export function fatesOfKinds(report: FateReport, kinds: readonly EffectKind[]): Fate[] {
  return report.fates.filter((f) => kinds.includes(f.kind));
}
