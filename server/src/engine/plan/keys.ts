/**
 * Which modules of an image read a top-level key, and whether any of them runs when the key is set: the
 * hover of a key and the completion of keys no module of the image reads. Said from the plan of a config
 * that sets only that key (its own cloud_*_modules aside), so activation, the distro filter and the image's
 * module lists decide as at boot.
 */
import { PyDict } from '../py/values';
import type { Target } from '../version/target';
import { planFacts } from './facts';
import { Stage, STAGES, planBoot } from './plan';

export interface KeyReader {
  /** As the image's list names it (`write_files`), or the module file's name when no list has it. */
  module: string;
  stage: Stage | null;
  frequency: string | null;
  runs: boolean;
  /** Why it runs or is skipped, in cloud-init's terms; for a module in no list, that. */
  reason: string;
}

export interface KeyReaders {
  readers: KeyReader[];
  /** Some reader runs when the key is set. */
  read: boolean;
}

const cache = new Map<string, KeyReaders | null>();

/** The modules reading `key` on `target`; null when no module of that version reads it (not a module's key). */
export function keyReaders(target: Target, key: string): KeyReaders | null {
  const id = `${target.version}|${target.distro}|${target.cloudCfgVariant}|${key}`;
  if (cache.has(id)) return cache.get(id) ?? null;
  const facts = planFacts(target.version);
  const owners = Object.hasOwn(facts.keyModules, key) ? facts.keyModules[key].filter((cc) => Object.hasOwn(facts.modules, cc)) : [];
  let found: KeyReaders | null = null;
  const config = new PyDict();
  config.set(key, true);
  const result = owners.length ? planBoot(config, target) : undefined;
  if (result?.ok) {
    const readers = owners.map((cc): KeyReader => {
      for (const stage of STAGES) {
        const row = result.plan.stages[stage].rows.find((r) => r.cc === cc);
        if (row) return { module: row.module, stage, frequency: row.frequency, runs: row.runs, reason: row.reason };
      }
      return { module: cc.slice(3), stage: null, frequency: facts.modules[cc].frequency, runs: false, reason: "in none of this image's module lists" };
    });
    found = { readers, read: readers.some((r) => r.runs) };
  }
  if (cache.size > 5000) cache.clear();
  cache.set(id, found);
  return found;
}
