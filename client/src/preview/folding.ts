/**
 * The folds of a preview, from what the server answered: the header's sections (the parts, notes, what
 * the merge lost, the schema, problems), as the server wrote them, and the merged data's keys and items.
 * A folding provider replaces the editor's indentation folding, so the data's folds come from the server
 * too (it knows which key each line belongs to; a list under a key is not indented in cloud-init's YAML).
 * No `vscode` import: unit-tested in node.
 */
import type { PreviewHeaderSection, PreviewResult } from '../../../server/src/protocol';

export interface PreviewFold {
  /** 0-based first and last lines of the shown text. */
  start: number;
  end: number;
  /** The header section it is, for a fold of the header. */
  section?: PreviewHeaderSection['kind'];
}

/**
 * The folds of a preview as shown: `lineShift` lines up for a data-only view (which has no header),
 * only folds of more than one line that lie inside the text's `lineCount` lines.
 */
export function previewFolds(result: Pick<PreviewResult, 'headerSections' | 'dataFolds'> & { lineShift?: number }, lineCount: number): PreviewFold[] {
  const shift = result.lineShift ?? 0;
  const folds: PreviewFold[] = [];
  if (!shift) for (const s of result.headerSections ?? []) folds.push({ start: s.line, end: s.endLine, section: s.kind });
  const data = result.dataFolds ?? [];
  // A data-only view keeps its title line: data lines move up to line 1 and below.
  for (let i = 0; i + 1 < data.length; i += 2) folds.push({ start: data[i] - shift, end: data[i + 1] - shift });
  return folds.filter((f) => Number.isInteger(f.start) && Number.isInteger(f.end) && f.start >= (shift ? 1 : 0) && f.end > f.start && f.end < lineCount);
}
