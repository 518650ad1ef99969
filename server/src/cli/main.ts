/**
 * `cloud-config-merge`: the merge engine on the command line, for CI
 * pipelines and for testing against the real cloud-init.
 * Exit codes: 0 ok; 2 bad usage or unreadable input; 3 cloud-init itself would fail;
 * 4 done, but part of the input is Jinja this tool cannot reproduce (cloud-init renders it).
 */
import { statSync, writeSync } from 'node:fs';
import { BoundedReadError, ReadFailureWords, describeReadFailure, readBoundedSync } from '../node/readFile';
import { basename, resolve as resolvePath } from 'node:path';
import { PyDict, PyValue } from '../engine/py/values';
import { PyError } from '../engine/py/errors';
import { decodeUtf8Surrogateescape } from '../engine/py/codecs';
import { loadYaml, mergeExpansionError } from '../engine/yaml/load';
import { dumpPyYaml } from '../engine/yaml/dump';
import { parsePythonJson, toCanonicalJson } from '../engine/py/json';
import { mergeWithSpec } from '../engine/merge/mergeWithSpec';
import { InputFile, Outcome, RunOptions, SetInputs, SystemLayers, runSet } from '../engine/outcome/run';
import { notReproduced } from '../engine/outcome/parts';
import { DEFAULT_LIMITS, LimitExceededError } from '../engine/limits';
import { MergerFactory } from '../engine/merge/construct';
import { CliOptions, applyTarget, parseArgs, UsageError, usage } from './args';
import { fileIncludeResolver } from '../node/includes';
import type { ReportFormat } from '../engine/render/reportJson';
import type { CheckResult, FileResult } from '../engine/outcome/check';
import { locationJson } from '../engine/outcome/locate';
import { CHECK_MODES, hasFates } from '../engine/outcome/mode';
import type { InstanceDataChoice } from '../engine/template/instanceData';
import { packageVersion } from './version';

/**
 * What only some modes and options need (templates, reports, --check, fates, make-mime, the system
 * modes, Chef) is required when they run (require keeps it after): a plain merge starts without it.
 */
const explainModule = (): typeof import('../engine/lint/explainSpec') => require('../engine/lint/explainSpec') as typeof import('../engine/lint/explainSpec');
const previewModule = (): typeof import('../engine/render/previewText') => require('../engine/render/previewText') as typeof import('../engine/render/previewText');
const customMergerModule = (): typeof import('../engine/merge/custom') => require('../engine/merge/custom') as typeof import('../engine/merge/custom');
const instanceDataModule = (): typeof import('../engine/template/instanceData') => require('../engine/template/instanceData') as typeof import('../engine/template/instanceData');
const reportModule = (): typeof import('../engine/render/reportJson') => require('../engine/render/reportJson') as typeof import('../engine/render/reportJson');
const batchModule = (): typeof import('./batch') => require('./batch') as typeof import('./batch');
const makeMimeModule = (): typeof import('./makeMime') => require('./makeMime') as typeof import('./makeMime');
const pipelineModule = (): typeof import('./pipeline') => require('./pipeline') as typeof import('./pipeline');
const lintModule = (): typeof import('./lint') => require('./lint') as typeof import('./lint');
const lintFilesModule = (): typeof import('../engine/lint/lintFiles') => require('../engine/lint/lintFiles') as typeof import('../engine/lint/lintFiles');
const lintTextModule = (): typeof import('../engine/render/lintText') => require('../engine/render/lintText') as typeof import('../engine/render/lintText');
const imagesModule = (): typeof import('./images') => require('./images') as typeof import('./images');
const checkModule = (): typeof import('../engine/outcome/check') => require('../engine/outcome/check') as typeof import('../engine/outcome/check');
const deliveryModule = (): typeof import('../engine/delivery/delivery') => require('../engine/delivery/delivery') as typeof import('../engine/delivery/delivery');
const deliveryTextModule = (): typeof import('../engine/render/deliveryText') => require('../engine/render/deliveryText') as typeof import('../engine/render/deliveryText');
const checkTextModule = (): typeof import('../engine/render/checkText') => require('../engine/render/checkText') as typeof import('../engine/render/checkText');
const fatesModule = (): typeof import('../engine/outcome/fates') => require('../engine/outcome/fates') as typeof import('../engine/outcome/fates');
const fatesTextModule = (): typeof import('../engine/render/fatesText') => require('../engine/render/fatesText') as typeof import('../engine/render/fatesText');
const setModule = (): typeof import('./fates') => require('./fates') as typeof import('./fates');
const planModule = (): typeof import('./plan') => require('./plan') as typeof import('./plan');
const planFactsModule = (): typeof import('../engine/plan/facts') => require('../engine/plan/facts') as typeof import('../engine/plan/facts');
const metaDataModule = (): typeof import('./metaData') => require('./metaData') as typeof import('./metaData');
const seedFilesModule = (): typeof import('./seedFiles') => require('./seedFiles') as typeof import('./seedFiles');
const seedTextModule = (): typeof import('../engine/render/seedText') => require('../engine/render/seedText') as typeof import('../engine/render/seedText');

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIO: CliIO = {
  stdout: (t) => writeStandard(1, t),
  stderr: (t) => writeStandard(2, t),
};

