/**
 * The plan of a run's merged result and its pitfalls, placed in the run's files: what the CLI's `--plan`,
 * the preview's "Boot plan" section, the editor's diagnostics and hovers all read. User-data runs only
 * (the plan is of cloud-config.txt). A file written for another tool (otherTool.ts) is said once, as that,
 * instead of the pitfalls of its keys.
 */
import { PyValue } from '../py/values';
import { decodeUtf8Surrogateescape } from '../py/codecs';
import type { Locator } from '../outcome/locate';
import { Outcome, mergedValue } from '../outcome/run';
import type { Target } from '../version/target';
import { BootPlan, PlanOptions, planBoot } from './plan';
import { Pitfall, planPitfalls } from './pitfalls';
import { withOtherTools } from './otherTool';

export interface OutcomePlan {
  plan: BootPlan;
  pitfalls: Pitfall[];
  merged: PyValue | null;
  locate: Locator;
  /** Every file of the run is written for another tool: the plan is of the image alone, not of the files. */
  otherTool?: boolean;
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
  const pitfalls = planPitfalls(result.plan, merged, outcome.locate, text, { oncePerInstanceHints: options.oncePerInstanceHints });
  const named = withOtherTools(pitfalls, result.plan, merged, outcome.locate, outcome.inputs.files.map((f) => ({ name: f.name, text: text(f.name) })));
  return { plan: result.plan, pitfalls: named.pitfalls, merged, locate: outcome.locate, otherTool: named.otherTool };
}
