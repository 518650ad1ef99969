/**
 * `--check --each FILE...`: a fleet of files, each checked on its own as its own user-data (check.ts's one
 * check of a lone FILE, without a merged result), one verdict per file, in one process. A drop-in is
 * checked as a drop-in, a network-config or meta-data as that seed file; a file that is no cloud-init
 * document is skipped (as `--lint` and the editor skip it). With many files the work is shared by worker
 * threads (one per core, the main thread one of them); the answer is the same, in the FILEs' order.
 *
 * Text: each file's `--check` text, then a summary on stderr. JSON: `{files: [{file, status, failing,
 * check}], summary}`. SARIF: one log, every file's results. Exit 2 when a file cannot be read, else 1 when
 * a file fails its check, else 0.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel, Worker, isMainThread, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { detectCloudInitDocument, detectionTextOfBytes } from '../../../common/detect';
import { PyError } from '../engine/py/errors';
import { LimitExceededError } from '../engine/limits';
import { applyTarget, parseArgs, UsageError, type CliOptions } from './args';
import { checkRun, failing, writeCheck } from './check';
import { CloudInitFailure, InputError, read, type CliIO } from './io';

/** One file's verdict. */
export interface EachResult {
  file: string;
  status: 'checked' | 'skipped' | 'error';
  failing: boolean;
  /** The file's `--check` output in the chosen format (checked), or why it could not be checked (error). */
  output: string;
  /** What the check said on stderr (notes). */
  notes: string;
}

/** Files per thread below which one thread does it all (a worker costs the engine's start-up). */
const FILES_PER_THREAD = 40;

export function eachCommand(o: CliOptions, io: CliIO, argv: readonly string[]): number {
  const results = checkAll(o, argv);
  writeEach(o, io, results);
  if (results.some((r) => r.status === 'error')) return 2;
  return results.some((r) => r.failing) ? 1 : 0;
}

/** Each FILE's verdict, in order: the main thread takes the first share, workers the others. */
function checkAll(o: CliOptions, argv: readonly string[]): EachResult[] {
  const files = o.files;
  const threads = Math.max(1, Math.min(availableParallelism(), Math.floor(files.length / FILES_PER_THREAD)));
  if (threads === 1) return files.map((f) => checkOne(o, f));
  const share = Math.ceil(files.length / threads);
  const shares = Array.from({ length: threads }, (_, i) => files.slice(i * share, (i + 1) * share));
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const workers = shares.slice(1).map((chunk) => startWorker(argv, chunk, signal));
  const mine = shares[0].map((f) => checkOne(o, f));
  return [...mine, ...collect(workers, signal)];
}

interface Running {
  worker: Worker;
  port: MessagePort;
  results: EachResult[];
  done: boolean;
}

function startWorker(argv: readonly string[], files: string[], signal: Int32Array): Running {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(__filename, { workerData: { cloudConfigMergeEach: true, argv, files, port: port2, signal }, transferList: [port2] });
  worker.unref();
  return { worker, port: port1, results: [], done: false };
}

/** How long the main thread waits for a worker that says nothing before it gives up (a worker that died). */
const SILENCE_MS = 120_000;

/** The workers' results, received synchronously (the CLI's commands return their exit code). */
function collect(workers: Running[], signal: Int32Array): EachResult[] {
  let quietSince = Date.now();
  while (workers.some((w) => !w.done)) {
    const seen = Atomics.load(signal, 0);
    let got = false;
    for (const w of workers) {
      for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) {
        got = true;
        const message = m.message as { result?: EachResult; done?: true; fatal?: string };
        if (message.result) w.results.push(message.result);
        if (message.fatal) throw new Error(`a worker thread failed: ${message.fatal}`);
        if (message.done) w.done = true;
      }
    }
    if (got) quietSince = Date.now();
    else if (Date.now() - quietSince > SILENCE_MS) throw new Error(`a worker thread said nothing for ${SILENCE_MS / 1000} s`);
    else Atomics.wait(signal, 0, seen, 1000);
  }
  for (const w of workers) void w.worker.terminate();
  return workers.flatMap((w) => w.results);
}

/** A worker: the same options (parsed again from the same arguments), its share of the FILEs. */
export function runWorker(): void {
  const data = workerData as { argv: string[]; files: string[]; port: MessagePort; signal: Int32Array };
  const post = (message: unknown) => {
    data.port.postMessage(message);
    Atomics.add(data.signal, 0, 1);
    Atomics.notify(data.signal, 0);
  };
  try {
    const o = parseArgs(data.argv);
    applyTarget(o);
    for (const file of data.files) post({ result: checkOne(o, file) });
    post({ done: true });
  } catch (e) {
    post({ fatal: e instanceof Error ? e.message : String(e) });
  }
}

