/**
 * `cloud.cfg.d` drop-ins (spec §4.2): names in DESCENDING code-point order,
 * only `*.cfg`, merged with `mergemanydict` (so the alphabetically last
 * file wins by default); then `cloud.cfg` under the merged drop-ins.
 */
import { PyDict, PyValue } from '../py/values';
import { PyError } from '../py/errors';
import { comparePyStr, pyStrip } from '../py/str';
import { CloudInitVersion } from '../spec/parse';
import { MergerFactory } from '../merge/construct';
import { mergeMany, MergeManyStep } from './mergemany';
import { PYTHON_RECURSION } from '../limits';
import { ConfigFile, readConf, ReadConfResult } from './readConf';

export interface ConfdOptions {
  /** `name`: cloud-init's own order; `given`: the order of `files` (the last one wins, like renaming them 0000-, 0001-, ...). */
  order?: 'name' | 'given';
  cloudCfg?: ConfigFile;
  instanceData?: unknown;
  version?: CloudInitVersion;
  trace?: boolean;
  customMergers?: ReadonlyMap<string, MergerFactory>;
}

export interface ConfdFileReport {
  file: ConfigFile;
  /** Index into the input list. */
  input: number;
  /** False for names cloud-init ignores (not ending in `.cfg`). */
  used: boolean;
  read?: ReadConfResult;
  /** Rank in merge order: 0 is merged first and has the highest priority. */
  rank?: number;
  step?: MergeManyStep;
}

export interface ConfdResult {
  value: PyDict;
  files: ConfdFileReport[];
  /** Merged drop-ins before cloud.cfg is added. */
  confd: PyDict;
  cloudCfg?: { read: ReadConfResult; steps: MergeManyStep[]; confdDirectory: string | null };
  notes: string[];
}

export function effectiveDropInName(name: string, index: number, order: 'name' | 'given'): string {
  const base = name.split(/[\\/]/).pop() as string;
  if (order === 'given') return `${String(index).padStart(4, '0')}-${base}${base.endsWith('.cfg') ? '' : '.cfg'}`;
  return base;
}

export function mergeConfD(files: ConfigFile[], options: ConfdOptions = {}): ConfdResult {
  const order = options.order ?? 'name';
  const notes: string[] = [];
  const reports: ConfdFileReport[] = files.map((file, input) => {
    const name = effectiveDropInName(file.name, input, order);
    const used = name.endsWith('.cfg');
    if (!used) notes.push(`${file.name}: cloud-init only reads drop-ins whose name ends in .cfg; ignored.`);
    return { file, input, used };
  });
  const used = reports
    .filter((r) => r.used)
    .sort((a, b) => comparePyStr(effectiveDropInName(b.file.name, b.input, order), effectiveDropInName(a.file.name, a.input, order)));
  const names = new Set<string>();
  for (const r of used) {
    const name = effectiveDropInName(r.file.name, r.input, order);
    if (names.has(name)) throw new PyError('ValueError', `two drop-ins would both be named ${name}`);
    names.add(name);
  }
  used.forEach((r, rank) => {
    r.rank = rank;
    r.read = readConf(r.file, { instanceData: options.instanceData, source: r.input, version: options.version });
  });
  const merged = mergeMany(
    used.map((r) => r.read!.value),
    { version: options.version, trace: options.trace, customMergers: options.customMergers, pythonFrames: PYTHON_RECURSION.mergeFramesConfD },
  );
  merged.steps.forEach((step) => (used[step.index].step = step));
  const confd = merged.value;
  if (!options.cloudCfg) return { value: confd, files: reports, confd, notes };

  const read = readConf(options.cloudCfg, { instanceData: options.instanceData, source: files.length, version: options.version });
  let confdDirectory: string | null = `${options.cloudCfg.name}.d`;
  if (read.value.has('conf_d')) {
    const confD = read.value.get('conf_d') as PyValue;
    if (confD !== null && confD !== '' && confD !== false) {
      if (typeof confD !== 'string') {
        throw new PyError('TypeError', `Config file ${options.cloudCfg.name} contains 'conf_d' with non-string type ${typeof confD}`);
      }
      confdDirectory = pyStrip(confD);
      notes.push(`cloud.cfg sets conf_d: ${confdDirectory}; the drop-ins given here are taken as that directory's files.`);
    }
  }
  const sources: PyValue[] = files.length ? [confd, read.value] : [read.value];
  const top = mergeMany(sources, { version: options.version, trace: options.trace, customMergers: options.customMergers });
  return { value: top.value, files: reports, confd, cloudCfg: { read, steps: top.steps, confdDirectory }, notes };
}
