// Chef mode's array union with `!merge:` knockouts. It used to filter the whole array and rebuild
// the set of item identities for every knockout: 200,000 knockouts against a 200,000-item array
// did not finish in 5 minutes. The linear version must give exactly what the old one gave (the
// reference below is the old algorithm, kept as the obviously-correct model) and finish within a
// CPU budget the quadratic one clearly misses.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { KNOCKOUT_PREFIX, ChefNotice, chefDeepMerge } from '../../server/src/engine/chef/deepMerge';
import { Origin, PyDict, PyValue, getListOrigins, keyIdentity, pyTypeName, setListOrigins } from '../../server/src/engine/py/values';
import { canon } from '../support/py';
import { runCliChild, tempDir } from '../robustness/harness';

/* ------------------------------------------------------------------ the reference (the old, quadratic algorithm) */

function identity(value: PyValue): string {
  if (Array.isArray(value)) return `[${value.map(identity).join(',')}]`;
  if (value instanceof PyDict) return `{${value.entries().map(([k, v]) => `${pyTypeName(k)}:${keyIdentity(k)}:${identity(v)}`).join(',')}}`;
  return `${pyTypeName(value)}:${value === null ? '' : keyIdentityOrString(value)}`;
}

function keyIdentityOrString(value: PyValue): string {
  try {
    return keyIdentity(value);
  } catch {
    return String(value);
  }
}

function referenceMergeArrays(dest: PyValue[], source: PyValue[], notices: ChefNotice[], path: Array<string | number>): PyValue[] {
  const destOrigins = getListOrigins(dest) ?? dest.map(() => undefined);
  const sourceOrigins = getListOrigins(source) ?? source.map(() => undefined);
  let items = dest.map((value, i) => ({ value, origin: destOrigins[i] }));
  const seen = () => new Set(items.map((i) => identity(i.value)));
  let present = seen();
  source.forEach((value, i) => {
    const origin = sourceOrigins[i];
    if (typeof value === 'string' && value.startsWith(KNOCKOUT_PREFIX)) {
      const target = value.slice(KNOCKOUT_PREFIX.length);
      if (target === '') {
        items = [];
        present = new Set();
        return;
      }
      const before = items.length;
      items = items.filter((item) => !(typeof item.value === 'string' && item.value === target));
      if (items.length === before) {
        const numeric = items.some((item) => (typeof item.value === 'bigint' || typeof item.value === 'number') && String(item.value) === target);
        notices.push(
          numeric
            ? { kind: 'knockout-number', message: `'${value}' matches only the string '${target}', not the number ${target}: a number can only be removed by clearing the whole array with '${KNOCKOUT_PREFIX}'.`, origin, path: [...path, i] }
            : { kind: 'knockout-no-match', message: `'${value}' removes nothing: no earlier item is the string '${target}'.`, origin, path: [...path, i] },
        );
      }
      present = seen();
      return;
    }
    const id = identity(value);
    if (present.has(id)) return;
    present.add(id);
    items.push({ value, origin });
  });
  const result = items.map((i) => i.value);
  setListOrigins(result, items.map((i) => i.origin));
  return result;
}

/* ------------------------------------------------------------------ random inputs */

/** A small deterministic generator (mulberry32), so a failure names its seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let nextSpan = 0;

function randomArray(r: () => number, source: number, depth: number): PyValue[] {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const words = ['a', 'b', 'c', '1', '2', ''];
  const items: PyValue[] = [];
  const n = Math.floor(r() * 7);
  for (let i = 0; i < n; i++) {
    const roll = r();
    if (roll < 0.3) items.push(pick(words));
    else if (roll < 0.55) items.push(KNOCKOUT_PREFIX + pick(words));
    else if (roll < 0.7) items.push(BigInt(pick([1, 2, 3])));
    else if (roll < 0.75) items.push(pick([1.5, 2.0]));
    else if (roll < 0.8) items.push(pick([null, true, false]));
    else if (roll < 0.9 && depth < 2) items.push(randomArray(r, source, depth + 1));
    else items.push(PyDict.from([[pick(['k', 'j']), pick(words)]]));
  }
  const origins: Array<Origin | undefined> = items.map(() => (r() < 0.8 ? { source, value: { start: nextSpan, end: ++nextSpan } } : undefined));
  setListOrigins(items, origins);
  return items;
}

describe('chef knockouts', () => {
  test('the linear union gives what the old algorithm gave: items, their origins and the notices (2,000 random pairs)', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const r = rng(seed);
      const dest = randomArray(r, 0, 0);
      const source = randomArray(r, 1, 0);
      const expectedNotices: ChefNotice[] = [];
      const expected = referenceMergeArrays(dest, source, expectedNotices, ['p']);
      const notices: ChefNotice[] = [];
      const actual = chefDeepMerge(dest, source, notices, ['p']) as PyValue[];
      const context = `seed ${seed}: ${canon(dest)} + ${canon(source)}`;
      assert.equal(canon(actual), canon(expected), context);
      assert.deepEqual(getListOrigins(actual), getListOrigins(expected), `${context}: origins`);
      assert.deepEqual(notices, expectedNotices, `${context}: notices`);
    }
  });

  describe('200,000 knockouts against a 200,000-item array (--mode chef)', () => {
    let dir: string;
    let cleanup: () => void;
    before(() => ({ dir, cleanup } = tempDir()));
    after(() => cleanup());

    test('finish within a CPU budget, removing what they name', async () => {
      const n = 200_000;
      const items = Array.from({ length: n }, (_, i) => `pkg-${i}`);
      // Every knockout but the last removes one item (in reverse order, so each removal is far from the
      // front); the last names an item that is not there.
      const knockouts = items.slice(1).reverse().map((item) => KNOCKOUT_PREFIX + item);
      knockouts.push(`${KNOCKOUT_PREFIX}missing`);
      const role = path.join(dir, 'role.json');
      const environment = path.join(dir, 'environment.json');
      writeFileSync(role, JSON.stringify({ chef_type: 'role', default_attributes: { packages: items } }));
      writeFileSync(environment, JSON.stringify({ chef_type: 'environment', default_attributes: { packages: [...knockouts, 'added'] } }));
      // Linear: about 2 s of CPU on a slow machine; the quadratic version needed minutes.
      const run = await runCliChild(['--mode', 'chef', '--format', 'json', role, environment], { cpuBudgetMs: 30_000, maxStdout: 1 << 20 });
      assert.equal(run.timedOut, false, `killed after ${run.cpuMs} ms of CPU`);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(JSON.parse(run.stdout), { packages: ['pkg-0', 'added'] });
      assert.match(run.stderr, /'!merge:missing' removes nothing/);
    });
  });
});
