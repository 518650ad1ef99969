/**
 * Diagnostics in cloud-config-merge.yaml itself: what the set file parser
 * could not read (engine/sets/setFile.ts), names or globs that match no file, and
 * what a set cannot merge as written (a path outside the folder, a glob whose
 * listing stopped, more files than maxSetFiles: node/sets.ts), where written.
 * Only for the set file at a workspace folder's root, the one the server reads.
 */
import * as path from 'node:path';
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { SET_FILE_NAME, SetFileProblem, parseSetFile } from '../engine/sets/setFile';
import { ServerContext } from './common/context';
import { DIAGNOSTIC_SOURCE } from './common/ranges';
import { PartSets, filePath } from '../sets/partSets';
import type { ServerSettings } from './common/settings';

export function setFileDiagnostics(ctx: ServerContext, sets: PartSets, document: TextDocument, settings: ServerSettings): Diagnostic[] {
  const file = filePath(document.uri);
  if (!file || path.basename(file) !== SET_FILE_NAME) return [];
  const folder = ctx.workspaceFolders().find((f) => path.join(f, SET_FILE_NAME) === file);
  if (!folder) return [];
  const parsed = parseSetFile(document.getText());
  const range = (span: { start: number; end: number }) => ({ start: document.positionAt(span.start), end: document.positionAt(span.end) });
  const diagnostic = (p: SetFileProblem, code: string): Diagnostic => ({
    range: range(p.span),
    severity: p.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: DIAGNOSTIC_SOURCE,
    code,
    message: p.message,
  });
  const out = parsed.problems.map((p) => diagnostic(p, 'set-file'));
  for (const resolved of sets.resolveSets(folder, parsed, settings)) {
    for (const p of resolved.problems) out.push(diagnostic(p, 'set-file'));
    // On the name or glob as written (the set's name when its place is not known).
    resolved.unmatched.forEach((pattern, i) => out.push(diagnostic({ message: `set ${resolved.set.name}: no file matches ${pattern}`, severity: 'warning', span: resolved.unmatchedAt[i] ?? resolved.set.span }, 'set-file-unmatched')));
  }
  return out;
}
