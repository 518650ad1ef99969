/**
 * Quick fixes of the boot plan's pitfalls (planDiagnostics.ts): the insertion the pitfall carries
 * (`defer: true` on a write_files entry, `- default` in users), in the document the diagnostic is on.
 */
import { CodeAction, CodeActionKind, Diagnostic, Range, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { rangesTouch } from './common/ranges';
import type { PlanDiagnosticData } from './planDiagnostics';

export function planFixes(document: TextDocument, range: Range, diagnostics: Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const fix = (diagnostic.data as PlanDiagnosticData | undefined)?.planFix;
    if (!fix || typeof fix.text !== 'string' || !rangesTouch(diagnostic.range, range)) continue;
    const at = { line: fix.at.line, character: fix.at.character };
    actions.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: true, edit: { changes: { [document.uri]: [TextEdit.insert(at, fix.text)] } } });
  }
  return actions;
}
