/**
 * The boot plan: for a merged cloud-config and a target image (cloud-init version, distro, cloud.cfg), what
 * cloud-init's `Modules.run_section` decides at boot, stage by stage, without running anything: which module
 * each entry of `cloud_init_modules` / `cloud_config_modules` / `cloud_final_modules` names (renamed and
 * removed modules), its frequency (the entry's own when cloud-init accepts it, else the module's meta), and
 * whether it runs or why it is skipped (no `activate_by_schema_keys` key in the config; distro not in the
 * module's `distros` unless `unverified_modules` names it); then which of them the semaphores let run on the
 * first boot, on a reboot and on the first boot of a new instance. The config is cloud-init's own merge of
 * the user's cloud-config over the system config (`ConfigMerger`: the user's module lists and
 * `unverified_modules` win). The facts come from each version's code (facts.ts).
 */
import { PyDict, PySet, PyTuple, PyValue, pyClassName, pyTruthy } from '../py/values';
import { PyError } from '../py/errors';
import { pyReprForMessage } from '../py/repr';
import { jsonToPy } from '../schema/pyjsonschema';
import { mergeMany } from '../system/mergemany';
import { deepCopy } from '../system/boot';
import type { Target } from '../version/target';
import { ModuleMeta, PlanFacts, planFacts } from './facts';

export const STAGES = ['init', 'config', 'final'] as const;
export type Stage = (typeof STAGES)[number];

/** The config key of each stage's module list. */
export const STAGE_KEYS: Readonly<Record<Stage, string>> = { init: 'cloud_init_modules', config: 'cloud_config_modules', final: 'cloud_final_modules' };

/** What run_section decides for one entry of a module list. */
export type Decision = 'run' | 'run_forced' | 'skip_inactive' | 'skip_distro' | 'skip_removed' | 'skip_not_found';

export interface PlanRow {
  /** The name as the list gives it and cloud-init's log names it (`write-files`, `users_groups`). */
  module: string;
  /** The module file it resolves to (`cc_write_files`), after renames; null for an empty name. */
  cc: string | null;
  /** Index in its list (after the entries cloud-init ignores: empty ones, mappings without `name`). */
  position: number;
  /** The frequency it runs with (`once-per-instance`, `always`, `once`); null when no module is found. */
  frequency: string | null;
  /** Whether the frequency is the list entry's own or the module's meta. */
  frequencyFrom?: 'list' | 'module';
  meta?: ModuleMeta;
  runs: boolean;
  decision: Decision;
  /** Why, in cloud-init's terms. */
  reason: string;
  /** The `activate_by_schema_keys` present in the config (the keys that made it run). */
  activatedBy?: string[];
  /** Extra arguments of the list entry. */
  args?: PyValue[];
}

export interface StagePlan {
  rows: PlanRow[];
  /** Where the module list comes from: the user's own `cloud_*_modules`, or the image's cloud.cfg. */
  listFrom: 'user' | 'cloud.cfg' | 'none';
  /** cloud-init raises reading this list (the stage runs no module). */
  error?: string;
  /** The modules (`cc_*`, after renames) the image's own list of this stage names, whether or not the user's replaces it. */
  imageModules: string[];
}

export interface Boots {
  /** `stage:module` of every module that runs on the first boot of an instance, in order. */
  first: string[];
  /** ...on a reboot of the same instance. */
  reboot: string[];
  /** ...on the first boot of a new instance made from the same image (a new instance id). */
  newInstance: string[];
}

