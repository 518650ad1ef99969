/**
 * What every command of the CLI reads and writes with: the process's output (CliIO), the errors that give
 * the exit codes 2 and 3, the bounded reader of the files the command line names, the inputs of a run
 * (FILEs and layers, read once), the run's options (custom mergers, includes, instance data) and a seed's
 * summary. The commands (main.ts dispatches them, one file each) import from here, never from main.ts.
 */
import { statSync, writeSync } from 'node:fs';
import { resolve as resolvePath, basename } from 'node:path';
import { BoundedReadError, ReadFailureWords, describeReadFailure, readBoundedSync } from '../node/readFile';
import { PyError } from '../engine/py/errors';
import { DEFAULT_LIMITS } from '../engine/limits';
import type { MergerFactory } from '../engine/merge/construct';
import type { RunOptions, SetInputs, SystemLayers, InputFile } from '../engine/outcome/run';
import type { InstanceDataChoice } from '../engine/template/instanceData';
import { fileIncludeResolver } from '../node/includes';
import type { CliOptions } from './args';

const customMergerModule = (): typeof import('../engine/merge/custom') => require('../engine/merge/custom') as typeof import('../engine/merge/custom');
const instanceDataModule = (): typeof import('../engine/template/instanceData') => require('../engine/template/instanceData') as typeof import('../engine/template/instanceData');

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
}

export const processIO: CliIO = {
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

export function readConfigFile(o: CliOptions, path: string | undefined) {
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

/** The FILEs (handler mode: named by their base names, with FILE.headers.json) and the layers the options name. */
export function readInputs(o: CliOptions): SetInputs & { paths: string[] } {
  const files: InputFile[] = o.files.map((f) => ({ name: o.mode === 'handler' ? basename(f) : f, bytes: read(o, f), ...(o.mode === 'handler' ? { headers: optionalHeaders(o, f) } : {}) }));
  const layers = o.mode === 'boot' ? bootLayers(o) : o.mode === 'confd' ? { cloudCfg: readConfigFile(o, o.cloudCfg), confdOrder: o.confdOrder } : undefined;
  return { files, layers, paths: o.files };
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
    ...(o.partCache ? { partCache: o.partCache } : {}),
    detail: o.format === 'report' || o.format === 'preview' || o.check ? 'full' : 'value',
  };
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
