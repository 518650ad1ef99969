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
    const root = constructMergers(spec, { tracer: options.trace ? { event: (e) => events.push(e) } : undefined, modules: options.customMergers, pythonFrames: options.pythonFrames ?? PYTHON_RECURSION.mergeFramesMany });
    merged = root.merge(merged, value);
    steps.push({ index, skipped: false, spec, defaulted, specKey: extraction.key, leftoverMergeType: extraction.leftoverMergeType, events: options.trace ? events : undefined });
  }
  return { value: merged as PyDict, steps };
}
