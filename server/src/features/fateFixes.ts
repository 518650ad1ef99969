/**
 * Code actions on fate diagnostics (fates.ts). Quick fixes that change the
 * outcome: where a later part replaces this value, or this part's value is
 * lost, the specs that keep both, each worked out by merging the set again
 * with it (engine/outcome/fixes.ts), the resulting value in the title. Applying
 * one edits the deciding part's spec, nothing else. And, on every fate, a
 * jump to the value in the merged preview of the set (a client command).
 */
import { CodeAction, CodeActionKind, Diagnostic, Range, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { keepBothOutcomes, decidingFile } from '../engine/outcome/fixes';
import { LineIndex } from '../engine/text/lineIndex';
import { ServerContext } from './common/context';
import { OpenSet, PartSets } from '../sets/partSets';
import { pathToFileURL } from 'node:url';
import { rangesTouch } from './common/ranges';
import { FateDiagnosticData, fatesIn } from './fates';

/** The client command that opens a set's preview at a path (client/src/preview/commands.ts). */
export const SHOW_IN_PREVIEW_COMMAND = 'cloudConfigMerge.showInPreview';

/** Most fixes offered per diagnostic. */
const MAX_FIXES = 3;

export function fateFixes(ctx: ServerContext, sets: PartSets, document: TextDocument, range: Range, diagnostics: Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const data = diagnostic.data as FateDiagnosticData | undefined;
    if (!data || !rangesTouch(diagnostic.range, range)) continue;
    if (data.kind !== 'replaced' && data.kind !== 'lost') {
      const analysis = sets.analysisByKey(data.set, document.uri, ctx.knownSettings(document.uri));
      if (analysis) actions.push(showInPreview(analysis.set, data.path, diagnostic));
      continue;
    }
    const analysis = sets.analysisByKey(data.set, document.uri, ctx.knownSettings(document.uri));
    if (!analysis) continue;
    actions.push(showInPreview(analysis.set, data.path, diagnostic));
    if (analysis.set.mode !== 'user-data' && analysis.set.mode !== 'confd') continue;
    const fate = fatesIn(analysis, document.uri).find((f) => f.kind === data.kind && f.path === data.path && f.at?.line === diagnostic.range.start.line && f.at?.character === diagnostic.range.start.character);
    const target = fate && decidingFile(fate);
    const uri = target && analysis.uriOf(target);
    if (!fate || !target || !uri) continue;
    const file = analysis.outcome.inputs.files.find((f) => f.name === target);
    if (!file) continue;
    const lines = new LineIndex(new TextDecoder().decode(file.bytes));
    for (const outcome of keepBothOutcomes(analysis.outcome, fate).slice(0, MAX_FIXES)) {
      const editRange = { start: lines.position(outcome.edit.span.start), end: lines.position(outcome.edit.span.end) };
      actions.push({
        title: `Keep both: merge_how '${outcome.spec}' in ${target} → ${fate.path}: ${outcome.display}`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        edit: { changes: { [uri]: [TextEdit.replace(editRange, outcome.edit.newText)] } },
      });
    }
  }
  return actions;
}

/** Opens the set's merged preview beside the editor, at the line of `path` (or its nearest parent). */
function showInPreview(set: OpenSet, path: string, diagnostic: Diagnostic): CodeAction {
  const uri = (f: string) => pathToFileURL(f).href;
  const boot: Record<string, string | string[]> = {};
  for (const role of ['vendor', 'vendor2', 'cloudCfg', 'dsConfig'] as const) if (set.boot[role]) boot[role] = uri(set.boot[role]);
  if (set.boot.confd) boot.confd = set.boot.confd.map(uri);
  const state = { mode: set.mode, files: set.files.map(uri), ...(Object.keys(boot).length ? { boot } : {}) };
  const title = path === '(root)' ? 'Show the merged preview of this set' : `Show \`${path}\` in the merged preview`;
  return { title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], command: { title, command: SHOW_IN_PREVIEW_COMMAND, arguments: [state, path] } };
}