/**
 * Writes to fd 1 or 2 directly: creating `process.stdout` (a stream over a pipe, file or tty) costs a
 * short run about as much as its merge. A closed pipe (`| head`) ends the output quietly; a descriptor
 * that would block (a non-blocking pipe: EAGAIN) hands the rest to the stream, which waits for it.
 * Windows consoles want the stream (it writes UTF-16 to them).
 */
const useStreams: Record<1 | 2, boolean> = { 1: process.platform === 'win32', 2: process.platform === 'win32' };
function writeStandard(fd: 1 | 2, text: string): void {
  if (useStreams[fd]) {
    guardClosedPipe(fd);
    standardStream(fd).write(text);
    return;
  }
  const bytes = Buffer.from(text, 'utf8');
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EPIPE') process.exit(process.exitCode ?? 0);
      if (code !== 'EAGAIN') throw e;
      useStreams[fd] = true;
      writeStandard(fd, bytes.subarray(written).toString('utf8'));
      return;
    }
  }
}

const standardStream = (fd: 1 | 2): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);

/** An input the user named that cannot be read: exit code 2. */
export class InputError extends Error {}

/** Exit code 4: done, but a Jinja template cloud-init renders could not be reproduced (the output lacks it; see the `note:` lines). */
const NOT_REPRODUCED = 4;

/** cloud-init itself would raise: exit code 3. */
export class CloudInitFailure extends Error {}

/**
 * Reads an input file, never more than maxFileBytes (node/readFile.ts): a pipe or device the user
 * named (`<(...)`, /dev/stdin) is read up to the limit. With `regularOnly` (paths that come from
 * user-data, such as `#include /dev/zero`), anything but a regular file is refused.
 */
export function readInput(path: string, options: { regularOnly?: boolean; maxBytes?: number } = {}): Uint8Array {
  try {
    return readBoundedSync(path, { maxBytes: options.maxBytes ?? DEFAULT_LIMITS.maxFileBytes, allowStreams: !options.regularOnly });
  } catch (e) {
    if (!(e instanceof BoundedReadError)) throw e;
    throw new InputError(`${path}: ${describeReadFailure(e.failure, INPUT_FAILURE_WORDS)}`);
  }
}

/** The CLI's words: a directory and a device are told apart; the limit is the `--limit` one. */
const INPUT_FAILURE_WORDS: ReadFailureWords = {
  directory: 'is a directory',
  notRegular: 'not a regular file (a device, pipe or socket): not read',
  overLimit: (size, max) => (size === null ? `more than ${max} bytes: exceeds the limit maxFileBytes = ${max}` : `${size} bytes exceeds the limit maxFileBytes = ${max}`),
};

/** Reads a file the command line names, within `--limit maxFileBytes`. */
export function read(o: CliOptions, path: string, regularOnly = false): Uint8Array {
  return readInput(path, { regularOnly, maxBytes: o.limits.maxFileBytes });
}

function readConfigFile(o: CliOptions, path: string | undefined) {
  return path === undefined ? undefined : { name: path, bytes: read(o, path) };
}

function readJsonFile(o: CliOptions, path: string): unknown {
  const text = new TextDecoder().decode(read(o, path));
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError(`${path}: not JSON: ${(e as Error).message}`);
  }
}

/** The instance data a merge renders Jinja parts with (instanceDataChoice's data). */
function instanceDataOption(o: CliOptions): unknown {
  return instanceDataChoice(o)?.data;
}

/**
 * `--instance-data`, as the merge and `--lint` both use it: a sample's name (aws, azure, gce, openstack,
 * lxd, nocloud; write `./aws` for a file of that name) or a JSON file, passed on as text so that ints and
 * floats stay as Python's json reads them (`1.0` renders `1.0`); undefined when it is not given.
 */
export function instanceDataChoice(o: CliOptions): InstanceDataChoice | undefined {
  if (o.instanceData === undefined) return undefined;
  const module = instanceDataModule();
  const choice = module.chooseInstanceData(o.instanceData, o.version ?? 'current', (path) => {
    const bytes = read(o, path);
    let text: string;
    try {
      text = module.instanceDataText(bytes);
    } catch (e) {
      throw new InputError(`${path}: ${(e as Error).message}`);
    }
    try {
      JSON.parse(text);
    } catch (e) {
      throw new InputError(`${path}: not JSON: ${(e as Error).message}`);
    }
    return text;
  });
  if (choice.problem) throw new InputError(choice.problem);
  return choice;
}

