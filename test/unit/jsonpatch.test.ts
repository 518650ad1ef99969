/**
 * server/src/engine/userdata/jsonpatch.ts: cloud-init's #cloud-config-jsonp
 * (python3-jsonpatch 1.32 + jsonpointer 2.3). Every expectation below was
 * checked with /usr/bin/python3:
 *   jsonpatch.JsonPatch.from_string(text).apply(doc, in_place=False)
 * The randomised comparison is test/oracle/jsonpatch.diff.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyJsonPatch, isValueErrorType, type JsonPatchResult } from '../../server/src/engine/userdata/jsonpatch';
import { toCanonicalJson } from '../../server/src/engine/py/json';
import { PyBytes, PyDict, type PyValue } from '../../server/src/engine/py/values';

function d(...pairs: Array<[PyValue, PyValue]>): PyDict {
  return PyDict.from(pairs);
}

/** The outcome as canonical JSON, or "Class: message". */
function run(doc: PyValue, text: string): string {
  const r: JsonPatchResult = applyJsonPatch(doc, text);
  return r.ok ? toCanonicalJson(r.value).text : `${r.pyType}: ${r.message}`;
}

test('every op in sequence', () => {
  const text = '[{"op":"add","path":"/b","value":[1,2]},{"op":"remove","path":"/a"},{"op":"replace","path":"/b/0","value":"x"},{"op":"move","from":"/b/1","path":"/c"},{"op":"copy","from":"/b","path":"/d"},{"op":"test","path":"/c","value":2}]';
  assert.equal(run(d(['a', 1n]), text), '{"b":["x"],"c":2,"d":["x"]}');
});

test('the root: add replaces a mapping, fails on a list; replace always replaces', () => {
  assert.equal(run(d(['a', 1n]), '[{"op":"add","path":"","value":[1]}]'), '[1]');
  assert.equal(run([1n], '[{"op":"add","path":"","value":[2]}]'), "TypeError: '>' not supported between instances of 'NoneType' and 'int'");
  assert.equal(run([1n], '[{"op":"replace","path":"","value":{"x":1}}]'), '{"x":1}');
  assert.equal(run(d(['a', 1n]), '[{"op":"remove","path":""}]'), "JsonPatchConflict: can't remove a non-existent object 'None'");
  // `del doc[None]`: a None key is really removed
  assert.equal(run(d([null, 1n], ['a', 2n]), '[{"op":"remove","path":""}]'), '{"a":2}');
});

test('keys are looked up as strings: an int key 1 is not /1', () => {
  assert.equal(run(d([1n, 'a']), '[{"op":"remove","path":"/1"}]'), "JsonPatchConflict: can't remove a non-existent object '1'");
});

test('test compares with Python ==', () => {
  assert.equal(run(d(['a', 1n]), '[{"op":"test","path":"/a","value":true},{"op":"test","path":"/a","value":1.0}]'), '{"a":1}');
  assert.equal(run(d(['a', [1n]]), '[{"op":"test","path":"/a","value":[1.0]}]'), '{"a":[1]}');
  assert.equal(run(d(['a', 1n]), '[{"op":"test","path":"/a","value":"1"}]'), "JsonPatchTestFailed: 1 (<class 'int'>) is not equal to tested value 1 (<class 'str'>)");
  assert.equal(run(d(['l', [1n, 2n]]), '[{"op":"test","path":"/l/-","value":null}]'), "JsonPatchTestFailed: EndOfList([1, 2]) (<class 'jsonpointer.EndOfList'>) is not equal to tested value None (<class 'NoneType'>)");
});

test('patch documents that are not lists, and malformed operations', () => {
  assert.equal(run(d(['a', 1n]), '{}'), '{"a":1}'); // a dict iterates its (no) keys
  assert.equal(run(d(['a', 1n]), '"ab"'), "InvalidJsonPatch: Operation does not contain 'op' member");
  assert.equal(run(new PyDict(), '5'), "TypeError: 'int' object is not iterable");
  assert.equal(run(new PyDict(), '[1]'), "TypeError: argument of type 'int' is not iterable");
  assert.equal(run(new PyDict(), '["op"]'), "TypeError: string indices must be integers, not 'str'");
  assert.equal(run(new PyDict(), '[{"op":"add","op":"remove","path":"/a"}]'), 'InvalidJsonPatch: Operation must be a string'); // multidict: op is a list
  assert.equal(run(new PyDict(), '[{"op":"add"}]'), "InvalidJsonPatch: Operation must have a 'path' member");
  assert.equal(run(new PyDict(), '[{"op":"nope","path":"/a"}]'), "InvalidJsonPatch: Unknown operation 'nope'");
  assert.equal(run(new PyDict(), '[{"op":"add","path":5}]'), "InvalidJsonPatch: Invalid 'path'");
  assert.equal(run(d(['a', 1n]), '[{"op":"add","path":"/b"}]'), "InvalidJsonPatch: The operation does not contain a 'value' member");
  assert.equal(run(d(['a', 1n]), '[{"op":"move","path":"/b"}]'), "InvalidJsonPatch: The operation does not contain a 'from' member");
  assert.equal(run(d(['a', 1n]), '[{"op":"copy","from":1,"path":"/b"}]'), "TypeError: expected string or bytes-like object, got 'int'");
  assert.equal(run(d(['l', [1n]]), '[{"op":"replace","path":"/l/-","value":0}]'), "InvalidJsonPatch: 'path' with '-' can't be applied to 'replace' operation");
  assert.equal(run(new PyDict(), 'not json'), 'JSONDecodeError: Expecting value: line 1 column 1 (char 0)');
});

