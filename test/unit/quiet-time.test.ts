// The wait before diagnostics after an edit: short after a pause (what the document's analyses
// took), the longest while someone types, so a typed word is analysed once.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_QUIET_MS, MIN_QUIET_MS, QuietTime, TYPING_GAP_MS } from '../../server/src/features/common/quietTime';

/** Keystrokes `gap` ms apart from `start`: the wait chosen after each. */
function typeKeys(quiet: QuietTime, start: number, keys: number, gap: number): number[] {
  const waits: number[] = [];
  for (let key = 0; key < keys; key++) waits.push(quiet.afterEdit(start + key * gap));
  return waits;
}

/** The times at which analyses run for edits at `edits`, given the wait chosen after each edit. */
function analysesFor(edits: number[], waits: number[]): number[] {
  const runs: number[] = [];
  edits.forEach((at, i) => {
    const due = at + waits[i];
    if (i === edits.length - 1 || edits[i + 1] >= due) runs.push(due);
  });
  return runs;
}

describe('QuietTime', () => {
  test('before any analysis was measured, an edit waits the longest', () => {
    assert.equal(new QuietTime().afterEdit(10_000), MAX_QUIET_MS);
  });

  test('a single edit after a pause waits as long as the recent analyses took', () => {
    const quiet = new QuietTime();
    quiet.noteAnalysis(40);
    assert.equal(quiet.afterEdit(10_000), 40);
  });

  test('the wait stays between its bounds', () => {
    const cheap = new QuietTime();
    cheap.noteAnalysis(1);
    assert.equal(cheap.afterEdit(10_000), MIN_QUIET_MS);
    const costly = new QuietTime();
    costly.noteAnalysis(900);
    assert.equal(costly.afterEdit(10_000), MAX_QUIET_MS);
  });

  test('the analysis cost is a running estimate: one slow analysis does not set the wait alone', () => {
    const quiet = new QuietTime();
    quiet.noteAnalysis(40);
    quiet.noteAnalysis(120);
    assert.equal(quiet.afterPause(), 80);
    quiet.noteAnalysis(40);
    assert.equal(quiet.afterPause(), 60);
  });

  test('typing waits the longest after every key but the first', () => {
    const quiet = new QuietTime();
    quiet.noteAnalysis(5);
    const waits = typeKeys(quiet, 10_000, 6, 120);
    assert.deepEqual(waits, [MIN_QUIET_MS, ...Array(5).fill(MAX_QUIET_MS)]);
  });

  test('a typed word is analysed twice (after its first key and when the typing stops), not at every key', () => {
    for (const gap of [60, 100, 140]) {
      const quiet = new QuietTime();
      quiet.noteAnalysis(5);
      const edits = Array.from({ length: 8 }, (_, key) => 10_000 + key * gap);
      const runs = analysesFor(edits, typeKeys(quiet, 10_000, 8, gap));
      assert.deepEqual(runs, [10_000 + MIN_QUIET_MS, edits[7] + MAX_QUIET_MS], `keys ${gap} ms apart`);
    }
  });

  test('edits a pause apart each get the short wait', () => {
    const quiet = new QuietTime();
    quiet.noteAnalysis(50);
    assert.deepEqual(typeKeys(quiet, 10_000, 3, TYPING_GAP_MS), [50, 50, 50]);
  });
});