/** A value file for `--spec`: `.json` is read as Python's json does, anything else as YAML. */
function readValueFile(o: CliOptions, path: string): PyValue {
  const bytes = read(o, path);
  const text = new TextDecoder().decode(bytes);
  if (path.endsWith('.json')) {
    try {
      return parsePythonJson(text);
    } catch (e) {
      throw new InputError(`${path}: not JSON: ${(e as Error).message}`);
    }
  }
  const loaded = loadYaml(text, { maxMergedPairs: o.limits.maxExpandedNodes });
  const overLimit = mergeExpansionError(loaded, o.limits.maxExpandedNodes);
  if (overLimit) throw overLimit;
  if (!loaded.ok) throw new InputError(`${path}: not YAML: ${loaded.error.message}`);
  return loaded.value;
}

/** `cloud-config-merge ... | head`: a closed stdout ends the output quietly, not with an EPIPE stack trace. */
const pipeGuards = new Set<1 | 2>();
function guardClosedPipe(fd: 1 | 2): void {
  if (pipeGuards.has(fd)) return;
  pipeGuards.add(fd);
  standardStream(fd).on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

export function main(argv: string[] = process.argv.slice(2), io: CliIO = processIO): number {
  if (argv[0] === 'make-mime') return makeMimeModule().makeMimeCommand(argv.slice(1), io);
  let options: CliOptions;
  try {
    options = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      // One line: the whole help would bury what went wrong.
      io.stderr(`cloud-config-merge: ${e.message}; see cloud-config-merge --help\n`);
      return 2;
    }
    throw e;
  }
  if (options.help) {
    io.stdout(usage() + '\n');
    return 0;
  }
  if (options.showVersion) {
    io.stdout(`cloud-config-merge ${packageVersion()}\n`);
    return 0;
  }
  try {
    return dispatch(options, io);
  } catch (e) {
    if (e instanceof InputError || e instanceof UsageError) {
      io.stderr(`cloud-config-merge: ${e.message}\n`);
      return 2;
    }
    if (e instanceof CloudInitFailure) {
      io.stderr(`cloud-config-merge: cloud-init would fail: ${e.message}\n`);
      return 3;
    }
    if (e instanceof PyError) {
      io.stderr(`cloud-config-merge: cloud-init would fail: ${e.pyType}: ${e.message}\n`);
      return 3;
    }
    if (e instanceof LimitExceededError) {
      // Over one of our limits (an alias bomb written as JSON, ...): the input is refused, not cloud-init.
      io.stderr(`cloud-config-merge: ${e.message}\n`);
      return 2;
    }
    io.stderr(`cloud-config-merge: internal error: ${(e as Error).message}\n`);
    return 1;
  }
}

function dispatch(o: CliOptions, io: CliIO): number {
  if (o.set !== undefined) {
    setModule().applySet(o);
    applyTarget(o);
  }
  if (o.seed !== undefined && o.set === undefined) (require('./seed') as typeof import('./seed')).applySeed(o);
  if (o.lint) {
    if (!o.files.length) throw new UsageError('--lint needs at least one FILE');
    return lintModule().lintMode(o, io);
  }
  if (o.fromTerraform !== undefined || o.rendered) return pipelineModule().pipelineMode(o, io);
  if (o.explain !== undefined || o.explainMergeHow !== undefined) return explain(o, io);
  if (o.batch !== undefined) return batchModule().runBatch(new TextDecoder().decode(read(o, o.batch)), io);
  if (o.spec !== undefined || o.specMergeHow !== undefined) return specMerge(o, io);
  if (!o.files.length && !(o.mode === 'confd' && o.cloudCfg) && !(o.mode === 'boot' && (o.cloudCfg || o.confd.length))) {
    throw new UsageError(`${o.mode} mode needs at least one FILE`);
  }
  // Every input is read here, once: a pipe or /dev/stdin has nothing left to give a second reading.
  const inputs = readInputs(o);
  if (o.check) return checkCommand(o, io, inputs);
  // A seed's meta-data or network-config is not user-data: a merge, the plan and the preview refuse it (--check reads it as NoCloud does).
  seedFilesModule().refuseSeedFiles(o, inputs);
  if (o.plan) return planModule().planCommand(o, io, inputs);
  if (o.format === 'preview') return previewMode(o, io, inputs);
  return mergeMode(o, io, inputs);
}

