/**
 * The boot-time assembly (spec §4.2–§4.5): base config from builtin, system
 * files, runtime and kernel command line; user-data, vendor-data2 and
 * vendor-data consumed into their cloud-config files; then everything
 * combined with `mergemanydict`, first source winning per key. No built-in
 * config is bundled: without `builtinCfg` the builtin layer is empty, except
 * that vendor-data is enabled by default as on a stock machine.
 */
import { PyDict, PyValue, pyClassName } from '../py/values';
import { PyError } from '../py/errors';
import { pyStr } from '../py/repr';
import { pyStrip } from '../py/str';
import { CloudInitVersion } from '../spec/parse';
import { MergerFactory } from '../merge/construct';
import { loadYaml, mergeExpansionError } from '../yaml/load';
import { IncludeFailure, IncludeResolver } from '../userdata/process';
import { UserDataRun, runUserData } from '../userdata/run';
import { DEFAULT_LIMITS, LimitExceededError, Limits } from '../limits';
import { mergeConfD, ConfdResult } from './confd';
import { mergeMany, MergeManyStep } from './mergemany';
import { ConfigFile, readConf } from './readConf';

export interface BootInputs {
  userData: ConfigFile[];
  cloudCfg?: ConfigFile;
  confd?: ConfigFile[];
  confdOrder?: 'name' | 'given';
  runtimeCfg?: ConfigFile;
  cmdlineCfg?: ConfigFile;
  dsConfig?: ConfigFile;
  vendor?: ConfigFile;
  vendor2?: ConfigFile;
  builtinCfg?: ConfigFile;
}

export interface BootOptions {
  version?: CloudInitVersion;
  includes?: IncludeResolver;
  onIncludeFailure?: IncludeFailure;
  instanceData?: unknown;
  launchIndex?: number;
  trace?: boolean;
  limits?: Limits;
  customMergers?: ReadonlyMap<string, MergerFactory>;
}

/** The layers of the final merge, highest priority first. */
export type BootLayer = 'user-data' | 'vendor-data2' | 'vendor-data' | 'datasource' | 'base';

export interface BootResult {
  value: PyDict;
  base: PyDict;
  system: ConfdResult;
  userData?: UserDataRun;
  userDataSkipped?: string;
  vendor?: UserDataRun;
  vendor2?: UserDataRun;
  vendorSkipped: string[];
  /** Which layers took part in the final merge, in merge order, with their steps and the value each brought. */
  layers: Array<{ layer: BootLayer; step?: MergeManyStep; value?: PyValue }>;
  notes: string[];
}

/** A config value loaded the way the oracle's `load_struct` does (any YAML root). */
function loadStruct(file: ConfigFile): PyValue {
  const text = new TextDecoder().decode(file.bytes);
  const loaded = loadYaml(text);
  const overLimit = mergeExpansionError(loaded);
  if (overLimit) throw overLimit;
  if (!loaded.ok) throw new PyError('ValueError', `${file.name} is not YAML: ${loaded.error.message}`);
  return loaded.value;
}

/** cloud-init's `util.is_true`. */
function isTrue(value: PyValue | undefined): boolean {
  if (typeof value === 'boolean') return value;
  return ['true', '1', 'on', 'yes'].includes(pyStrip(pyStr(value ?? null).toLowerCase()));
}

/** `get_cfg_option_bool(cfg, key, default)` (translate_bool). */
function cfgBool(cfg: PyDict, key: string, fallback: boolean): boolean {
  if (!cfg.has(key)) return fallback;
  const value = cfg.get(key) as PyValue;
  if (value === null || value === false || value === '' || value === 0n || value === 0) return false;
  if (typeof value === 'boolean') return value;
  return isTrue(value);
}

/** Reads an instance cloud-config file back as `read_conf` does (an empty file is `{}`). */
function readCloudConfigTxt(text: string, name: string): PyDict {
  if (!text) return new PyDict();
  return readConf({ name, bytes: new TextEncoder().encode(text) }).value;
}

