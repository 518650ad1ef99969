/**
 * One engine measurement in a fresh process (so peak RSS belongs to it):
 *   time   DIR RUNS WARMUP [BUDGET_MS MIN_RUNS]  interleaved runs of (a) parse, results kept;
 *          (a') parse, results dropped; (b) runUserData. Stops early, after at least MIN_RUNS
 *          measured runs, once BUDGET_MS have passed.
 *   single DIR base|parse|run WARM ATTRIB   one operation (after WARM untimed ones): its time, the
 *          process's peak RSS, and with ATTRIB=N>0 where (b)'s time goes over N runs (loadYaml by caller, render)
 *   analyze FILE RUNS WARMUP  analyzeDocument (the language server's analysis of one version), in-process
 *   preview DIR RUNS       buildPreview (the preview request's engine work) against runUserData, in-process
 * Prints one JSON line on stdout.
 *
 * No gc() between runs: a forced full collection makes the next run of this
 * code several times slower (measured: 5x on runUserData), which no editor or
 * CLI ever sees. Rotating the order spreads each operation's garbage evenly.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(import.meta.url);
const loadModule = require(path.join(ROOT, 'server/out/engine/yaml/load.js'));
const dumpModule = require(path.join(ROOT, 'server/out/engine/yaml/dump.js'));
const { runUserData } = require(path.join(ROOT, 'server/out/engine/userdata/run.js'));

const [mode, dir, ...rest] = process.argv.slice(2);

function readInputs() {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const buffer = readFileSync(path.join(dir, name));
      return { name, bytes: new Uint8Array(buffer), text: buffer.toString('utf8') };
    });
}

function parseKeep(inputs) {
  const kept = [];
  for (let i = 0; i < inputs.length; i++) {
    const r = loadModule.loadYaml(inputs[i].text, { source: i });
    if (!r.ok) throw new Error(`${inputs[i].name}: ${r.error.message}`);
    kept.push(r);
  }
  return kept;
}
function parseDrop(inputs) {
  let n = 0;
  for (let i = 0; i < inputs.length; i++) {
    const r = loadModule.loadYaml(inputs[i].text, { source: i });
    if (!r.ok) throw new Error(`${inputs[i].name}: ${r.error.message}`);
    n++;
  }
  return n;
}
function run(inputs) {
  // As the CLI runs it for its YAML and JSON output: without provenance, which nothing there reads.
  const result = runUserData(inputs.map((i) => ({ name: i.name, bytes: i.bytes })), { provenance: false });
  const failed = result.reports.filter((r) => r.disposition !== 'merged');
  if (failed.length || result.fatal || result.renderError) throw new Error(`runUserData: ${failed.length} part(s) not merged; ${result.fatal ?? ''} ${result.renderError ?? ''}`);
  return result;
}

/**
 * Wraps loadYaml (labelled by caller), dumpPyYaml, the merge (RootMerger.merge)
 * and, inside it, PyDict.copy; with `preview`, the preview's own steps. Each
 * wrapper times only its outermost calls; `nested` sites are part of another.
 */
function instrument(preview = false) {
  const sites = new Map();
  let activeTop = null;
  // nested: the label of the top-level site this one is part of (timed only inside it)
  const wrap = (obj, key, label, nested = null) => {
    const orig = obj[key];
    if (typeof orig !== 'function') return;
    let ownDepth = 0;
    Object.defineProperty(obj, key, {
      configurable: true,
      enumerable: true,
      writable: true,
      value: function (...args) {
        if (ownDepth > 0 || (nested ? activeTop !== nested : activeTop !== null)) return orig.apply(this, args);
        const site = label ?? callerOf(new Error().stack);
        ownDepth++;
        if (!nested) activeTop = site;
        const t0 = performance.now();
        try {
          return orig.apply(this, args);
        } finally {
          ownDepth--;
          if (!nested) activeTop = null;
          const e = sites.get(site) ?? { calls: 0, ms: 0, nested: Boolean(nested) };
          e.calls++;
          e.ms += performance.now() - t0;
          sites.set(site, e);
        }
      },
    });
  };
  const { RootMerger } = require(path.join(ROOT, 'server/out/engine/merge/root.js'));
  const { PyDict } = require(path.join(ROOT, 'server/out/engine/py/values.js'));
  wrap(loadModule, 'loadYaml');
  wrap(dumpModule, 'dumpPyYaml', 'dumpPyYaml (server/out/engine/yaml/dump.js)');
  const MERGING = 'merging: RootMerger.merge (server/out/engine/merge/root.js)';
  wrap(RootMerger.prototype, 'merge', MERGING);
  wrap(PyDict.prototype, 'copy', 'of which PyDict.copy (server/out/engine/py/values.js)', MERGING);
  if (preview) {
    const provenance = require(path.join(ROOT, 'server/out/engine/outcome/provenance.js'));
    wrap(dumpModule, 'dumpPyYamlWithLines', 'dumpPyYamlWithLines (server/out/engine/yaml/dump.js)');
    wrap(provenance, 'collectProvenance', 'collectProvenance (server/out/engine/outcome/provenance.js)');
    wrap(provenance, 'provenanceByDisplay', 'provenanceByDisplay (server/out/engine/outcome/provenance.js)');
    wrap(provenance, 'stepEffects', 'stepEffects (server/out/engine/outcome/provenance.js)');
    const merged = require(path.join(ROOT, 'server/out/engine/outcome/mergedSchema.js'));
    wrap(merged, 'validateMerged', 'validateMerged: the schema check of cloud-config.txt (server/out/engine/outcome/mergedSchema.js)');
  }
  return sites;
}

