/**
 * The editor's findings of files (engine/lint/lintFiles.ts) as `--lint` writes them and `--check` adds
 * them: one line each (`FILE:LINE:COL: severity: message [code]`), or SARIF results at the editor's
 * severity (one rule per finding code).
 */
import type { LintResult } from '../lint/lintFiles';
import { SARIF_LEVEL, type SarifResult, type SarifRule } from './sarif';
import { FINDING_CODES, type FindingCode } from '../findings/codes';

export function lintLines(result: LintResult): string[] {
  return result.findings.map((l) => `${l.file}:${l.start.line + 1}:${l.start.character + 1}: ${l.finding.severity}: ${l.finding.message} [${l.finding.code}]`);
}

/** `N problems in M cloud-init files`, for `--lint`'s stderr, when some fail. */
export function lintSummary(result: LintResult): string | undefined {
  if (!result.failing) return undefined;
  return `${result.failing} problem${result.failing === 1 ? '' : 's'} in ${result.checked} cloud-init file${result.checked === 1 ? '' : 's'}`;
}

/** `--check`'s text: the findings under a heading (nothing when there are none), and the line that says they fail it. */
export function lintSection(result: LintResult): { text: string; failure?: string } {
  if (!result.findings.length) return { text: '' };
  const text = `Lint findings (${result.findings.length}), as --lint and the editor give them:\n${lintLines(result).join('\n')}\n`;
  return { text, ...(result.failing ? { failure: `Error: ${result.failing} lint finding(s) are errors or warnings\n` } : {}) };
}

/** One rule per code found (its summary, at its listed severity), one result per finding. */
export function lintSarif(result: LintResult): { rules: SarifRule[]; results: SarifResult[] } {
  const codes = [...new Set(result.findings.map((l) => l.finding.code))].sort();
  return {
    rules: codes.map((id: FindingCode) => ({ id, name: id, shortDescription: { text: FINDING_CODES[id].summary }, defaultConfiguration: { level: SARIF_LEVEL[FINDING_CODES[id].severity] } })),
    results: result.findings.map((l) => ({
      ruleId: l.finding.code,
      level: SARIF_LEVEL[l.finding.severity],
      message: l.finding.message,
      file: l.file,
      region: { startLine: l.start.line + 1, startColumn: l.start.character + 1, endLine: l.end.line + 1, endColumn: l.end.character + 1 },
    })),
  };
}
