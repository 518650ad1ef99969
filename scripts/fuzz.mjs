#!/usr/bin/env node
// npm run fuzz -- (--iterations N | --seconds N) [--seed S] [--no-server] [--no-child] [--child-every N] [--max-failures N]
//
// --iterations gives the same inputs, and so the same verdict, on any machine (CI uses it, seeded by
// the commit); --seconds runs as many as fit (longer campaigns). With neither, 60 seconds.
//
// Random mutations of valid cloud-config, MIME, archive, JSON-patch and Jinja seeds
// (scripts/fuzz/seeds, examples/, test/conformance/cases/) sent to
//   1. the CLI's main(), buildPreview and analyzeDocument in-process (a forked executor whose CPU
//      time is watched), and to the CLI as a child process every few iterations;
//   2. the language server over the protocol (didOpen/didChange, hover, completion, code actions,
//      documentInfo and preview requests at random positions), with its memory sampled over time.
// A crash is an exit code 1 / uncaught exception / a stack trace on stderr / an error response or
// an error the server logs / the server exiting; a hang is a run or request that takes more than
// 2 s of CPU time (1 ms more per KiB of input). Each new failure is shrunk to a minimal reproducer and saved under
// test/robustness/found/ (replayed by test/robustness/found.test.ts). Needs a build (npm run build).
import { fork, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Rng, mutate } from './fuzz/mutate.mjs';
import { FuzzServer, cpuMs, rssBytes } from './fuzz/server.mjs';
import { knownIssue } from './fuzz/known.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const STACK_TRACE = /^\s+at .+(?::\d+:\d+\)?|\(native\)|\(<anonymous>\))$/m;
const INTERNAL_ERROR = /internal error|Maximum call stack|RangeError|TypeError: Cannot|ReferenceError|Invalid string length|Invalid array length|heap out of memory/;

/* ------------------------------------------------------------------ options */

