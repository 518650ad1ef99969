/**
 * One run of a set of files in a mode: `runSet(mode, inputs, options)` reads
 * each input once, merges once, and returns the Outcome from which every
 * answer is derived (provenance, losses, fates, fixes, the merged schema
 * problems, the preview, the report, `--check`). Nothing else in the product
 * dispatches on the mode to merge: a face reads its inputs, calls runSet and
 * renders what the derived views say.
 */
import { PyDict, PyValue } from '../py/values';
import { PyError } from '../py/errors';
import { decodeUtf8Surrogateescape } from '../py/codecs';
import { LimitExceededError, Limits } from '../limits';
import { Locator, textLocator } from './locate';
import { IncludeFailure, IncludeResolver } from '../userdata/process';
import { PartLoadCache } from '../userdata/cloudConfigHandler';
import { UserDataRun, runHandlerParts, runUserData } from '../userdata/run';
import type { ConfdResult } from '../system/confd';
import type { BootInputs, BootResult } from '../system/boot';
import type { MergeManyStep } from '../system/mergemany';
import type { ConfigFile, ReadConfResult } from '../system/readConf';
import type { ChefMergeFilesResult } from '../chef/deepMerge';
import type { LoadedChefFiles } from '../chef/files';
import { MergerFactory } from '../merge/construct';
import { CloudInitVersion } from '../spec/parse';
import type { Mode } from './mode';

/**
 * The engines of the modes other than user-data are required when a run needs them (require keeps them
 * after): the CLI's plain merge of user-data starts without them.
 */
const system = () => ({
  ...(require('../system/confd') as typeof import('../system/confd')),
  ...(require('../system/boot') as typeof import('../system/boot')),
  ...(require('../system/mergemany') as typeof import('../system/mergemany')),
  ...(require('../system/readConf') as typeof import('../system/readConf')),
});
const chef = () => ({ ...(require('../chef/deepMerge') as typeof import('../chef/deepMerge')), ...(require('../chef/files') as typeof import('../chef/files')) });

/** One input file as read by the face (the editor's unsaved text, a file, a pipe): read once. */
export interface InputFile {
  name: string;
  bytes: Uint8Array;
  /** Handler mode: the part's MIME headers. */
  headers?: Record<string, string>;
}

/** The system side of a boot (and cloud.cfg under drop-ins): every role but user-data. */
export type SystemLayers = Omit<BootInputs, 'userData'>;

export interface SetInputs {
  /** The FILEs, in the order given (user-data parts, drop-ins, Chef files...). */
  files: InputFile[];
  /** confd mode: `cloudCfg` and `confdOrder`; boot mode: every other layer. */
  layers?: SystemLayers;
}

/** How a set is run: the same options for every mode and every face. */
export interface RunOptions {
  version?: CloudInitVersion;
  includes?: IncludeResolver;
  onIncludeFailure?: IncludeFailure;
  /** Parsed instance data for `## template: jinja` parts (engine/template/instanceData). */
  instanceData?: unknown;
  launchIndex?: number;
  limits?: Limits;
  customMergers?: ReadonlyMap<string, MergerFactory>;
  /** System mode: merge the files in reverse order. */
  reverse?: boolean;
  /** Loads of cloud-config parts kept from an earlier run, reused where a part's text is unchanged. */
  partCache?: PartLoadCache;
  /**
   * `full` (the default): the merge is traced, every value keeps where it was written and the render of
   * cloud-config.txt notes each line's path. `value`: the merged value only (the CLI's YAML and JSON output).
   */
  detail?: 'full' | 'value';
}

interface Base {
  mode: Mode;
  inputs: SetInputs;
  options: RunOptions;
}

/** A system-config merge without cloud.cfg.d's rules (`--mode system`). */
export interface SystemMerge {
  value: PyDict;
  files: Array<{ file: ConfigFile; input: number; used: boolean; read: ReadConfResult }>;
  steps: MergeManyStep[];
}

export type Outcome =
  | (Base & { kind: 'user-data'; run: UserDataRun; locate: Locator })
  | (Base & { kind: 'confd'; result: ConfdResult; locate: Locator })
  | (Base & { kind: 'system'; result: SystemMerge; locate: Locator })
  | (Base & { kind: 'boot'; boot: BootResult })
  | (Base & { kind: 'chef'; loaded: LoadedChefFiles; result: ChefMergeFilesResult; locate: Locator })
  /** cloud-init itself raises (a bad spec in system config), or the input is over one of our limits. */
  | (Base & { kind: 'failed'; failure: RunFailure });

export interface RunFailure {
  /** cloud-init's exception, in its words. */
  pyError?: { pyType: string; message: string };
  /** The limit of ours the input is over. */
  limit?: keyof Limits;
  message: string;
  /** The exception itself, for a face that reports it as it reports any other (the CLI's exit codes). */
  thrown: LimitExceededError | PyError;
}

