/**
 * The findings of the one check (engine/check/check.ts) as `--lint` writes them and `--check` adds them:
 * one line each (`FILE:LINE:COL: severity: message [code]`), or SARIF results at the editor's severity
 * (one rule per finding code).
 */
import type { CheckFinding } from '../check/check';
import { SARIF_LEVEL, type SarifResult, type SarifRule } from './sarif';
import { FINDING_CODES, type FindingCode } from '../findings/codes';

export function lintLines(findings: readonly CheckFinding[]): string[] {
  return findings.map((f) => `${f.file}:${f.start.line + 1}:${f.start.character + 1}: ${f.severity}: ${f.message} [${f.code}]`);
}

/** `N problems in M cloud-init files`, for `--lint`'s stderr, when some fail. */
export function lintSummary(failing: number, checked: number): string | undefined {
  if (!failing) return undefined;
  return `${failing} problem${failing === 1 ? '' : 's'} in ${checked} cloud-init file${checked === 1 ? '' : 's'}`;
}

/** `--check`'s text: the findings under a heading (nothing when there are none), and the line that says they fail it. */
export function lintSection(findings: readonly CheckFinding[], failing: number): { text: string; failure?: string } {
  if (!findings.length) return { text: '' };
  const text = `Lint findings (${findings.length}), as --lint and the editor give them:\n${lintLines(findings).join('\n')}\n`;
  return { text, ...(failing ? { failure: `Error: ${failing} lint finding(s) are errors or warnings\n` } : {}) };
}

/** One rule per code found (its summary, at its listed severity), one result per finding. */
export function lintSarif(findings: readonly CheckFinding[]): { rules: SarifRule[]; results: SarifResult[] } {
  const codes = [...new Set(findings.map((f) => f.code))].sort();
  return {
    rules: codes.map((id) => {
      const known = FINDING_CODES[id as FindingCode] as { summary: string; severity: keyof typeof SARIF_LEVEL } | undefined;
      return { id, name: id, shortDescription: { text: known?.summary ?? id }, defaultConfiguration: { level: SARIF_LEVEL[known?.severity ?? 'warning'] } };
    }),
    results: findings.map((f) => ({
      ruleId: f.code,
      level: SARIF_LEVEL[f.severity],
      message: f.message,
      file: f.file,
      region: { startLine: f.start.line + 1, startColumn: f.start.character + 1, endLine: f.end.line + 1, endColumn: f.end.character + 1 },
    })),
  };
}
