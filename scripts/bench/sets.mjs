/**
 * Fates in a set of parts (`npm run bench -- --only sets`): a cloud-config-merge.yaml set of 100
 * generated parts (scripts/bench/generate.mjs, 100 keys each; the first also writes `bench_probe`) and
 * a last part that replaces the first part's `bench_probe`. Three parts are open; the last one's merge_how is edited back and forth
 * (replace, then append), which adds or removes a fate in the first part. Measured: the time from
 * the edit to the first part's diagnostics showing the new fate, after the first analysis, with and
 * without the quiet time the server waits before it analyses another part again (MAX_QUIET_MS); and the server's CPU time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { cpuMs as processCpuMs } from '../fuzz/server.mjs';
import { generateParts } from './generate.mjs';
import { Session, clientServerStart } from './lsp.mjs';

export const SETS_TARGETS = { updateMs: 150, parts: 100 };

const REPLACE = 'merge_how: dict(replace)';
const APPEND = 'merge_how: dict(no_replace,recurse_list)+list(append)';

export async function benchSets({ root, work, quick, progress }) {
  const require = createRequire(import.meta.url);
  const serverMain = path.join(root, 'server', 'out', 'server.js');
  const debounce = require(path.join(root, 'server', 'out', 'features', 'common', 'quietTime.js')).MAX_QUIET_MS;
  const parts = SETS_TARGETS.parts;
  const dir = path.join(work, 'sets');
  mkdirSync(path.join(dir, 'parts'), { recursive: true });
  const generated = generateParts(parts - 1, 100);
  const first = { name: generated[0].name, text: `#cloud-config\nbench_probe: [echo first]\n${generated[0].text.replace(/^#cloud-config\n/, '')}` };
  generated[0] = first;
  const last = { name: `part-${String(parts - 1).padStart(4, '0')}.yaml`, text: `#cloud-config\n${REPLACE}\nbench_probe: [echo last]\n` };
  generated.push(last);
  for (const p of generated) writeFileSync(path.join(dir, 'parts', p.name), p.text);
  writeFileSync(path.join(dir, 'cloud-config-merge.yaml'), 'sets:\n  bench:\n    files: ["parts/*.yaml"]\n');
  const uri = (p) => pathToFileURL(path.join(dir, 'parts', p.name)).href;
  const row = { parts, debounce, bytes: generated.reduce((a, p) => a + Buffer.byteLength(p.text), 0), updates: [], cpu: [] };
  progress(`sets: ${parts} parts, edits of the last part's merge_how, diagnostics of the first`);
  const s = await Session.start({ argv: [...clientServerStart(root).execArgv, serverMain, '--stdio'], settings: (section) => (section === 'cloudConfigMerge' ? {} : null), folders: [dir] });
  const hasFate = (d) => d.diagnostics.some((x) => x.code === 'fate-replaced' && x.range.start.line === 1);
  try {
    const t0 = performance.now();
    const opened = await s.open(uri(first), first.text);
    row.firstAnalysis = { ms: performance.now() - t0, diagnostics: opened.diagnostics };
    await s.open(uri(generated[Math.floor(parts / 2)]), generated[Math.floor(parts / 2)].text);
    await s.open(uri(last), last.text);
    const runs = quick ? 4 : 12;
    let replacing = true;
    for (let i = 0; i < runs; i++) {
      replacing = !replacing;
      const since = s.log(uri(first)).length;
      const cpu0 = processCpuMs(s.pid) ?? NaN;
      const start = performance.now();
      await s.edit(uri(last), { start: { line: 1, character: 0 }, end: { line: 1, character: (replacing ? APPEND : REPLACE).length } }, replacing ? REPLACE : APPEND);
      const p = await s.waitForDiagnostics(uri(first), since, (d) => hasFate(d) === replacing, 60000);
      row.updates.push(p.at - start);
      row.cpu.push((processCpuMs(s.pid) ?? NaN) - cpu0);
    }
    row.rss = s.peakRSS();
  } catch (e) {
    row.error = String(e.message ?? e);
    progress(`sets: FAILED: ${row.error}`);
  } finally {
    await s.stop();
  }
  return row;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const max = (xs) => (xs.length ? Math.max(...xs) : NaN);

export function setsTargets(row, fmt) {
  if (row.error) return [{ area: 'Sets', target: `fates of a set of ${SETS_TARGETS.parts} parts update ≤ 150 ms after an edit`, measured: `failed: ${row.error}`, met: false, gap: row.error }];
  const net = row.updates.map((ms) => ms - row.debounce);
  return [
    {
      area: 'Sets',
      target: `fates of a set of ${row.parts} parts update ≤ ${SETS_TARGETS.updateMs} ms after an edit (after the first analysis, net of the ${row.debounce} ms quiet time)`,
      measured: `median ${fmt(median(net))}, worst ${fmt(max(net))} (with the quiet time: median ${fmt(median(row.updates))}); server CPU median ${fmt(median(row.cpu))}`,
      met: max(net) <= SETS_TARGETS.updateMs,
      gap: max(net) > SETS_TARGETS.updateMs ? `the slowest update took ${fmt(max(net))} net.` : '',
    },
  ];
}

export function setsMarkdown(row, { fmtMs, fmtBytes, fmtMB }) {
  const L = ['## 3c. Fates in a set of 100 parts', ''];
  L.push(
    `A cloud-config-merge.yaml set of ${row.parts} parts (${row.error ? '' : fmtBytes(row.bytes)}; generated parts of 100 keys, scripts/bench/sets.mjs). Three parts are open; the last one's merge_how is edited back and forth between replace and append, which adds or removes a fate in the first part. Times run from the edit to the first part's new diagnostics; the server waits ${row.debounce} ms (MAX_QUIET_MS, server/src/features/common/quietTime.ts) after an edit of another part before it analyses this one again.`,
    '',
  );
  if (row.error) return [...L, `Failed: ${row.error}`, ''];
  const net = row.updates.map((ms) => ms - row.debounce);
  L.push(`- first analysis (didOpen → diagnostics of the first part): ${fmtMs(row.firstAnalysis.ms)}`);
  L.push(`- an edit → the other part's fates: median ${fmtMs(median(row.updates))}, worst ${fmtMs(max(row.updates))}; net of the quiet time: median ${fmtMs(median(net))}, worst ${fmtMs(max(net))}`);
  L.push(`- server CPU per update: median ${fmtMs(median(row.cpu))}; peak RSS ${fmtMB(row.rss)}`);
  L.push('');
  return L;
}