/** The FILEs (handler mode: named by their base names, with FILE.headers.json) and the layers the options name. */
function readInputs(o: CliOptions): SetInputs & { paths: string[] } {
  const files: InputFile[] = o.files.map((f) => ({ name: o.mode === 'handler' ? basename(f) : f, bytes: read(o, f), ...(o.mode === 'handler' ? { headers: optionalHeaders(o, f) } : {}) }));
  const layers = o.mode === 'boot' ? bootLayers(o) : o.mode === 'confd' ? { cloudCfg: readConfigFile(o, o.cloudCfg), confdOrder: o.confdOrder } : undefined;
  return { files, layers, paths: o.files };
}

/**
 * What cloud-init's later stages see: cloud-config.txt read back with `util.load_yaml`, where an
 * empty file, invalid YAML or a root that is not a mapping (a JSON patch can make one) all give {}.
 */
function readBackCloudConfig(text: string): PyValue {
  const loaded = text ? loadYaml(text) : undefined;
  return loaded?.ok && loaded.value instanceof PyDict ? loaded.value : new PyDict();
}

/** Handler mode: MIME headers for FILE come from FILE.headers.json when it exists. */
function optionalHeaders(o: CliOptions, path: string): Record<string, string> | undefined {
  try {
    statSync(path + '.headers.json');
  } catch {
    return undefined;
  }
  return readJsonFile(o, path + '.headers.json') as Record<string, string>;
}

/** `--custom-merger NAME=PATH`: a module that cannot be loaded makes specs naming it fail, as an unknown merger would. */
let customCache: { key: string; modules: Map<string, MergerFactory> } | undefined;
export function customMergers(o: CliOptions, io?: CliIO): Map<string, MergerFactory> | undefined {
  if (!o.customMergers.length) return undefined;
  const key = JSON.stringify(o.customMergers);
  if (customCache?.key === key) return customCache.modules;
  const modules = new Map<string, MergerFactory>();
  for (const { name, path } of o.customMergers) {
    try {
      const loaded = customMergerModule().loadCustomMerger(name, resolvePath(path));
      modules.set(`m_${name}`, loaded.factory);
    } catch (e) {
      if (!(e instanceof customMergerModule().CustomMergerLoadError)) throw e;
      io?.stderr(`cloud-config-merge: warning: ${e.message}\n`);
      const message = e.message;
      modules.set(`m_${name}`, () => {
        throw new PyError('ImportError', message);
      });
    }
  }
  customCache = { key, modules };
  return modules;
}

/** The run's options from the command line: only the report, the preview and --check need the merge traced. */
export function runOptions(o: CliOptions, io?: CliIO): RunOptions {
  return {
    customMergers: customMergers(o, io),
    version: o.version,
    includes: fileIncludeResolver(o.includeMap, (path) => read(o, path), (path) => read(o, path, true)),
    onIncludeFailure: o.includeMissing,
    instanceData: instanceDataOption(o),
    launchIndex: o.launchIndex,
    limits: o.limits,
    reverse: o.reverse,
    detail: o.format === 'report' || o.format === 'preview' || o.check ? 'full' : 'value',
  };
}

/** JSON output: `--pretty`, and `--limit maxExpandedNodes` for aliased values. */
function reportFormat(o: CliOptions): ReportFormat {
  return { pretty: o.pretty, maxNodes: o.limits.maxExpandedNodes };
}

/**
 * A merge in any mode: what cloud-init writes (YAML), its value (JSON) or the report (the pipeline
 * modes pass blobs already read from Terraform configs or rendered user-data).
 */
function mergeMode(o: CliOptions, io: CliIO, inputs: SetInputs): number {
  return writeMerge(o, io, runSet(o.mode, inputs, runOptions(o, io)));
}

