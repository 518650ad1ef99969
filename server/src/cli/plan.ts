/**
 * `cloud-config-merge --plan FILE...`: what cloud-init does at boot with the merged result of the FILEs on
 * an image (`--distro`, `--cloud-init-version`, `--cloud-cfg`): per stage the modules in order, how often
 * each runs, whether it runs or why cloud-init skips it, what the first boot, a reboot and a new instance
 * run, and the pitfalls (our own checks of the plan) at the file:line:column where the value is written.
 * Text (a timeline) or JSON; exit 1 when a pitfall is an error.
 */
import { mergedValue, SetInputs, runSet } from '../engine/outcome/run';
import { decodeUtf8Surrogateescape } from '../engine/py/codecs';
import { planBoot } from '../engine/plan/plan';
import { planTarget, DEFAULT_PLAN_DISTRO } from '../engine/plan/facts';
import { planPitfalls } from '../engine/plan/pitfalls';
import { planJson, planText } from '../engine/render/planText';
import { readConf } from '../engine/system/readConf';
import { CliOptions, UsageError } from './args';
import { CliIO, CloudInitFailure, read, runOptions } from './main';

export function planCommand(o: CliOptions, io: CliIO, inputs: SetInputs): number {
  if (o.mode !== 'user-data' && o.mode !== 'handler') throw new UsageError(`--plan works with the user-data and handler modes, not ${o.mode}`);
  const version = o.targetVersion ?? o.version;
  const target = planTarget(version, o.distro ?? DEFAULT_PLAN_DISTRO);
  if (typeof target === 'string' && o.cloudCfg === undefined) throw new UsageError(target);
  const outcome = runSet(o.mode, inputs, { ...runOptions(o, io), detail: 'full' });
  if (outcome.kind === 'failed') throw outcome.failure.thrown;
  if (outcome.kind !== 'user-data') throw new UsageError(`--plan works with the user-data and handler modes, not ${o.mode}`);
  if (outcome.run.fatal) throw new CloudInitFailure(`${outcome.run.fatal.pyType}: ${outcome.run.fatal.message} (no user-data is processed at all)`);
  const cloudCfg = o.cloudCfg === undefined ? undefined : { name: o.cloudCfg, value: readConf({ name: o.cloudCfg, bytes: read(o, o.cloudCfg) }).value };
  const merged = mergedValue(outcome);
  const resolved = typeof target === 'string' ? { version, distro: o.distro ?? DEFAULT_PLAN_DISTRO, cloudCfgVariant: '', netplan: 'none' as const } : target;
  const result = planBoot(merged, resolved, cloudCfg ? { cloudCfg } : {});
  if (!result.ok) throw new CloudInitFailure(result.error);
  const texts = new Map(inputs.files.map((f) => [f.name, f.bytes]));
  const pitfalls = planPitfalls(result.plan, merged, outcome.locate, (file) => {
    const bytes = texts.get(file);
    return bytes && decodeUtf8Surrogateescape(bytes);
  });
  if (o.format === 'json') io.stdout(JSON.stringify(planJson(result.plan, pitfalls, merged, outcome.locate), null, o.pretty ? 2 : undefined) + '\n');
  else io.stdout(planText(result.plan, pitfalls, merged, outcome.locate));
  return pitfalls.some((p) => p.severity === 'error') ? 1 : 0;
}
