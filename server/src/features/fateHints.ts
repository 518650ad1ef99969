/**
 * Inlay hints for the fates that are not problems: a list appended after (or
 * prepended before) another part's items says so at the end of its line,
 * naming that part. Only in files of a set (sets/partSets.ts); the hints
 * are asked again when another file of the set changes.
 */
import { InlayHint, InlayHintParams } from 'vscode-languageserver';
import { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { PartSets } from '../sets/partSets';
import { analysesFor, fatesIn } from './fates';
import { where } from '../engine/outcome/fates';

export function registerFateHints(ctx: ServerContext, sets: PartSets): void {
  ctx.connection.languages.inlayHint.on(guardRequest(ctx.log, 'inlayHint', (params: InlayHintParams) => fateHints(ctx, sets, params)));
}

export function fateHints(ctx: ServerContext, sets: PartSets, params: InlayHintParams): InlayHint[] {
  const document = ctx.documents.get(params.textDocument.uri);
  if (!document) return [];
  const hints: InlayHint[] = [];
  const { start, end } = params.range;
  for (const analysis of analysesFor(sets, document, ctx.knownSettings(document.uri))) {
    for (const fate of fatesIn(analysis, document.uri)) {
      if ((fate.kind !== 'appended' && fate.kind !== 'prepended') || !fate.at) continue;
      const line = fate.at.line;
      if (line < start.line || line > end.line) continue;
      const text = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
      hints.push({
        position: { line, character: text.length },
        label: `${fate.kind} ${fate.kind === 'appended' ? 'after' : 'before'} ${where(fate.by)}`,
        tooltip: fate.message,
        paddingLeft: true,
      });
    }
  }
  return hints;
}