/** One FILE as `--check FILE` checks it alone (no merged result), its output captured. */
export function checkOne(o: CliOptions, file: string): EachResult {
  let output = '';
  let notes = '';
  const io: CliIO = { stdout: (t) => (output += t), stderr: (t) => (notes += t) };
  let bytes: Uint8Array;
  try {
    bytes = read(o, file);
  } catch (e) {
    if (e instanceof InputError) return { file, status: 'error', failing: true, output: e.message, notes };
    throw e;
  }
  const kind = o.type ?? detectCloudInitDocument(detectionTextOfBytes(bytes), file)?.kind;
  if (!kind) return { file, status: 'skipped', failing: false, output: '', notes };
  const one: CliOptions = { ...o, mode: kind === 'confd' || kind === 'cloud-cfg' ? 'confd' : 'user-data', files: [file] };
  try {
    const run = checkRun(one, io, { files: [{ name: file, bytes }], paths: [file], layers: one.mode === 'confd' ? { confdOrder: o.confdOrder } : undefined }, { merged: false });
    writeCheck(one, io, run);
    return { file, status: 'checked', failing: failing(one, run), output, notes };
  } catch (e) {
    if (e instanceof InputError || e instanceof UsageError || e instanceof LimitExceededError) return { file, status: 'error', failing: true, output: e.message, notes };
    // cloud-init itself would fail on this file: that is its verdict.
    if (e instanceof CloudInitFailure) return { file, status: 'checked', failing: true, output: `${file}: cloud-init would fail: ${e.message}\n`, notes };
    if (e instanceof PyError) return { file, status: 'checked', failing: true, output: `${file}: cloud-init would fail: ${e.pyType}: ${e.message}\n`, notes };
    throw e;
  }
}

type SarifLog = { runs: Array<{ tool: { driver: { rules?: Array<{ id: string }> } }; results: unknown[] }> };

function writeEach(o: CliOptions, io: CliIO, results: EachResult[]): void {
  const checked = results.filter((r) => r.status === 'checked');
  const summary = { files: results.length, checked: checked.length, failing: checked.filter((r) => r.failing).length, skipped: results.filter((r) => r.status === 'skipped').length, errors: results.filter((r) => r.status === 'error').length };
  for (const r of results) if (r.notes) io.stderr(r.notes);
  if (o.format === 'json') {
    const files = results.map((r) => ({ file: r.file, status: r.status, failing: r.failing, ...(r.status === 'checked' ? { check: parseOr(r.output) } : r.status === 'error' ? { error: r.output } : {}) }));
    io.stdout(JSON.stringify({ files, summary }, null, o.pretty ? 2 : undefined) + '\n');
  } else if (o.format === 'sarif') {
    const logs = checked.map((r) => parseOr(r.output) as SarifLog | string).filter((l): l is SarifLog => typeof l === 'object' && l !== null && Array.isArray(l.runs));
    const first = logs[0] ?? (JSON.parse(sarifOfNothing(o)) as SarifLog);
    const rules = new Map<string, { id: string }>();
    const out = { ...first, runs: [{ ...first.runs[0], results: [] as unknown[] }] };
    for (const log of logs) {
      for (const rule of log.runs[0].tool.driver.rules ?? []) if (!rules.has(rule.id)) rules.set(rule.id, rule);
      out.runs[0].results.push(...log.runs[0].results);
    }
    out.runs[0].tool = { ...first.runs[0].tool, driver: { ...first.runs[0].tool.driver, rules: [...rules.values()] } };
    io.stdout(JSON.stringify(out, null, o.pretty ? 2 : undefined) + '\n');
  } else {
    for (const r of checked) io.stdout(r.output);
  }
  for (const r of results) if (r.status === 'error') io.stderr(`cloud-config-merge: ${r.output}\n`);
  const words = `${summary.failing} of ${summary.checked} cloud-init file${summary.checked === 1 ? '' : 's'} fail${summary.failing === 1 ? 's' : ''} the check`;
  io.stderr(`cloud-config-merge: ${words}${summary.skipped ? ` (${summary.skipped} skipped: not cloud-init documents)` : ''}${summary.errors ? ` (${summary.errors} could not be read)` : ''}\n`);
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** An empty SARIF log of the check (no file was checked). */
function sarifOfNothing(o: CliOptions): string {
  let out = '';
  writeCheck(o, { stdout: (t) => (out += t), stderr: () => undefined }, { result: null, findings: [], checked: 0, fates: null, failedFates: 0, metaData: [] });
  return out;
}

// A worker thread started from the compiled modules (the bundle starts its workers from main.ts).
if (!isMainThread && (workerData as { cloudConfigMergeEach?: boolean } | null)?.cloudConfigMergeEach && require.main === module) runWorker();
