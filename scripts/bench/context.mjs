/**
 * What every bench section shares: the repository's paths, what a quick or a full run measures
 * (ctx.config), the run's scratch folder (ctx.work, set by scripts/bench.mjs), progress lines on
 * stderr, child processes, the machine's description and the generated inputs.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { fmtInt } from './stats.mjs';
import { clientServerStart } from './lsp.mjs';
import { generateParts } from './generate.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BENCH = path.join(ROOT, 'scripts', 'bench');
export const require = createRequire(import.meta.url);

/** The run, set by scripts/bench.mjs before any section runs: quick or full, its CONFIGS entry, its scratch folder. */
export const ctx = { quick: false, config: null, work: null };

/**
 * What is measured, and how many times. Each loop also has a time budget: it
 * stops early once the budget is spent, but never before its minimum runs.
 */
export const CONFIGS = {
  quick: {
    engineSizes: [
      [10, 100],
      [100, 100],
    ],
    cloudInitSizes: [[10, 100]],
    lspLines: [200, 2000],
    lspRepeats: 2,
    lspRequests: 30,
    lspRequestBudgetMs: 3000,
    startups: 1,
    previewParts: [10],
    previewRuns: 5,
    activations: 3,
    packageVsix: false,
  },
  full: {
    engineSizes: [
      [10, 100],
      [100, 100],
      [100, 200],
      [10, 1000],
      [1000, 100],
      [100, 1000],
      [1000, 1000],
    ],
    cloudInitSizes: [
      [10, 100],
      [100, 100],
      [100, 200],
      [10, 1000],
      [1000, 100],
      [100, 1000],
    ],
    lspLines: [200, 2000, 20000],
    lspRepeats: 5,
    lspRequests: 200,
    lspRequestBudgetMs: 25000,
    startups: 5,
    previewParts: [10, 100],
    previewRuns: 20,
    activations: 10,
    packageVsix: true,
  },
};

/** Runs per engine size, by input size: small inputs need many warm-up runs for the JIT to settle. */
export function engineRuns(bytes) {
  if (ctx.quick) return { warmup: 5, runs: 5, budgetMs: 6000, minRuns: 3, interleaved: true };
  if (bytes < 1e6) return { warmup: 10, runs: 15, budgetMs: 30000, minRuns: 5, interleaved: true };
  if (bytes < 10e6) return { warmup: 2, runs: 5, budgetMs: 60000, minRuns: 3, interleaved: true };
  // 1,000 x 1,000 (40 MB of YAML): one cold run of (a) and of (b), each in its own process.
  return { warmup: 0, runs: 1, budgetMs: 0, minRuns: 1, interleaved: false };
}
export function cloudInitRuns(bytes) {
  if (ctx.quick) return { warmup: 1, runs: 2, whole: 2, budgetMs: 5000 };
  if (bytes < 1e6) return { warmup: 1, runs: 5, whole: 5, budgetMs: 30000 };
  return { warmup: 0, runs: 2, whole: 2, budgetMs: 30000 };
}

export const ORACLE_PY = process.env.ORACLE_PY ?? '/work/shared/oracle/oracle.py';
export const CLOUDINIT_PATH = process.env.CLOUDINIT_PATH ?? '/opt/cloudinit-oracle/usr/lib/python3/dist-packages';
export const SYSTEM_PYTHON = '/usr/bin/python3';
export const YLS_BIN = path.join(ROOT, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
export const SERVER_MAIN = path.join(ROOT, 'server', 'out', 'server.js');

export const CLIENT_START = clientServerStart(ROOT);
export const CLIENT_START_LABEL = `node ${[...CLIENT_START.execArgv, 'dist/server.js', '--node-ipc'].join(' ')}`;
export const CLI = path.join(ROOT, 'bin', 'cloud-config-merge.js');
export const SCHEMA = path.join(BENCH, 'cloud-config.schema.json');

/* ------------------------------------------------------------------ progress */

export const T0 = performance.now();
export const progress = (msg) => process.stderr.write(`[bench ${((performance.now() - T0) / 1000).toFixed(0).padStart(4)}s] ${msg}\n`);

/** Runs a child to completion; resolves with its stdout, stderr and status (never rejects). */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...(options.env ?? {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-8000)));
    const timer = options.timeoutMs
      ? setTimeout(() => {
          stderr += `\n(killed after ${options.timeoutMs} ms)`;
          child.kill('SIGKILL');
        }, options.timeoutMs)
      : null;
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
    child.on('error', (e) => resolve({ code: 127, stdout, stderr: String(e) }));
  });
}

export async function runJson(command, args, options) {
  const r = await run(command, args, options);
  const line = r.stdout.trim().split('\n').pop();
  if (r.code !== 0 || !line) throw new Error(`${path.basename(args[0] ?? command)} ${args.slice(1, 4).join(' ')} failed (${r.code}): ${r.stderr.trim().slice(-600)}`);
  return JSON.parse(line);
}

/* ------------------------------------------------------------------ machine */

export function machine() {
  const cpus = os.cpus();
  const git = (args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  const py = spawnSync(SYSTEM_PYTHON, ['--version'], { encoding: 'utf8' });
  let ylsVersion = null;
  try {
    ylsVersion = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'yaml-language-server', 'package.json'), 'utf8')).version;
  } catch {
    /* not installed */
  }
  let cloudInitVersion = null;
  try {
    const v = readFileSync(path.join(CLOUDINIT_PATH, 'cloudinit', 'version.py'), 'utf8').match(/__VERSION__ = "([^"]+)"/);
    cloudInitVersion = v ? v[1] : null;
  } catch {
    /* not installed */
  }
  const dirty = git(['status', '--porcelain', '--untracked-files=no', '--', 'server/src', 'client/src']);
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    memory: os.totalmem(),
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    python: (py.stdout || py.stderr || '').trim() || 'not found',
    cloudInit: cloudInitVersion,
    yls: ylsVersion,
    commit: git(['rev-parse', '--short', 'HEAD']),
    dirty: dirty ? dirty.split('\n').length : 0,
    loadStart: os.loadavg(),
  };
}

/* ------------------------------------------------------------------ inputs */

export const sizeLabel = (M, K) => `${fmtInt(M)}×${fmtInt(K)}`;

export function writeParts(M, K) {
  const dir = path.join(ctx.work, `parts-${M}x${K}`);
  if (existsSync(dir)) return dir;
  mkdirSync(dir, { recursive: true });
  for (const p of generateParts(M, K)) writeFileSync(path.join(dir, p.name), p.text);
  return dir;
}
export const filesIn = (dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => path.join(dir, f));
export const bytesIn = (dir) => filesIn(dir).reduce((a, f) => a + statSync(f).size, 0);

export const NODE_CHILD = () => [path.join(BENCH, 'engine-child.mjs')];