/** What a merge writes: the YAML cloud-init writes, its value as JSON, or the report; the exit code. */
export function writeMerge(o: CliOptions, io: CliIO, outcome: Outcome): number {
  // Said as any other failure of this kind is (main): exit 2 over a limit, 3 where cloud-init raises.
  if (outcome.kind === 'failed') throw outcome.failure.thrown;
  sayNotes(outcome, io);
  const missing = notReproduced(outcome);
  // user-data's own messages already say which parts are not reproduced.
  if (outcome.kind !== 'user-data') for (const m of missing) io.stderr(`note: ${m}\n`);
  const partial = missing.length ? NOT_REPRODUCED : 0;
  if (outcome.kind === 'user-data') {
    const run = outcome.run;
    const overLimit = run.fatal?.limit ? `${run.fatal.message}: nothing is merged` : undefined;
    if (o.format === 'report') {
      io.stdout(reportModule().reportOf(outcome, reportFormat(o)) + '\n');
      if (overLimit) io.stderr(`cloud-config-merge: ${overLimit}\n`);
      return overLimit ? 2 : run.fatal || run.renderError ? 3 : partial;
    }
    if (overLimit) throw new InputError(overLimit);
    if (run.fatal) throw new CloudInitFailure(`${run.fatal.pyType}: ${run.fatal.message} (no user-data is processed at all)`);
    if (run.renderError) throw new CloudInitFailure(`writing cloud-config.txt raises: ${run.renderError}`);
    if (o.format === 'json') io.stdout(toCanonicalJson(readBackCloudConfig(run.cloudConfigTxt), reportFormat(o)).text + '\n');
    else io.stdout(run.cloudConfigTxt);
    return partial;
  }
  if (outcome.kind === 'chef') for (const e of outcome.loaded.errors) throw new InputError(e);
  const value = outcome.kind === 'boot' ? outcome.boot.value : outcome.kind === 'chef' ? outcome.result.merged : outcome.result.value;
  if (o.format === 'report') io.stdout(reportModule().reportOf(outcome, reportFormat(o)) + '\n');
  else if (o.format === 'json') io.stdout(toCanonicalJson(value, reportFormat(o)).text + '\n');
  else io.stdout(dumpPyYaml(value));
  return partial;
}

/**
 * What the run says besides its result, on stderr: cloud-init's own warnings, our notes, why each
 * skipped part was skipped.
 */
function sayNotes(outcome: Outcome, io: CliIO): void {
  const note = (text: string) => io.stderr(`note: ${text}\n`);
  switch (outcome.kind) {
    case 'user-data': {
      const run = outcome.run;
      // Warnings are cloud-init's own log lines; notes are ours (e.g. what a preview cannot show).
      for (const m of run.messages) io.stderr(m.level === 'info' ? `note: ${m.message}\n` : `cloud-init ${m.level.toUpperCase()}: ${m.message}\n`);
      // Why each skipped part was skipped (cloud-init's own warning leaves out all but a ValueError's message).
      for (const r of run.reports) {
        if ((r.disposition === 'failed' && r.handled?.error) || (r.disposition === 'jinja-ignored' && r.note.startsWith('Skipped by cloud-init'))) note(`${r.part.filename}: ${r.note}`);
      }
      return;
    }
    case 'confd': {
      const result = outcome.result;
      for (const n of result.notes) note(n);
      for (const f of result.files) for (const w of f.read?.warnings ?? []) io.stderr(`cloud-init WARNING: ${f.file.name}: ${w}\n`);
      return;
    }
    case 'system':
      for (const f of outcome.result.files) for (const w of f.read.warnings) io.stderr(`cloud-init WARNING: ${f.file.name}: ${w}\n`);
      return;
    case 'boot':
      for (const n of outcome.boot.notes) note(n);
      return;
    case 'chef':
      for (const n of outcome.result.notices) note(`${n.path.join('.') || '(root)'}: ${n.message}`);
      return;
    case 'failed':
      return;
  }
}

/** The boot-mode layers other than user-data, read from the files the options name. */
function bootLayers(o: CliOptions): SystemLayers {
  return {
    cloudCfg: readConfigFile(o, o.cloudCfg),
    confd: o.confd.map((f) => ({ name: f, bytes: read(o, f) })),
    confdOrder: o.confdOrder,
    runtimeCfg: readConfigFile(o, o.runtimeCfg),
    cmdlineCfg: readConfigFile(o, o.cmdlineCfg),
    dsConfig: readConfigFile(o, o.dsConfig),
    vendor: readConfigFile(o, o.vendor),
    vendor2: readConfigFile(o, o.vendor2),
    builtinCfg: o.noBuiltin ? { name: '(no builtin)', bytes: new Uint8Array() } : readConfigFile(o, o.builtinCfg),
  };
}

/** A seed folder's summary for the preview and --check (undefined without --seed). */
function seedSummary(o: CliOptions): import('../engine/render/seedText').SeedSummary | undefined {
  if (o.seed === undefined || !o.seedFiles?.metaData) return undefined;
  const metaData = (require('../engine/seed/metaData') as typeof import('../engine/seed/metaData')).readMetaData(read(o, o.seedFiles.metaData));
  return { folder: o.seed, metaData, vendorData: o.vendor !== undefined, networkConfig: o.seedFiles.networkConfig !== undefined };
}

/** The exact text of the editor's preview for the same files. */
function previewMode(o: CliOptions, io: CliIO, inputs: SetInputs): number {
  if (o.mode === 'system') throw new UsageError('--format preview works with the user-data, handler, confd, boot and chef modes');
  return writePreview(o, io, runSet(o.mode, inputs, runOptions(o, io)));
}

