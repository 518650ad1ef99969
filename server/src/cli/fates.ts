/**
 * The CLI's side of the fates (engine/fates.ts): `--set NAME` reads the same
 * set file as the editor; `--check` and `--format report` list the fates;
 * `--fail-on KINDS` makes `--check` exit 1 when a value meets one of them,
 * naming the file and line of both values.
 */
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { Fate, FateKind, FateReport, FATE_KINDS, SetMode } from '../engine/fates';
import { SourceLocation, fileLine, inFileText } from '../engine/provenance';
import { SET_FILE_NAME } from '../engine/sets';
import { readSetFile, resolveSet } from '../node/sets';
import { CliOptions, UsageError } from './args';
import { SarifResult, SarifRule } from './sarif';
import { pushAll } from '../engine/arrays';

/** `--set NAME`: the mode, files and layers of a set of the set file (`--set-file`, else ./cloud-config-merge.yaml). */
export function applySet(o: CliOptions, cwd = process.cwd()): void {
  if (o.set === undefined) return;
  if (o.files.length) throw new UsageError(`--set ${o.set} names the files: give no FILE with it (got ${o.files.join(' ')})`);
  const file = path.resolve(cwd, o.setFile ?? SET_FILE_NAME);
  if (!existsSync(file)) throw new UsageError(`--set ${o.set}: no set file ${o.setFile ?? `${SET_FILE_NAME} in ${cwd}`} (give one with --set-file PATH)`);
  const parsed = readSetFile(file);
  if (!parsed) throw new UsageError(`--set ${o.set}: ${file} cannot be read`);
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new UsageError(`${file}: ${errors.map((e) => e.message).join('; ')}`);
  const set = parsed.sets.find((s) => s.name === o.set);
  if (!set) throw new UsageError(`--set ${o.set}: ${file} has no such set (it has ${parsed.sets.map((s) => s.name).join(', ') || 'none'})`);
  const resolved = resolveSet(path.dirname(file), set);
  if (resolved.unmatched.length) throw new UsageError(`--set ${o.set}: no file matches ${resolved.unmatched.join(', ')}`);
  // Paths as a user would type them from here, so messages and SARIF name files relative to the working directory.
  const shown = (f: string) => path.relative(cwd, f) || f;
  o.mode = set.mode;
  o.files = resolved.files.map(shown);
  pushAll(o.includeMap, resolved.includeMap.map((m) => ({ url: m.url, file: shown(m.file) })));
  if (resolved.instanceData) o.instanceData = shown(resolved.instanceData);
  if (resolved.boot.confd) o.confd = resolved.boot.confd.map(shown);
  if (resolved.boot.cloudCfg) o.cloudCfg = shown(resolved.boot.cloudCfg);
  if (resolved.boot.vendor) o.vendor = shown(resolved.boot.vendor);
  if (resolved.boot.vendor2) o.vendor2 = shown(resolved.boot.vendor2);
  if (resolved.boot.dsConfig) o.dsConfig = shown(resolved.boot.dsConfig);
}

/** The modes that have fates (a Chef merge has no specs; system and handler modes are below the parts). */
export function hasFates(mode: CliOptions['mode']): mode is SetMode {
  return mode === 'user-data' || mode === 'confd' || mode === 'boot';
}

export function failing(report: FateReport, failOn: readonly FateKind[]): Fate[] {
  return report.fates.filter((f) => failOn.includes(f.kind));
}

function place(l: SourceLocation | null): string {
  return l ? fileLine(l, true) : '(unknown place)';
}

/** One line per fate: `FILE:LINE:COL: KIND: PATH VALUE: what happens`. */
export function fatesText(report: FateReport): string {
  if (report.failure) return `Merge fates: not worked out: ${report.failure}\n`;
  if (!report.fates.length) return 'Merge fates: none (every value of every part survives the merge)\n';
  const lines = [`Merge fates (${report.fates.length}${report.omitted ? ` and ${report.omitted} more` : ''}):`];
  for (const f of report.fates) lines.push(`${place(f.at)}: ${f.kind}: ${f.path} ${f.value}: ${f.message}`);
  return lines.join('\n') + '\n';
}

function located(l: SourceLocation | null) {
  return l ? { file: l.file, line: l.line + 1, column: l.character + 1, ...(l.note ? { note: l.note } : {}) } : null;
}

/** The fates as JSON values (the value itself is left out: `value` is its short repr). */
export function fatesJson(report: FateReport): unknown {
  return {
    ...(report.failure ? { failure: report.failure } : {}),
    omitted: report.omitted,
    list: report.fates.map((f) => ({ kind: f.kind, path: f.path, value: f.value, at: located(f.at), by: located(f.by), spec: f.spec ?? null, reason: f.reason, message: f.message })),
  };
}

/** `{"fates": ..., ` put before the first key of a JSON report (whose values may be Python's NaN, so it is not re-parsed). */
export function withFates(reportJson: string, report: FateReport, pretty: boolean): string {
  const fates = JSON.stringify(fatesJson(report), null, pretty ? 2 : undefined);
  if (!reportJson.startsWith('{')) return reportJson;
  return pretty ? `{\n  "fates": ${fates.replace(/\n/g, '\n  ')},${reportJson.slice(1)}` : `{"fates":${fates},${reportJson.slice(1)}`;
}

const FATE_DESCRIPTIONS: Record<FateKind, string> = {
  replaced: 'a later part replaces this value',
  deleted: 'a later part deletes this value (allow_delete)',
  lost: 'the merge keeps another value instead of this one',
  dropped: 'cloud-init drops this whole part',
  overridden: 'user-data (or a higher layer) overrides this value at boot',
  appended: 'this list is appended after another part\'s items',
  prepended: 'this list is prepended before another part\'s items',
};

export const FATE_RULES: SarifRule[] = FATE_KINDS.map((kind) => ({
  id: `fate-${kind}`,
  name: `MergeFate${kind[0].toUpperCase()}${kind.slice(1)}`,
  shortDescription: { text: FATE_DESCRIPTIONS[kind] },
  defaultConfiguration: { level: kind === 'appended' || kind === 'prepended' ? 'note' : 'warning' },
}));

/** SARIF results: the value's place, and the displacing value's as a related location; `--fail-on` kinds are errors. */
export function fatesSarif(report: FateReport, failOn: readonly FateKind[]): SarifResult[] {
  return report.fates.map((f) => ({
    ruleId: `fate-${f.kind}`,
    level: failOn.includes(f.kind) ? 'error' : f.kind === 'appended' || f.kind === 'prepended' ? 'note' : 'warning',
    message: `${f.path} ${f.value}: ${f.message}`,
    file: f.at?.file,
    // A position in decoded text is not one in the file (SourceLocation.note): no region then.
    region: regionOf(f.at),
    related: f.by ? [{ file: f.by.file, region: regionOf(f.by), message: 'the value that decides' }] : undefined,
    properties: { path: f.path, kind: f.kind, ...(f.spec ? { spec: f.spec } : {}) },
  }));
}

function regionOf(l: SourceLocation | null): { startLine: number; startColumn: number } | undefined {
  const at = inFileText(l);
  return at ? { startLine: at.line + 1, startColumn: at.character + 1 } : undefined;
}
