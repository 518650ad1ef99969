/**
 * `util.mergemanydict` (spec §4.1): merge each truthy source INTO the
 * accumulation with that source's own spec, default `list()+dict()+str()`;
 * so, by default, the first source wins.
 */
import { PyDict, PySet, PyValue, pyClassName, pyTruthy } from '../py/values';
import { PyError } from '../py/errors';
import { ParsedMerger, extractBodySpec, CloudInitVersion } from '../spec/parse';
import { DEFAULT_SYSTEM_SPEC } from '../spec/defaults';
import { constructMergers, MergerFactory } from '../merge/construct';
import { MergeEvent } from '../merge/trace';
import { PYTHON_RECURSION } from '../limits';

export interface MergeManyStep {
  index: number;
  skipped: boolean;
  spec?: ParsedMerger[];
  defaulted?: boolean;
  specKey?: 'merge_how' | 'merge_type' | null;
  leftoverMergeType?: boolean;
  events?: MergeEvent[];
}

export interface MergeManyOptions {
  reverse?: boolean;
  version?: CloudInitVersion;
  trace?: boolean;
  customMergers?: ReadonlyMap<string, MergerFactory>;
  /** Python frames a merge may use before RecursionError (default: as `util.mergemanydict` is called for system config). */
  pythonFrames?: number;
  /** Copy the accumulated mapping at every source, as cloud-init does, instead of changing our own copies in place (the same result). */
  copyEachStep?: boolean;
}

export interface MergeManyResult {
  value: PyDict;
  steps: MergeManyStep[];
}

/** Throws PyError where cloud-init raises (bad spec, non-mapping source). */
export function mergeMany(sources: PyValue[], options: MergeManyOptions = {}): MergeManyResult {
  const order = sources.map((value, index) => ({ value, index }));
  if (options.reverse) order.reverse();
  let merged: PyValue = new PyDict();
  const steps: MergeManyStep[] = [];
  // cloud-init copies the accumulated mapping at every source (sources × its size: 10,000 drop-ins that each
  // add to `network:` took 40 s). The copies made here are changed in place by later sources instead; the
  // result is the same. Not with custom mergers (their code may keep what it is given).
  let owned = options.customMergers?.size || options.copyEachStep ? undefined : new WeakSet<object>();
  for (const { value, index } of order) {
    if (!pyTruthy(value)) {
      steps.push({ index, skipped: true });
      continue;
    }
    if (!(value instanceof PyDict)) {
      // `cfg.pop("merge_how", None)` on something that is not a mapping.
      if (Array.isArray(value)) throw new PyError('TypeError', 'pop expected at most 1 argument, got 2');
      if (value instanceof PySet) throw new PyError('TypeError', 'set.pop() takes no arguments (2 given)');
      throw new PyError('AttributeError', `'${pyClassName(value)}' object has no attribute 'pop'`);
    }
    const { extraction, parse } = extractBodySpec(value, undefined, options.version);
    let spec = parse().mergers;
    const defaulted = spec.length === 0;
    if (defaulted) spec = DEFAULT_SYSTEM_SPEC().mergers;
    const events: MergeEvent[] = [];
    let keptContainer = false;
    const tracer = options.trace
      ? {
          event: (e: MergeEvent) => {
            events.push(e);
            if (e.kind === 'kept' && e.old !== null && typeof e.old === 'object') keptContainer = true;
          },
        }
      : undefined;
    const root = constructMergers(spec, { tracer, modules: options.customMergers, pythonFrames: options.pythonFrames ?? PYTHON_RECURSION.mergeFramesMany, ownedCopies: owned });
    merged = root.merge(merged, value);
    // A kept mapping or list stays in the result, and its event shows it as it was: later sources copy it (and all).
    if (keptContainer && owned) owned = new WeakSet();
    steps.push({ index, skipped: false, spec, defaulted, specKey: extraction.key, leftoverMergeType: extraction.leftoverMergeType, events: options.trace ? events : undefined });
  }
  return { value: merged as PyDict, steps };
}
