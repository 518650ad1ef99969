/**
 * Which modules of an image read a top-level key, and whether any of them runs when the key is set: the
 * hover of a key and the completion of keys no module of the image reads. Said from one plan per image of
 * a config that sets every key some module reads: a module listed there runs for a key when it passes the
 * distro filter and the key activates it (or it has no activation keys), as at boot.
 */
import { PyDict } from '../py/values';
import type { Target } from '../version/target';
import { planFacts } from './facts';
import { BootPlan, PlanRow, Stage, STAGES, planBoot } from './plan';

export interface KeyReader {
  /** As the image's list names it (`write_files`), or the module file's name when no list has it. */
  module: string;
  stage: Stage | null;
  frequency: string | null;
  /** It runs when this key alone is set. */
  runs: boolean;
  /** It can run on this image (listed, not removed, verified on the distro or forced): activation aside. */
  onImage: boolean;
  /** Why it runs or is skipped, in cloud-init's terms; for a module in no list, that. */
  reason: string;
}

export interface KeyReaders {
  readers: KeyReader[];
  /** Some reader can run on this image: the key is read when the config activates it. */
  read: boolean;
}

const plans = new Map<string, BootPlan | null>();

/** The plan of a config setting every key a module reads, once per image. */
function everyKeyPlan(target: Target): BootPlan | null {
  const id = `${target.version}|${target.distro}|${target.cloudCfgVariant}`;
  if (!plans.has(id)) {
    const config = new PyDict();
    for (const key of Object.keys(planFacts(target.version).keyModules)) if (!/^cloud_(init|config|final)_modules$|^unverified_modules$/.test(key)) config.set(key, true);
    const result = planBoot(config, target);
    if (plans.size > 50) plans.clear();
    plans.set(id, result.ok ? result.plan : null);
  }
  return plans.get(id) ?? null;
}

/** The modules reading `key` on `target`; null when no module of that version reads it (not a module's key). */
export function keyReaders(target: Target, key: string): KeyReaders | null {
  const facts = planFacts(target.version);
  const owners = Object.hasOwn(facts.keyModules, key) ? facts.keyModules[key].filter((cc) => Object.hasOwn(facts.modules, cc)) : [];
  const plan = owners.length ? everyKeyPlan(target) : null;
  if (!plan) return null;
  const readers = owners.map((cc): KeyReader => {
    for (const stage of STAGES) {
      const row = plan.stages[stage].rows.find((r) => r.cc === cc);
      if (row) return reader(row, stage, key);
    }
    return { module: cc.slice(3), stage: null, frequency: facts.modules[cc].frequency, runs: false, onImage: false, reason: "in none of this image's module lists" };
  });
  return { readers, read: readers.some((r) => r.onImage) };
}

function reader(row: PlanRow, stage: Stage, key: string): KeyReader {
  const activate = row.meta?.activate ?? [];
  const base = { module: row.module, stage, frequency: row.frequency };
  if (!row.runs) return { ...base, runs: false, onImage: false, reason: row.reason };
  if (activate.length && !activate.includes(key)) return { ...base, runs: false, onImage: true, reason: `it runs only when one of ${activate.join(', ')} is set` };
  return { ...base, runs: true, onImage: true, reason: activate.length ? `activated by ${key}` : row.reason };
}
