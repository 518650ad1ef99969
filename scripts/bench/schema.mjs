/**
 * Schema validation in the language servers (`npm run bench -- --only schema`): our server (cloud-init's
 * schema validation on, as by default) against yaml-language-server given cloud-init's own JSON schema —
 * what Red Hat YAML users get from SchemaStore — on the same cloud-config documents (200 to 20,000
 * lines, generated as in the language-server section, with a few schema problems added so both report
 * something). The schema is read at run time from the cloud-init whose facts we ship (upstream,
 * `cloudinit/config/schemas/schema-cloud-config-v1.json`; CLOUDINIT_UPSTREAM_PATH), never copied into the
 * repository. Measured: didOpen → diagnostics and didChange → diagnostics (each server's own debounce
 * included, and net of it), the diagnostics each reports, hover and completion on module keys and
 * anywhere (ours), peak RSS.
 */
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { generateDocument, rng, seedOf } from './generate.mjs';
import { P, Session, sleep } from './lsp.mjs';
import { fmtInt, fmtMB, fmtMs, fmtRatio, median, p95, table } from './stats.mjs';
import { ROOT, ctx, progress, run, CLIENT_START } from './context.mjs';

const require = createRequire(import.meta.url);

export const SCHEMA_TARGETS = { diagnosticsRatio: 0.5, requestP95Ms: 10, vsixBytes: 1024 * 1024 };
/** The pause before each measured edit: a single edit, not typing (server/src/features/common/quietTime.ts). */
const EDIT_PAUSE_MS = 400;

/** Schema problems both validators see: an unknown top-level key, a wrong enum value, wrong types. */
const PROBLEMS = ['package: [curl]', 'resize_rootfs: sometimes', 'final_message: 5', 'phone_home:', '  url: 7', 'byobu_by_default: enable'];

function schemaDocument(lines) {
  return `${generateDocument(lines).replace(/\n?$/, '\n')}${PROBLEMS.join('\n')}\n`;
}

/** Lines that are a plain list item (a package name): appending a character keeps the YAML valid. */
function editableLines(text) {
  const out = [];
  text.split('\n').forEach((l, i) => {
    if (/^ {2}- [a-z][-a-z0-9.]*-\d+-\d+-\d+$/.test(l)) out.push(i);
  });
  return out.length ? out : [Math.floor(text.split('\n').length / 2)];
}

/** Positions on top-level keys (module keys: hover documents them) and anywhere else, alternately. */
function positions(text, count, seed) {
  const r = rng(seed);
  const lines = text.split('\n');
  const keyLines = lines.map((l, i) => (/^[a-z_]+:/.test(l) ? i : -1)).filter((i) => i >= 0);
  const out = [];
  for (let i = 0; i < count; i++) {
    const onKey = i % 2 === 0 && keyLines.length;
    const line = onKey ? keyLines[Math.floor(r() * keyLines.length)] : Math.floor(r() * Math.max(1, lines.length - 1));
    const len = lines[line]?.length ?? 0;
    out.push({ line, character: onKey ? Math.min(2, len) : Math.floor(r() * (len + 1)), onKey: Boolean(onKey) });
  }
  return out;
}

function upstreamSchema() {
  const dir = process.env.CLOUDINIT_UPSTREAM_PATH ?? '/opt/cloudinit-upstream';
  const file = path.join(dir, 'cloudinit', 'config', 'schemas', 'schema-cloud-config-v1.json');
  return existsSync(file) ? file : null;
}

function ylsSettings(schemaUrl) {
  return { validate: true, hover: true, completion: true, format: { enable: false }, schemas: { [schemaUrl]: '*.yaml' }, schemaStore: { enable: false }, kubernetesCRDStore: { enable: false } };
}

