/** Findings → LSP diagnostics, in one place so diagnostics and code actions agree exactly. */
import { Diagnostic, DiagnosticSeverity, DiagnosticTag, Range } from 'vscode-languageserver';
import { Finding, Severity } from '../../engine/findings/findings';
import { DocumentState } from './analysisCache';

export const DIAGNOSTIC_SOURCE = 'cloud-config-merge';

/** The editor's severity of a finding's severity. */
export const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function toDiagnostic(state: DocumentState, finding: Finding): Diagnostic {
  const diagnostic: Diagnostic = {
    range: state.range(finding.span),
    severity: SEVERITY[finding.severity],
    code: finding.code,
    source: DIAGNOSTIC_SOURCE,
    message: finding.message,
  };
  if (finding.unnecessary) diagnostic.tags = [DiagnosticTag.Unnecessary];
  if (finding.deprecated) diagnostic.tags = [...(diagnostic.tags ?? []), DiagnosticTag.Deprecated];
  return diagnostic;
}

export function sameRange(a: Range, b: Range): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}

/** Whether two ranges touch (an empty range at the edge of the other counts). */
export function rangesTouch(a: Range, b: Range): boolean {
  const before = (p: { line: number; character: number }, q: { line: number; character: number }) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}