/** The name `cloud.cfg` goes by in every answer: the path the user gave, else `cloud.cfg`. */
export function cloudCfgName(inputs: SetInputs): string {
  return inputs.layers?.cloudCfg?.name ?? 'cloud.cfg';
}

export function runSet(mode: Mode, inputs: SetInputs, options: RunOptions = {}): Outcome {
  const base: Base = { mode, inputs, options };
  try {
    return run(base);
  } catch (e) {
    if (e instanceof LimitExceededError) return { ...base, kind: 'failed', failure: { limit: e.limit, message: e.message, thrown: e } };
    if (e instanceof PyError) return { ...base, kind: 'failed', failure: { pyError: { pyType: e.pyType, message: e.message }, message: `${e.pyType}: ${e.message}`, thrown: e } };
    throw e;
  }
}

function run(base: Base): Outcome {
  const { mode, inputs, options } = base;
  const full = options.detail !== 'value';
  const engineOptions = { ...options, trace: full, provenance: full };
  const layers = inputs.layers ?? {};
  switch (mode) {
    case 'user-data':
    case 'handler': {
      // The line map comes from the render of cloud-config.txt itself: one dump, not two.
      const withLines = { ...engineOptions, withLines: full };
      const run = mode === 'handler' ? runHandlerParts(inputs.files, withLines) : runUserData(inputs.files, withLines);
      return { ...base, kind: 'user-data', run, locate: userDataLocator(run) };
    }
    case 'confd': {
      const result = system().mergeConfD(inputs.files, { version: options.version, trace: full, instanceData: options.instanceData, customMergers: options.customMergers, cloudCfg: layers.cloudCfg, order: layers.confdOrder });
      return { ...base, kind: 'confd', result, locate: confdLocator(result, cloudCfgName(inputs)) };
    }
    case 'system': {
      const reads = inputs.files.map((file, i) => system().readConf(file, { source: i }));
      const merged = system().mergeMany(
        reads.map((r) => r.value),
        { reverse: options.reverse, version: options.version, trace: full, customMergers: options.customMergers },
      );
      const result: SystemMerge = { value: merged.value, files: inputs.files.map((file, input) => ({ file, input, used: true, read: reads[input] })), steps: merged.steps };
      return { ...base, kind: 'system', result, locate: textLocator(result.files.map((f) => ({ name: f.file.name, text: f.read.text }))) };
    }
    case 'boot':
      return { ...base, kind: 'boot', boot: system().assembleBoot({ userData: inputs.files, ...layers }, engineOptions) };
    case 'chef': {
      const loaded = chef().loadChefFiles(inputs.files, options.limits);
      return { ...base, kind: 'chef', loaded, result: chef().chefMergeFiles(loaded.values), locate: textLocator(loaded.texts) };
    }
  }
}

/** The merged result (null where cloud-init merges nothing, or the run failed). */
export function mergedValue(outcome: Outcome): PyValue | null {
  switch (outcome.kind) {
    case 'user-data':
      return outcome.run.result;
    case 'confd':
    case 'system':
      return outcome.result.value;
    case 'boot':
      return outcome.boot.value;
    case 'chef':
      return outcome.result.merged;
    case 'failed':
      return null;
  }
}

/** Where drop-ins' values live: a drop-in by its index in the input list, `cloud.cfg` after the last one. */
export function confdLocator(result: ConfdResult, cloudCfg = 'cloud.cfg'): Locator {
  return textLocator([...result.files.map((f) => (f.read ? { name: f.file.name, text: f.read.text } : null)), result.cloudCfg ? { name: cloudCfg, text: result.cloudCfg.read.text } : null]);
}

/** Where the values of each handled part live in the input files. */
export function userDataLocator(run: UserDataRun): Locator {
  const blobTexts = new Map<number, string>();
  const blobText = (i: number): string => {
    const cached = blobTexts.get(i);
    if (cached !== undefined) return cached;
    const text = decodeUtf8Surrogateescape(run.sources[i].bytes);
    blobTexts.set(i, text);
    return text;
  };
  return textLocator(
    run.reports.map((r) => {
      const source = run.sources[r.part.blob]?.name ?? '?';
      if (r.jinja?.rendered !== undefined) return { name: source, text: r.jinja.rendered, note: `position in the rendered template of ${r.part.filename}` };
      if (r.part.span && r.part.text !== null) return { name: source, text: blobText(r.part.blob), base: r.part.span.start };
      if (r.part.offsetInBlob && r.part.text !== null) return { name: source, text: blobText(r.part.blob), map: r.part.offsetInBlob };
      if (r.part.text !== null) return { name: source, text: r.part.text, note: `position in the decoded part ${r.part.filename}`, ...(r.part.anchor ? { anchor: { text: blobText(r.part.blob), offset: r.part.anchor.start } } : {}) };
      return null;
    }),
  );
}
