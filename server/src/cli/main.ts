/**
 * `cloud-config-merge`: the merge engine on the command line, for CI
 * pipelines and for testing against the real cloud-init.
 * Exit codes: 0 ok; 2 bad usage or unreadable input; 3 cloud-init itself would fail;
 * 4 done, but part of the input is Jinja this tool cannot reproduce (cloud-init renders it).
 */
import { statSync, writeSync } from 'node:fs';
import { isMainThread, workerData } from 'node:worker_threads';
import { BoundedReadError, ReadFailureWords, describeReadFailure, readBoundedSync } from '../node/readFile';
import { basename, resolve as resolvePath } from 'node:path';
import { PyDict, PyValue } from '../engine/py/values';
import { PyError } from '../engine/py/errors';
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
const setModule = (): typeof import('./fates') => require('./fates') as typeof import('./fates');
const checkCliModule = (): typeof import('./check') => require('./check') as typeof import('./check');
const planModule = (): typeof import('./plan') => require('./plan') as typeof import('./plan');
const seedFilesModule = (): typeof import('./seedFiles') => require('./seedFiles') as typeof import('./seedFiles');

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
    return dispatch(options, io, argv);
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

function dispatch(o: CliOptions, io: CliIO, argv: readonly string[]): number {
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
  // A fleet: each FILE read and checked on its own (each.ts).
  if (o.check && o.each) return (require('./each') as typeof import('./each')).eachCommand(o, io, argv);
  // Every input is read here, once: a pipe or /dev/stdin has nothing left to give a second reading.
  const inputs = readInputs(o);
  if (o.check) return checkCliModule().checkCommand(o, io, inputs);
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

/** A seed folder's summary for the preview and --check (undefined without --seed); `bytes`: its meta-data, when read already. */
export function seedSummary(o: CliOptions, bytes?: Uint8Array): import('../engine/render/seedText').SeedSummary | undefined {
  if (o.seed === undefined || !o.seedFiles?.metaData) return undefined;
  const metaData = (require('../engine/seed/metaData') as typeof import('../engine/seed/metaData')).readMetaData(bytes ?? read(o, o.seedFiles.metaData));
  return { folder: o.seed, metaData, vendorData: o.vendor !== undefined, networkConfig: o.seedFiles.networkConfig !== undefined };
}

/** The exact text of the editor's preview for the same files. */
function previewMode(o: CliOptions, io: CliIO, inputs: SetInputs): number {
  if (o.mode === 'system') throw new UsageError('--format preview works with the user-data, handler, confd, boot and chef modes');
  return writePreview(o, io, runSet(o.mode, inputs, runOptions(o, io)));
}


function previewPlan(o: CliOptions): { plan?: import('../engine/version/target').Target; planOptions?: import('../engine/plan/plan').PlanOptions } {
  const inputs = o.mode === 'user-data' || o.mode === 'handler' ? planModule().planInputsOf(o) : undefined;
  return inputs && typeof inputs !== 'string' ? { plan: inputs.target, planOptions: inputs.options } : {};
}

/** The preview's text of an outcome; the exit code. */
export function writePreview(o: CliOptions, io: CliIO, outcome: Outcome): number {
  const model = previewModule().renderPreview(outcome, {
    // The editor's preview text, as the editor shows it by default (cloudConfigMerge.schema.enable).
    schema: true,
    cloud: o.cloud,
    seed: seedSummary(o),
    // The boot plan --plan makes for the same options (a custom --cloud-cfg too), in user-data and handler modes.
    ...previewPlan(o),
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

// `node dist/cli.js`: in the bundle, `module` is the bundled module's, not the file node runs.
if (!isMainThread && (workerData as { cloudConfigMergeEach?: boolean } | null)?.cloudConfigMergeEach) {
  // A worker thread of `--check --each`, started from the bundle (each.ts; from the compiled modules, each.js starts it).
  if (require.main === module || require.main?.filename === __filename) (require('./each') as typeof import('./each')).runWorker();
} else if (require.main === module || require.main?.filename === __filename) {
  process.exitCode = main();
}