export interface BootPlan {
  target: Target;
  /** `cloud-init --version` of the reproduced release. */
  cloudInit: string;
  /** Which cloud.cfg: the file the user gave, or the variant of the version. */
  cloudCfg: string;
  /** The cloud.cfg is the file the user gave (`--cloud-cfg`), not the image's rendered one. */
  cloudCfgGiven: boolean;
  /** `system_info.distro` the image's cloud.cfg names (the target's distro replaces it). */
  cloudCfgDistro: string | null;
  /** The user `default` in `users` stands for on this image (`system_info.default_user.name`). */
  defaultUser: string | null;
  /**
   * The keys a plan reads (PLAN_KEYS) as the modules see them, cloud-init's merge of the user's over the
   * image's: `users` (the image's cloud.cfg has `users: [default]`), `disable_root`...
   */
  config: PyDict;
  stages: Record<Stage, StagePlan>;
  boots: Boots;
  /** Top-level keys of the config cloud-init's modules see (the user's and the system config's). */
  configKeys: ReadonlySet<string>;
  /** `unverified_modules` as cloud-init reads it. */
  unverified: PyValue | undefined;
  facts: PlanFacts;
}

export type PlanResult = { ok: true; plan: BootPlan } | { ok: false; error: string };

/** The keys whose value a plan reads from the merged config (the rest only count by presence). */
const PLAN_KEYS = ['cloud_init_modules', 'cloud_config_modules', 'cloud_final_modules', 'unverified_modules', 'merge_how', 'merge_type', 'users', 'disable_root', 'allow_public_ssh_keys'];

/** A cloud.cfg the user gives instead of the image's (`--cloud-cfg FILE`): its value, as `util.read_conf` reads it. */
export interface PlanOptions {
  cloudCfg?: { name: string; value: PyValue };
  /**
   * Also say, as hints, which keys only once-per-instance modules read (editing them on a running instance
   * changes nothing): true of most keys of most files, so off unless asked for (the CLI's `--plan-hints`).
   */
  oncePerInstanceHints?: boolean;
}

/**
 * The plan of `merged` (the user's merged cloud-config, as cloud-config.txt holds it; null or a non-mapping
 * reads as `{}`, as `util.read_conf` does) on `target`.
 */
export function planBoot(merged: PyValue | null, target: Target, options: PlanOptions = {}): PlanResult {
  try {
    return plan(merged, target, options);
  } catch (e) {
    if (e instanceof PlanCrash) return { ok: false, error: `cloud-init fails deciding the modules: ${e.message}` };
    if (e instanceof PyError) return { ok: false, error: `cloud-init fails merging the config: ${e.pyType}: ${e.message}` };
    throw e;
  }
}

/** The system config a plan reads: top-level keys, the values of PLAN_KEYS, the distro and default user it names. */
interface SystemConfig {
  keys: string[];
  values: PyDict;
  distro: string | null;
  defaultUser: string | null;
  name: string;
}

function systemConfig(facts: PlanFacts, target: Target, options: PlanOptions): SystemConfig | string {
  const values = (table: Record<string, number>) => {
    const d = new PyDict();
    for (const [k, i] of Object.entries(table)) d.set(k, jsonToPy(facts.lists[i]));
    return d;
  };
  if (options.cloudCfg) {
    // stages.fetch_base_config: util.mergemanydict([builtin config, cloud.cfg], reverse=True): cloud.cfg wins.
    const given = options.cloudCfg.value instanceof PyDict ? options.cloudCfg.value : new PyDict();
    const part = new PyDict();
    for (const k of PLAN_KEYS) if (given.has(k)) part.set(k, deepCopy(given.get(k) as PyValue));
    const info = given.get('system_info');
    const user = info instanceof PyDict ? info.get('default_user') : undefined;
    const name = user instanceof PyDict ? user.get('name') : undefined;
    const distro = info instanceof PyDict ? info.get('distro') : undefined;
    return {
      keys: [...facts.keySets[facts.builtin.keys], ...given.keys().filter((k): k is string => typeof k === 'string')],
      values: mergeMany([part, values(facts.builtin.values)], { version: target.version }).value,
      distro: typeof distro === 'string' ? distro : null,
      defaultUser: typeof name === 'string' ? name : null,
      name: options.cloudCfg.name,
    };
  }
  const variant = Object.hasOwn(facts.variants, target.cloudCfgVariant) ? facts.variants[target.cloudCfgVariant] : undefined;
  if (!variant) return `cloud-init ${target.version} has no cloud.cfg variant '${target.cloudCfgVariant}' (it has ${Object.keys(facts.variants).sort().join(', ')})`;
  return { keys: facts.keySets[variant.keys], values: values(variant.values), distro: variant.distro, defaultUser: variant.defaultUser, name: `the ${target.cloudCfgVariant} cloud.cfg of cloud-init ${target.version}` };
}