/** The image of the preview's "Boot plan" section: the target's version and distro, with the cloud.cfg the plan renders for them. */
function previewPlanTarget(o: CliOptions) {
  const target = planFactsModule().planTarget(o.target.version, o.target.distro);
  return typeof target === 'string' ? undefined : { ...target, netplan: o.target.netplan };
}

/** The preview's text of an outcome; the exit code. */
export function writePreview(o: CliOptions, io: CliIO, outcome: Outcome): number {
  const model = previewModule().renderPreview(outcome, {
    // The editor's preview text, as the editor shows it by default (cloudConfigMerge.schema.enable).
    schema: true,
    cloud: o.cloud,
    seed: seedSummary(o),
    plan: previewPlanTarget(o),
    limitHint: (limit) => `raise it with --limit ${limit}=N`,
  });
  io.stdout(model.text);
  if (model.limit) io.stderr(`cloud-config-merge: ${model.failure}\n`);
  return model.limit ? 2 : model.failure ? 3 : model.parts.some((p) => p.status === 'not-reproduced') ? NOT_REPRODUCED : 0;
}

function specMerge(o: CliOptions, io: CliIO): number {
  if (!o.files.length) throw new UsageError('--spec needs at least one VALUE_FILE');
  const values = o.files.map((f) => readValueFile(o, f));
  let spec: PyValue = o.spec as string;
  if (o.specMergeHow !== undefined) {
    const loaded = loadYaml(o.specMergeHow);
    if (!loaded.ok) throw new UsageError(`--spec-merge-how is not YAML: ${loaded.error.message}`);
    spec = loaded.value;
  }
  const merged = mergeWithSpec(spec, values, { version: o.version, modules: customMergers(o, io) });
  if (!merged.ok) throw merged.error;
  const result = merged.value;
  if (o.format === 'json' || o.format === 'report') io.stdout(toCanonicalJson(result, reportFormat(o)).text + '\n');
  else io.stdout(dumpPyYaml(result));
  return 0;
}

function explain(o: CliOptions, io: CliIO): number {
  let input: string | PyValue;
  if (o.explainMergeHow !== undefined) {
    const loaded = loadYaml(o.explainMergeHow);
    if (!loaded.ok) throw new UsageError(`--explain-merge-how is not YAML: ${loaded.error.message}`);
    input = loaded.value;
  } else {
    input = o.explain as string;
  }
  const result = explainModule().explainSpec(input, { version: o.version, customMergers: customMergers(o, io) });
  if (o.format === 'json' || o.format === 'report') {
    const parsed = result.parsed === null ? 'null' : '[' + result.parsed.map(([n, opts]) => `[${toCanonicalJson(n).text},${toCanonicalJson(opts).text}]`).join(',') + ']';
    io.stdout(`{"parsed":${parsed},"effective":${JSON.stringify(result.effective)},"default_applies":${result.defaultApplies},"error":${JSON.stringify(result.error)},"warnings":${JSON.stringify(result.warnings)}}\n`);
  } else {
    io.stdout(result.words.join('\n') + '\n');
  }
  return result.error ? 3 : 0;
}

/**
 * `--check`: each FILE, then the merged result, validated as cloud-init validates them (user-data and
 * handler modes), and the merge's fates (user-data, confd and boot modes); `--fail-on` turns fates into
 * failures. One run gives both: the files are read once, merged once.
 */
