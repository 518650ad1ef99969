/**
 * Fates (engine/outcome/fates.ts) as `--check` and `--format report` write them: one line per fate,
 * JSON, and SARIF results whose levels are the editor's severities (engine/outcome/effects.ts).
 */
import { FateReport } from '../outcome/fates';
import { EFFECTS, EFFECT_KINDS, EffectKind, EffectWeight } from '../outcome/effects';
import { SourceLocation, fileAnchor, fileLine, locationJson } from '../outcome/locate';
import { SarifLevel, SarifResult, SarifRule } from './sarif';

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
  return l ? locationJson(l) : null;
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

/** SARIF's level for an effect's weight: the editor's Warning is a warning, its Information and hints are notes. */
const LEVELS: Record<EffectWeight, SarifLevel> = { warning: 'warning', information: 'note', hint: 'note' };

export const FATE_RULES: SarifRule[] = EFFECT_KINDS.map((kind) => ({
  id: `fate-${kind}`,
  name: `MergeFate${kind[0].toUpperCase()}${kind.slice(1)}`,
  shortDescription: { text: EFFECTS[kind].description },
  defaultConfiguration: { level: LEVELS[EFFECTS[kind].weight] },
}));

/** SARIF results: the value's place, and the displacing value's as a related location; `--fail-on` kinds are errors. */
export function fatesSarif(report: FateReport, failOn: readonly EffectKind[]): SarifResult[] {
  return report.fates.map((f) => ({
    ruleId: `fate-${f.kind}`,
    level: failOn.includes(f.kind) ? 'error' : LEVELS[EFFECTS[f.kind].weight],
    message: `${f.path} ${f.value}: ${f.message}${f.at?.note ? ` (${f.at.note}: line ${f.at.line + 1}, column ${f.at.character + 1})` : ''}`,
    file: f.at?.file,
    // A position in decoded text is not one in the file (SourceLocation.note): the line that stands for it, if any.
    region: regionOf(f.at),
    related: f.by ? [{ file: f.by.file, region: regionOf(f.by), message: 'the value that decides' }] : undefined,
    properties: { path: f.path, kind: f.kind, ...(f.spec ? { spec: f.spec } : {}) },
  }));
}

function regionOf(l: SourceLocation | null): { startLine: number; startColumn: number } | undefined {
  const at = fileAnchor(l);
  return at ? { startLine: at.line + 1, startColumn: at.character + 1 } : undefined;
}
