/**
 * The PyYAML-faithful loader and dumper against js-yaml on the same texts (`npm run bench -- --only loader`):
 * the benchmark's generated cloud-config parts, each loaded with `loadYaml` (server/out/engine/yaml/load.js)
 * and with js-yaml's `load`, then dumped with `dumpPyYaml` and js-yaml's `dump`. One fresh process per
 * size (scripts/bench/loader-child.mjs): the first round is the cold one a CLI run pays, the median of
 * the rounds after it the warm one a language server pays. CPU time (user + system).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generateParts } from './generate.mjs';

export const LOADER_TARGET = 1.5;

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'loader-child.mjs');

export async function benchLoader({ work, quick, progress }) {
  const sizes = quick ? [[10, 1000]] : [[100, 100], [10, 1000], [100, 1000]];
  const rows = [];
  for (const [M, K] of sizes) {
    const dir = path.join(work, `loader-${M}x${K}`);
    mkdirSync(dir, { recursive: true });
    for (const p of generateParts(M, K)) writeFileSync(path.join(dir, p.name), p.text);
    progress(`loader: ${M}×${K}: loadYaml vs js-yaml load, dumpPyYaml vs js-yaml dump`);
    const r = spawnSync(process.execPath, [CHILD, dir, quick ? '5' : '15'], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 20 * 60000 });
    const row = { M, K };
    try {
      if (r.status !== 0) throw new Error((r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n').slice(-3).join(' '));
      Object.assign(row, JSON.parse(r.stdout.trim().split('\n').pop()));
      progress(`loader: ${M}×${K}: load ${row.load.warm.toFixed(1)} ms vs js-yaml ${row.jsLoad.warm.toFixed(1)} ms warm (${(row.load.warm / row.jsLoad.warm).toFixed(2)}×), cold ${(row.load.cold / row.jsLoad.cold).toFixed(2)}×`);
    } catch (e) {
      row.error = String(e.message ?? e);
      progress(`loader ${M}×${K}: FAILED: ${row.error}`);
    }
    rows.push(row);
  }
  return { rows };
}

const ratio = (a, b) => a / b;

export function loaderTargets(result, fmtRatio) {
  const ok = result.rows.filter((r) => !r.error);
  if (!ok.length) return [];
  const label = (r) => `${r.M}×${r.K.toLocaleString('en-US')}`;
  const warmWorst = Math.max(...ok.map((r) => ratio(r.load.warm, r.jsLoad.warm)));
  const coldWorst = Math.max(...ok.map((r) => ratio(r.load.cold, r.jsLoad.cold)));
  return [
    {
      area: 'Loader',
      target: `loadYaml ≤ ${LOADER_TARGET}× js-yaml load on the benchmark's cloud-config texts`,
      measured: ok.map((r) => `${label(r)}: warm ${fmtRatio(ratio(r.load.warm, r.jsLoad.warm))}, cold ${fmtRatio(ratio(r.load.cold, r.jsLoad.cold))}`).join('; '),
      met: warmWorst <= LOADER_TARGET && coldWorst <= LOADER_TARGET,
      gap:
        warmWorst <= LOADER_TARGET && coldWorst <= LOADER_TARGET
          ? ''
          : `Worst ratio warm ${fmtRatio(warmWorst)}, cold ${fmtRatio(coldWorst)} (the first round in a fresh process, before V8 has optimized the loader's code). The loader keeps PyYAML's four stages (scanner tokens, parser events, composer nodes, constructor values) and records a span for every key, value and item (the Origins provenance needs), where js-yaml builds plain values in one pass. Warm rounds run both loaders in one process, and whichever triggers a garbage collection also pays for the other's garbage: at the smaller sizes the warm ratio of the same code moves by as much as ±0.5 between runs.`,
    },
    {
      area: 'Loader',
      target: 'dumpPyYaml no slower than js-yaml dump',
      measured: ok.map((r) => `${label(r)}: ${fmtRatio(ratio(r.dump.warm, r.jsDump.warm))}`).join('; '),
      met: ok.every((r) => r.dump.warm <= r.jsDump.warm * 1.1),
      gap: ok.every((r) => r.dump.warm <= r.jsDump.warm * 1.1) ? '' : 'dumpPyYaml reproduces PyYAML\'s emitter (analysis of every scalar for its style, line folding) on the merged value.',
    },
  ];
}

export function loaderMarkdown(result, { table, fmtMs, fmtBytes, fmtRatio }) {
  const L = ['## 1b. Loader and dumper against js-yaml', ''];
  L.push(
    'The same generated cloud-config parts (all parts of one size, in one round) through `loadYaml` (server/src/engine/yaml, PyYAML\'s behaviour, with spans) and js-yaml\'s `load` (YAML 1.2, no spans); then the loaded values through `dumpPyYaml` and js-yaml\'s `dump`. A fresh process per size: **cold** is its first round (what one CLI run pays: V8 has not optimized anything yet), **warm** the median of the later rounds (a language server that has run for a while). CPU time.',
    '',
  );
  L.push(
    table(
      ['M×K', 'YAML', 'rounds', 'loadYaml cold / warm', 'js-yaml load cold / warm', 'ratio cold / warm', 'dumpPyYaml warm', 'js-yaml dump warm', 'ratio'],
      result.rows.map((r) =>
        r.error
          ? [`${r.M}×${r.K}`, '', '', `failed: ${r.error}`, '', '', '', '', '']
          : [
              `${r.M}×${r.K.toLocaleString('en-US')}`,
              fmtBytes(r.bytes),
              String(r.rounds),
              `${fmtMs(r.load.cold)} / ${fmtMs(r.load.warm)}`,
              `${fmtMs(r.jsLoad.cold)} / ${fmtMs(r.jsLoad.warm)}`,
              `${fmtRatio(ratio(r.load.cold, r.jsLoad.cold))} / ${fmtRatio(ratio(r.load.warm, r.jsLoad.warm))}`,
              fmtMs(r.dump.warm),
              fmtMs(r.jsDump.warm),
              fmtRatio(ratio(r.dump.warm, r.jsDump.warm)),
            ],
      ),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ),
    '',
  );
  return L;
}