function plan(merged: PyValue | null, target: Target, options: PlanOptions): PlanResult {
  const facts = planFacts(target.version);
  const system = systemConfig(facts, target, options);
  if (typeof system === 'string') return { ok: false, error: system };
  const user = merged instanceof PyDict ? merged : new PyDict();
  const configKeys = new Set<string>(system.keys);
  for (const k of user.keys()) if (typeof k === 'string') configKeys.add(k);

  // ConfigMerger: util.mergemanydict([user config, system config]); only the keys a plan reads are merged
  // (a top-level key's merge never depends on another key's value).
  const userPart = new PyDict();
  for (const k of PLAN_KEYS) if (user.has(k)) userPart.set(k, deepCopy(user.get(k) as PyValue));
  const cfg = mergeMany([userPart, system.values], { version: target.version }).value;
  const unverified = cfg.has('unverified_modules') ? cfg.get('unverified_modules') : undefined;
  const stages = {} as Record<Stage, StagePlan>;
  for (const stage of STAGES) {
    const key = STAGE_KEYS[stage];
    const listFrom = user.has(key) ? 'user' : system.values.has(key) ? 'cloud.cfg' : 'none';
    stages[stage] = { ...runSection(cfg.get(key), facts, configKeys, target.distro, unverified), listFrom, imageModules: listedModules(system.values.get(key), facts) };
  }
  const plan: BootPlan = { target, cloudInit: facts.cloudInit, cloudCfg: system.name, cloudCfgGiven: options.cloudCfg !== undefined, cloudCfgDistro: system.distro, defaultUser: system.defaultUser, config: cfg, stages, boots: { first: [], reboot: [], newInstance: [] }, configKeys, unverified, facts };
  plan.boots = boots(plan);
  return { ok: true, plan };
}

interface RawEntry {
  mod: string;
  freq?: string;
  args?: PyValue[];
  /** Index of the item in the list as written (cloud-init skips empty items and mappings without `name`). */
  index: number;
}

/** `Modules._read_modules`: the entries of a module list (raises where cloud-init does). */
function readModules(value: PyValue | undefined): RawEntry[] {
  const out: RawEntry[] = [];
  if (value === undefined || !pyTruthy(value)) return out;
  pyIterate(value).forEach((item, index) => {
    if (!pyTruthy(item)) return;
    if (typeof item === 'string') out.push({ mod: pyStrip(item), index });
    else if (Array.isArray(item)) {
      const entry: RawEntry = { mod: strip(item[0]), index };
      if (item.length >= 2) entry.freq = strip(item[1]);
      if (item.length >= 3) entry.args = item.slice(2);
      out.push(entry);
    } else if (item instanceof PyDict) {
      if (!item.has('name')) return;
      const entry: RawEntry = { mod: strip(item.get('name') as PyValue), index };
      if (item.has('frequency')) entry.freq = strip(item.get('frequency') as PyValue);
      if (item.has('args')) {
        const args = item.get('args') as PyValue;
        entry.args = pyTruthy(args) ? (Array.isArray(args) ? args : [args]) : [];
      }
      out.push(entry);
    } else throw new PyError('TypeError', `Failed to read '${pyReprForMessage(item)}' item in config, unknown type ${pyClassName(item)}`);
  });
  return out;
}

/**
 * The entries of a module list as cloud-init reads them, each with the index of its item in the list as
 * written (a row's `position` is its index here); null when cloud-init cannot read the list.
 */
