/**
 * How long the server waits after an edit before it analyses a document again.
 *
 * A fixed wait makes every single edit (a paste, a quick fix, a deleted line) pay for it. The wait
 * here follows the document instead, as VS Code's own feature debouncing does: after a pause in
 * editing it is what the recent analyses of the document took (cheap documents answer at once; an
 * edit that turns out to start a burst wastes at most one analysis); while someone types (edits
 * closer together than a pause) it is the longest wait, so that a typed word is analysed once, when
 * the typing stops, not at every key.
 */

/** The shortest wait: edits coming faster than this (key repeat, multi-cursor edits) are analysed together. */
export const MIN_QUIET_MS = 30;

/** The longest wait, used while someone types; was the fixed wait before it adapted. */
export const MAX_QUIET_MS = 150;

/**
 * Edits closer together than this are typing. Keystrokes of a typist are 100–300 ms apart; a user
 * who made one edit and waits for the result is slower than that.
 */
export const TYPING_GAP_MS = 300;

/** The weight of the newest analysis in the running estimate of what an analysis costs. */
const NEWEST_WEIGHT = 0.5;

/** The quiet time of one document: it learns what this document's analyses cost and how fast it is edited. */
export class QuietTime {
  private lastEditAt = Number.NEGATIVE_INFINITY;
  private analysisMillis: number | undefined;

  /** An analysis of the document took this long (the server's own work for one version). */
  noteAnalysis(millis: number): void {
    this.analysisMillis = this.analysisMillis === undefined ? millis : NEWEST_WEIGHT * millis + (1 - NEWEST_WEIGHT) * this.analysisMillis;
  }

  /** The document was edited at `now` (milliseconds, any monotonic clock): how long to wait before analysing it. */
  afterEdit(now: number): number {
    const sincePreviousEdit = now - this.lastEditAt;
    this.lastEditAt = now;
    if (sincePreviousEdit < TYPING_GAP_MS) return MAX_QUIET_MS;
    return this.afterPause();
  }

  /** The wait after a pause in editing; the longest one until an analysis has been measured. */
  afterPause(): number {
    if (this.analysisMillis === undefined) return MAX_QUIET_MS;
    return Math.min(MAX_QUIET_MS, Math.max(MIN_QUIET_MS, Math.ceil(this.analysisMillis)));
  }
}
