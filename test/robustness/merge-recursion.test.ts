// Deeply nested values merged recursively: cloud-init's mergers recurse (5 Python frames a
// mapping level, 4 a list level) and raise RecursionError near Python's limit; ours stop at the
// same depth with the same PyError instead of overflowing the JavaScript stack (RangeError).
// Boundaries measured with the oracle (README.md, "Where cloud-init itself fails").
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PyDict, PyValue } from '../../server/src/engine/py/values';
import { PyError } from '../../server/src/engine/py/errors';
import { PYTHON_RECURSION } from '../../server/src/engine/limits';
import { parseStringSpec } from '../../server/src/engine/spec/parse';
import { constructMergers } from '../../server/src/engine/merge/construct';
import { mergeMany } from '../../server/src/engine/system/mergemany';
import { runUserData } from '../../server/src/engine/userdata/run';

/** {a: {a: ... [[ ... leaf ]] }} with `dicts` mappings (the root counts) and `lists` lists inside. */
function nested(dicts: number, lists: number, leaf: PyValue): PyDict {
  let v: PyValue = leaf;
  for (let i = 0; i < lists; i++) v = [v];
  for (let i = 0; i < dicts; i++) v = PyDict.from([['a', v]]);
  return v as PyDict;
}

const RECURSIVE_SPEC = 'dict(no_replace,recurse_list)+list(recurse_list)+str()';

function mergeWith(spec: string, a: PyValue, b: PyValue, frames?: number): PyValue {
  return constructMergers(parseStringSpec(spec).mergers, { pythonFrames: frames }).merge(a, b);
}

function recursionError(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (e instanceof PyError && e.pyType === 'RecursionError') return true;
    throw e;
  }
}

describe('merges of deeply nested values', () => {
  test('the part handler: ok up to 987 Python frames (197 mappings; 195 mappings + 3 lists), RecursionError beyond', () => {
    assert.equal(PYTHON_RECURSION.mergeFramesPart, 987);
    assert.ok(!recursionError(() => mergeWith(RECURSIVE_SPEC, nested(197, 0, 1n), nested(197, 0, 2n))));
    assert.ok(recursionError(() => mergeWith(RECURSIVE_SPEC, nested(198, 0, 1n), nested(198, 0, 2n))));
    assert.ok(!recursionError(() => mergeWith(RECURSIVE_SPEC, nested(195, 3, 1n), nested(195, 3, 2n))));
    assert.ok(recursionError(() => mergeWith(RECURSIVE_SPEC, nested(196, 2, 1n), nested(196, 2, 2n))));
  });

  test('util.mergemanydict (system mode): 995 frames, and 993 inside read_conf_d', () => {
    const many = (d: number, l: number, frames?: number) => () => mergeMany([nested(d, l, 1n), withSpec(nested(d, l, 2n))], frames ? { pythonFrames: frames } : {});
    const withSpec = (v: PyDict) => {
      v.set('merge_how', RECURSIVE_SPEC);
      return v;
    };
    assert.ok(!recursionError(many(199, 0)));
    assert.ok(recursionError(many(196, 4)));
    assert.ok(!recursionError(many(197, 2, PYTHON_RECURSION.mergeFramesConfD)));
    assert.ok(recursionError(many(198, 1, PYTHON_RECURSION.mergeFramesConfD)));
  });

  test('10,000 levels: a RecursionError, never a JavaScript stack overflow', () => {
    for (const spec of [RECURSIVE_SPEC, 'list(append)+dict(no_replace,recurse_array)+str(append)', 'dict(no_replace,recurse_str)+str(append)']) {
      const a = nested(10_000, 0, 'x');
      const b = nested(10_000, 0, 'y');
      assert.ok(recursionError(() => mergeWith(spec, a, b)), spec);
    }
    // Lists recurse index-wise with list(recurse_list); list(append) just concatenates (no recursion).
    assert.ok(recursionError(() => mergeWith(RECURSIVE_SPEC, nested(1, 10_000, 'x'), nested(1, 10_000, 'y'))));
    assert.ok(!recursionError(() => mergeWith('list(append)+dict(no_replace,recurse_list)', nested(1, 10_000, 'x'), nested(1, 10_000, 'y'))));
  });

  test('the merger is usable again after a RecursionError (its frame count is unwound)', () => {
    const root = constructMergers(parseStringSpec(RECURSIVE_SPEC).mergers);
    assert.throws(() => root.merge(nested(400, 0, 1n), nested(400, 0, 2n)), (e: unknown) => e instanceof PyError && e.pyType === 'RecursionError');
    const merged = root.merge(nested(3, 0, 1n), nested(3, 0, 2n));
    assert.ok(merged instanceof PyDict);
  });

  test('user-data: the part that cannot be merged is skipped with cloud-init\'s warning, the others stay', () => {
    const deep = (v: number) => `#cloud-config\nmerge_how: "${RECURSIVE_SPEC}"\na: ${'{a: '.repeat(299)}${v}${'}'.repeat(299)}\n`;
    const run = runUserData([
      { name: 'one', bytes: Buffer.from(deep(1)) },
      { name: 'two', bytes: Buffer.from(deep(2) + 'z: 1\n') },
    ]);
    assert.deepEqual(run.reports.map((r) => r.disposition), ['merged', 'failed']);
    assert.equal(run.reports[1].handled?.error?.pyType, 'RecursionError');
    assert.ok(run.messages.some((m) => m.message === 'Failed at merging in cloud config part from part-002'));
    assert.match(run.cloudConfigTxt, /# from 1 files/);
  });
});