export function moduleListEntries(value: PyValue | undefined): Array<{ module: string; index: number }> | null {
  try {
    return readModules(value).map((e) => ({ module: e.mod, index: e.index }));
  } catch (e) {
    if (e instanceof PyError) return null;
    throw e;
  }
}

/** `for item in value` over a loaded value. */
function pyIterate(value: PyValue): PyValue[] {
  if (Array.isArray(value)) return value;
  if (value instanceof PyTuple) return value.items;
  if (typeof value === 'string') return Array.from(value);
  if (value instanceof PyDict) return value.keys();
  if (value instanceof PySet) return value.values();
  throw new PyError('TypeError', `'${pyClassName(value)}' object is not iterable`);
}

function strip(v: PyValue): string {
  if (typeof v !== 'string') throw new PyError('AttributeError', `'${pyClassName(v)}' object has no attribute 'strip'`);
  return pyStrip(v);
}

/** `str.strip()` with no argument: Python's whitespace. */
function pyStrip(s: string): string {
  return s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, '');
}

/** `form_module_name`: `write-files.py` -> `cc_write_files`; null for an empty name. */
export function formModuleName(name: string): string | null {
  let canon = name.replace(/-/g, '_');
  if (canon.toLowerCase().endsWith('.py')) canon = canon.slice(0, -3);
  canon = pyStrip(canon);
  if (!canon) return null;
  return canon.startsWith('cc_') ? canon : `cc_${canon}`;
}

/**
 * `name in unverified_modules`, as Python's `in` reads each type. `strings`: the strings of a list or tuple,
 * found on the first call of a section (each entry of a long module list asks).
 */
function namedIn(name: string, container: PyValue | undefined, strings: { of?: Set<string> }): boolean {
  if (container === undefined) return false;
  if (typeof container === 'string') return container.includes(name);
  if (Array.isArray(container) || container instanceof PyTuple) {
    strings.of ??= new Set((Array.isArray(container) ? container : container.items).filter((x): x is string => typeof x === 'string'));
    return strings.of.has(name);
  }
  if (container instanceof PyDict || container instanceof PySet) return container.has(name);
  throw new PyError('TypeError', `argument of type '${pyClassName(container)}' is not iterable`);
}

/** `Modules.run_section` for one list, with `_fixup_modules` and the distro / unverified_modules filter. */
/** The modules a list names (`cc_*`, after renames), as run_section reads it; none when cloud-init cannot read it. */
function listedModules(list: PyValue | undefined, facts: PlanFacts): string[] {
  try {
    return readModules(list)
      .map((e) => formModuleName(e.mod))
      .filter((cc): cc is string => cc !== null)
      .map((cc) => (Object.hasOwn(facts.renamed, cc) ? facts.renamed[cc] : cc));
  } catch (e) {
    if (e instanceof PyError) return [];
    throw e;
  }
}

