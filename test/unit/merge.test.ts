// The three mergers and dispatch (spec §2). Each row: spec | old | new | what the oracle (cloud-init 22.4.2) returned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseStringSpec } from '../../server/src/engine/spec/parse';
import { constructMergers } from '../../server/src/engine/merge/construct';
import { PyError } from '../../server/src/engine/py/errors';
import { PyDict, PyValue, getListOrigins, setListOrigins } from '../../server/src/engine/py/values';
import { py, canon } from '../support/py';

const TABLE = String.raw`
dict(replace)+list()+str()|{"a":1,"b":[1,2],"c":{"x":1}}|{"a":2,"b":[3],"c":{"y":2}}|{"a":2,"b":[3],"c":{"y":2}}
list()+dict()+str()|{"a":1,"b":[1,2],"c":{"x":1}}|{"a":2,"b":[3],"c":{"y":2}}|{"a":1,"b":[1,2],"c":{"x":1,"y":2}}
list(append)+dict(no_replace,recurse_list)+str()|{"a":1,"b":[1,2],"c":{"x":[1]}}|{"a":2,"b":[3],"c":{"x":[2]}}|{"a":1,"b":[1,2,3],"c":{"x":[1,2]}}
list(append)+dict(no_replace,recurse_list)|{"a":[1],"s":"x"}|{"a":{"k":1,"j":2},"s":{"m":1}}|{"a":[1,"k","j"],"s":"x"}
list()+dict()+str()|{"a":[1],"s":"x"}|{"a":{"k":1},"s":{"m":1}}|{"a":{"k":1},"s":{"m":1}}
dict(no_replace,allow_delete)+list()+str()|{"a":1,"c":3}|{"a":null,"b":null}|{"b":null,"c":3}
dict(replace,allow_delete)+list()+str()|{"a":1,"c":3}|{"a":null,"d":4}|{"c":3,"d":4}
list(replace)+dict(recurse_list)|{"l":[1,2,3]}|{"l":[9]}|{"l":[9,2,3]}
list(replace)+dict(recurse_list)|{"l":[1]}|{"l":[9,8,7]}|{"l":[9]}
list(no_replace)+dict(recurse_list)|{"l":[1,2]}|{"l":"abc"}|{"l":[1,2]}
list(append)+dict(recurse_list)|{"l":[1]}|{"l":[[2]]}|{"l":[1,[2]]}
list(append)+dict(recurse_str)+str(append)|{"s":"ab"}|{"s":"cd"}|{"s":"abcd"}
dict(recurse_str)+str(append)|{"s":"ab"}|{"s":"cd","t":"x"}|{"s":"abcd","t":"x"}
dict(recurse_list)+list(replace,recurse_dict)|{"l":[{"a":1},2]}|{"l":[{"b":2},3]}|{"l":[{"a":1,"b":2},3]}
dict()+list()+str()|{"n":null,"i":1,"f":1.5,"b":true}|{"n":{"a":1},"i":{"a":1},"f":2.5,"b":false}|{"b":true,"f":1.5,"i":1,"n":null}
dict(replace)+list()+str()|{"1":1}|{"1":2,"2":3}|{"1":2,"2":3}
list(prepend)+dict(recurse_list)|{"l":[1,2]}|{"l":[3,4]}|{"l":[3,4,1,2]}
list(append)|[1,2]|"ab"|[1,2,"a","b"]
list(append)|[1,2]|{"x":1,"y":2}|[1,2,"x","y"]
list()|[1,2]|5|5
list(no_replace)|[1,2]|{"0":1}|!KeyError: 0
list(no_replace)|[]|5|!TypeError: object of type 'int' has no len()
list(append)|[1]|null|!TypeError: 'NoneType' object is not iterable
str(append)|"a"|5|!TypeError: can only concatenate str (not "int") to str
dict(no_replace,recurse_list,recurse_str)+list(append)+str(append)|{"a":"x","b":["y"]}|{"a":["z"],"b":"w"}|!TypeError: can only concatenate str (not "list") to str
`;

function merge(spec: string, ...values: string[]) {
  const root = constructMergers(parseStringSpec(spec).mergers);
  let result = py(values[0]);
  for (const v of values.slice(1)) result = root.merge(result, py(v));
  return result;
}

test('merge table agrees with cloud-init', async (t) => {
  for (const row of TABLE.trim().split('\n')) {
    const [spec, a, b, expected] = row.split('|');
    await t.test(`${spec}: ${a} + ${b}`, () => {
      if (expected.startsWith('!')) {
        const [kind, ...message] = expected.slice(1).split(': ');
        assert.throws(() => merge(spec, a, b), (e: unknown) => e instanceof PyError && e.pyType === kind && e.message === message.join(': '));
      } else {
        assert.equal(canon(merge(spec, a, b)), expected);
      }
    });
  }
});

test('merging never mutates its inputs', () => {
  const old = py('{"a":{"b":[1]},"c":2}');
  const before = canon(old);
  merge('list(append)+dict(no_replace,recurse_list)+str()', before, '{"a":{"b":[2]},"d":3}');
  const root = constructMergers(parseStringSpec('list(append)+dict(no_replace,recurse_list)').mergers);
  root.merge(old, py('{"a":{"b":[2]}}'));
  assert.equal(canon(old), before);
});

test('key order: old keys in place, new keys appended in their order', () => {
  const result = merge('dict(replace)', '{"b":1,"a":2}', '{"c":3,"a":4}') as PyDict;
  assert.deepEqual(result.keys(), ['b', 'a', 'c']);
});

test('dispatch is on the old value: ints, floats and 1 == 1.0 == true keys', () => {
  const result = merge('dict(replace)', '{"x":{"1":"a"}}', '{"x":{"1":"b"}}') as PyDict;
  assert.equal(canon(result), '{"x":{"1":"b"}}');
  const d = new PyDict();
  d.set(1n, 'int');
  d.set(true, 'bool');
  d.set(1.0, 'float');
  assert.equal(d.size, 1);
  assert.equal(d.keys()[0], 1n);
  assert.equal(d.get(1n), 'float');
});

test('origins travel with appended list items', () => {
  const root = constructMergers(parseStringSpec('list(append)+dict(recurse_list)').mergers);
  const a = py('{"l":[1]}') as PyDict;
  const b = py('{"l":[2]}') as PyDict;
  const origin = (source: number) => ({ source, value: { start: source, end: source + 1 } });
  setListOrigins(a.get('l') as PyValue[], [origin(0)]);
  setListOrigins(b.get('l') as PyValue[], [origin(1)]);
  const merged = root.merge(a, b) as PyDict;
  assert.deepEqual(getListOrigins(merged.get('l') as PyValue[])?.map((o) => o?.source), [0, 1]);
});
