/** Section 4 (`--only preview`): the preview request after a didChange of one part, and the engine's share of it. */
import * as path from 'node:path';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { cpuMs as processCpuMs } from '../fuzz/server.mjs';
import { ROOT, require, ctx, SERVER_MAIN, CLIENT_START, progress, runJson, NODE_CHILD } from './context.mjs';
import { editableLines } from './languageServers.mjs';
import { median, p95, fmtMs, fmtBytes } from './stats.mjs';
import { Session } from './lsp.mjs';
import { generateParts } from './generate.mjs';

export async function benchPreview() {
  const rows = [];
  if (!existsSync(SERVER_MAIN)) return { error: 'the language server is not built', rows };
  let protocol = {};
  try {
    protocol = require(path.join(ROOT, 'server', 'out', 'protocol.js'));
  } catch {
    /* older build */
  }
  // As the client asks: the changes since the answer it holds, applied to it (timed too); the whole preview on open.
  let applyPreviewDelta = null;
  try {
    ({ applyPreviewDelta } = require(path.join(ROOT, 'server', 'out', 'previewDelta.js')));
  } catch {
    /* older build: whole answers */
  }
  const incremental = Boolean(protocol.PreviewUpdateRequest && applyPreviewDelta);
  const method = incremental ? protocol.PreviewUpdateRequest.method : (protocol.PreviewRequest?.method ?? 'cloudConfigMerge/preview');
  for (const parts of ctx.config.previewParts) {
    const K = 100;
    progress(`preview: ${parts} parts of ${K} keys: didChange of one part, then ${method}`);
    const dir = path.join(ctx.work, `preview-${parts}`);
    mkdirSync(dir, { recursive: true });
    const generated = generateParts(parts, K);
    for (const p of generated) writeFileSync(path.join(dir, p.name), p.text);
    const uris = generated.map((p) => pathToFileURL(path.join(dir, p.name)).href);
    const row = { parts, K, bytes: generated.reduce((a, p) => a + Buffer.byteLength(p.text), 0), refresh: [], cpu: [], wire: [] };
    rows.push(row);
    const s = await Session.start({ ipc: CLIENT_START, settings: (section) => (section === 'cloudConfigMerge' ? {} : null), folders: [dir] });
    try {
      const edited = Math.floor(parts / 2);
      const uri = uris[edited];
      const lines = generated[edited].text.split('\n');
      await s.open(uri, generated[edited].text, 1);
      const editable = editableLines(generated[edited].text);
      const warmup = 3;
      let held = null;
      for (let i = 0; i < warmup + ctx.config.previewRuns; i++) {
        const line = editable[i % editable.length];
        const character = lines[line].length;
        lines[line] += 'x';
        const since = s.log(uri).length;
        const version = await s.edit(uri, { start: { line, character }, end: { line, character } }, 'x');
        const cpu0 = processCpuMs(s.pid) ?? NaN;
        const params = { mode: 'user-data', files: uris };
        const t0 = performance.now();
        const r = await s.timeRequest(method, incremental ? { ...params, id: 'bench-preview', ...(held ? { base: held.version } : {}) } : params);
        let result = r.result;
        if (incremental) {
          if (r.result.delta && held?.version !== r.result.base) throw new Error('the server answered with changes to a version the client does not hold');
          result = r.result.delta ? applyPreviewDelta(held.result, r.result.delta) : r.result.result;
          held = { version: r.result.version, result };
        }
        const ms = performance.now() - t0;
        const cpu = (processCpuMs(s.pid) ?? NaN) - cpu0;
        if (result?.failure) throw new Error(`preview failed: ${result.failure}`);
        if (i === 0) {
          row.first = ms;
          row.previewLines = result?.text?.split('\n').length;
          row.answerBytes = Buffer.byteLength(JSON.stringify(result));
          row.merged = result?.parts?.filter((p) => p.status === 'merged').length;
        }
        if (i >= warmup) {
          row.refresh.push(ms);
          row.cpu.push(cpu);
          row.wire.push(Buffer.byteLength(JSON.stringify(r.result)));
        }
        // let the debounced diagnostics of this version run before the next edit
        await s.waitForDiagnostics(uri, since, (d) => d.version === undefined || d.version === version, 30000).catch(() => undefined);
      }
      row.rss = s.peakRSS();
    } catch (e) {
      row.error = String(e.message ?? e);
      progress(`preview ${parts} parts: FAILED: ${row.error}`);
    } finally {
      await s.stop();
    }
    try {
      row.engine = await runJson(process.execPath, [...NODE_CHILD(), 'preview', dir, ctx.quick ? '3' : '10'], { timeoutMs: 10 * 60000 });
    } catch (e) {
      row.engineError = String(e.message ?? e);
    }
    progress(`preview: ${parts} parts: refresh median ${fmtMs(median(row.refresh))}, p95 ${fmtMs(p95(row.refresh))}, server CPU median ${fmtMs(median(row.cpu))}, answer median ${fmtBytes(median(row.wire))} (whole ${fmtBytes(row.answerBytes)}); in-process buildPreview ${fmtMs(median(row.engine?.preview.map((x) => x.cpu) ?? []))} CPU vs runUserData ${fmtMs(median(row.engine?.run.map((x) => x.cpu) ?? []))}`);
  }
  return { rows, method, incremental };
}
