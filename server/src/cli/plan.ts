/**
 * `cloud-config-merge --plan FILE...`: what cloud-init does at boot with the merged result of the FILEs on
 * an image (`--distro`, `--cloud-init-version`, `--cloud-cfg`): per stage the modules in order, how often
 * each runs, whether it runs or why cloud-init skips it, what the first boot, a reboot and a new instance
 * run, and the pitfalls (our own checks of the plan) at the file:line:column where the value is written.
 * Text (a timeline) or JSON; exit 1 when a pitfall is an error.
 */
import { SetInputs, runSet } from '../engine/outcome/run';
import { planOfOutcome } from '../engine/plan/ofOutcome';
import { planTarget } from '../engine/plan/facts';
import type { PlanOptions } from '../engine/plan/plan';
import type { Target } from '../engine/version/target';
import { planJson, planText } from '../engine/render/planText';
import { readConf } from '../engine/system/readConf';
import { CliOptions, UsageError } from './args';
import { CliIO, CloudInitFailure, read, runOptions } from './io';

/**
 * The image a plan is made for (`--plan`, the preview's "Boot plan", `--check`'s pitfalls): the target's
 * version and distro with the cloud.cfg the plan renders for them, or the custom one `--cloud-cfg` names
 * (then a distro that renders no cloud.cfg is planned too). A string: why there is no plan.
 */
export function planInputsOf(o: CliOptions): { target: Target; options: PlanOptions } | string {
  const { version, distro, netplan } = o.target;
  const target = planTarget(version, distro);
  if (typeof target === 'string' && o.cloudCfg === undefined) return target;
  const cloudCfg = o.cloudCfg === undefined ? undefined : { name: o.cloudCfg, value: readConf({ name: o.cloudCfg, bytes: read(o, o.cloudCfg) }).value };
  const resolved = typeof target === 'string' ? { version, distro, cloudCfgVariant: '', netplan } : { ...target, netplan };
  return { target: resolved, options: { ...(cloudCfg ? { cloudCfg } : {}), ...(o.planHints ? { oncePerInstanceHints: true } : {}) } };
}

export function planCommand(o: CliOptions, io: CliIO, inputs: SetInputs): number {
  if (o.mode !== 'user-data' && o.mode !== 'handler') throw new UsageError(`--plan works with the user-data and handler modes, not ${o.mode}`);
  const planInputs = planInputsOf(o);
  if (typeof planInputs === 'string') throw new UsageError(planInputs);
  const outcome = runSet(o.mode, inputs, { ...runOptions(o, io), detail: 'full' });
  if (outcome.kind === 'failed') throw outcome.failure.thrown;
  if (outcome.kind === 'user-data' && outcome.run.fatal) throw new CloudInitFailure(`${outcome.run.fatal.pyType}: ${outcome.run.fatal.message} (no user-data is processed at all)`);
  const result = planOfOutcome(outcome, planInputs.target, planInputs.options);
  if ('error' in result) throw new CloudInitFailure(result.error);
  const { plan, pitfalls, merged, locate, otherTool } = result;
  if (o.format === 'json') io.stdout(JSON.stringify(planJson(plan, pitfalls, merged, locate, otherTool), null, o.pretty ? 2 : undefined) + '\n');
  else io.stdout(planText(plan, pitfalls, merged, locate, otherTool));
  return pitfalls.some((p) => p.severity === 'error') ? 1 : 0;
}