function checkCommand(o: CliOptions, io: CliIO, inputs: SetInputs & { paths: string[] }): number {
  if (!CHECK_MODES.includes(o.mode)) throw new UsageError(`--check works with the ${CHECK_MODES.join(', ')} modes, not ${o.mode}`);
  // --image and --annotate speak of user-data: a meta-data or network-config FILE is refused with them.
  seedFilesModule().refuseSeedFilesInCheck(o, inputs);
  // A NoCloud meta-data FILE is not user-data either: read as NoCloud reads it (its findings below), never merged.
  const metaData = metaDataModule().metaDataFiles(o, inputs);
  if (o.images) return imagesModule().imagesCheck(o, io, inputs);
  const check = checkModule();
  const render = checkTextModule();
  // network-config files are not user-data: checked on their own (`cloud-init schema -t network-config`), never merged.
  const network = networkFiles(o, inputs);
  if (network.checked.length && !inputs.files.length && !metaData.length && o.mode !== 'boot') return networkOnly(o, io, network.checked);
  // Nothing to merge when every FILE was meta-data or network-config (boot mode still merges its layers).
  const ran = inputs.files.length || !metaData.length || o.mode === 'boot' ? schemaCheck(o, io, inputs, o.version) : undefined;
  const outcome = ran?.outcome;
  const checked = ran?.result;
  const result: CheckResult | null = checked ? { files: [...network.checked, ...checked.files], merged: checked.merged } : network.checked.length ? { files: network.checked, merged: null } : null;
  if (outcome?.kind === 'user-data' && result) {
    const run = outcome.run;
    const named = inputs.files.map((f, i) => ({ path: inputs.paths[i], bytes: f.bytes }));
    if (o.annotate) {
      const out = render.formatAnnotated(named.map((i) => ({ name: i.path, bytes: i.bytes })), run, o.version);
      io.stdout(out.stdout);
      io.stderr(out.stderr);
      return check.isAccepted(result) ? 0 : 1;
    }
  }
  if (o.annotate) throw new UsageError('--annotate works with the user-data and handler modes');
  const fates = outcome && hasFates(o.mode) ? fatesModule().fatesOf(outcome) : null;
  const failed = fates ? fatesModule().fatesOfKinds(fates, o.failOn) : [];
  const fatesText = fatesTextModule();
  // What --lint reports for the same files, from its own code: one command gives every finding.
  // A seed's meta-data is checked with it (its findings are what NoCloud makes of it).
  const seedMetaData = o.seedFiles?.metaData;
  const linted = lintFilesModule().lintFiles(
    [
      ...network.paths.map((path, i) => ({ path, text: decodeUtf8Surrogateescape(network.bytes[i]), kind: 'network-config' as const })),
      ...inputs.files.map((f, i) => ({ path: inputs.paths[i] ?? f.name, text: decodeUtf8Surrogateescape(f.bytes) })),
      ...metaData.map((m) => ({ path: m.path, text: decodeUtf8Surrogateescape(m.bytes), kind: 'meta-data' as const })),
      ...(seedMetaData ? [{ path: seedMetaData, text: decodeUtf8Surrogateescape(read(o, seedMetaData)) }] : []),
    ],
    lintModule().lintOptions(o, io),
  );
  const lintText = lintTextModule();
  if (o.cloud && !['user-data', 'handler', 'boot'].includes(o.mode)) throw new UsageError(`--cloud works with the user-data, handler and boot modes (their FILEs are user-data), not ${o.mode}`);
  // Meta-data is not delivered as user-data: with no user-data FILE left there is nothing to measure.
  const delivery = o.cloud && (inputs.files.length || !metaData.length) ? deliveryModule().deliveryOfFiles(inputs.files.map((f, i) => ({ name: inputs.paths[i] ?? f.name, bytes: f.bytes })), o.cloud) : undefined;
  const overLimit = delivery !== undefined && 'over' in delivery && delivery.over;
  // Drop-ins and cloud.cfg: their merged schema problems, as cloud-init holds system config to its schema.
  const checkedSystem = outcome?.kind === 'confd' ? (require('../engine/outcome/schema') as typeof import('../engine/outcome/schema')).systemSchemaOf(outcome) : undefined;
  const systemSchema = checkedSystem?.checked ? checkedSystem.schema : undefined;
  if (o.format === 'json') {
    const schema = result ? (JSON.parse(render.formatJson(result, false)) as object) : { files: [], merged: null };
    const findings = linted.findings.map((l) => ({ file: l.file, line: l.start.line + 1, column: l.start.character + 1, endLine: l.end.line + 1, endColumn: l.end.character + 1, severity: l.finding.severity, code: l.finding.code, message: l.finding.message }));
    const system = systemSchema ? { systemSchema: { errors: systemSchema.errors.map((p) => ({ path: p.path, message: p.message, ...(p.source ? locationJson(p.source) : {}) })), deprecations: systemSchema.deprecations.map((p) => ({ path: p.path, message: p.message, ...(p.source ? locationJson(p.source) : {}) })) } } : {};
    const seed = seedSummary(o);
    const readings = [...metaData.map((m) => seedTextModule().metaDataJson(m.path, m.reading, m.by)), ...(seed && seedMetaData ? [seedTextModule().metaDataJson(seedMetaData, seed.metaData, 'seed')] : [])];
    io.stdout(JSON.stringify({ ...schema, ...(readings.length ? { metaData: readings } : {}), findings, ...(fates ? { fates: fatesText.fatesJson(fates) } : {}), failOn: { kinds: o.failOn, failing: failed.length }, ...(delivery ? { delivery } : {}), ...system }, null, o.pretty ? 2 : undefined) + '\n');
  } else if (o.format === 'sarif') {
    const lintSarif = lintText.lintSarif(linted);
    const fateSarif = fates ? { rules: fatesText.FATE_RULES, results: fatesText.fatesSarif(fates, o.failOn) } : { rules: [], results: [] };
    io.stdout(render.formatSarif(result ?? { files: [], merged: null }, o.version, packageVersion(), { rules: [...lintSarif.rules, ...fateSarif.rules], results: [...lintSarif.results, ...fateSarif.results] }) + '\n');
  } else {
    // The schema text is what cloud-init prints: the findings and the fates follow it, only when there are some to list.
    const lint = lintText.lintSection(linted);
    const indented = (lines: string[]) => lines.map((l, i) => (i ? `  ${l}` : l)).join('\n') + '\n';
    for (const m of metaData) io.stdout(indented(seedTextModule().metaDataFileLines(m.path, m.reading, m.by)));
    if (result) io.stdout(render.formatText(result, o.version));
    if (systemSchema) io.stdout((require('../engine/render/systemSchemaText') as typeof import('../engine/render/systemSchemaText')).systemSchemaText(systemSchema, o.version));
    io.stdout(lint.text);
    if (fates && (fates.fates.length || fates.failure || !result)) io.stdout(fatesText.fatesText(fates));
    if (lint.failure) io.stdout(lint.failure);
    if (failed.length) io.stdout(`Error: ${failed.length} value(s) meet a --fail-on fate (${o.failOn.join(', ')})\n`);
    const seed = seedSummary(o);
    if (seed) io.stdout(indented(seedTextModule().seedLines(seed)));
    if (delivery) io.stdout(indented(deliveryTextModule().deliveryLines(delivery)));
  }
  return (result && !check.isAccepted(result)) || failed.length || linted.failing || overLimit || systemSchema?.errors.length ? 1 : 0;
}

