/**
 * The merged cloud-config.txt read back without parsing it (server/src/engine/yaml/readBack.ts): wherever
 * the read-back is given, it is exactly what loading the dump gives (types, values, key order), and the
 * schema check of the merged result says the same with it as by parsing the text.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readBack, MAX_READ_BACK_DEPTH } from '../../server/src/engine/yaml/readBack';
import { dumpPyYaml } from '../../server/src/engine/yaml/dump';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { PyBytes, PyDict, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';
import { runUserData } from '../../server/src/engine/userdata/run';
import { readBackOf, validateMergedText } from '../../server/src/engine/outcome/mergedSchema';
import { Rng } from '../oracle/generate';
import { ValueGenerator, randomScalar, randomString } from '../support/randomPyValues';

/** Same Python value: same types (int, float, bool), same floats (NaN, -0.0), same key order. */
function sameValue(a: PyValue, b: PyValue, path = '$'): void {
  if (a instanceof PyDict || b instanceof PyDict) {
    assert.ok(a instanceof PyDict && b instanceof PyDict, `${path}: a dict and a ${typeof b}`);
    const ea = a.entryList();
    const eb = b.entryList();
    assert.deepEqual(ea.map((e) => e.key), eb.map((e) => e.key), `${path}: keys`);
    ea.forEach((e, i) => sameValue(e.value, eb[i].value, `${path}.${String(e.key)}`));
    return;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    assert.ok(Array.isArray(a) && Array.isArray(b), `${path}: a list and something else`);
    assert.equal(a.length, b.length, `${path}: length`);
    a.forEach((x, i) => sameValue(x, b[i], `${path}[${i}]`));
    return;
  }
  assert.equal(typeof a, typeof b, `${path}: type`);
  assert.ok(Object.is(a, b), `${path}: ${String(a)} vs ${String(b)}`);
}

/** Values of the types the merge produces, with the strings that decide a scalar's style. */
function plainValue(rng: Rng, depth: number): PyValue {
  if (depth <= 0 || rng.chance(0.35)) {
    const s = randomScalar(rng);
    return s instanceof PyBytes || s instanceof PyTimestamp ? randomString(rng) : s;
  }
  if (rng.chance(0.4)) return Array.from({ length: rng.int(5) }, () => plainValue(rng, depth - 1));
  const d = new PyDict();
  const n = rng.chance(0.05) ? 40 + rng.int(40) : rng.int(6);
  for (let i = 0; i < n; i++) d.set(randomString(rng), plainValue(rng, depth - 1));
  return d;
}

function loadedDump(value: PyValue): PyValue {
  const loaded = loadYaml(dumpPyYaml(value), { originKeys: [] });
  assert.ok(loaded.ok, 'the dump loads');
  return loaded.value;
}

describe('reading cloud-config.txt back without parsing it', () => {
  it('gives what loading the dump gives, on 3,000 values of the merge result types', () => {
    const rng = new Rng(20261127);
    for (let i = 0; i < 3000; i++) {
      const value = plainValue(rng, 5);
      const back = readBack(value);
      assert.notEqual(back, undefined, 'every such value is read back');
      sameValue(back as PyValue, loadedDump(value));
    }
  });

  it('gives what loading the dump gives whenever it gives anything, on 2,000 values of every type', () => {
    const rng = new Rng(7);
    let given = 0;
    for (let i = 0; i < 2000; i++) {
      const value = new ValueGenerator(rng).value(4);
      const back = readBack(value);
      if (back === undefined) continue;
      given++;
      sameValue(back, loadedDump(value));
    }
    assert.ok(given > 200, `${given} read back`);
  });

  it('leaves to the parser what the dump writes with anchors, tags or complex keys, and deep nesting', () => {
    const shared = ['x'];
    assert.equal(readBack(PyDict.from([['a', shared], ['b', shared]])), undefined);
    assert.equal(readBack(PyDict.from([[1n, 'int key']])), undefined);
    assert.equal(readBack(PyDict.from([['t', new PyTuple([])]])), undefined);
    assert.equal(readBack([new PyBytes(new Uint8Array([1]))]), undefined);
    assert.equal(readBack([new PyTimestamp('date', 2024, 1, 2)]), undefined);
    let deep: PyValue = 'leaf';
    for (let i = 0; i <= MAX_READ_BACK_DEPTH; i++) deep = [deep];
    assert.equal(readBack(deep), undefined);
    assert.notEqual(readBack((deep as PyValue[])[0]), undefined);
  });

  it('parses cloud-config.txt when a file name written above the data could change what is read', () => {
    const part = (name: string) =>
      Buffer.from(`Content-Type: multipart/mixed; boundary="B"\nMIME-Version: 1.0\n\n--B\nContent-Type: text/cloud-config\nContent-Disposition: attachment; filename="${name}"\n\nruncmd: [ls]\n--B--\n`);
    const plain = runUserData([{ name: 'mime', bytes: part('a.yaml') }]);
    assert.ok(plain.cloudConfigTxt.includes('# a.yaml'), plain.cloudConfigTxt);
    assert.notEqual(readBackOf(plain), undefined);
    // U+2028 ends a line for the YAML reader: what follows it in the comment is read as data, a document
    // before the dump's `---`, and cloud-init cannot read its own cloud-config.txt back.
    const sneaky = runUserData([{ name: 'mime', bytes: part('a\u2028packages: [x]') }]);
    assert.ok(sneaky.cloudConfigTxt.includes('# a\u2028packages: [x]'), sneaky.cloudConfigTxt);
    assert.equal(readBackOf(sneaky), undefined);
    const parsed = validateMergedText(sneaky.cloudConfigTxt, 'current');
    assert.equal(parsed.yamlError?.pyException, 'ComposerError');
  });

  it('the schema check says the same with the read-back as by parsing, on merged generated parts', () => {
    const rng = new Rng(99);
    for (let i = 0; i < 200; i++) {
      const value = plainValue(rng, 4);
      const doc = value instanceof PyDict ? value : PyDict.from([['runcmd', value]]);
      const run = runUserData([{ name: 'a.yaml', bytes: Buffer.from('#cloud-config\n' + dumpPyYaml(doc)) }]);
      if (!run.cloudConfigTxt) continue;
      const loaded = readBackOf(run);
      assert.notEqual(loaded, undefined);
      const fast = validateMergedText(run.cloudConfigTxt, 'current', undefined, loaded);
      const slow = validateMergedText(run.cloudConfigTxt, 'current');
      assert.deepEqual(fast.errors.map((e) => [e.path, e.message]), slow.errors.map((e) => [e.path, e.message]));
      assert.deepEqual(fast.deprecations.map((e) => [e.path, e.message]), slow.deprecations.map((e) => [e.path, e.message]));
    }
  });
});
