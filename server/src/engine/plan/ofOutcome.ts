/**
 * The plan of a run's merged result and its pitfalls, placed in the run's files: what the CLI's `--plan`,
 * the preview's "Boot plan" section, the editor's diagnostics and hovers all read. User-data runs only
 * (the plan is of cloud-config.txt).
 */
import { PyValue } from '../py/values';
import { decodeUtf8Surrogateescape } from '../py/codecs';
import type { Locator } from '../outcome/locate';
import { Outcome, mergedValue } from '../outcome/run';
import type { Target } from '../version/target';
import { BootPlan, PlanOptions, planBoot } from './plan';
import { Pitfall, planPitfalls } from './pitfalls';

export interface OutcomePlan {
  plan: BootPlan;
  pitfalls: Pitfall[];
  merged: PyValue | null;
  locate: Locator;
}

/** The plan of a user-data outcome on `target`, or why there is none. */
export function planOfOutcome(outcome: Outcome, target: Target, options: PlanOptions = {}): OutcomePlan | { error: string } {
  if (outcome.kind !== 'user-data') return { error: outcome.kind === 'failed' ? `cloud-init fails: ${outcome.failure.message}` : `a boot plan is made of user-data, not of the ${outcome.mode} mode` };
  const run = outcome.run;
  if (run.fatal) return { error: `cloud-init processes none of this user-data: ${run.fatal.pyType}: ${run.fatal.message}` };
  const merged = mergedValue(outcome);
  const result = planBoot(merged, target, options);
  if (!result.ok) return { error: result.error };
  const texts = new Map<string, string | undefined>();
  const text = (file: string) => {
    if (!texts.has(file)) {
      const input = outcome.inputs.files.find((f) => f.name === file);
      texts.set(file, input && decodeUtf8Surrogateescape(input.bytes));
    }
    return texts.get(file);
  };
  return { plan: result.plan, pitfalls: planPitfalls(result.plan, merged, outcome.locate, text), merged, locate: outcome.locate };
}