/**
 * The one --check run for one cloud-init version: the merge, and (user-data and handler modes) cloud-init's
 * validation of each FILE and of the merged result. `--check` and `--check --image all` (images.ts) both use it.
 */
export function schemaCheck(o: CliOptions, io: CliIO, inputs: SetInputs & { paths: string[] }, version: CliOptions['version']): { outcome: Outcome; result: CheckResult | null } {
  const check = checkModule();
  const outcome = runSet(o.mode, inputs, { ...runOptions(o, io), version });
  if (outcome.kind !== 'user-data') return { outcome, result: null };
  const instanceData = outcome.options.instanceData;
  const named = inputs.files.map((f, i) => ({ path: inputs.paths[i], bytes: f.bytes }));
  const files = named.flatMap((i) => check.checkFile(i.path, i.bytes, version, instanceData));
  for (const i of named) {
    const note = check.wholeFileNote(i.path, i.bytes, version);
    if (note) io.stderr(`cloud-config-merge: note: ${note}\n`);
  }
  const run = outcome.run;
  if (run.fatal?.limit) throw new InputError(`${run.fatal.message}: nothing is merged`);
  if (run.fatal) throw new CloudInitFailure(`${run.fatal.pyType}: ${run.fatal.message} (no user-data is processed at all)`);
  return { outcome, result: { files, merged: check.checkMerged(run, outcome.locate, version) } };
}

/**
 * The FILEs that are network-config (by `--type network-config`, their name or their content: seedFiles.ts's rule),
 * checked, and taken out of `inputs` (what is left is merged as before). The host is the target's (`--netplan`, else the image's).
 */
function networkFiles(o: CliOptions, inputs: SetInputs & { paths: string[] }): { checked: FileResult[]; paths: string[]; bytes: Uint8Array[] } {
  const out = { checked: [] as FileResult[], paths: [] as string[], bytes: [] as Uint8Array[] };
  const keep: number[] = [];
  inputs.files.forEach((f, i) => {
    const path = inputs.paths[i] ?? f.name;
    if (seedFilesModule().seedFileOf(o, path, f.bytes)?.kind !== 'network-config') return keep.push(i);
    out.paths.push(path);
    out.bytes.push(f.bytes);
    out.checked.push(checkModule().checkNetworkFile(path, f.bytes, o.version, o.target.netplan));
  });
  inputs.files = keep.map((i) => inputs.files[i]);
  inputs.paths = keep.map((i) => inputs.paths[i]);
  return out;
}

/** `--check` of network-config files only: their results and findings, nothing merged. */
function networkOnly(o: CliOptions, io: CliIO, files: FileResult[]): number {
  const render = checkTextModule();
  const result: CheckResult = { files, merged: null };
  if (o.format === 'json') io.stdout(render.formatJson(result, o.pretty) + '\n');
  else if (o.format === 'sarif') io.stdout(render.formatSarif(result, o.version, packageVersion()) + '\n');
  else io.stdout(render.formatText(result, o.version));
  return checkModule().isAccepted(result) ? 0 : 1;
}

// `node dist/cli.js`: in the bundle, `module` is the bundled module's, not the file node runs.
if (require.main === module || require.main?.filename === __filename) {
  process.exitCode = main();
}