export function assembleBoot(inputs: BootInputs, options: BootOptions = {}): BootResult {
  const notes: string[] = [];
  const common = { version: options.version, trace: options.trace, customMergers: options.customMergers };
  const system = mergeConfD(inputs.confd ?? [], { order: inputs.confdOrder, cloudCfg: inputs.cloudCfg, instanceData: options.instanceData, ...common });
  const runtime = inputs.runtimeCfg ? loadStruct(inputs.runtimeCfg) : new PyDict();
  const cmdline = inputs.cmdlineCfg ? loadStruct(inputs.cmdlineCfg) : null;
  const builtin = inputs.builtinCfg ? loadStruct(inputs.builtinCfg) : new PyDict();
  const base = mergeMany([builtin, system.value, runtime, cmdline], { reverse: true, ...common }).value;
  const baseSnapshot = deepCopy(base);
  let dsConfig: PyDict | null = null;
  if (inputs.dsConfig) {
    const ds = loadStruct(inputs.dsConfig);
    if (ds instanceof PyDict && ds.size > 0) dsConfig = ds;
    else if (ds !== null && !(ds instanceof PyDict)) notes.push(`${inputs.dsConfig.name}: a datasource config that is not a mapping (${pyClassName(ds)}) is ignored.`);
  }

  const instance: { userData?: string; vendor?: string; vendor2?: string } = {};
  const combined = (baseCfg: PyDict, includeVendor: boolean) => {
    const sources: PyValue[] = [];
    if (instance.userData !== undefined) sources.push(readCloudConfigTxt(instance.userData, 'cloud-config.txt'));
    if (includeVendor) {
      if (instance.vendor2 !== undefined) sources.push(readCloudConfigTxt(instance.vendor2, 'vendor2-cloud-config.txt'));
      if (instance.vendor !== undefined) sources.push(readCloudConfigTxt(instance.vendor, 'vendor-cloud-config.txt'));
    }
    if (dsConfig) sources.push(deepCopy(dsConfig));
    if (baseCfg.size) sources.push(deepCopy(baseCfg));
    return { ...mergeMany(sources, common), sources };
  };

  const pre = combined(baseSnapshot, true).value;
  pre.delete('system_info');
  const result: BootResult = { value: new PyDict(), base: baseSnapshot, system, vendorSkipped: [], layers: [], notes };
  const runOptions = { version: options.version, includes: options.includes, onIncludeFailure: options.onIncludeFailure, instanceData: options.instanceData, trace: options.trace, limits: options.limits, customMergers: options.customMergers };
  if (cfgBool(pre, 'allow_userdata', true)) {
    result.userData = runUserData(inputs.userData, { ...runOptions, launchIndex: options.launchIndex });
    const fatal = result.userData.fatal;
    if (fatal?.limit) throw new LimitExceededError(fatal.limit, (runOptions.limits ?? DEFAULT_LIMITS)[fatal.limit], 'user-data', fatal.message);
    if (fatal) throw new PyError('Exception', fatal.message);
    instance.userData = result.userData.cloudConfigTxt;
  } else {
    result.userDataSkipped = 'allow_userdata is false';
  }
  for (const [file, key] of [
    [inputs.vendor, 'vendor_data'],
    [inputs.vendor2, 'vendor_data2'],
  ] as const) {
    if (!file) continue;
    // With no builtin config given, stand in for the one fact of cloud-init's builtin config that
    // matters here: vendor_data and vendor_data2 are enabled unless some layer says otherwise.
    const stockDefault = inputs.builtinCfg ? new PyDict() : PyDict.from([['enabled', true]]);
    let vendorCfg = combined(pre, false).value.get(key) ?? stockDefault;
    if (!(vendorCfg instanceof PyDict)) vendorCfg = PyDict.from([['enabled', false]]);
    if (!isTrue(vendorCfg.get('enabled'))) {
      result.vendorSkipped.push(key);
      notes.push(`${key} is not enabled (${key}.enabled must be true in the system or user config), so ${file.name} is not consumed.`);
      continue;
    }
    const disabled = vendorCfg.get('disabled_handlers');
    const run = runUserData([file], { ...runOptions, excludedTypes: Array.isArray(disabled) ? disabled.filter((x): x is string => typeof x === 'string') : undefined });
    if (run.fatal?.limit) throw new LimitExceededError(run.fatal.limit, (runOptions.limits ?? DEFAULT_LIMITS)[run.fatal.limit], key, run.fatal.message);
    if (run.fatal) throw new PyError('Exception', run.fatal.message);
    if (key === 'vendor_data') {
      result.vendor = run;
      instance.vendor = run.cloudConfigTxt;
    } else {
      result.vendor2 = run;
      instance.vendor2 = run.cloudConfigTxt;
    }
  }
  const final = combined(baseSnapshot, true);
  result.value = final.value;
  const layerNames: BootLayer[] = [];
  if (instance.userData !== undefined) layerNames.push('user-data');
  if (instance.vendor2 !== undefined) layerNames.push('vendor-data2');
  if (instance.vendor !== undefined) layerNames.push('vendor-data');
  if (dsConfig) layerNames.push('datasource');
  if (baseSnapshot.size) layerNames.push('base');
  result.layers = layerNames.map((layer, i) => ({ layer, step: final.steps[i], value: final.sources[i] }));
  return result;
}

/** `copy.deepcopy` for loaded values (shared references stay shared). */
export function deepCopy<T extends PyValue>(value: T, memo = new Map<object, PyValue>()): T {
  if (value === null || typeof value !== 'object') return value;
  const seen = memo.get(value);
  if (seen !== undefined) return seen as T;
  if (Array.isArray(value)) {
    const copy: PyValue[] = [];
    memo.set(value, copy);
    for (const item of value) copy.push(deepCopy(item as PyValue, memo));
    return copy as T;
  }
  if (value instanceof PyDict) {
    const copy = new PyDict();
    memo.set(value, copy);
    for (const { key, value: v, origin } of value.items()) copy.set(key, deepCopy(v, memo), origin);
    return copy as T;
  }
  return value;
}