function parseOptions(argv) {
  const o = { seconds: undefined, iterations: undefined, seed: String(Date.now() % 1e9), server: true, child: true, childEvery: 6, maxFailures: 20, shrinkSeconds: 60, hangMs: 2000, rssGrowthMb: 300, found: path.join(ROOT, 'test', 'robustness', 'found'), verbose: false, save: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    switch (a) {
      case '--seconds': o.seconds = Number(value()); break;
      case '--iterations': o.iterations = Number(value()); break;
      case '--seed': o.seed = value(); break;
      case '--no-server': o.server = false; break;
      case '--no-child': o.child = false; break;
      case '--child-every': o.childEvery = Math.max(1, Number(value())); break;
      case '--max-failures': o.maxFailures = Number(value()); break;
      case '--shrink-seconds': o.shrinkSeconds = Number(value()); break;
      case '--hang-ms': o.hangMs = Number(value()); break;
      case '--rss-growth-mb': o.rssGrowthMb = Number(value()); break;
      case '--found': o.found = path.resolve(value()); break;
      case '--no-save': o.save = false; break;
      case '--verbose': case '-v': o.verbose = true; break;
      case '-h': case '--help':
        console.log(readFileSync(new URL(import.meta.url), 'utf8').split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n'));
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${a}`);
    }
  }
  if (o.seconds !== undefined && !(o.seconds > 0)) throw new Error('--seconds must be a positive number');
  if (o.iterations !== undefined && !(Number.isInteger(o.iterations) && o.iterations > 0)) throw new Error('--iterations must be a positive whole number');
  if (o.seconds !== undefined && o.iterations !== undefined) throw new Error('give --iterations or --seconds, not both');
  if (o.iterations === undefined) o.seconds ??= 60;
  return o;
}

/* ------------------------------------------------------------------ seeds */

function loadSeeds(workdir) {
  const seeds = [];
  const add = (file) => {
    const st = statSync(file);
    if (!st.isFile() || st.size > 256 * 1024 || /\.(js|mjs|cjs)$/.test(file)) return;
    const name = path.relative(ROOT, file);
    const text = readFileSync(file, 'utf8');
    seeds.push({ name, bytes: Buffer.from(text.split('{dir}').join(workdir)) });
  };
  const walk = (dir, filter) => {
    if (!existsSync(dir)) return;
    for (const n of readdirSync(dir).sort()) {
      const p = path.join(dir, n);
      if (statSync(p).isDirectory()) walk(p, filter);
      else if (filter(n)) add(p);
    }
  };
  walk(path.join(ROOT, 'scripts', 'fuzz', 'seeds'), () => true);
  walk(path.join(ROOT, 'examples'), () => true);
  walk(path.join(ROOT, 'test', 'conformance', 'cases'), (n) => n !== 'case.json' && n !== 'expected.txt' && !n.endsWith('.headers.json'));
  // Seeds can #include each other by name: copy them into the work directory.
  for (const s of seeds) {
    const dest = path.join(workdir, path.basename(s.name));
    if (!existsSync(dest)) writeFileSync(dest, s.bytes);
  }
  return seeds;
}

/* ------------------------------------------------------------------ the in-process executor */

class Executor {
  constructor(hangMs) {
    this.hangMs = hangMs;
    this.nextId = 1;
    this.restarts = 0;
  }

  start() {
    this.stderr = '';
    this.exited = null;
    this.child = fork(path.join(ROOT, 'scripts', 'fuzz', 'executor.mjs'), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: ['--max-old-space-size=2048'] });
    this.child.stderr.on('data', (d) => {
      if (this.stderr.length < 100000) this.stderr += d.toString();
    });
    // (only this child's exit: a killed predecessor exits after its successor started, and must not mark it exited)
    const child = this.child;
    child.on('exit', (code, signal) => {
      if (this.child === child) this.exited = { code, signal };
    });
    return new Promise((resolve, reject) => {
      this.child.once('message', (m) => (m.ready ? resolve() : reject(new Error('executor did not start'))));
      this.child.once('exit', () => reject(new Error(`executor exited at start: ${this.stderr}`)));
    });
  }

  async restart() {
    this.restarts++;
    // Killed whatever `exited` says: a hung executor left alive keeps its IPC channel, and the fuzzer never exits.
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.start();
  }

  /** { result } | { error } | { failure: { kind, message } } */
  run(task, hangMs = this.hangMs) {
    const id = this.nextId++;
    const child = this.child;
    const cpu0 = cpuMs(child.pid);
    const t0 = Date.now();
    return new Promise((resolve) => {
      let done = false;
      const finish = (v) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(v);
      };
      const onMessage = (m) => {
        if (m.uncaught) finish({ failure: { kind: 'crash', message: `uncaught exception: ${m.uncaught.name}: ${m.uncaught.message}`, stack: m.uncaught.stack } });
        else if (m.id === id) finish(m.ok ? { result: m.result, cpuMs: m.cpuMs } : { error: m.error, cpuMs: m.cpuMs });
      };
      const onExit = (code, signal) => finish({ failure: { kind: 'crash', message: `the process exited (${code ?? signal}): ${this.stderr.slice(-1500)}` } });
      let timer;
      const poll = () => {
        const cpu = cpuMs(child.pid);
        const wall = Date.now() - t0;
        if ((cpu !== null && cpu0 !== null && cpu - cpu0 > hangMs && wall > hangMs) || wall > hangMs * 15) {
          finish({ failure: { kind: 'hang', message: `no answer after ${wall} ms (${cpu !== null && cpu0 !== null ? cpu - cpu0 : '?'} ms of CPU)` } });
          return;
        }
        timer = setTimeout(poll, 50);
      };
      timer = setTimeout(poll, 50);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, task });
    });
  }
}

/**
 * The CLI's exit codes that are answers: 0, 2 (input), 3 (cloud-init fails), 4 (a Jinja template this
 * tool cannot reproduce), and 1 with --check or --lint (problems found); any other 1 is an internal error.
 */
function isAnswerCode(code, argv) {
  return [0, 2, 3, 4].includes(code) || (code === 1 && (argv.includes('--check') || argv.includes('--lint')));
}

/** What counts as a failure in an executor answer. */
function judgeExecutor(task, answer) {
  if (answer.failure) return answer.failure;
  if (answer.error) return { kind: 'crash', message: `${task.kind} threw ${answer.error.name}: ${answer.error.message}`, stack: answer.error.stack };
  if (task.kind === 'cli') {
    const { code, stderr } = answer.result;
    if (!isAnswerCode(code, task.argv)) return { kind: 'crash', message: `exit code ${code}: ${stderr.split('\n').slice(-3).join(' | ')}` };
    if (STACK_TRACE.test(stderr)) return { kind: 'crash', message: `stack trace on stderr: ${stderr.slice(0, 300)}` };
    if (INTERNAL_ERROR.test(stderr)) return { kind: 'crash', message: `internal error on stderr: ${stderr.match(INTERNAL_ERROR)[0]}: ${stderr.slice(0, 300)}` };
  }
  return null;
}

/* ------------------------------------------------------------------ the CLI as a child process */

function runChild(argv, hangMs) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'cloud-config-merge.js'), ...argv], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let hung = false;
    const t0 = Date.now();
    const cpu0 = 0;
    child.stderr.on('data', (d) => {
      if (stderr.length < 100000) stderr += d.toString();
    });
    const timer = setInterval(() => {
      const cpu = cpuMs(child.pid);
      // The child's whole CPU time, start-up included (about 0.3 s): a hang is well past the budget.
      if ((cpu !== null && cpu - cpu0 > hangMs + 1000) || Date.now() - t0 > (hangMs + 1000) * 15) {
        hung = true;
        child.kill('SIGKILL');
      }
    }, 50);
    child.on('close', (code, signal) => {
      clearInterval(timer);
      if (hung) return resolve({ kind: 'hang', message: `the CLI ran for more than ${hangMs} ms of CPU time (wall ${Date.now() - t0} ms)` });
      if (signal) return resolve({ kind: 'crash', message: `killed by ${signal}: ${stderr.slice(-500)}` });
      if (!isAnswerCode(code, argv)) return resolve({ kind: 'crash', message: `exit code ${code}: ${stderr.split('\n').slice(-4).join(' | ')}` });
      if (STACK_TRACE.test(stderr)) return resolve({ kind: 'crash', message: `stack trace on stderr: ${stderr.slice(0, 400)}` });
      if (INTERNAL_ERROR.test(stderr)) return resolve({ kind: 'crash', message: `internal error on stderr: ${stderr.slice(0, 400)}` });
      resolve(null);
    });
  });
}

/* ------------------------------------------------------------------ tasks */

const EXTENSIONS = ['.yaml', '.yaml', '.mime', '.txt', '.j2', '.cfg', '.json', ''];
const MODES = ['user-data', 'user-data', 'handler', 'confd', 'boot', 'chef'];

function cliArgv(rng, file, other) {
  switch (rng.int(16)) {
    case 0: return ['--format', 'json', file];
    case 1: return ['--format', 'report', file];
    case 2: return ['--format', 'preview', file];
    case 3: return ['--mode', 'handler', file, other];
    case 4: return ['--mode', 'confd', file, other];
    case 5: return ['--mode', 'system', file, other];
    case 6: return ['--mode', 'boot', '--vendor', other, file];
    case 7: return ['--spec', rng.pick(['list(append)+dict(no_replace,recurse_list)+str(append)', 'dict(replace)+list()+str()', 'list()+dict()+str()']), file, other];
    case 8: return ['--include-missing', 'skip', '--launch-index', String(rng.int(3)), file];
    case 9: return ['--cloud-init-version', '22.4', '--format', rng.pick(['yaml', 'report']), file, other];
    case 10: return ['--mode', 'boot', '--confd', file, '--cloud-cfg', other, '--format', rng.pick(['yaml', 'json', 'report', 'preview'])];
    case 11: return ['--mode', 'chef', '--format', rng.pick(['yaml', 'json', 'report', 'preview']), file, other];
    // cloud-init's schema command as --check reproduces it, its --annotate line marks included
    case 12: return ['--check', '--annotate', '--cloud-init-version', rng.pick(['22.4', 'current']), file];
    case 13: return ['--check', '--format', rng.pick(['text', 'json', 'sarif']), '--cloud-init-version', rng.pick(['22.4', 'current']), file, other];
    case 14: return ['--lint', ...(rng.chance(0.5) ? ['--format', rng.pick(['json', 'sarif'])] : []), file];
    default: return [file];
  }
}

function executorTasks(rng, file, other, name) {
  const tasks = [];
  const n = 1 + rng.int(3);
  for (let i = 0; i < n; i++) {
    switch (rng.int(4)) {
      case 0:
      case 1:
        tasks.push({ kind: 'cli', argv: cliArgv(rng, file, other) });
        break;
      case 2:
        tasks.push({ kind: 'preview', mode: rng.pick(MODES), onIncludeFailure: rng.pick(['error', 'skip']), instanceData: rng.chance(0.5) ? { v1: { local_hostname: 'h', region: 'us-east-1' } } : undefined, files: [{ name, path: file }, ...(rng.chance(0.3) ? [{ name: 'other', path: other }] : [])] });
        break;
      default:
        tasks.push({ kind: 'analyze', path: file });
    }
  }
  return tasks;
}

/** Replace the input path in a task by another (for shrinking and for saved reproducers). */
function retarget(task, from, to) {
  return JSON.parse(JSON.stringify(task).split(JSON.stringify(from).slice(1, -1)).join(JSON.stringify(to).slice(1, -1)));
}

/** For a saved reproducer: the input becomes {input}, other files {workdir}/<seed name> (found.test.ts rebuilds them). */
function portable(task, input, workdir) {
  return retarget(retarget(task, input, '{input}'), workdir, '{workdir}');
}

/* ------------------------------------------------------------------ server operations */

function randomPosition(rng, text) {
  const lines = text.split(/\r\n|\r|\n/);
  const line = rng.int(lines.length + 1);
  const length = lines[line]?.length ?? 0;
  return { line, character: rng.int(length + 2) };
}

function serverOps(rng, uri, text, others) {
  const ops = [];
  const n = 2 + rng.int(4);
  for (let i = 0; i < n; i++) {
    const p = randomPosition(rng, text);
    switch (rng.int(6)) {
      case 0: ops.push(['textDocument/hover', { textDocument: { uri }, position: p }]); break;
      case 1: ops.push(['textDocument/completion', { textDocument: { uri }, position: p }]); break;
      case 2: {
        const q = randomPosition(rng, text);
        const [start, end] = p.line < q.line || (p.line === q.line && p.character <= q.character) ? [p, q] : [q, p];
        ops.push(['textDocument/codeAction', { textDocument: { uri }, range: { start, end }, context: { diagnostics: [], only: rng.chance(0.5) ? undefined : ['quickfix'] } }]);
        break;
      }
      case 3: ops.push(['cloudConfigMerge/documentInfo', { uri }]); break;
      default: ops.push(['cloudConfigMerge/preview', { mode: rng.pick(MODES), files: [uri, ...(rng.chance(0.3) ? [rng.pick(others)] : [])], ...(rng.chance(0.1) ? { exclude: 1 } : {}) }]);
    }
  }
  return ops;
}

/* ------------------------------------------------------------------ shrinking and saving */

function signature(target, failure) {
  const first = String(failure.message).split('\n')[0].replace(/\/tmp\/[^\s:'"]+/g, '<path>').replace(/\d+/g, 'N').slice(0, 160);
  return `${target}|${failure.kind}|${first}`;
}

async function shrink(bytes, reproduces, seconds) {
  const deadline = Date.now() + seconds * 1000;
  let cur = bytes;
  let n = 2;
  let attempts = 0;
  while (cur.length >= 2 && Date.now() < deadline) {
    const chunk = Math.ceil(cur.length / n);
    let reduced = false;
    for (let start = 0; start < cur.length && Date.now() < deadline; start += chunk) {
      const candidate = Buffer.concat([cur.subarray(0, start), cur.subarray(start + chunk)]);
      attempts++;
      if (await reproduces(candidate)) {
        cur = candidate;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= cur.length) break;
      n = Math.min(cur.length, n * 2);
    }
  }
  return { bytes: cur, attempts };
}

function save(dir, record, bytes) {
  mkdirSync(dir, { recursive: true });
  const hash = createHash('sha1').update(bytes).digest('hex').slice(0, 10);
  const base = `${record.target}-${record.kind}-${hash}`;
  const big = bytes.length > 64 * 1024;
  const inputName = `${base}${record.ext || '.bin'}${big ? '.gz' : ''}`;
  writeFileSync(path.join(dir, inputName), big ? gzipSync(bytes) : bytes);
  writeFileSync(path.join(dir, `${base}.json`), JSON.stringify({ ...record, input: inputName, gzipped: big, bytes: bytes.length }, null, 2) + '\n');
  return path.join(dir, inputName);
}

/* ------------------------------------------------------------------ memory trend */

/** Iterations before the heap settles: V8 grows it for the first several hundred 1 MiB inputs. */
const MEMORY_WARMUP_ITERATIONS = 1000;

/** Fails when the samples grow steadily (regression slope and fit) by more than `boundMb` after warm-up. */
function memoryVerdict(samples, boundMb) {
  const settled = samples.findIndex((s) => s.i >= MEMORY_WARMUP_ITERATIONS);
  const rest = settled < 0 ? [] : samples.slice(Math.max(settled, Math.floor(samples.length * 0.2)));
  if (rest.length < 10) return { ok: true, note: `not judged: fewer than 10 samples after the first ${MEMORY_WARMUP_ITERATIONS} iterations` };
  const xs = rest.map((s) => s.i / 1000);
  const ys = rest.map((s) => s.rss / 1048576);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  const slope = sxx ? sxy / sxx : 0;
  const r2 = sxx && syy ? (sxy * sxy) / (sxx * syy) : 0;
  const min = Math.min(...ys);
  const tail = ys.slice(-Math.max(3, Math.floor(ys.length / 10)));
  const end = tail.sort((a, b) => a - b)[Math.floor(tail.length / 2)];
  const growth = end - min;
  const note = `rss ${Math.round(ys[0])} -> ${Math.round(end)} MB (min ${Math.round(min)}, max ${Math.round(Math.max(...ys))}), trend ${slope.toFixed(1)} MB per 1,000 iterations, r2 ${r2.toFixed(2)}`;
  return { ok: !(growth > boundMb && slope > 0 && r2 > 0.5), note };
}

/* ------------------------------------------------------------------ main */

async function main() {
  const o = parseOptions(process.argv.slice(2));
  for (const f of ['server/out/cli/main.js', 'server/out/engine/render/previewText.js', 'server/out/engine/lint/analyzeDocument.js', ...(o.server ? ['server/out/server.js'] : [])]) {
    if (!existsSync(path.join(ROOT, f))) {
      console.error(`fuzz: ${f} is missing: build first (npm run build, or npx tsc -b)`);
      process.exit(2);
    }
  }
  const workdir = mkdtempSync(path.join(tmpdir(), 'ccm-fuzz-'));
  const workspace = path.join(workdir, 'ws');
  mkdirSync(workspace);
  const seeds = loadSeeds(workdir);
  console.log(`fuzz: seed ${o.seed}, ${o.iterations !== undefined ? `${o.iterations} iterations` : `${o.seconds} s`}, ${seeds.length} seed files, targets: in-process${o.child ? ', child process' : ''}${o.server ? ', language server' : ''}`);

  const executor = new Executor(o.hangMs);
  await executor.start();
  let server = null;
  const startServer = async () => {
    const peak = server?.peak ?? null;
    const iteration = server?.iteration ?? null;
    server = new FuzzServer(workspace, { hangCpuMs: o.hangMs });
    server.peak = peak;
    server.iteration = iteration;
    await server.start();
  };
  if (o.server) await startServer();

  const stats = { iterations: 0, passed: 0, failed: 0, executorTasks: 0, childRuns: 0, serverRequests: 0, shrinks: 0, bytes: 0 };
  const failures = new Map();
  const memory = { server: [], executor: [] };
  const started = Date.now();
  const end = o.seconds !== undefined ? started + o.seconds * 1000 : Infinity;
  const more = () => (o.iterations !== undefined ? stats.iterations < o.iterations : Date.now() < end);
  let lastReport = started;
  const docs = [0, 1, 2].map((k) => path.join(workspace, `doc${k}`));

  const known = new Map();
  /** The in-process run that came nearest its CPU budget. */
  let executorPeak = null;
  /** Records a failure; returns false when it is a known issue (not counted as failed). */
  const record = async (target, failure, context) => {
    // A server hang can come from any open document (diagnostics run later, on a timer).
    const suspects = [context.bytes, ...(context.openTexts ?? []).map((t) => Buffer.from(t))];
    const issue = suspects.map((b) => knownIssue(target, failure, context.meta.task, b)).find(Boolean);
    if (issue) {
      known.set(issue.id, { ...issue, count: (known.get(issue.id)?.count ?? 0) + 1 });
      if (o.verbose) console.log(`known issue ${issue.id} [${target}] ${failure.kind}`);
      return false;
    }
    const sig = signature(target, failure);
    const seen = failures.get(sig);
    if (seen) {
      seen.count++;
      return true;
    }
    const entry = { signature: sig, target, kind: failure.kind, message: failure.message, stack: failure.stack, count: 1, ...context.meta };
    failures.set(sig, entry);
    console.log(`\nFAIL [${target}] ${failure.kind}: ${failure.message.split('\n')[0].slice(0, 300)}`);
    if (failure.stack) console.log(failure.stack.split('\n').slice(0, 8).join('\n'));
    if (failures.size > o.maxFailures) return true;
    let shrunk = { bytes: context.bytes, attempts: 0 };
    try {
      if (await context.reproduces(context.bytes)) {
        stats.shrinks++;
        shrunk = await shrink(context.bytes, context.reproduces, o.shrinkSeconds);
      } else {
        entry.note = 'did not fail again on its own (depends on earlier state or on timing)';
      }
    } catch (e) {
      entry.note = `shrinking failed: ${e.message}`;
    }
    entry.reproducer = shrunk.bytes.length <= 2000 ? shrunk.bytes.toString('latin1') : `${shrunk.bytes.length} bytes`;
    console.log(`  minimal reproducer (${shrunk.bytes.length} of ${context.bytes.length} bytes, ${shrunk.attempts} attempts): ${JSON.stringify(shrunk.bytes.toString('latin1').slice(0, 400))}`);
    if (o.save) {
      const saved = save(o.found, { target, kind: failure.kind, message: failure.message.slice(0, 2000), ext: context.ext, ...context.meta, seed: o.seed }, shrunk.bytes);
      entry.saved = path.relative(ROOT, saved);
      console.log(`  saved ${entry.saved}`);
    }
    return true;
  };

  while (more()) {
    const i = stats.iterations++;
    const rng = new Rng(`${o.seed}:${i}`);
    const { bytes, seed, mutations } = mutate(rng, seeds);
    stats.bytes += bytes.length;
    const ext = path.extname(seed) && rng.chance(0.7) ? path.extname(seed) : rng.pick(EXTENSIONS);
    const file = path.join(workdir, `in-${i % 4}${ext}`);
    const other = path.join(workdir, rng.pick(seeds.map((s) => path.basename(s.name))));
    writeFileSync(file, bytes);
    // Big inputs may take longer, linearly: 1 ms more per KiB (a 1 MiB input gets 3 s).
    const budget = o.hangMs + Math.floor(bytes.length / 1024);
    const meta = { iteration: i, from: seed, mutations };
    let failed = false;

    // 1. in-process, concurrently with 3. the language server
    const inProcess = (async () => {
      for (const task of executorTasks(rng, file, other, path.basename(file))) {
        stats.executorTasks++;
        const answer = await executor.run(task, budget);
        if (answer.cpuMs !== undefined && (!executorPeak || answer.cpuMs / budget > executorPeak.share)) {
          executorPeak = { share: answer.cpuMs / budget, method: task.kind, cpuMs: Math.round(answer.cpuMs), budgetMs: budget, iteration: i };
        }
        const failure = judgeExecutor(task, answer);
        if (answer.failure) await executor.restart();
        if (failure) {
          const shrinkFile = path.join(workdir, `shrink${ext}`);
          const shrinkTask = retarget(task, file, shrinkFile);
          failed = (await record('in-process', failure, {
            bytes, ext, meta: { ...meta, task: portable(task, file, workdir) },
            reproduces: async (candidate) => {
              writeFileSync(shrinkFile, candidate);
              const a = await executor.run(shrinkTask, budget);
              if (a.failure) await executor.restart();
              const f = judgeExecutor(shrinkTask, a);
              return !!f && signature('x', f) === signature('x', failure);
            },
          })) || failed;
          break;
        }
      }
    })();

    const viaServer = (async () => {
      if (!server) return;
      const slot = i % docs.length;
      const docPath = docs[slot] + ext;
      writeFileSync(docPath, bytes);
      const uri = pathToFileURL(docPath).href;
      const text = bytes.toString('utf8');
      const others = docs.filter((_, k) => k !== slot).map((d) => pathToFileURL(d + '.yaml').href);
      const logMark = server.logs.length;
      server.iteration = i;
      server.sync(uri, text, rng.chance(0.9) ? 'yaml' : 'plaintext');
      for (const [method, params] of serverOps(rng, uri, text, others)) {
        stats.serverRequests++;
        const outcome = await server.request(method, params, budget);
        const logged = server.loggedErrors(logMark);
        const failure = outcome.failure ?? (logged.length ? { kind: 'logged-error', message: logged.map((m) => m.message).join('\n').slice(0, 2000) } : null);
        if (failure) {
          const dead = failure.kind === 'crash' || failure.kind === 'hang';
          const crashedStderr = server.stderr.slice(-2000);
          const openTexts = [...server.texts.values()];
          if (dead) {
            server.kill();
            await startServer();
          }
          failed = (await record('server', { ...failure, stack: failure.kind === 'crash' ? crashedStderr : undefined }, {
            bytes, ext, openTexts, meta: { ...meta, request: { method, params: retarget(retarget(params, uri, '{uri}'), pathToFileURL(workspace).href, '{workspace}') } },
            reproduces: async (candidate) => {
              const probe = path.join(workspace, `shrink${ext}`);
              writeFileSync(probe, candidate);
              const probeUri = pathToFileURL(probe).href;
              const mark = server.logs.length;
              server.sync(probeUri, candidate.toString('utf8'));
              const again = await server.request(method, retarget(params, uri, probeUri), budget);
              const errs = server.loggedErrors(mark);
              const f = again.failure ?? (errs.length ? { kind: 'logged-error', message: errs.map((m) => m.message).join('\n') } : null);
              if (f && (f.kind === 'crash' || f.kind === 'hang')) {
                server.kill();
                await startServer();
              }
              return !!f && f.kind === failure.kind;
            },
          })) || failed;
          break;
        }
      }
      const rss = rssBytes(server.pid);
      if (rss !== null) memory.server.push({ i, rss });
    })();

    await Promise.all([inProcess, viaServer]);
    const ersss = rssBytes(executor.child.pid);
    if (ersss !== null) memory.executor.push({ i, rss: ersss });

    // 2. the CLI as a child process, every few iterations
    if (o.child && i % o.childEvery === 0) {
      stats.childRuns++;
      const argv = cliArgv(rng, file, other);
      const failure = await runChild(argv, budget);
      if (failure) {
        const shrinkFile = path.join(workdir, `shrink-child${ext}`);
        failed = (await record('child', failure, {
          bytes, ext, meta: { ...meta, argv: portable(argv, file, workdir) },
          reproduces: async (candidate) => {
            writeFileSync(shrinkFile, candidate);
            const f = await runChild(retarget(argv, file, shrinkFile), budget);
            return !!f && f.kind === failure.kind;
          },
        })) || failed;
      }
    }

    if (failed) stats.failed++;
    else stats.passed++;
    if (server && memory.server.length && memory.server[memory.server.length - 1].rss > 1.5 * 1024 ** 3) {
      await record('server', { kind: 'memory', message: `the server uses ${Math.round(memory.server.at(-1).rss / 1048576)} MB` }, { bytes, ext, meta, reproduces: async () => false });
      server.kill();
      await startServer();
    }
    if (Date.now() - lastReport > 15000) {
      lastReport = Date.now();
      const secs = Math.round((Date.now() - started) / 1000);
      const srv = server ? `, server rss ${Math.round((memory.server.at(-1)?.rss ?? 0) / 1048576)} MB` : '';
      console.log(`[${secs}s] ${stats.iterations} iterations (${(stats.iterations / Math.max(1, secs)).toFixed(1)}/s), ${stats.failed} failed, ${failures.size} distinct${srv}`);
    }
  }

  // Memory: a steady climb over the run is a leak.
  const verdicts = [];
  for (const [name, samples] of Object.entries(memory)) {
    const v = memoryVerdict(samples, o.rssGrowthMb);
    verdicts.push(`${name}: ${v.note}`);
    if (!v.ok) {
      stats.failed++;
      failures.set(`${name}|memory`, { target: name, kind: 'memory-growth', message: `memory grows steadily: ${v.note}`, count: 1 });
      console.log(`\nFAIL [${name}] memory-growth: ${v.note}`);
    }
  }

  if (server) await server.stop();
  executor.child.kill('SIGKILL');
  rmSync(workdir, { recursive: true, force: true });

  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\nfuzz: seed ${o.seed}, ${secs} s: ${stats.iterations} iterations (${stats.executorTasks} in-process runs, ${stats.childRuns} child processes, ${stats.serverRequests} server requests, ${(stats.bytes / 1048576).toFixed(1)} MB of input), executor restarts ${executor.restarts}, slow server requests ${server?.slow ?? 0}`);
  for (const v of verdicts) console.log(`memory ${v}`);
  // How much of the hang budget a correct run uses: the margin that keeps the verdict stable.
  for (const [name, peak] of [['in-process', executorPeak], ['server', server?.peak]]) {
    if (peak) console.log(`nearest the budget (${name}): ${peak.method}, ${peak.cpuMs} ms of CPU of ${peak.budgetMs} (${Math.round(peak.share * 100)}%), iteration ${peak.iteration} (seed ${o.seed}:${peak.iteration})`);
  }
  for (const k of known.values()) console.log(`  ${k.count}x known issue ${k.id}: ${k.about}`);
  for (const f of failures.values()) console.log(`  ${f.count}x [${f.target}] ${f.kind}: ${String(f.message).split('\n')[0].slice(0, 200)}${f.saved ? ` -> ${f.saved}` : ''}${f.note ? ` (${f.note})` : ''}`);
  console.log(`${stats.passed} passed, ${stats.failed} failed`);
  process.exitCode = stats.failed ? 1 : 0;
}

main().catch((e) => {
  console.error(`fuzz: ${e.stack ?? e}`);
  process.exit(2);
});
