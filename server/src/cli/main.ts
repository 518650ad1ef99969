/**
 * `cloud-config-merge`: the merge engine on the command line, for CI
 * pipelines and for testing against the real cloud-init.
 * Exit codes: 0 ok; 2 bad usage or unreadable input; 3 cloud-init itself would fail;
 * 4 done, but part of the input is Jinja this tool cannot reproduce (cloud-init renders it).
 */
import { isMainThread, workerData } from 'node:worker_threads';
import { PyError } from '../engine/py/errors';
import { LimitExceededError } from '../engine/limits';
import { CliOptions, applyTarget, parseArgs, UsageError, usage } from './args';
import { packageVersion } from './version';
import { CloudInitFailure, InputError, processIO, read, readInputs, type CliIO } from './io';
import { mergeMode, previewMode } from './merge';
import { explain, specMerge } from './spec';

// The commands' shared reading and writing, for callers of the CLI as a module (tests, bin/).
export { CloudInitFailure, InputError, readInput, type CliIO } from './io';

/**
 * What only some modes and options need (templates, reports, --check, fates, make-mime, the system
 * modes, Chef) is required when they run (require keeps it after): a plain merge starts without it.
 */
const batchModule = (): typeof import('./batch') => require('./batch') as typeof import('./batch');
const makeMimeModule = (): typeof import('./makeMime') => require('./makeMime') as typeof import('./makeMime');
const pipelineModule = (): typeof import('./pipeline') => require('./pipeline') as typeof import('./pipeline');
const lintModule = (): typeof import('./lint') => require('./lint') as typeof import('./lint');
const setModule = (): typeof import('./set') => require('./set') as typeof import('./set');
const checkCliModule = (): typeof import('./check') => require('./check') as typeof import('./check');
const planModule = (): typeof import('./plan') => require('./plan') as typeof import('./plan');
const seedFilesModule = (): typeof import('./seedFiles') => require('./seedFiles') as typeof import('./seedFiles');

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

// `node dist/cli.js`: in the bundle, `module` is the bundled module's, not the file node runs.
if (!isMainThread && (workerData as { cloudConfigMergeEach?: boolean } | null)?.cloudConfigMergeEach) {
  // A worker thread of `--check --each`, started from the bundle (each.ts; from the compiled modules, each.js starts it).
  if (require.main === module || require.main?.filename === __filename) (require('./each') as typeof import('./each')).runWorker();
} else if (require.main === module || require.main?.filename === __filename) {
  process.exitCode = main();
}
