// Replays every reproducer the fuzzer saved in test/robustness/found/ (scripts/fuzz.mjs) through
// the target that failed on it: each must now pass (no crash, no hang).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { LspClient } from '../support/lspClient';
import { EngineWorker, REPO_ROOT, WorkerTask, assertCleanRun, assertReturned, processCpuMs, runCliChild, tempDir } from './harness';

const FOUND = path.join(REPO_ROOT, 'test', 'robustness', 'found');

interface Found {
  target: 'in-process' | 'child' | 'server';
  kind: string;
  message: string;
  input: string;
  gzipped?: boolean;
  ext?: string;
  task?: WorkerTask & { argv?: string[] };
  argv?: string[];
  request?: { method: string; params: unknown };
  /**
   * For a slowness found by the fuzzer: the server CPU (user + system, all threads) the diagnostics
   * of the opened document and then the request may take. Far above the targets, so that a
   * loaded machine meets them, and far below what the bug cost.
   */
  budget?: { diagnosticsCpuMs: number; requestCpuMs: number };
  /**
   * For an in-process slowness the fuzzer found: the most time the task may take in the worker. Far above
   * what it costs fixed, far below what the bug cost, so that only the bug fails it.
   */
  taskMsBudget?: number;
}

const records: Array<{ name: string; found: Found }> = existsSync(FOUND)
  ? readdirSync(FOUND)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => ({ name: n.replace(/\.json$/, ''), found: JSON.parse(readFileSync(path.join(FOUND, n), 'utf8')) as Found }))
  : [];

/** The fuzzer's seed files by base name, as it lays them out in its work directory. */
function layOutSeeds(dir: string): void {
  const copy = (from: string) => {
    for (const n of readdirSync(from)) {
      const p = path.join(from, n);
      if (statSync(p).isDirectory()) copy(p);
      else if (!/\.(js|mjs|cjs)$/.test(n) && n !== 'case.json' && n !== 'expected.txt' && !existsSync(path.join(dir, n))) {
        writeFileSync(path.join(dir, n), readFileSync(p, 'utf8').split('{dir}').join(dir));
      }
    }
  };
  for (const d of [path.join(REPO_ROOT, 'scripts', 'fuzz', 'seeds'), path.join(REPO_ROOT, 'examples'), path.join(REPO_ROOT, 'test', 'conformance', 'cases')]) if (existsSync(d)) copy(d);
}

/** A preview task as the fuzzer saves it (scripts/fuzz/executor.mjs): its files by path, its options flat. */
interface FuzzPreview {
  kind: 'preview';
  mode: 'user-data' | 'handler' | 'confd' | 'boot';
  files: Array<{ name: string; path: string }>;
  onIncludeFailure?: string;
  instanceData?: unknown;
}

/** The fuzzer's preview task as the worker runs it: the files read, `#include` resolved from the work directory. */
function fuzzedPreview(task: FuzzPreview, dir: string): WorkerTask {
  return {
    kind: 'preview',
    mode: task.mode,
    files: task.files.map((f) => ({ name: f.name, bytes: readFileSync(f.path) })),
    options: { onIncludeFailure: task.onIncludeFailure, instanceData: task.instanceData },
    includeDir: dir,
  };
}

function fill<T>(value: T, map: Record<string, string>): T {
  let text = JSON.stringify(value);
  for (const [k, v] of Object.entries(map)) text = text.split(k).join(JSON.stringify(v).slice(1, -1));
  return JSON.parse(text) as T;
}

