/**
 * The preview checks the merged result against the schema after every edit, walking again only the
 * top-level keys whose text changed (TopLevelMemo, server/src/engine/schema/topLevelMemo.ts). Held here
 * to the check without the memo, problem for problem (path, message, keyword, alternatives, unknown
 * keys), over sequences of edits of generated documents, valid and not, on three versions.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { runUserData } from '../../server/src/engine/userdata/run';
import { readBackOf, validateMergedText } from '../../server/src/engine/outcome/mergedSchema';
import { validateCloudConfigText, type SchemaProblem } from '../../server/src/engine/schema/validate';
import { MAX_KEPT_ERRORS, TopLevelMemo } from '../../server/src/engine/schema/topLevelMemo';
import { schemaData, type SchemaVersion } from '../../server/src/engine/schema/data';
import { Rng } from '../oracle/generate';
import { Gen, render } from '../oracle/schema.diff';

const problems = (list: readonly SchemaProblem[]) => JSON.stringify(list, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));

/** One edit a user makes between two refreshes: a key's value changed, a key added or removed, or nothing. */
function edit(doc: Record<string, unknown>, gen: Gen, r: Rng): void {
  const keys = Object.keys(doc);
  const top = gen.topLevel();
  const op = r.int(10);
  if (op < 5 && keys.length) {
    const key = r.pick(keys);
    const schema = top.find(([k]) => k === key)?.[1];
    doc[key] = gen.value(schema, 0);
  } else if (op < 7 || !keys.length) {
    const [k, schema] = r.pick(top);
    doc[k] = gen.value(schema, 0);
  } else if (op < 9) delete doc[r.pick(keys)];
}

function check(version: SchemaVersion, seed: number, steps: number, maxProblems?: number): number {
  const r = new Rng(seed);
  const gen = new Gen(r, schemaData(version).schema);
  const memo = new TopLevelMemo();
  const doc: Record<string, unknown> = { ...gen.document(), ...gen.document(), ...gen.document() };
  for (let step = 0; step < steps; step++) {
    edit(doc, gen, r);
    const run = runUserData([{ name: 'a.yaml', bytes: Buffer.from(render(doc, r)) }], { version, withLines: true });
    if (!run.cloudConfigTxt) continue;
    const loaded = readBackOf(run);
    assert.ok(loaded?.topLevelText, 'the merged result reads back with its top-level texts');
    const fast = validateMergedText(run.cloudConfigTxt, version, maxProblems, loaded, memo);
    const slow = validateCloudConfigText(run.cloudConfigTxt, version, { spans: false, maxProblems });
    assert.equal(fast.valid, slow.valid, run.cloudConfigTxt);
    assert.equal(problems(fast.errors), problems(slow.errors), run.cloudConfigTxt);
    assert.equal(problems(fast.deprecations), problems(slow.deprecations), run.cloudConfigTxt);
    assert.equal(fast.truncated, slow.truncated);
  }
  return memo.hits;
}

describe('the merged result checked again after an edit', () => {
  for (const version of ['22.4', '23.4', 'current'] as const) {
    it(`reports what a check from scratch reports, edit after edit (${version})`, () => {
      let hits = 0;
      for (let seed = 1; seed <= 12; seed++) hits += check(version, seed * 7919 + version.length, 25);
      assert.ok(hits > 100, `the unchanged keys were not walked again (${hits} walks saved)`);
    });
  }

  it('stops at the same problem as a check from scratch when the editor bounds them', () => {
    for (let seed = 1; seed <= 8; seed++) check('current', seed, 20, 2);
  });

  it('a key with more errors than it keeps is walked as the editor asks, not kept', () => {
    // runcmd with thousands of items that all fail: the editor stops at its bound of problems.
    const items = Array.from({ length: 4 * MAX_KEPT_ERRORS }, (_, i) => `  - {a: ${i}}`).join('\n');
    const run = runUserData([{ name: 'a.yaml', bytes: Buffer.from(`#cloud-config\nruncmd:\n${items}\n`) }], { version: 'current', withLines: true });
    const memo = new TopLevelMemo();
    for (let i = 0; i < 2; i++) {
      const fast = validateMergedText(run.cloudConfigTxt, 'current', 50, readBackOf(run), memo);
      const slow = validateCloudConfigText(run.cloudConfigTxt, 'current', { spans: false, maxProblems: 50 });
      assert.equal(problems(fast.errors), problems(slow.errors));
      assert.equal(fast.truncated, true);
    }
    assert.equal(memo.hits, 0, 'runcmd was not kept');
  });
});
