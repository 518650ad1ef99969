// An alias bomb's JSON form fails at once when writing out its shared references would pass maxExpandedNodes
// (it expanded millions of nodes first: the fuzzer's in-process-hang-fa1296f564, 3.5 s of CPU for
// `--format report`); repeatedNodes is exactly the count the conversion reaches.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PyDict, type PyValue } from '../../server/src/engine/py/values';
import { toJsonable } from '../../server/src/engine/py/json';
import { repeatedNodes } from '../../server/src/engine/py/jsonExpansion';
import { LimitExceededError } from '../../server/src/engine/limits';
import { loadYaml } from '../../server/src/engine/yaml/load';

/** A random value whose containers are shared: each new container takes children among scalars and older containers. */
function randomShared(seed: number): PyValue {
  let s = seed;
  const rand = (n: number) => ((s = (s * 1103515245 + 12345) & 0x7fffffff) % n);
  const pool: PyValue[] = [];
  const count = 2 + rand(12);
  for (let i = 0; i < count; i++) {
    const width = rand(5);
    const pick = (): PyValue => (pool.length && rand(3) ? pool[rand(pool.length)] : rand(2) ? `s${rand(9)}` : BigInt(rand(9)));
    if (rand(2)) pool.push(Array.from({ length: width }, pick));
    else {
      const d = new PyDict();
      for (let k = 0; k < width; k++) d.set(`k${k}`, pick());
      pool.push(d);
    }
  }
  return pool[pool.length - 1];
}

test('repeatedNodes is the count the conversion reaches, on 3,000 random shared values', () => {
  let shared = 0;
  for (let seed = 1; seed <= 3000; seed++) {
    const value = randomShared(seed);
    const n = repeatedNodes(value, Number.MAX_SAFE_INTEGER);
    assert.doesNotThrow(() => toJsonable(value, [], { maxNodes: n, measureFirst: false }), `seed ${seed}: ${n} nodes are enough`);
    if (n > 0) {
      shared++;
      assert.throws(() => toJsonable(value, [], { maxNodes: n - 1, measureFirst: false }), LimitExceededError, `seed ${seed}: ${n - 1} nodes are too few`);
      assert.throws(() => toJsonable(value, [], { maxNodes: n - 1 }), LimitExceededError);
    }
  }
  assert.ok(shared > 1000, `${shared} values share containers`);
});

test('an alias bomb over the limit fails at once, with the limit named', () => {
  const rows = ['b0: &b0 [xx]', 'b1: &b1 [*b0, *b0, *b0, *b0, *b0]'];
  for (let i = 2; i <= 9; i++) rows.push(`b${i}: &b${i} [${Array(7).fill(`*b${i - 1}`).join(', ')}]`);
  const loaded = loadYaml(rows.join('\n') + '\n');
  assert.ok(loaded.ok);
  const started = process.cpuUsage();
  assert.throws(() => toJsonable(loaded.value, [], { maxNodes: 5_000_000 }), /maxExpandedNodes = 5000000|5000000/);
  const used = process.cpuUsage(started);
  // (not a timing test: the expansion is over 40 million nodes; counting it is a walk of ten lists)
  assert.ok(repeatedNodes(loaded.value, Number.MAX_SAFE_INTEGER) > 40_000_000, `${used.user} µs`);
});

test('a bomb of 7^20 references under a limit of 10^13 fails without expanding it (it would never end)', { timeout: 20_000 }, () => {
  const rows = ['b0: &b0 [xx]'];
  for (let i = 1; i <= 20; i++) rows.push(`b${i}: &b${i} [${Array(7).fill(`*b${i - 1}`).join(', ')}]`);
  const loaded = loadYaml(rows.join('\n') + '\n', { maxMergedPairs: Number.MAX_SAFE_INTEGER });
  assert.ok(loaded.ok);
  assert.throws(() => toJsonable(loaded.value, [], { maxNodes: 1e13 }), LimitExceededError);
});

test('a value that contains itself is left to the conversion, which says so', () => {
  const list: PyValue[] = [];
  list.push(list);
  assert.equal(repeatedNodes(list, 10), 0);
  assert.throws(() => toJsonable(list), /contains itself/);
});
