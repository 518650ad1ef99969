// The value model keeps origins compactly (issue 15): a PyDict entry keeps where its pair was
// written as offsets and a loaded list its items' offsets in one array, and both give back the
// Origins a caller would have got from Origin objects.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { PyDict, getListOrigins, setListOrigins, type PyValue } from '../../server/src/engine/py/values';

function loaded(text: string): PyDict {
  const r = loadYaml(text, { source: 3 });
  assert.ok(r.ok && r.value instanceof PyDict);
  return r.value;
}

describe('the value model keeps origins compactly', () => {
  test("an entry's origin is given back as it was set, replaced or cleared by a later set, and copied with the dict", () => {
    const d = loaded('a: 1\nb: [x]\n');
    assert.deepEqual(d.originOf('a'), { source: 3, key: { start: 0, end: 1 }, value: { start: 3, end: 4 } });
    d.set('a', 2n, { source: 5, value: { start: 7, end: 9 } });
    assert.deepEqual(d.originOf('a'), { source: 5, value: { start: 7, end: 9 } });
    const copy = d.copy();
    d.set('a', 3n);
    assert.equal(d.originOf('a'), undefined);
    assert.deepEqual(copy.originOf('a'), { source: 5, value: { start: 7, end: 9 } });
    const plain = new PyDict();
    plain.set('k', 1n);
    plain.set('j', 1n);
    plain.set('k', 2n, { source: 1, key: { start: 0, end: 1 }, value: { start: 3, end: 4 } });
    assert.deepEqual(plain.keys(), ['k', 'j']);
    assert.deepEqual(plain.originOf('k'), { source: 1, key: { start: 0, end: 1 }, value: { start: 3, end: 4 } });
  });

  test('list item origins read as Origins, and the array read is the one later changes go to', () => {
    const list = loaded('l: [ab, c]\n').get('l') as PyValue[];
    const origins = getListOrigins(list);
    assert.deepEqual(origins, [{ source: 3, value: { start: 4, end: 6 } }, { source: 3, value: { start: 8, end: 9 } }]);
    origins?.push({ source: 1, value: { start: 0, end: 0 } });
    assert.equal(getListOrigins(list), origins);
    setListOrigins(list, []);
    assert.deepEqual(getListOrigins(list), []);
  });
});