describe('reproducers found by the fuzzer', () => {
  let work: { dir: string; cleanup: () => void };
  const worker = new EngineWorker();
  before(() => {
    work = tempDir('ccm-found-');
    layOutSeeds(work.dir);
  });
  after(async () => {
    await worker.close();
    work.cleanup();
  });

  /** The CLI's exit codes that are answers (as scripts/fuzz.mjs judges them): 1 only where --check or --lint found problems. */
  const isAnswerCode = (code: number, argv: string[]) => [0, 2, 3, 4].includes(code) || (code === 1 && (argv.includes('--check') || argv.includes('--lint')));

  if (!records.length) test('(none saved)', () => {});
  for (const { name, found } of records) {
    test(`${name}: ${found.message.split('\n')[0].slice(0, 120)}`, async () => {
      const raw = readFileSync(path.join(FOUND, found.input));
      const bytes = found.gzipped ? gunzipSync(raw) : raw;
      const input = path.join(work.dir, `input-${name}${found.ext ?? ''}`);
      writeFileSync(input, bytes);
      const map = { '{input}': input, '{workdir}': work.dir };
      if (found.target === 'child') {
        const argv = fill(found.argv ?? [], map);
        const run = await runCliChild(argv, { cpuBudgetMs: 20_000 });
        assert.ok(!run.timedOut, 'hung');
        assert.ok(isAnswerCode(run.code ?? -1, argv), `exit ${run.code}: ${run.stderr}`);
        assertCleanRun(run, { code: run.code ?? -1 }, argv.join(' '));
      } else if (found.target === 'in-process') {
        const task = fill(found.task!, map);
        const outcome = await worker.run(task.kind === 'analyze' ? { kind: 'analyze', text: bytes.toString('utf8'), path: input } : task.kind === 'preview' ? fuzzedPreview(task as unknown as FuzzPreview, work.dir) : task, 30_000);
        assertReturned(outcome, JSON.stringify(task));
        if (found.taskMsBudget !== undefined) assert.ok(outcome.ms <= found.taskMsBudget, `took ${outcome.ms} ms (budget ${found.taskMsBudget})`);
        if (outcome.cli) assertCleanRun({ ...outcome.cli }, { code: isAnswerCode(outcome.cli.code, task.argv ?? []) ? outcome.cli.code : 0 }, `main ${task.argv?.join(' ')}`);
      } else {
        const ws = path.join(work.dir, `ws-${name}`);
        const { mkdirSync } = await import('node:fs');
        mkdirSync(ws, { recursive: true });
        const doc = path.join(ws, `doc${found.ext ?? ''}`);
        copyFileSync(input, doc);
        const client = await LspClient.start({ workspaceFolders: [ws] });
        try {
          const uri = pathToFileURL(doc).href;
          const cpu = () => processCpuMs(client.process.pid!) ?? 0;
          let cpuBefore = cpu();
          if (found.budget) {
            client.openNoWait(uri, bytes.toString('utf8'));
            await client.waitForDiagnostics(uri, 0, () => true, 20_000);
            const spent = cpu() - cpuBefore;
            assert.ok(spent <= found.budget.diagnosticsCpuMs, `didOpen -> diagnostics took ${spent} ms of server CPU (budget ${found.budget.diagnosticsCpuMs})`);
            cpuBefore = cpu();
          } else {
            client.openNoWait(uri, bytes.toString('utf8'));
          }
          const params = fill(found.request!.params, { '{uri}': uri, '{workspace}': pathToFileURL(ws).href });
          let timer: NodeJS.Timeout | undefined;
          const answer = await Promise.race([
            client.request(found.request!.method, params).then(() => 'ok', (e: Error) => `error response: ${e.message}`),
            new Promise<string>((r) => (timer = setTimeout(() => r('no answer within 20 s'), 20_000))),
          ]).finally(() => clearTimeout(timer));
          assert.equal(answer, 'ok');
          if (found.budget) {
            const spent = cpu() - cpuBefore;
            assert.ok(spent <= found.budget.requestCpuMs, `${found.request!.method} took ${spent} ms of server CPU after the diagnostics (budget ${found.budget.requestCpuMs})`);
          }
          assert.equal(client.process.exitCode, null, client.stderr);
          const errors = client.logs.filter((l) => /uncaught|unhandled rejection|failed:/.test(l));
          assert.deepEqual(errors, []);
        } finally {
          client.process.kill('SIGKILL');
          client.connection.dispose();
        }
      }
    });
  }
});
