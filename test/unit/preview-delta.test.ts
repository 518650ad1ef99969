// The preview's incremental answer (issue 44): the hunks between two sequences, applied, give the second;
// a few changes in a long sequence are a few small hunks.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { applyLineSplices, applySplices, diffLines, diffSequences, Hunk } from '../../server/src/previewDelta';

function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function apply(a: string[], b: string[], hunks: Hunk[]): string[] {
  return applySplices(
    a,
    hunks.map((h) => ({ at: h.at, remove: h.remove, insert: b.slice(h.from, h.from + h.count) })),
  );
}

describe('the differences of two sequences', () => {
  test('applied, they give the new sequence: 5,000 random pairs, few and many edits', () => {
    const random = seeded(7);
    for (let round = 0; round < 5000; round++) {
      const alphabet = 1 + Math.floor(random() * 6);
      const a = Array.from({ length: Math.floor(random() * 40) }, () => String(Math.floor(random() * alphabet)));
      const b = a.slice();
      const edits = Math.floor(random() * 12);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * (b.length + 1));
        if (random() < 0.5 && b.length) b.splice(Math.min(at, b.length - 1), 1);
        else b.splice(at, 0, String(Math.floor(random() * alphabet)));
      }
      // A small bound on the edits too: past it the middle is one hunk, still right.
      for (const max of [400, 3]) {
        const hunks = diffSequences(a.length, b.length, (i, j) => a[i] === b[j], max);
        assert.deepEqual(apply(a, b, hunks), b, `round ${round}: ${a.join('')} → ${b.join('')} (max ${max})`);
        for (let i = 1; i < hunks.length; i++) assert.ok(hunks[i].at >= hunks[i - 1].at + hunks[i - 1].remove, 'in order, not overlapping');
      }
    }
  });

  test('two edits far apart in 20,000 lines are two hunks of one line each', () => {
    const a = Array.from({ length: 20_000 }, (_, i) => `  - item ${i}`);
    const b = a.slice();
    b[100] += 'x';
    b.splice(15_000, 0, '  - new');
    const hunks = diffSequences(a.length, b.length, (i, j) => a[i] === b[j]);
    assert.deepEqual(hunks, [
      { at: 100, remove: 1, from: 100, count: 1 },
      { at: 15_000, remove: 0, from: 15_000, count: 1 },
    ]);
  });

  test('no change is no hunk; a sequence emptied is one', () => {
    assert.deepEqual(diffSequences(3, 3, () => true), []);
    assert.deepEqual(diffSequences(3, 0, () => false), [{ at: 0, remove: 3, from: 0, count: 0 }]);
  });

  test('line changes of two texts, applied to the first, give the second: 5,000 random pairs', () => {
    const random = seeded(11);
    const pieces = ['a', 'b', '', '\n', '\n\n', 'ab\n', 'x'];
    const text = (pieces_: number) => Array.from({ length: Math.floor(random() * pieces_) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
    for (let round = 0; round < 5000; round++) {
      // Every tenth text is long: the common head and tail are compared in blocks of 4,096, 256 and 16 characters first.
      const old = text(round % 10 ? 12 : 4000);
      let now = old;
      for (let e = Math.floor(random() * 4); e > 0; e--) {
        const at = Math.floor(random() * (now.length + 1));
        const cut = Math.floor(random() * 3);
        now = now.slice(0, at) + (random() < 0.6 ? pieces[Math.floor(random() * pieces.length)] : '') + now.slice(at + cut);
      }
      const splices = diffLines(old, now);
      assert.deepEqual(applySplices(old.split('\n'), splices), now.split('\n'), `lines of ${JSON.stringify(old)} → ${JSON.stringify(now)}`);
      assert.equal(applyLineSplices(old, splices), now, `${JSON.stringify(old)} → ${JSON.stringify(now)}: ${JSON.stringify(splices)}`);
    }
  });

  test('a one-character edit of a long text is one line', () => {
    const old = Array.from({ length: 14_000 }, (_, i) => `key${i}: value ${i}`).join('\n') + '\n';
    const now = old.replace('key7000: value 7000', 'key7000: value 7000x');
    assert.deepEqual(diffLines(old, now), [{ at: 7000, remove: 1, insert: ['key7000: value 7000x'] }]);
    assert.equal(applyLineSplices(old, diffLines(old, now)), now);
    assert.throws(() => applyLineSplices('one line', [{ at: 3, remove: 0, insert: ['x'] }]), /does not fit/);
  });

  test('a splice that does not fit the held sequence is refused', () => {
    assert.throws(() => applySplices(['a'], [{ at: 1, remove: 1, insert: [] }]), /does not fit/);
  });
});
