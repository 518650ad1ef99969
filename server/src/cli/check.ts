/**
 * `cloud-config-merge --check`: cloud-init's schema validation of each FILE and of the merged result, as
 * `cloud-init schema -c FILE` and `cloud-init schema --system` would report them (engine/schema).
 *
 * Formats: `text` (cloud-init's report lines: "Valid schema FILE", or "Invalid user-data FILE" and
 * "Error: Cloud config schema errors: path: message, ..."), `json` (the shape of issue 12) and `sarif`
 * (SARIF 2.1.0). Exit code 0 when cloud-init would accept everything, 1 when it would report schema errors.
 */
import { LineIndex } from '../engine/text/lineIndex';
import { decodeUtf8Surrogateescape } from '../engine/userdata/mime';
import type { UserDataRun } from '../engine/userdata/run';
import { userDataLocator } from '../engine/preview';
import { validateMerged, type MergedProblem } from '../engine/schema/merged';
import { spanAt, validateCloudConfigText, type SchemaProblem, type SchemaVersion, type TextSchemaReport } from '../engine/schema/validate';

export type CheckFormat = 'text' | 'json' | 'sarif';

interface Located {
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

interface FileResult {
  file: string;
  valid: boolean;
  errors: Located[];
  deprecations: Located[];
  /** Why nothing was validated (YAML error, validator failure), in words. */
  note?: string;
}

export interface CheckResult {
  files: FileResult[];
  merged: { valid: boolean; errors: Located[]; deprecations: Located[]; note?: string } | null;
}

function locateInText(report: TextSchemaReport, text: string, p: SchemaProblem): Located {
  const out: Located = { path: p.path, message: p.message };
  const m = /^format-l(\d+)\.c(\d+)$/.exec(p.path);
  if (m) return { ...out, line: Number(m[1]), column: Number(m[2]) };
  if (report.value === undefined) return out;
  const segments = p.unexpectedKeys?.length === 1 && p.keyword === 'additionalProperties' ? [...p.segments, p.unexpectedKeys[0]] : p.segments;
  const span = spanAt(report.value, segments, report.rootSpan ?? null);
  if (!span) return out;
  const at = new LineIndex(text).position((span.key ?? span.value).start);
  return { ...out, line: at.line + 1, column: at.character + 1 };
}

function reportNote(r: TextSchemaReport): string | undefined {
  if (r.yamlError) return `not valid YAML: ${r.yamlError.message}`;
  if (r.crash) return `cloud-init's validator raises ${r.crash.pyType}: ${r.crash.message}`;
  if (r.notADict) return 'not a mapping: nothing to validate';
  return undefined;
}

export function checkFile(file: string, bytes: Uint8Array, version: SchemaVersion): FileResult {
  const text = decodeUtf8Surrogateescape(bytes);
  const r = validateCloudConfigText(text, version);
  return {
    file,
    valid: r.valid,
    errors: r.errors.map((p) => locateInText(r, text, p)),
    deprecations: r.deprecations.map((p) => locateInText(r, text, p)),
    note: reportNote(r),
  };
}

export function checkMerged(run: UserDataRun, version: SchemaVersion): NonNullable<CheckResult['merged']> {
  const m = validateMerged(run, version, userDataLocator(run));
  const place = (p: MergedProblem): Located => {
    const out: Located = { path: p.path, message: p.message };
    return p.source ? { ...out, file: p.source.file, line: p.source.line + 1, column: p.source.character + 1 } : out;
  };
  return { valid: m.valid, errors: m.errors.map(place), deprecations: m.deprecations.map(place), note: reportNote(m.report) };
}

export function isAccepted(result: CheckResult): boolean {
  return result.files.every((f) => f.valid) && (result.merged?.valid ?? true);
}

function problemsText(label: string, problems: Located[]): string {
  return `${label}${problems.map((p) => `${p.path}: ${p.message}`).join(', ')}`;
}

/** cloud-init's `schema` report lines for each file, then for the merged cloud-config.txt. */
export function formatText(result: CheckResult): string {
  const lines: string[] = [];
  const one = (name: string, r: { valid: boolean; errors: Located[]; deprecations: Located[]; note?: string }) => {
    if (r.valid && !r.deprecations.length) {
      lines.push(`Valid schema ${name}`);
      return;
    }
    const parts: string[] = [];
    if (r.errors.length) parts.push(problemsText('Cloud config schema errors: ', r.errors));
    if (r.deprecations.length) parts.push(problemsText('Cloud config schema deprecations: ', r.deprecations));
    if (r.valid) lines.push(`Valid schema ${name}`, `Deprecations: ${parts.join('\n\n')}`);
    else lines.push(`Invalid user-data ${name}`, `Error: ${parts.join('\n\n') || r.note || 'invalid'}`);
    for (const p of [...r.errors, ...r.deprecations]) if (p.file && p.line) lines.push(`  ${p.path}: from ${p.file}:${p.line}:${p.column}`);
  };
  for (const f of result.files) one(f.file, f);
  if (result.merged) one('cloud-config.txt (merged)', result.merged);
  if (!isAccepted(result)) lines.push('Error: Invalid schema: user-data');
  return lines.join('\n') + '\n';
}

export function formatJson(result: CheckResult, pretty: boolean): string {
  const strip = (r: FileResult) => ({ file: r.file, valid: r.valid, errors: r.errors.map(fileLoc), deprecations: r.deprecations.map(fileLoc) });
  const fileLoc = (p: Located) => ({ path: p.path, message: p.message, line: p.line ?? null, column: p.column ?? null });
  const mergedLoc = (p: Located) => ({ path: p.path, message: p.message, file: p.file ?? null, line: p.line ?? null, column: p.column ?? null });
  const out = {
    files: result.files.map(strip),
    merged: result.merged ? { valid: result.merged.valid, errors: result.merged.errors.map(mergedLoc), deprecations: result.merged.deprecations.map(mergedLoc) } : null,
  };
  return JSON.stringify(out, null, pretty ? 2 : undefined);
}

const RULES = [
  { id: 'schema-error', name: 'CloudConfigSchemaError', shortDescription: { text: 'cloud-init reports a schema error for this value' }, defaultConfiguration: { level: 'error' } },
  { id: 'schema-deprecation', name: 'CloudConfigDeprecation', shortDescription: { text: 'cloud-init reports this key or value as deprecated' }, defaultConfiguration: { level: 'warning' } },
];

/** SARIF 2.1.0: one result per problem, at the file and line that wrote the value. */
export function formatSarif(result: CheckResult, version: SchemaVersion, toolVersion: string): string {
  const results: unknown[] = [];
  const add = (p: Located, file: string | undefined, deprecation: boolean, merged: boolean) => {
    const location = file
      ? [{ physicalLocation: { artifactLocation: { uri: file.split('\\').join('/') }, ...(p.line ? { region: { startLine: p.line, startColumn: p.column ?? 1 } } : {}) } }]
      : [];
    results.push({
      ruleId: deprecation ? 'schema-deprecation' : 'schema-error',
      ruleIndex: deprecation ? 1 : 0,
      level: deprecation ? 'warning' : 'error',
      message: { text: `${p.path}: ${p.message.trim()}${merged ? ' (in the merged cloud-config.txt)' : ''}` },
      locations: location,
      properties: { path: p.path, merged },
    });
  };
  for (const f of result.files) {
    for (const p of f.errors) add(p, f.file, false, false);
    for (const p of f.deprecations) add(p, f.file, true, false);
  }
  if (result.merged) {
    const shown = new Set(results.map((r) => JSON.stringify((r as { message: unknown }).message)));
    for (const [list, dep] of [[result.merged.errors, false], [result.merged.deprecations, true]] as const) {
      for (const p of list) {
        const key = JSON.stringify({ text: `${p.path}: ${p.message.trim()}` });
        if (!shown.has(key)) add(p, p.file, dep, true);
      }
    }
  }
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'cloud-config-merge', version: toolVersion, informationUri: 'https://cloudinit.readthedocs.io/', rules: RULES } },
        properties: { cloudInitVersion: version },
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2);
}