test("list indexes go through the index regex and Python's int()", () => {
  const doc = () => d(['l', [1n, 2n, 3n]]);
  assert.equal(run(doc(), '[{"op":"remove","path":"/l/0_1"}]'), '{"l":[1,3]}');
  assert.equal(run(doc(), '[{"op":"remove","path":"/l/01"}]'), '{"l":[1,3]}');
  assert.equal(run(doc(), '[{"op":"remove","path":"/l/1\\n"}]'), '{"l":[1,3]}');
  assert.equal(run(doc(), '[{"op":"remove","path":"/l/0x"}]'), "ValueError: invalid literal for int() with base 10: '0x'");
  assert.equal(run(doc(), '[{"op":"remove","path":"/l/ 1"}]'), "JsonPointerException: ' 1' is not a valid sequence index");
  assert.equal(run(doc(), '[{"op":"add","path":"/l/5","value":0}]'), "JsonPatchConflict: can't insert outside of list");
  assert.equal(run(d(['l', [1n]]), '[{"op":"move","from":"/l/3","path":"/c"}]'), 'JsonPatchConflict: list index out of range');
});

test('strings and bytes are sequences too', () => {
  assert.equal(run(d(['s', 'abc']), '[{"op":"test","path":"/s/1","value":"b"}]'), '{"s":"abc"}');
  assert.equal(run(d(['s', 'abc']), '[{"op":"add","path":"/s/1","value":"b"}]'), 'JsonPatchConflict: unable to fully resolve json pointer /s/1, part 1');
  assert.equal(run(d(['s', 'abc']), '[{"op":"remove","path":"/s/1"}]'), "TypeError: 'str' object doesn't support item deletion");
  assert.equal(run(d(['b', new PyBytes(new Uint8Array([65, 66]))]), '[{"op":"test","path":"/b/0","value":65}]'), '{"b":{"$binary":"QUI="}}');
});

test('pointer errors', () => {
  assert.equal(run(d(['a', 1n]), '[{"op":"add","path":"a","value":1}]'), 'JsonPointerException: Location must start with /');
  assert.equal(run(d(['a', 1n]), '[{"op":"add","path":"/~2","value":1}]'), 'JsonPointerException: Found invalid escape ~2');
  assert.equal(run(d(['a', 1n]), '[{"op":"add","path":"/x/y","value":1}]'), "JsonPointerException: member 'x' not found in {'a': 1}");
  assert.equal(run(d(['a', 1n]), '[{"op":"add","path":"/a/y","value":1}]'), "JsonPointerException: Document '<class 'int'>' does not support indexing, must be mapping/sequence or support __getitem__");
  assert.equal(run(d(['a~/b', 1n]), '[{"op":"move","from":"/a~0~1b","path":"/c"}]'), '{"c":1}');
});

test('move', () => {
  assert.equal(run(d(['a', d(['b', 1n])]), '[{"op":"move","from":"/a","path":"/a/b/c"}]'), 'JsonPatchConflict: Cannot move values into their own children');
  assert.equal(run(d(['a', d(['b', 1n])]), '[{"op":"move","from":"/a/x","path":"/c"}]'), "JsonPatchConflict: 'x'");
});

test('apply works on a deep copy that keeps shared references shared', () => {
  const shared = [1n];
  const doc = d(['a', shared], ['b', shared]);
  const r = applyJsonPatch(doc, '[{"op":"add","path":"/a/-","value":2}]');
  assert.ok(r.ok);
  const out = r.value as PyDict;
  assert.deepEqual(out.get('a'), [1n, 2n]);
  assert.equal(out.get('a'), out.get('b')); // still one list, as after copy.deepcopy
  assert.deepEqual(shared, [1n]); // the input is untouched
  // copy deep-copies its value: the copy is a new list
  const r2 = applyJsonPatch(doc, '[{"op":"copy","from":"/a","path":"/c"},{"op":"add","path":"/c/-","value":3}]');
  assert.ok(r2.ok);
  assert.equal(toCanonicalJson(r2.value).text, '{"a":[1],"b":[1],"c":[1,3]}');
  assert.equal((r2.value as PyDict).get('a'), (r2.value as PyDict).get('b'));
});

test('RecursionError where cloud-init runs out of Python frames', () => {
  const nested = (n: number): PyValue => {
    let v: PyValue = [];
    for (let i = 0; i < n; i++) v = [v];
    return v;
  };
  // copy.deepcopy of the document: 492 nested lists under a key still copy, 493 do not
  assert.ok(applyJsonPatch(d(['a', nested(491)]), '[]').ok);
  assert.deepEqual(applyJsonPatch(d(['a', nested(492)]), '[]'), { ok: false, pyType: 'RecursionError', message: 'maximum recursion depth exceeded while calling a Python object' });
  // the patch JSON: a value nested 981 deep parses, 982 does not
  const addArrays = (n: number) => `[{"op":"add","path":"/a","value":${'['.repeat(n)}${']'.repeat(n)}}]`;
  assert.ok(applyJsonPatch(new PyDict(), addArrays(981)).ok);
  const r = applyJsonPatch(new PyDict(), addArrays(982));
  assert.ok(!r.ok && r.pyType === 'RecursionError');
});

test('which failures are ValueErrors for cloud-init', () => {
  for (const t of ['ValueError', 'JSONDecodeError']) assert.equal(isValueErrorType(t), true, t);
  for (const t of ['InvalidJsonPatch', 'JsonPatchConflict', 'JsonPatchTestFailed', 'JsonPointerException', 'TypeError', 'KeyError', 'RecursionError']) assert.equal(isValueErrorType(t), false, t);
});
