/** What the linters report: transport-free, with spans and ready-made fixes. */
import { TextSpan } from '../py/values';
import { LineIndex } from '../text/lineIndex';
import type { FindingCode } from './codes';

export type Severity = 'error' | 'warning' | 'info' | 'hint';

export interface TextEdit {
  span: TextSpan;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  preferred?: boolean;
}

export interface Finding {
  /** Stable identifier (the diagnostic code), from lint/codes.ts. */
  code: FindingCode;
  severity: Severity;
  span: TextSpan;
  message: string;
  fixes?: Fix[];
  /** The finding marks text that has no effect (rendered faded). */
  unnecessary?: boolean;
  /** The finding marks a deprecated key or value (rendered struck through). */
  deprecated?: boolean;
}

/** Edit distance where swapping two neighbours counts as one edit (optimal string alignment): `lsit` is one from `list`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push(new Array<number>(b.length + 1).fill(0));
    rows[i][0] = i;
  }
  for (let j = 0; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      rows[i][j] = d;
    }
  }
  return rows[a.length][b.length];
}

/** The closest candidate within a small distance (or sharing a prefix), if any. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    // The distance is at least the difference in length, and only 3 or less is ever accepted: a
    // 200 KB "option" (a quote left open over the rest of the file) is not compared letter by letter.
    if (Math.abs(word.length - c.length) > 3) continue;
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.min(3, Math.floor(best.length / 3)))) return best;
  const prefix = candidates.find((c) => word.length >= 3 && (c.startsWith(word) || word.startsWith(c)));
  return prefix;
}

/**
 * A finding about text whose positions are not the document's (a MIME part's decoded body, an archive entry's
 * folded content), shown on `anchor` (the part's header, the entry's key), naming its line and column in that
 * text and why it is not shown there; without edits or tags, which would apply to the anchor.
 */
export function shownElsewhere(f: Finding, anchor: TextSpan, inside: { lines: LineIndex; label: string; why: string }): Finding {
  const at = inside.lines.position(f.span.start);
  return { code: f.code, severity: f.severity, span: anchor, message: `${f.message} (line ${at.line + 1}, column ${at.character + 1} of ${inside.label}, not shown in place: ${inside.why})` };
}