function runSection(list: PyValue | undefined, facts: PlanFacts, keys: ReadonlySet<string>, distro: string, unverified: PyValue | undefined): Omit<StagePlan, 'listFrom' | 'imageModules'> {
  let raw: RawEntry[];
  try {
    raw = readModules(list);
  } catch (e) {
    if (e instanceof PyError) return { rows: [], error: `${e.pyType}: ${e.message}` };
    throw e;
  }
  const rows: PlanRow[] = [];
  const unverifiedStrings: { of?: Set<string> } = {};
  // What cloud-init decides depends on the entry's name and frequency only (the keys, distro and
  // unverified_modules are the section's): decided once per name and frequency, for long lists.
  const decided = new Map<string, Omit<PlanRow, 'module' | 'position' | 'args'>>();
  const push = (row: PlanRow, key: string) => {
    rows.push(row);
    const { module: _module, position: _position, args: _args, ...decision } = row;
    decided.set(key, decision);
  };
  raw.forEach((entry, position) => {
    const base = { module: entry.mod, position, ...(entry.args?.length ? { args: entry.args } : {}) };
    const key = JSON.stringify([entry.mod, entry.freq ?? null]);
    const known = decided.get(key);
    if (known) {
      rows.push({ ...base, ...known, ...(known.activatedBy ? { activatedBy: [...known.activatedBy] } : {}) });
      return;
    }
    let cc = formModuleName(entry.mod);
    if (cc === null) {
      push({ ...base, cc: null, frequency: null, runs: false, decision: 'skip_not_found', reason: 'an empty module name: cloud-init ignores the entry' }, key);
      return;
    }
    if (Object.hasOwn(facts.renamed, cc)) cc = facts.renamed[cc];
    const meta = Object.hasOwn(facts.modules, cc) ? facts.modules[cc] : undefined;
    if (!meta) {
      const removed = facts.removed.includes(cc);
      push({ ...base, cc, frequency: null, runs: false, decision: removed ? 'skip_removed' : 'skip_not_found', reason: removed ? `module ${cc.slice(3)} has been removed from this cloud-init` : `could not find module named ${cc} in this cloud-init` }, key);
      return;
    }
    // An entry's own frequency counts only when cloud-init knows it; an empty one stays empty (runs every boot).
    const own = entry.freq !== undefined && (entry.freq === '' || facts.frequencies.includes(entry.freq));
    const row: PlanRow = { ...base, cc, frequency: own ? (entry.freq as string) : meta.frequency, frequencyFrom: own ? 'list' : 'module', meta, runs: false, decision: 'skip_inactive', reason: '' };
    const present = meta.activate.filter((k) => keys.has(k));
    if (meta.activate.length && !present.length) {
      row.reason = `no applicable config is provided: none of its activate_by_schema_keys (${meta.activate.join(', ')}) is set`;
    } else if (meta.distros.length && !(meta.distros.length === 1 && meta.distros[0] === facts.allDistros) && !meta.distros.includes(distro)) {
      let forced: boolean;
      try {
        forced = namedIn(entry.mod, unverified, unverifiedStrings);
      } catch (e) {
        if (e instanceof PyError) throw new PlanCrash(`${e.pyType}: ${e.message}`);
        throw e;
      }
      if (forced) Object.assign(row, { runs: true, decision: 'run_forced', reason: `not verified on distro '${distro}' (only ${meta.distros.join(', ')}), run because unverified_modules names it` });
      else Object.assign(row, { decision: 'skip_distro', reason: `not verified on distro '${distro}' (only ${meta.distros.join(', ')}); unverified_modules can force it` });
    } else {
      Object.assign(row, { runs: true, decision: 'run', reason: present.length ? `activated by ${present.join(', ')}` : 'no activate_by_schema_keys: cloud-init always calls it (it may find nothing to do)' });
    }
    if (present.length) row.activatedBy = present;
    push(row, key);
  });
  return { rows };
}

/** run_section raising where cloud-init does (`unverified_modules` of a type `in` cannot read). */
class PlanCrash extends Error {}

/**
 * The semaphores of `Cloud.run`: an `always` module (or one with an empty frequency) runs on every boot; a
 * `once-per-instance` one once per instance id, `once` once per image, each under the canonical name
 * `config-<name>` (dashes as underscores), so a module listed twice runs once.
 */
function boots(plan: BootPlan): Boots {
  const done = new Set<string>();
  const boot = (instance: string): string[] => {
    const ran: string[] = [];
    for (const stage of STAGES) {
      for (const row of plan.stages[stage].rows) {
        if (!row.runs) continue;
        const sem = `config-${row.module}`.replace(/-/g, '_');
        const key = row.frequency === 'once-per-instance' ? `${instance}/${sem}` : row.frequency === 'once' ? `once/${sem}` : null;
        if (key !== null) {
          if (done.has(key)) continue;
          done.add(key);
        }
        ran.push(`${stage}:${row.module}`);
      }
    }
    return ran;
  };
  return { first: boot('iid-1'), reboot: boot('iid-1'), newInstance: boot('iid-2') };
}
