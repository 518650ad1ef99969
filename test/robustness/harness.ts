/**
 * Shared by the robustness tests (and the fuzzer, through out/test/robustness):
 * run the CLI as a child process under a CPU-time budget, run engine entry
 * points in a worker thread under a time budget, and recognise a crash.
 *
 * Budgets are CPU time where the platform tells it (Linux /proc), so a busy
 * machine does not turn a slow run into a false "hang"; wall time is only a
 * last-resort cap.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import assert from 'node:assert/strict';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
export const CLI_BIN = path.join(REPO_ROOT, 'bin', 'cloud-config-merge.js');

/** A JavaScript stack trace line, or the CLI's own "internal error" (exit 1). */
export const STACK_TRACE = /^\s+at .+(?::\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m;
export const INTERNAL_ERROR = /internal error|Maximum call stack|RangeError|TypeError: Cannot|ReferenceError|Invalid string length|Invalid array length|heap out of memory/;

/** User + system CPU time of a process in ms (Linux), or null where /proc is unavailable. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : null; // CLK_TCK is 100 on Linux
  } catch {
    return null;
  }
}

/** Resident set size of a process in bytes (Linux), or null. */
export function processRssBytes(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** SHA-256 (hex) of the whole of stdout, however long (`stdout` keeps its start and end only). */
  stdoutSha256: string;
  stderr: string;
  /** Killed for using more than the CPU budget (or the wall-time cap). */
  timedOut: boolean;
  cpuMs: number | null;
  wallMs: number;
}

export interface ChildOptions {
  cwd?: string;
  /** CPU time after which the child counts as hung and is killed (default 30 s). */
  cpuBudgetMs?: number;
  /** Wall-time cap (default 10 × the CPU budget). */
  wallCapMs?: number;
  env?: Record<string, string>;
  /** Extra node options, e.g. ['--max-old-space-size=512']. */
  nodeArgs?: string[];
  /** Keep at most this much of stdout (default 64 KiB: half from the start, half from the end). */
  maxStdout?: number;
}

/** Runs `node bin/cloud-config-merge.js ...args`. */
export function runCliChild(args: string[], options: ChildOptions = {}): Promise<ChildRun> {
  return runNodeChild([CLI_BIN, ...args], options);
}

export function runNodeChild(args: string[], options: ChildOptions = {}): Promise<ChildRun> {
  const cpuBudget = options.cpuBudgetMs ?? 30_000;
  const wallCap = options.wallCapMs ?? cpuBudget * 10;
  const maxStdout = options.maxStdout ?? 64 * 1024;
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = new HeadTail(maxStdout);
    const digest = createHash('sha256');
    let stderr = '';
    let timedOut = false;
    let lastCpu: number | null = null;
    child.stdout.on('data', (d: Buffer) => {
      out.add(d.toString('utf8'));
      digest.update(d);
    });
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 1024 * 1024) stderr += d.toString('utf8');
    });
    const timer = setInterval(() => {
      const cpu = child.pid !== undefined ? processCpuMs(child.pid) : null;
      if (cpu !== null) lastCpu = cpu;
      if ((cpu !== null && cpu > cpuBudget) || Date.now() - started > wallCap) {
        timedOut = true;
        child.kill('SIGKILL');
      }
    }, 50);
    child.on('close', (code, signal) => {
      clearInterval(timer);
      resolve({ code, signal, stdout: out.text(), stdoutSha256: digest.digest('hex'), stderr, timedOut, cpuMs: lastCpu, wallMs: Date.now() - started });
    });
  });
}

/** Keeps the first and the last `max / 2` characters of a long output (joined by a line of dots). */
export class HeadTail {
  private head = '';
  private tail = '';
  length = 0;
  constructor(private readonly max: number) {}
  add(text: string): void {
    this.length += text.length;
    const half = this.max >> 1;
    if (this.head.length < half) {
      const take = text.slice(0, half - this.head.length);
      this.head += take;
      text = text.slice(take.length);
    }
    if (text) this.tail = (this.tail + text).slice(-half);
  }
  text(): string {
    return this.length <= this.max ? this.head + this.tail : `${this.head}\n....\n${this.tail}`;
  }
}

export interface CliExpectation {
  code: number;
  /** Each must match stderr. */
  stderr?: RegExp[];
  stdout?: RegExp[];
}

