/**
 * The engine in a browser (`npm run bench -- --only browser`): runUserData, the call the engine section times as
 * (b), on the engine section's generated parts at 10×100 and 100×100, in headless Chromium (the playground's
 * bundle of the same sources: scripts/playground/browserBuild.mjs, node:zlib, node:crypto and Buffer shimmed)
 * and in Node (the tsc output, as the engine section runs it). Warm runs, interleaved one by one in alternating
 * order so that neither side gets the quieter moments of a shared machine; wall time (a page has no CPU clock).
 * Needs /usr/bin/chromium (or CHROMIUM).
 */
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generateParts } from './generate.mjs';
import { median } from './stats.mjs';

export const BROWSER_TARGETS = { ratio: 1.5, sizes: [[10, 100], [100, 100]] };

export async function benchBrowser({ root, quick, progress }) {
  const runs = quick ? 10 : 40;
  const warmup = quick ? 3 : 10;
  const { build } = await import('esbuild');
  const { chromium } = await import('playwright-core');
  const { browserOptions } = await import(path.join(root, 'scripts', 'playground', 'browserBuild.mjs'));
  const bundled = await build({
    ...browserOptions,
    stdin: { contents: "export { runUserData } from './server/src/engine/userdata/run';", resolveDir: root, loader: 'ts' },
    globalName: 'CCM',
    write: false,
  });
  const { runUserData } = createRequire(import.meta.url)(path.join(root, 'server', 'out', 'engine', 'userdata', 'run.js'));
  const encoder = new TextEncoder();
  const nodeRun = (inputs) => {
    const t0 = performance.now();
    const r = runUserData(inputs, { provenance: false });
    const t = performance.now() - t0;
    if (r.fatal || r.renderError) throw new Error('node: the run failed');
    return { t, chars: r.cloudConfigTxt.length };
  };
  const webRun = (page) =>
    page.evaluate(() => {
      const t0 = performance.now();
      const r = globalThis.CCM.runUserData(globalThis.benchInputs, { provenance: false });
      const t = performance.now() - t0;
      if (r.fatal || r.renderError) throw new Error('browser: the run failed');
      return { t, chars: r.cloudConfigTxt.length };
    });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const result = { load: os.loadavg()[0], runs, warmup, node: process.versions.node, v8: process.versions.v8, chromium: browser.version(), bundleBytes: bundled.outputFiles[0].contents.length, rows: [] };
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><title>bench</title>');
    await page.addScriptTag({ content: bundled.outputFiles[0].text });
    for (const [M, K] of BROWSER_TARGETS.sizes) {
      progress(`browser ${M}×${K}: ${warmup} warm-up + ${runs} runs of runUserData in Chromium and in Node, interleaved`);
      const parts = generateParts(M, K);
      const inputs = parts.map((p) => ({ name: p.name, bytes: encoder.encode(p.text) }));
      await page.evaluate((given) => {
        const enc = new TextEncoder();
        globalThis.benchInputs = given.map((p) => ({ name: p.name, bytes: enc.encode(p.text) }));
      }, parts);
      const node = [];
      const web = [];
      for (let i = 0; i < warmup + runs; i++) {
        let n;
        let w;
        if (i % 2) {
          w = await webRun(page);
          n = nodeRun(inputs);
        } else {
          n = nodeRun(inputs);
          w = await webRun(page);
        }
        if (n.chars !== w.chars) throw new Error(`${M}×${K}: the browser wrote ${w.chars} characters of cloud-config.txt, Node ${n.chars}`);
        if (i < warmup) continue;
        node.push(n.t);
        web.push(w.t);
      }
      const row = { M, K, bytes: inputs.reduce((s, i) => s + i.bytes.length, 0), node, web, ratios: node.map((t, i) => web[i] / t) };
      row.summary = { node: median(node), web: median(web), ratio: median(web) / median(node) };
      progress(`browser ${M}×${K}: Node ${row.summary.node.toFixed(2)} ms, Chromium ${row.summary.web.toFixed(2)} ms: ${row.summary.ratio.toFixed(2)}×`);
      result.rows.push(row);
    }
  } catch (e) {
    result.error = String(e.message ?? e);
    progress(`browser: FAILED: ${result.error}`);
  } finally {
    await browser.close();
  }
  return result;
}

export function browserTargets(result) {
  const target = `the engine in Chromium within ${BROWSER_TARGETS.ratio}× of Node at 10×100 and 100×100 (runUserData, warm)`;
  if (result.error) return [{ area: 'Browser', target, measured: `failed: ${result.error}`, met: false, gap: result.error }];
  const worst = Math.max(...result.rows.map((r) => r.summary.ratio));
  return [
    {
      area: 'Browser',
      target,
      measured: result.rows.map((r) => `${r.M}×${r.K}: ${r.summary.ratio.toFixed(2)}× (${r.summary.web.toFixed(1)} ms / ${r.summary.node.toFixed(1)} ms)`).join('; '),
      met: worst <= BROWSER_TARGETS.ratio,
      gap: worst <= BROWSER_TARGETS.ratio ? '' : `${worst.toFixed(2)}× at worst.`,
    },
  ];
}

export function browserMarkdown(result, { fmtMs, fmtBytes }) {
  const L = ['## 3e. The engine in a browser (the playground)', ''];
  L.push(
    `runUserData on the engine section's parts, in headless Chromium ${result.chromium ?? ''} (the playground's bundle of the same sources, ${result.bundleBytes ? fmtBytes(result.bundleBytes) : ''} minified; node:zlib, node:crypto and Buffer shimmed by pako, @noble/hashes and buffer) and in Node ${result.node} (V8 ${result.v8}; the tsc output): ${result.warmup} warm-up runs, then ${result.runs} runs each, interleaved one by one in alternating order; median wall time (a page has no CPU clock), both sides under the same load (1-minute load average ${result.load?.toFixed(1)} at the start on this machine's cores: the times are far above the engine section's, the ratio is the figure). scripts/bench/browser.mjs.`,
    '',
  );
  if (result.error) return [...L, `Failed: ${result.error}`, ''];
  L.push('| M×K | input | Node | Chromium | Chromium / Node (median of the run-by-run ratios) |', '| :-- | --: | --: | --: | --: |');
  for (const r of result.rows) L.push(`| ${r.M}×${r.K} | ${fmtBytes(r.bytes)} | ${fmtMs(r.summary.node)} | ${fmtMs(r.summary.web)} | ${r.summary.ratio.toFixed(2)}× (${median(r.ratios).toFixed(2)}×) |`);
  L.push('');
  return L;
}
