/** What the linters report: transport-free, with spans and ready-made fixes. */
import { TextSpan } from '../values';

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
  /** Stable identifier (the diagnostic code). */
  code: string;
  severity: Severity;
  span: TextSpan;
  message: string;
  fixes?: Fix[];
  /** The finding marks text that has no effect (rendered faded). */
  unnecessary?: boolean;
}

/** Levenshtein distance, for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const current = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = current;
    }
  }
  return row[b.length];
}

/** The closest candidate within a small distance (or sharing a prefix), if any. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.min(3, Math.floor(best.length / 3)));
  if (bestDistance <= allowed) return best;
  const prefix = candidates.find((c) => word.length >= 3 && (c.startsWith(word) || word.startsWith(c)));
  return prefix;
}