/** No hang, no stack trace, no internal error, the expected exit code and messages. */
export function assertCleanRun(run: { code: number | null; stdout: string; stderr: string; timedOut?: boolean; signal?: NodeJS.Signals | null }, expected: CliExpectation, what: string): void {
  const context = `${what}\n--- exit ${run.code}${run.signal ? ` (${run.signal})` : ''}\n--- stderr:\n${run.stderr.slice(0, 2000)}\n--- stdout:\n${run.stdout.slice(0, 500)}`;
  assert.ok(!run.timedOut, `hung (killed after its budget): ${context}`);
  assert.ok(!STACK_TRACE.test(run.stderr), `stack trace on stderr: ${context}`);
  assert.ok(!INTERNAL_ERROR.test(run.stderr), `internal error: ${context}`);
  assert.ok(run.code === expected.code, `exit code ${run.code}, expected ${expected.code}: ${context}`);
  for (const re of expected.stderr ?? []) assert.ok(re.test(run.stderr), `stderr does not match ${re}: ${context}`);
  for (const re of expected.stdout ?? []) assert.ok(re.test(run.stdout), `stdout does not match ${re}: ${context}`);
}

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix = 'ccm-robust-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/* ------------------------------------------------------------------ in-process runs in a worker */

export type WorkerTask =
  | { kind: 'analyze'; text: string; path: string; options?: Record<string, unknown> }
  | { kind: 'preview'; mode: 'user-data' | 'handler' | 'confd' | 'boot'; files: Array<{ name: string; bytes: Uint8Array }>; options?: Record<string, unknown>; includeDir?: string }
  | { kind: 'cli'; argv: string[] };

export interface WorkerOutcome {
  /** The entry point threw: name, message, stack. */
  threw?: { name: string; message: string; stack: string };
  /** Killed: it did not return within the budget. */
  timedOut?: boolean;
  ms: number;
  analyze?: { findings: Array<{ code: string; severity: string; message: string }> };
  preview?: {
    /** The text, wrapped header lines joined again: its first 20,000 characters. */
    text: string;
    textLength: number;
    /** The whole header (joined again), and the body (what the CLI prints): its SHA-256 and its start. */
    header: string;
    bodySha256: string;
    bodyStart: string;
    failure?: string;
    parts: Array<{ label: string; status: string; reason?: string; spec?: string }>;
    entries: number;
  };
  cli?: { code: number; stdout: string; stdoutLength: number; stderr: string };
}

/**
 * Runs engine entry points in a worker thread, so that a hang can be cut
 * off (a synchronous loop cannot be interrupted from the same thread). One
 * worker serves many tasks; after a timeout it is replaced.
 */
export class EngineWorker {
  private worker: Worker | null = null;
  private nextId = 1;

  constructor(private readonly resourceLimits: { maxOldGenerationSizeMb?: number; stackSizeMb?: number } = { maxOldGenerationSizeMb: 2048 }) {}

  private start(): Worker {
    if (!this.worker) {
      this.worker = new Worker(path.join(__dirname, 'worker.js'), { resourceLimits: this.resourceLimits });
      this.worker.unref();
    }
    return this.worker;
  }

  run(task: WorkerTask, budgetMs: number): Promise<WorkerOutcome> {
    const worker = this.start();
    const id = this.nextId++;
    const started = Date.now();
    return new Promise((resolve) => {
      let done = false;
      const finish = (outcome: WorkerOutcome) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(outcome);
      };
      const onMessage = (m: { id: number; outcome: WorkerOutcome }) => {
        if (m.id === id) finish(m.outcome);
      };
      const onError = (e: Error) => {
        this.worker = null;
        finish({ threw: { name: e.name, message: e.message, stack: e.stack ?? '' }, ms: Date.now() - started });
      };
      const onExit = (code: number) => {
        this.worker = null;
        finish({ threw: { name: 'WorkerExit', message: `the worker exited (${code}): out of memory?`, stack: '' }, ms: Date.now() - started });
      };
      const timer = setTimeout(() => {
        this.worker = null;
        void worker.terminate();
        finish({ timedOut: true, ms: Date.now() - started });
      }, budgetMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, task });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}

/** Fails unless the in-process run returned (no throw, no hang). */
export function assertReturned(outcome: WorkerOutcome, what: string): void {
  assert.ok(!outcome.timedOut, `${what}: did not return within its budget (${outcome.ms} ms)`);
  assert.ok(!outcome.threw, `${what}: threw ${outcome.threw?.name}: ${outcome.threw?.message}\n${outcome.threw?.stack}`);
}