export async function benchSchema({ root, work, quick, progress }) {
  const serverMain = path.join(root, 'server', 'out', 'server.js');
  const ylsBin = path.join(root, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server');
  const result = { rows: [], debounce: {}, loadStart: os.loadavg() };
  const source = upstreamSchema();
  if (!existsSync(serverMain)) return { ...result, error: 'the language server is not built (npm run build)' };
  if (!existsSync(ylsBin)) return { ...result, error: 'yaml-language-server is not installed (npm install)' };
  if (!source) return { ...result, error: "cloud-init's schema is not there (bash ../shared/oracle/setup.sh --upstream)" };
  const schemaFile = path.join(work, 'schema-cloud-config-v1.json');
  copyFileSync(source, schemaFile);
  result.schemaBytes = readFileSync(schemaFile).length;
  try {
    const quiet = require(path.join(root, 'server', 'out', 'features', 'common', 'quietTime.js'));
    result.debounce.ours = `${quiet.MIN_QUIET_MS}–${quiet.MAX_QUIET_MS}`;
    const { SettingsState } = require(path.join(root, 'node_modules', 'yaml-language-server', 'out', 'server', 'src', 'yamlSettings.js'));
    result.debounce.yls = new SettingsState().validationDelayMs;
  } catch {
    /* not built / not installed */
  }
  const withSchema = ylsSettings(pathToFileURL(schemaFile).href);
  const servers = [
    { id: 'ours', label: 'cloud-config-merge (cloud-init schema, current)', argv: [...CLIENT_START.execArgv, serverMain, '--stdio'], settings: (s) => (s === 'cloudConfigMerge' ? {} : null), pull: null },
    {
      id: 'yls',
      label: "yaml-language-server (cloud-init's schema)",
      argv: [ylsBin, '--stdio'],
      settings: (s) => (s === 'yaml' ? withSchema : s === 'http' ? { proxy: '', proxyStrictSSL: false } : s === '[yaml]' || s === 'editor' ? {} : null),
      pull: { yaml: withSchema },
    },
  ];
  const sizes = quick ? [200, 2000] : [200, 2000, 20000];
  const repeats = quick ? 2 : 5;
  const requests = quick ? 30 : 200;
  for (const lines of sizes) {
    const text = schemaDocument(lines);
    const file = path.join(work, `schema-${lines}.yaml`);
    const uri = pathToFileURL(file).href;
    for (const config of servers) {
      const row = { server: config.id, label: config.label, lines, bytes: Buffer.byteLength(text), open: [], edit: [] };
      result.rows.push(row);
      progress(`schema: ${config.label}: ${fmtInt(lines)} lines`);
      const s = await Session.start({ argv: config.argv, settings: config.settings, folders: [work] });
      try {
        if (config.pull) await s.configure(config.pull, 'yaml');
        for (let i = 0; i < repeats; i++) {
          const o = await s.open(uri, text, i + 1);
          row.open.push(o.ms);
          row.openDiagnostics = o.diagnostics;
          if (i < repeats - 1) await s.close(uri);
        }
        const docLines = text.split('\n');
        const editable = editableLines(text);
        for (let i = 0; i < repeats; i++) {
          const line = editable[Math.floor(((i + 0.5) * editable.length) / repeats)];
          const character = docLines[line].length;
          docLines[line] += 'x';
          await sleep(EDIT_PAUSE_MS);
          const e = await s.editAndWait(uri, { start: { line, character }, end: { line, character } }, 'x');
          row.edit.push(e.ms);
          row.editDiagnostics = e.diagnostics;
        }
        const at = positions(docLines.join('\n'), requests, seedOf('schema-positions', lines));
        for (const [method, type] of [['hover', P.HoverRequest.type], ['completion', P.CompletionRequest.type]]) {
          const all = [];
          const onKeys = [];
          let answered = 0;
          // The first request of a kind loads its code and data (the schema's key documentation): timed apart.
          const cold = await s.timeRequest(type, { textDocument: { uri }, position: { line: at[0].line, character: at[0].character } });
          for (const p of at.slice(1, 6)) await s.timeRequest(type, { textDocument: { uri }, position: { line: p.line, character: p.character } });
          for (const p of at) {
            const r = await s.timeRequest(type, { textDocument: { uri }, position: { line: p.line, character: p.character } });
            all.push(r.ms);
            if (p.onKey) onKeys.push(r.ms);
            const items = Array.isArray(r.result) ? r.result : r.result?.items;
            if (items ? items.length : r.result) answered++;
          }
          row[method] = { ms: all, onKeys, answered, coldMs: cold.ms };
        }
        row.rss = s.peakRSS();
      } catch (e) {
        row.error = String(e.message ?? e);
        progress(`schema: ${config.label}: ${fmtInt(lines)} lines: FAILED: ${row.error}`);
      } finally {
        await s.stop();
      }
      if (!row.error) progress(`schema: ${config.label}: ${fmtInt(lines)} lines: open→diagnostics ${fmtMs(median(row.open))} (${row.openDiagnostics}), edit→diagnostics ${fmtMs(median(row.edit))}, hover p95 ${fmtMs(p95(row.hover.ms))}, completion p95 ${fmtMs(p95(row.completion.ms))}`);
    }
  }
  result.loadEnd = os.loadavg();
  return result;
}

function pair(result, lines) {
  const ours = result.rows.find((r) => r.server === 'ours' && r.lines === lines && !r.error);
  const yls = result.rows.find((r) => r.server === 'yls' && r.lines === lines && !r.error);
  return { ours, yls };
}

/** The targets of issue 12, judged on the measured rows (the .vsix size comes from the extension section). */
export function schemaTargets(result, vsixBytes) {
  if (result.error || !result.rows.length) return [];
  const big = Math.max(...result.rows.map((r) => r.lines));
  const { ours, yls } = pair(result, big);
  const out = [];
  if (ours && yls) {
    const open = median(ours.open) / median(yls.open);
    const edit = median(ours.edit) / median(yls.edit);
    out.push({
      area: 'Schema',
      target: `schema diagnostics on ${fmtInt(big)} lines in under half of yaml-language-server's time with cloud-init's schema`,
      measured: `didOpen→diagnostics ${fmtMs(median(ours.open))} vs ${fmtMs(median(yls.open))} (${fmtRatio(open)}); didChange→diagnostics ${fmtMs(median(ours.edit))} vs ${fmtMs(median(yls.edit))} (${fmtRatio(edit)})`,
      met: open < SCHEMA_TARGETS.diagnosticsRatio && edit < SCHEMA_TARGETS.diagnosticsRatio,
    });
  }
  const ourRows = result.rows.filter((r) => r.server === 'ours' && !r.error);
  if (ourRows.length) {
    out.push({
      area: 'Schema',
      target: 'hover and completion p95 under 10 ms (with schema validation on)',
      measured: ourRows.map((r) => `${fmtInt(r.lines)} lines: hover ${fmtMs(p95(r.hover.ms))}, completion ${fmtMs(p95(r.completion.ms))}`).join('; '),
      met: ourRows.every((r) => p95(r.hover.ms) < SCHEMA_TARGETS.requestP95Ms && p95(r.completion.ms) < SCHEMA_TARGETS.requestP95Ms),
    });
  }
  if (vsixBytes) out.push({ area: 'Schema', target: '.vsix under 1 MB with the schema data of both versions', measured: `${(vsixBytes / 1024).toFixed(1)} KB`, met: vsixBytes < SCHEMA_TARGETS.vsixBytes });
  return out;
}

export function schemaMarkdown(result) {
  const L = ['## 3c. Schema validation beside yaml-language-server with cloud-init\'s schema', ''];
  if (result.error) return [...L, `Not measured: ${result.error}.`, ''];
  L.push(
    `Our server validates against the schema facts of the chosen cloud-init (\`current\` here, the default); yaml-language-server ${'(`yaml.validate`, hover, completion)'} is given cloud-init's own \`schema-cloud-config-v1.json\` (${fmtInt(result.schemaBytes)} bytes, read from the upstream checkout at run time) for \`*.yaml\`, as Red Hat YAML does with SchemaStore. Documents: the language-server section's generated cloud-config plus ${PROBLEMS.length} lines with schema problems (an unknown key, wrong types and enum values). Debounces read from the servers' code: ours none on open and, after an edit, as long as its recent analyses took (${result.debounce.ours} ms; the longest while someone types; each measured edit follows a ${EDIT_PAUSE_MS} ms pause), yaml-language-server ${result.debounce.yls} ms on both; the times include them, "net" subtracts them (yaml-language-server's fixed one; ours is adaptive and stays in). Hover and completion: half of the positions on top-level (module) keys, half anywhere, after a first request of each kind (timed apart as "first": it loads that feature's code and data) and five warm-ups. Load average (1 min) at the start and end of this section: ${result.loadStart?.[0]?.toFixed(2)} and ${result.loadEnd?.[0]?.toFixed(2)} on ${os.cpus().length} cores${(result.loadStart?.[0] ?? 0) > os.cpus().length ? ' (a shared, loaded machine: both servers wait for a CPU alike)' : ''}.`,
    '',
  );
  const rows = result.rows.map((r) => {
    if (r.error) return [r.label, fmtInt(r.lines), `failed: ${r.error}`, '', '', '', '', '', ''];
    const d = r.server === 'ours' ? { open: 0, edit: 0 } : { open: result.debounce.yls, edit: result.debounce.yls };
    return [
      r.label,
      fmtInt(r.lines),
      `${fmtMs(median(r.open))} (net ${fmtMs(median(r.open) - d.open)})`,
      `${fmtMs(median(r.edit))} (net ${fmtMs(median(r.edit) - d.edit)})`,
      `${r.openDiagnostics} / ${r.editDiagnostics}`,
      `${fmtMs(median(r.hover.ms))} / ${fmtMs(p95(r.hover.ms))} (${r.hover.answered} of ${r.hover.ms.length} answered); on keys p95 ${fmtMs(p95(r.hover.onKeys))}; first ${fmtMs(r.hover.coldMs)}`,
      `${fmtMs(median(r.completion.ms))} / ${fmtMs(p95(r.completion.ms))} (${r.completion.answered} answered); on keys p95 ${fmtMs(p95(r.completion.onKeys))}; first ${fmtMs(r.completion.coldMs)}`,
      fmtMB(r.rss),
    ];
  });
  L.push(table(['Server', 'lines', 'didOpen → diagnostics', 'didChange → diagnostics', 'diagnostics (open / edit)', 'hover median / p95', 'completion median / p95', 'peak RSS'], rows, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r']), '');
  const ratios = [...new Set(result.rows.map((r) => r.lines))].map((lines) => {
    const { ours, yls } = pair(result, lines);
    if (!ours || !yls) return null;
    return [fmtInt(lines), fmtRatio(median(ours.open) / median(yls.open)), fmtRatio(median(ours.edit) / median(yls.edit)), fmtRatio(p95(ours.hover.ms) / p95(yls.hover.ms)), fmtRatio(p95(ours.completion.ms) / p95(yls.completion.ms))];
  }).filter(Boolean);
  L.push('Ratios, cloud-config-merge ÷ yaml-language-server with cloud-init\'s schema (below 1 = we are faster):', '');
  L.push(table(['lines', 'didOpen → diagnostics', 'didChange → diagnostics', 'hover p95', 'completion p95'], ratios, ['r', 'r', 'r', 'r', 'r']), '');
  return L;
}

/** The schema section with its own targets (so `--only schema --write` leaves the rest of the file as measured). */
export function schemaSection(schema) {
  const lines = schemaMarkdown(schema);
  const targets = schemaTargets(schema, schema.vsixBytes);
  if (targets.length) {
    lines.push('Targets of this section (also in the Targets table of a full run):', '');
    lines.push(table(['Target', 'Measured', 'Verdict'], targets.map((t) => [t.target, t.measured, t.met ? 'met' : '**not met**']), ['l', 'l', 'l']), '');
    for (const t of targets) if (!t.met) lines.push(`- ${t.target}: ${schemaGap(t, schema.debounce)}`);
    if (targets.some((t) => !t.met)) lines.push('');
  }
  return lines;
}

export function schemaGap(t, debounce) {
  if (/didChange/.test(t.measured)) {
    return `didChange includes each server's debounce (ours adaptive, ${debounce.ours} ms: as long as its recent analyses took, after a pause; yaml-language-server's ${debounce.yls} ms). On open (no debounce on our side) the ratio is the analysis itself.`;
  }
  return 'See the table of this section.';
}

/** The size of a freshly packaged .vsix (npm run package), for the schema section's size target. */
export async function vsixBytesForSchema() {
  const vsix = path.join(ROOT, 'cloud-config-merge.vsix');
  if (!ctx.quick) {
    progress('schema: npm run package (for the .vsix size)');
    const r = await run('npm', ['run', 'package'], { timeoutMs: 10 * 60000 });
    if (r.code !== 0) return null;
  }
  return existsSync(vsix) ? statSync(vsix).size : null;
}
