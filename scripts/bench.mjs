#!/usr/bin/env node
/**
 * `npm run bench`: the engine, the language server and the extension,
 * measured side by side with cloud-init and Red Hat's yaml-language-server.
 *
 *   npm run bench                 full run (well under 20 minutes on an idle 2-core machine); writes docs/benchmarks.md
 *   npm run bench -- --quick      smoke run: small sizes, fewer runs; writes the file only with --write
 *   options: --write  --no-write  --only engine,loader,cloudinit,lsp,multipart,schema,sets,fleet,browser,preview,extension  --build (npm run build first)
 *            (--only with --write replaces only those sections of the file when it has them: e.g. --only schema --write)
 *            --keep (keep the generated inputs)  --out FILE (instead of docs/benchmarks.md)  --json FILE (raw results)
 *   BENCH_SERVER_CPU_PROF=DIR     each language server the bench starts writes a V8 CPU profile into DIR
 *
 * Progress goes to stderr, the summary table to stdout. Inputs are generated
 * deterministically (seeded) by scripts/bench/generate.mjs. Every engine
 * measurement runs in a fresh child process, so its peak RSS is its own. Each section is one
 * module of scripts/bench/ (context.mjs holds what they share); this file parses the options and runs them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIGS, ROOT, T0, ctx, machine, progress } from './bench/context.mjs';
import { benchEngine } from './bench/engine.mjs';
import { benchCloudInit } from './bench/cloudinit.mjs';
import { benchLanguageServers } from './bench/languageServers.mjs';
import { benchPreview } from './bench/preview.mjs';
import { benchExtension } from './bench/extension.mjs';
import { benchMultipart } from './bench/multipart.mjs';
import { benchSchema, vsixBytesForSchema } from './bench/schema.mjs';
import { benchLoader } from './bench/loader.mjs';
import { benchSets } from './bench/sets.mjs';
import { benchFleet } from './bench/fleet.mjs';
import { benchBrowser } from './bench/browser.mjs';
import { evaluate, growth } from './bench/targets.mjs';
import { markdown, summaryText } from './bench/report.mjs';
import { spliceSections } from './bench/splice.cjs';

/* ------------------------------------------------------------------ options */

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name) => {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
};
if (flag('help') || flag('h')) {
  process.stdout.write(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(2, 12).map((l) => l.replace(/^ \*\s?/, '')).join('\n') + '\n');
  process.exit(0);
}
const QUICK = flag('quick');
const ONLY = new Set((option('only') ?? 'engine,loader,cloudinit,lsp,multipart,schema,sets,fleet,browser,preview,extension').split(',').map((s) => s.trim()));
const WRITE = flag('no-write') ? false : flag('write') || (!QUICK && !option('only'));
const OUT_FILE = path.resolve(ROOT, option('out') ?? 'docs/benchmarks.md');

ctx.quick = QUICK;
ctx.config = QUICK ? CONFIGS.quick : CONFIGS.full;
const WORK = (ctx.work = mkdtempSync(path.join(os.tmpdir(), 'ccm-bench-')));

/* ------------------------------------------------------------------ main */

async function main() {
  if (flag('build')) {
    progress('npm run build');
    const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error('npm run build failed');
  }
  for (const f of ['server/out/engine/yaml/load.js', 'server/out/engine/userdata/run.js']) {
    if (!existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first (or pass --build)`);
  }
  const results = { machine: machine() };
  progress(`${QUICK ? 'quick' : 'full'} run; inputs in ${WORK}; load average ${results.machine.loadStart.map((x) => x.toFixed(1)).join(' ')}`);
  if (ONLY.has('engine') || ONLY.has('cloudinit')) results.engine = await benchEngine();
  if (ONLY.has('loader')) results.loader = await benchLoader({ work: WORK, quick: QUICK, progress });
  if (ONLY.has('cloudinit')) results.cloudinit = await benchCloudInit(results.engine ?? []);
  if (ONLY.has('lsp')) results.lsp = await benchLanguageServers();
  if (ONLY.has('multipart')) results.multipart = await benchMultipart({ root: ROOT, work: WORK, quick: QUICK, progress });
  if (ONLY.has('schema')) {
    results.schema = await benchSchema({ root: ROOT, work: WORK, quick: QUICK, progress });
    results.schema.vsixBytes = await vsixBytesForSchema();
  }
  if (ONLY.has('sets')) results.sets = await benchSets({ root: ROOT, work: WORK, quick: QUICK, progress });
  if (ONLY.has('fleet')) results.fleet = await benchFleet({ root: ROOT, work: WORK, quick: QUICK, progress });
  if (ONLY.has('browser')) results.browser = await benchBrowser({ root: ROOT, quick: QUICK, progress });
  if (ONLY.has('preview')) results.preview = await benchPreview();
  if (ONLY.has('extension')) results.extension = await benchExtension();
  results.machine.loadEnd = os.loadavg();
  results.durationMs = performance.now() - T0;
  results.growth = growth(results);
  results.targets = evaluate(results);
  process.stdout.write(summaryText(results));
  if (WRITE) {
    mkdirSync(path.dirname(OUT_FILE), { recursive: true });
    writeFileSync(OUT_FILE, (option('only') && existsSync(OUT_FILE) ? spliceSections(readFileSync(OUT_FILE, 'utf8'), markdown(results), `npm run bench -- --only ${[...ONLY].join(',')} --write`, new Date()) : markdown(results)) + '\n');
    writeFileSync(path.join(WORK, 'results.json'), JSON.stringify(results, null, 1));
    progress(`wrote ${path.relative(ROOT, OUT_FILE)}`);
  }
  if (option('json')) writeFileSync(path.resolve(option('json')), JSON.stringify(results, null, 1));
  progress(`done in ${((performance.now() - T0) / 60000).toFixed(1)} min`);
}

main()
  .catch((e) => {
    process.stderr.write(`bench: ${e.stack ?? e}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!flag('keep')) rmSync(WORK, { recursive: true, force: true });
    else progress(`inputs kept in ${WORK}`);
  });
