/**
 * Diagnostics in cloud-config-merge.yaml itself: what the set file parser
 * could not read (engine/sets.ts), and names or globs that match no file.
 * Only for the set file at a workspace folder's root, the one the server reads.
 */
import * as path from 'node:path';
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SET_FILE_NAME, parseSetFile } from '../engine/sets';
import { resolveSet } from '../node/sets';
import { ServerContext } from './common/context';
import { DIAGNOSTIC_SOURCE } from './common/ranges';
import { filePath } from './common/partSets';

export function setFileDiagnostics(ctx: ServerContext, document: TextDocument): Diagnostic[] {
  const file = filePath(document.uri);
  if (!file || path.basename(file) !== SET_FILE_NAME) return [];
  const folder = ctx.workspaceFolders().find((f) => path.join(f, SET_FILE_NAME) === file);
  if (!folder) return [];
  const parsed = parseSetFile(document.getText());
  const range = (span: { start: number; end: number }) => ({ start: document.positionAt(span.start), end: document.positionAt(span.end) });
  const out: Diagnostic[] = parsed.problems.map((p) => ({
    range: range(p.span),
    severity: p.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: DIAGNOSTIC_SOURCE,
    code: 'set-file',
    message: p.message,
  }));
  for (const set of parsed.sets) {
    const { unmatched } = resolveSet(folder, set);
    for (const pattern of unmatched) {
      out.push({ range: range(set.span), severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code: 'set-file-unmatched', message: `set ${set.name}: no file matches ${pattern}` });
    }
  }
  return out;
}
