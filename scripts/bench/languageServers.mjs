/** Section 3 (`--only lsp`): our language server beside Red Hat's yaml-language-server: start-up, open and edit to diagnostics, hover, completion, memory. */
import * as path from 'node:path';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ROOT, require, ctx, YLS_BIN, SERVER_MAIN, CLIENT_START, SCHEMA, progress, runJson, NODE_CHILD } from './context.mjs';
import { median, p95, fmtMs, fmtMB, fmtInt } from './stats.mjs';
import { Session, sleep, requestPositions, P } from './lsp.mjs';
import { generateDocument } from './generate.mjs';

const YAML_SETTINGS = (schemas) => ({
  validate: true,
  hover: true,
  completion: true,
  format: { enable: false },
  schemas,
  schemaStore: { enable: false },
  kubernetesCRDStore: { enable: false },
});

function serverConfigs() {
  const configs = [
    {
      id: 'ours',
      label: 'cloud-config-merge',
      ipc: CLIENT_START,
      settings: (section) => (section === 'cloudConfigMerge' ? {} : null),
      pull: null,
    },
  ];
  // The same server without the client's flags, over stdio (as bin/cloud-config-language-server.js runs it), on the largest document only.
  configs.push({
    id: 'ours-plain',
    label: 'cloud-config-merge (node server/out/server.js --stdio)',
    argv: [SERVER_MAIN, '--stdio'],
    settings: configs[0].settings,
    pull: null,
    onlyLines: Math.max(...ctx.config.lspLines),
    noStartups: true,
  });
  if (existsSync(YLS_BIN)) {
    const plain = YAML_SETTINGS({});
    const withSchema = YAML_SETTINGS({ [pathToFileURL(SCHEMA).href]: '*.yaml' });
    const answer = (yaml) => (section) =>
      section === 'yaml' ? yaml : section === 'http' ? { proxy: '', proxyStrictSSL: false } : section === '[yaml]' || section === 'editor' ? {} : null;
    configs.push(
      { id: 'yls', label: 'yaml-language-server (no schema)', argv: [YLS_BIN, '--stdio'], settings: answer(plain), pull: { yaml: plain } },
      { id: 'yls-schema', label: 'yaml-language-server (with a schema)', argv: [YLS_BIN, '--stdio'], settings: answer(withSchema), pull: { yaml: withSchema } },
    );
  }
  return configs;
}

async function startServer(config, folders) {
  const s = await Session.start({ argv: config.argv, ipc: config.ipc, settings: config.settings, folders });
  if (config.pull) await s.configure(config.pull, 'yaml');
  return s;
}

/** The pause before each measured single edit: longer than the gap the servers take for typing. */
export const EDIT_PAUSE_MS = 400;
/** A typed word: keys this far apart (a fast typist), appended to one line. */
export const TYPING = { keys: 8, gapMs: 100 };

/**
 * Types a word into `line` (TYPING.keys keys TYPING.gapMs apart) and counts the diagnostics
 * published while typing and after it: a server that analyses at every key publishes one per key.
 */
async function typeWord(s, uri, lines, line) {
  const since = s.log(uri).length;
  let version = 0;
  let lastKeyAt = 0;
  for (let key = 0; key < TYPING.keys; key++) {
    if (key) await sleep(TYPING.gapMs);
    const character = lines[line].length;
    lines[line] += 'y';
    lastKeyAt = performance.now();
    version = await s.edit(uri, { start: { line, character }, end: { line, character } }, 'y');
  }
  const last = await s.waitForDiagnostics(uri, since, (d) => d.version === undefined || d.version === version);
  await sleep(EDIT_PAUSE_MS);
  return { keys: TYPING.keys, gapMs: TYPING.gapMs, published: s.log(uri).length - since, afterLastKey: last.at - lastKeyAt };
}

/** Debounces the servers apply before validating (read from their code, so the report says what they were). */
function debounces() {
  const out = { ours: { open: 0, change: NaN }, yls: { open: NaN, change: NaN } };
  try {
    const quiet = require(path.join(ROOT, 'server', 'out', 'features', 'common', 'quietTime.js'));
    out.ours.change = quiet.MAX_QUIET_MS;
    out.ours.changeMin = quiet.MIN_QUIET_MS;
  } catch {
    /* not built */
  }
  try {
    const { SettingsState } = require(path.join(ROOT, 'node_modules', 'yaml-language-server', 'out', 'server', 'src', 'yamlSettings.js'));
    const d = new SettingsState().validationDelayMs;
    out.yls = { open: d, change: d };
  } catch {
    /* not installed */
  }
  return out;
}

/** The lines of the document's merge_how block (for positions "inside merge_how"). */
function specLines(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^merge_(how|type):/.test(l));
  if (start < 0) return null;
  let end = start;
  while (end + 1 < lines.length && /^\s/.test(lines[end + 1])) end++;
  return [start, end];
}

/** Lines that are a plain list item (a package name): appending a character keeps the YAML valid. */
export function editableLines(text) {
  const lines = text.split('\n');
  const out = [];
  lines.forEach((l, i) => {
    if (/^ {2}- [a-z][-a-z0-9.]*-\d+-\d+-\d+$/.test(l)) out.push(i);
  });
  return out.length ? out : [Math.floor(lines.length / 2)];
}

async function timeRequests(session, uri, type, positions, budgetMs) {
  const out = { ms: [], spec: [], nonEmpty: 0, errors: 0 };
  const started = performance.now();
  for (const [i, p] of positions.entries()) {
    if (i >= 20 && performance.now() - started > budgetMs) break;
    try {
      const r = await session.timeRequest(type, { textDocument: { uri }, position: { line: p.line, character: p.character } });
      out.ms.push(r.ms);
      if (p.inSpec) out.spec.push(r.ms);
      const items = Array.isArray(r.result) ? r.result : r.result?.items;
      if (items ? items.length : r.result) out.nonEmpty++;
    } catch {
      out.errors++;
    }
  }
  return out;
}