/** "loadYaml from attachLaunchIndex (server/out/engine/userdata/process.js)" */
function callerOf(stack) {
  const frame = (stack.split('\n')[2] ?? '').trim().replace(/^at /, '');
  const m = /^(\S+) \((.*?):\d+:\d+\)$/.exec(frame);
  return m ? `loadYaml from ${m[1]} (${path.relative(ROOT, m[2])})` : `loadYaml from ${frame}`;
}

function timed(fn) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let _value = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  _value = null;
  return { wall, cpu: (c.user + c.system) / 1000 };
}

const out = {};
if (mode === 'time') {
  const runs = Number(rest[0] ?? 5);
  const warmup = Number(rest[1] ?? 1);
  const budget = Number(rest[2] ?? Infinity);
  const minRuns = Number(rest[3] ?? 3);
  const started = performance.now();
  const inputs = readInputs();
  const ops = { parseKeep: () => parseKeep(inputs), parseDrop: () => parseDrop(inputs), run: () => run(inputs) };
  const names = Object.keys(ops);
  for (const n of names) out[n] = [];
  for (let i = 0; i < warmup + runs; i++) {
    if (i - warmup >= minRuns && performance.now() - started > budget) break;
    // rotate the order so no operation always follows the same one
    const order = names.map((_, j) => names[(i + j) % names.length]);
    for (const n of order) {
      const m = timed(ops[n]);
      if (i >= warmup) out[n].push(m);
    }
  }
  const last = run(inputs);
  out.outputChars = last.cloudConfigTxt.length;
  out.parts = inputs.length;
  out.bytes = inputs.reduce((a, i) => a + i.bytes.length, 0);
} else if (mode === 'single') {
  // single OP WARM ATTRIB: one operation (after WARM untimed ones), its time, and the process's
  // peak RSS. ATTRIB = N > 0: N instrumented runs instead, reporting per-run means of where (b)'s
  // time goes (wall and CPU are then means too).
  const [op, warmArg, attribArg] = rest;
  const inputs = readInputs();
  const fn = op === 'parse' ? () => parseKeep(inputs) : op === 'run' ? () => run(inputs) : () => null;
  for (let i = 0; i < Number(warmArg ?? 0); i++) fn();
  const attribRuns = Number(attribArg ?? 0);
  const sites = attribRuns > 0 ? instrument() : null;
  const n = Math.max(1, attribRuns);
  let keep;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    keep = null;
    keep = fn();
  }
  out.wall = (performance.now() - t0) / n;
  const c = process.cpuUsage(c0);
  out.cpu = (c.user + c.system) / 1000 / n;
  if (sites) out.sites = [...sites].map(([site, e]) => ({ site, calls: e.calls / n, ms: e.ms / n, nested: e.nested }));
  out.runs = n;
  out.maxRSS = process.resourceUsage().maxRSS * 1024;
  out.heapUsed = process.memoryUsage().heapUsed;
  if (op === 'run') out.outputChars = keep.cloudConfigTxt.length;
  keep = null;
} else if (mode === 'preview') {
  // preview DIR RUNS: buildPreview (what the preview request computes) against runUserData, interleaved
  // (CPU ms), then one instrumented buildPreview: where its time goes.
  const { buildPreview } = require(path.join(ROOT, 'server/out/engine/render/previewText.js'));
  const runs = Number(rest[0] ?? 5);
  const inputs = readInputs().map((i) => ({ name: i.name, bytes: i.bytes }));
  // As the server builds it with its default settings: validated as `cloud-init schema --system` does.
  const asServer = { schema: true, version: 'current', maxProblems: 10_000 };
  out.preview = [];
  out.run = [];
  for (let i = 0; i < runs + 3; i++) {
    const a = timed(() => buildPreview('user-data', inputs, asServer));
    const b = timed(() => runUserData(inputs));
    if (i >= 3) {
      out.preview.push(a);
      out.run.push(b);
    }
  }
  const sites = instrument(true);
  const t0 = performance.now();
  buildPreview('user-data', inputs, asServer);
  out.wall = performance.now() - t0;
  out.sites = [...sites].map(([site, e]) => ({ site, ...e }));
} else if (mode === 'analyze') {
  // analyze FILE RUNS: the language server's per-version analysis, in-process (CPU ms per run).
  const { analyzeDocument } = require(path.join(ROOT, 'server/out/engine/lint/analyzeDocument.js'));
  const text = readFileSync(dir, 'utf8');
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let last = null;
  const runs = Number(rest[0] ?? 5);
  const warmup = Number(rest[1] ?? 1);
  out.cpu = [];
  out.wall = [];
  for (let i = 0; i < runs + warmup; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const a = analyzeDocument(text, dir, { languageId: 'yaml' });
    last = a;
    const wall = performance.now() - t0;
    const c = process.cpuUsage(c0);
    if (i >= warmup) {
      out.cpu.push((c.user + c.system) / 1000);
      out.wall.push(wall);
    }
    out.findings = a.findings.length;
  }
  // What one analysis keeps alive (with --expose-gc; the collections happen after the timed runs).
  out.maxRSS = process.resourceUsage().maxRSS * 1024;
  out.runs = runs + warmup;
  if (globalThis.gc) {
    globalThis.gc();
    out.retainedHeap = process.memoryUsage().heapUsed - heapBefore;
  }
  void last;
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(JSON.stringify(out) + '\n');
