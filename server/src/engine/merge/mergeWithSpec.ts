/**
 * Values merged in order with one spec, as cloud-init does it: the spec parsed (a string, or a list of
 * [name, options]), its mergers constructed (`mergers.construct`), then `merger.merge(a, b)` from the
 * first value on. The CLI's `--spec` and `--batch` both merge this way; a failure says at which stage
 * cloud-init raised.
 */
import { PyValue } from '../py/values';
import { PyError } from '../py/errors';
import { CloudInitVersion, SpecError, parseListSpec, parseStringSpec } from '../spec/parse';
import { MergerFactory, constructMergers } from './construct';

export type SpecMergeStage = 'parse' | 'construct' | 'merge';

export type SpecMerge = { ok: true; value: PyValue } | { ok: false; error: PyError; stage: SpecMergeStage };

export function mergeWithSpec(spec: PyValue, values: readonly PyValue[], options: { version?: CloudInitVersion; modules?: ReadonlyMap<string, MergerFactory> } = {}): SpecMerge {
  let stage: SpecMergeStage = 'parse';
  try {
    const parsed = typeof spec === 'string' ? parseStringSpec(spec, 0, options.version) : parseListSpec(spec);
    stage = 'construct';
    const root = constructMergers(parsed.mergers, { modules: options.modules });
    stage = 'merge';
    let result = values[0];
    for (const v of values.slice(1)) result = root.merge(result, v);
    return { ok: true, value: result };
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return { ok: false, error: e, stage: e instanceof SpecError ? e.stage : stage };
  }
}