export async function benchLanguageServers() {
  const result = { servers: [], debounce: debounces(), docs: [] };
  if (!existsSync(SERVER_MAIN)) {
    result.error = `${path.relative(ROOT, SERVER_MAIN)} is missing (the language server is not built yet: npm run build)`;
    progress(`language servers: skipped: ${result.error}`);
    return result;
  }
  if (!existsSync(YLS_BIN)) result.ylsMissing = 'yaml-language-server is not installed (npm install)';
  const docDir = path.join(ctx.work, 'lsp');
  mkdirSync(docDir, { recursive: true });
  const docs = ctx.config.lspLines.map((n) => {
    const text = generateDocument(n);
    const file = path.join(docDir, `cloud-config-${n}.yaml`);
    writeFileSync(file, text);
    return { lines: n, text, file, uri: pathToFileURL(file).href, bytes: Buffer.byteLength(text) };
  });

  // The analysis the server runs per version, in-process (to separate compute from protocol and debounce).
  for (const d of docs) {
    try {
      const a = await runJson(process.execPath, ['--expose-gc', ...NODE_CHILD(), 'analyze', d.file, ctx.quick ? '3' : '10', d.bytes < 100000 ? '20' : '5'], { timeoutMs: 5 * 60000 });
      d.analysisCpu = median(a.cpu);
      d.analysisWall = median(a.wall);
      d.findings = a.findings;
      d.retainedHeap = a.retainedHeap;
      d.analysisMaxRSS = a.maxRSS;
      d.analysisRuns = a.runs;
    } catch (e) {
      d.analysisError = String(e.message ?? e);
    }
    result.docs.push({ lines: d.lines, bytes: d.bytes, analysisCpu: d.analysisCpu, analysisWall: d.analysisWall, findings: d.findings, retainedHeap: d.retainedHeap, analysisMaxRSS: d.analysisMaxRSS, analysisRuns: d.analysisRuns, error: d.analysisError });
  }

  for (const config of serverConfigs()) {
    const server = { id: config.id, label: config.label, startup: [], sizes: [] };
    result.servers.push(server);
    try {
      if (!config.noStartups) progress(`${config.label}: start-up to the initialize result, ${ctx.config.startups} starts`);
      for (let i = 0; i < (config.noStartups ? 0 : ctx.config.startups); i++) {
        const s = await Session.start({ argv: config.argv, ipc: config.ipc, settings: config.settings });
        server.startup.push(s.startupMs);
        await s.stop();
      }
      for (const d of docs) {
        if (config.onlyLines && d.lines !== config.onlyLines) continue;
        progress(`${config.label}: ${fmtInt(d.lines)} lines: open, edit, hover, completion`);
        const size = { lines: d.lines, bytes: d.bytes, open: [], edit: [], openDiagnostics: null, editDiagnostics: null };
        server.sizes.push(size);
        const s = await startServer(config, [docDir]);
        try {
          // Reopened with a new version each time: yaml-language-server caches a parse per URI and
          // version (and keeps it after didClose), so the same version would be a cache hit.
          const uri = d.uri;
          for (let i = 0; i < ctx.config.lspRepeats; i++) {
            const o = await s.open(uri, d.text, i + 1);
            size.open.push(o.ms);
            size.openDiagnostics = o.diagnostics;
            if (i < ctx.config.lspRepeats - 1) await s.close(uri);
          }
          const lines = d.text.split('\n');
          const editable = editableLines(d.text);
          for (let i = 0; i < ctx.config.lspRepeats; i++) {
            const line = editable[Math.floor(((i + 0.5) * editable.length) / ctx.config.lspRepeats)];
            const character = lines[line].length;
            lines[line] += 'x';
            // One edit after a pause, as a user makes it and waits (edits closer together are typing: below).
            await sleep(EDIT_PAUSE_MS);
            const e = await s.editAndWait(uri, { start: { line, character }, end: { line, character } }, 'x');
            size.edit.push(e.ms);
            size.editDiagnostics = e.diagnostics;
          }
          await sleep(EDIT_PAUSE_MS);
          size.typing = await typeWord(s, uri, lines, editable[Math.floor(editable.length / 3)]);
          const text = lines.join('\n');
          const positions = requestPositions(text, ctx.config.lspRequests, d.lines, specLines(text));
          size.hover = await timeRequests(s, uri, P.HoverRequest.type, positions, ctx.config.lspRequestBudgetMs);
          size.completion = await timeRequests(s, uri, P.CompletionRequest.type, positions, ctx.config.lspRequestBudgetMs);
          size.rss = s.peakRSS();
        } catch (e) {
          size.error = String(e.message ?? e);
          progress(`${config.label}: ${fmtInt(d.lines)} lines: FAILED: ${size.error}`);
        } finally {
          await s.stop();
        }
        progress(
          `${config.label}: ${fmtInt(d.lines)} lines: open→diagnostics ${fmtMs(median(size.open))}, edit→diagnostics ${fmtMs(median(size.edit))}, hover p95 ${fmtMs(p95(size.hover?.ms ?? []))}, completion p95 ${fmtMs(p95(size.completion?.ms ?? []))}, peak RSS ${fmtMB(size.rss)}`,
        );
      }
    } catch (e) {
      server.error = String(e.message ?? e);
      progress(`${config.label}: FAILED: ${server.error}`);
    }
  }
  return result;
}
