/**
 * Quick fixes on fate diagnostics (fates.ts) that change the outcome: where a
 * later part replaces this value, or this part's value is lost, the specs
 * that keep both, each worked out by merging the set again with it
 * (engine/fateFixes.ts), the resulting value in the title. Applying one
 * edits the deciding file's `merge_how` (or adds one), nothing else.
 */
import { CodeAction, CodeActionKind, Diagnostic, Range, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { keepBothOutcomes, decidingFile } from '../engine/fateFixes';
import { LineIndex } from '../engine/text/lineIndex';
import { ServerContext } from './common/context';
import { PartSets } from './common/partSets';
import { rangesTouch } from './common/ranges';
import { FateDiagnosticData, fatesIn } from './fates';

/** Most fixes offered per diagnostic. */
const MAX_FIXES = 3;

export function fateFixes(ctx: ServerContext, sets: PartSets, document: TextDocument, range: Range, diagnostics: Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of diagnostics) {
    const data = diagnostic.data as FateDiagnosticData | undefined;
    if (!data || (data.kind !== 'replaced' && data.kind !== 'lost') || !rangesTouch(diagnostic.range, range)) continue;
    const analysis = sets.analysisByKey(data.set, document.uri, ctx.knownSettings(document.uri));
    if (!analysis || (analysis.set.mode !== 'user-data' && analysis.set.mode !== 'confd')) continue;
    const mode = analysis.set.mode;
    const fate = fatesIn(analysis, document.uri).find((f) => f.kind === data.kind && f.path === data.path && f.at?.line === diagnostic.range.start.line && f.at?.character === diagnostic.range.start.character);
    const target = fate && decidingFile(fate);
    const uri = target && analysis.uriOf(target);
    if (!fate || !target || !uri) continue;
    const file = analysis.files.find((f) => f.name === target);
    if (!file) continue;
    const lines = new LineIndex(new TextDecoder().decode(file.bytes));
    for (const outcome of keepBothOutcomes(mode, analysis.files, fate, analysis.options).slice(0, MAX_FIXES)) {
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
