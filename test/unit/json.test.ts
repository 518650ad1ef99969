/**
 * server/src/engine/py/json.ts: Python 3.11's json.loads and the oracle's
 * canonical dump. Every expectation below was checked against
 * /usr/bin/python3 (json, and /work/shared/oracle/oracle.py's to_jsonable +
 * dump_json); the randomised comparison is test/oracle/jsonpatch.diff.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MAX_JSON_NODES, JsonDecodeError, parsePythonJson, PyRecursionError, toCanonicalJson, toJsonValue } from '../../server/src/engine/py/json';
import { comparePyStr } from '../../server/src/engine/py/str';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';
import { PyError } from '../../server/src/engine/py/errors';
import { LimitExceededError } from '../../server/src/engine/limits';

function loadsError(text: string): string {
  try {
    parsePythonJson(text);
  } catch (e) {
    if (e instanceof JsonDecodeError) return `JSONDecodeError: ${e.message}`;
    if (e instanceof PyError) return `${e.pyType}: ${e.message}`;
    throw e;
  }
  assert.fail(`${JSON.stringify(text)} parsed`);
}

test('json.loads values: bigint ints, floats, NaN/Infinity, -0 is an int', () => {
  const v = parsePythonJson('  {"a": [1, 2.0, -0, 1e400, NaN, -Infinity, 123456789012345678901234567890]} \n') as PyDict;
  assert.ok(v instanceof PyDict);
  const a = v.get('a') as PyValue[];
  assert.deepEqual(a.slice(0, 4), [1n, 2.0, 0n, Infinity]);
  assert.ok(Number.isNaN(a[4]));
  assert.equal(a[5], -Infinity);
  assert.equal(a[6], 123456789012345678901234567890n);
  assert.equal(parsePythonJson('-Infinity'), -Infinity);
  assert.ok(Object.is(parsePythonJson('-0.0'), -0));
});

test('json.loads duplicate keys: last value wins at the first position', () => {
  const v = parsePythonJson('{"a":1,"b":2,"a":3}') as PyDict;
  assert.deepEqual(v.entries(), [
    ['a', 3n],
    ['b', 2n],
  ]);
});

test("json.loads with jsonpatch's multidict hook collects duplicated keys", () => {
  const v = parsePythonJson('{"a":1,"a":[2],"b":3}', { objects: 'multidict' }) as PyDict;
  assert.deepEqual(v.entries(), [
    ['a', [1n, [2n]]],
    ['b', 3n],
  ]);
});

test('json.loads strings: escapes, surrogate pairs, lone surrogates', () => {
  assert.equal(parsePythonJson('"\\ud83d\\ude00"'), '😀');
  assert.equal(parsePythonJson('"\\ud800"'), '\ud800');
  assert.equal(parsePythonJson('"\\ud800\\u0041"'), '\ud800A');
  assert.equal(parsePythonJson('"\\/\\b"'), '/\b');
});

test('json.loads error messages are Python 3.11 JSONDecodeError messages', () => {
  const cases: Array<[string, string]> = [
    ['', 'Expecting value: line 1 column 1 (char 0)'],
    ['[1,]', 'Expecting value: line 1 column 4 (char 3)'],
    ['{"a" 1}', "Expecting ':' delimiter: line 1 column 6 (char 5)"],
    ['"a\nb"', 'Invalid control character at: line 1 column 3 (char 2)'],
    ['[1 2]', "Expecting ',' delimiter: line 1 column 4 (char 3)"],
    ['1 2', 'Extra data: line 1 column 3 (char 2)'],
    ['"\\x"', 'Invalid \\escape: line 1 column 2 (char 1)'],
    ['"\\u12"', 'Invalid \\uXXXX escape: line 1 column 3 (char 2)'],
    ['\ufeff1', 'Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)'],
    ['"😀" x', 'Extra data: line 1 column 5 (char 4)'], // code points, not UTF-16 units
    ['\n\n  ]', 'Expecting value: line 3 column 3 (char 4)'],
    ['\v1', 'Expecting value: line 1 column 1 (char 0)'], // \v is not JSON whitespace
    ['{"a":1,}', 'Expecting property name enclosed in double quotes: line 1 column 8 (char 7)'],
    ['[', 'Expecting value: line 1 column 2 (char 1)'],
    ['{', 'Expecting property name enclosed in double quotes: line 1 column 2 (char 1)'],
    ['nul', 'Expecting value: line 1 column 1 (char 0)'],
    ['-', 'Expecting value: line 1 column 1 (char 0)'],
    ['01', 'Extra data: line 1 column 2 (char 1)'],
    ['1.', 'Extra data: line 1 column 2 (char 1)'],
    ['.5', 'Expecting value: line 1 column 1 (char 0)'],
    ['1e', 'Extra data: line 1 column 2 (char 1)'],
    ['"\\ud800\\udc0"', 'Invalid \\uXXXX escape: line 1 column 9 (char 8)'],
    ['{"a":1 "b":2}', "Expecting ',' delimiter: line 1 column 8 (char 7)"],
    ['"abc', 'Unterminated string starting at: line 1 column 1 (char 0)'],
  ];
  for (const [text, message] of cases) assert.equal(loadsError(text), `JSONDecodeError: ${message}`, JSON.stringify(text));
  const e = (() => {
    try {
      parsePythonJson('[1,]');
    } catch (err) {
      return err;
    }
  })();
  assert.ok(e instanceof JsonDecodeError && e.isValueError && e.pos === 3 && e.lineno === 1 && e.colno === 4);
});

test('json.loads: ints over 4300 digits raise a plain ValueError', () => {
  assert.equal(
    loadsError('1'.repeat(4301)),
    'ValueError: Exceeds the limit (4300 digits) for integer string conversion: value has 4301 digits; use sys.set_int_max_str_digits() to increase the limit',
  );
  assert.equal(loadsError('-' + '1'.repeat(4301)).includes('value has 4301 digits'), true);
  assert.equal(typeof parsePythonJson('9'.repeat(4300)), 'bigint');
});

test('json.loads: nesting deeper than maxDepth raises RecursionError', () => {
  assert.ok(Array.isArray(parsePythonJson('['.repeat(983) + ']'.repeat(983))));
  assert.throws(() => parsePythonJson('['.repeat(984) + ']'.repeat(984)), (e: unknown) => e instanceof PyRecursionError && e.className === 'RecursionError' && e.message === 'maximum recursion depth exceeded while decoding a JSON array from a unicode string');
  assert.throws(() => parsePythonJson('{"a":'.repeat(12) + '1' + '}'.repeat(12), { maxDepth: 11 }), PyRecursionError);
  // the multidict hook needs 3 more frames
  assert.ok(parsePythonJson('{"a":'.repeat(8) + '1' + '}'.repeat(8), { maxDepth: 11, objects: 'multidict' }) instanceof PyDict);
  assert.throws(() => parsePythonJson('{"a":'.repeat(9) + '1' + '}'.repeat(9), { maxDepth: 11, objects: 'multidict' }), PyRecursionError);
});

test('canonical JSON: non-string keys and their notes', () => {
  const d = PyDict.from([
    [1n, 'a'],
    ['b', 2n],
    [null, 3n],
    [1.5, 4n],
    [new PyTuple([1n, 'a']), 5n],
    [new PyTimestamp('date', 2020, 1, 2), 6n],
  ]);
  assert.deepEqual(toCanonicalJson(d), {
    text: '{"(1, \'a\')":5,"1":"a","1.5":4,"2020-01-02":6,"b":2,"null":3}',
    conversions: [
      "$: non-string key 1 written as '1'",
      "$: non-string key None written as 'null'",
      "$: non-string key 1.5 written as '1.5'",
      '$: non-string key (1, \'a\') written as "(1, \'a\')"',
      "$: non-string key datetime.date(2020, 1, 2) written as '2020-01-02'",
    ],
  });
  assert.deepEqual(toCanonicalJson(PyDict.from([[true, 1n], ['k', PyDict.from([[2n, null]])]])), {
    text: '{"k":{"2":null},"true":1}',
    conversions: ["$: non-string key True written as 'true'", "$.k: non-string key 2 written as '2'"],
  });
});

test('canonical JSON: a key collision keeps the later value', () => {
  assert.deepEqual(toCanonicalJson(PyDict.from([[1n, 'x'], ['1', 'y']])), {
    text: '{"1":"y"}',
    conversions: ["$: non-string key 1 written as '1'", "$: key collision on '1' after conversion"],
  });
});

test('canonical JSON: floats as Python repr, NaN and Infinity as json writes them', () => {
  assert.deepEqual(toCanonicalJson([1e16, 1.0, -0.0, NaN, Infinity, 1e-5, 0.1, 10n ** 20n]), {
    text: '[1e+16,1.0,-0.0,NaN,Infinity,1e-05,0.1,100000000000000000000]',
    conversions: ['$[3]: non-finite float nan', '$[4]: non-finite float inf'],
  });
});

test('canonical JSON: string escaping with ensure_ascii=False (lone surrogates stay raw)', () => {
  assert.equal(toCanonicalJson('\x00\x1f"\\\n\u2028😀\ud800\x7f').text, '"\\u0000\\u001f\\"\\\\\\n\u2028😀\ud800\x7f"');
});

test('canonical JSON: keys sorted by code point, not UTF-16 unit', () => {
  assert.equal(toCanonicalJson(PyDict.from([['\uffff', 1n], ['😀', 2n], ['a', 3n]])).text, '{"a":3,"\uffff":1,"😀":2}');
  assert.ok(comparePyStr('\uffff', '😀') < 0);
  assert.ok(comparePyStr('\ud800\udc00', '\ud801') > 0); // an astral code point beats a lone surrogate
  assert.equal(comparePyStr('ab', 'ab'), 0);
});

test('canonical JSON: sets sorted by the JSON of each item, tuples, bytes, timestamps', () => {
  assert.deepEqual(toCanonicalJson(new PySet([3n, 'a', 1n, new PyTuple([1n])])), {
    text: '["a",1,3,[1]]',
    conversions: ['$: set written as sorted list', '$: tuple written as list'],
  });
  const d = PyDict.from([
    ['b', new PyBytes(new Uint8Array([0, 1]))],
    ['t', new PyTimestamp('datetime', 2020, 1, 2, 3, 4, 5, 6, -90)],
    ['n', new PyTimestamp('datetime', 2020, 1, 2, 3, 4, 5)],
  ]);
  assert.deepEqual(toCanonicalJson(d), {
    text: '{"b":{"$binary":"AAE="},"n":"2020-01-02T03:04:05","t":"2020-01-02T03:04:05.000006-01:30"}',
    conversions: ['$.b: bytes written as {"$binary": base64}', '$.t: datetime written as ISO string', '$.n: datetime written as ISO string'],
  });
});

test('canonical JSON: pretty is indent=2', () => {
  const v = PyDict.from([
    ['a', [1n, PyDict.from([['b', []]])]],
    ['c', new PyDict()],
  ]);
  assert.equal(toCanonicalJson(v, { pretty: true }).text, '{\n  "a": [\n    1,\n    {\n      "b": []\n    }\n  ],\n  "c": {}\n}');
});

test('canonical JSON: expanding shared references is capped', () => {
  let v: PyValue = ['x'];
  for (let i = 0; i < 30; i++) v = [v, v]; // 2^30 leaves once expanded
  assert.equal(DEFAULT_MAX_JSON_NODES, 5_000_000);
  assert.throws(() => toCanonicalJson(v, { maxNodes: 100_000 }), (e: unknown) => e instanceof LimitExceededError && e.limit === 'maxExpandedNodes' && /maxExpandedNodes = 100000/.test(e.message));
  // What the limit counts is what repeating shared values adds (issue 43): a value without any converts
  // whatever its size, a list written again costs its node and its items each time.
  assert.equal(toCanonicalJson([[1n], [2n]], { maxNodes: 1 }).text, '[[1],[2]]');
  const shared: PyValue = [1n];
  assert.throws(() => toCanonicalJson([shared, shared, shared], { maxNodes: 3 }), LimitExceededError);
  assert.equal(toCanonicalJson([shared, shared, shared], { maxNodes: 4 }).text, '[[1],[1],[1]]');
  const cyclic: PyValue[] = [];
  cyclic.push(cyclic);
  assert.throws(() => toCanonicalJson(cyclic), /recursive/);
});

test('canonical JSON of very deep values (no JavaScript stack overflow)', () => {
  let v: PyValue = 'x';
  for (let i = 0; i < 20000; i++) v = i % 2 ? [v] : PyDict.from([['k', v]]);
  const { text } = toCanonicalJson(v);
  assert.equal(text.length, 10000 * 2 + 10000 * 6 + 3); // [..] and {"k":..} around "x"
  assert.equal(text, '[{"k":'.repeat(10000) + '"x"' + '}]'.repeat(10000));
  let w: PyValue = 'x';
  for (let i = 0; i < 2000; i++) w = [w];
  assert.equal(toCanonicalJson(w, { pretty: true }).text.split('\n').length, 4001);
  // indentation makes the pretty text of 20000 levels 800 million characters long
  assert.throws(() => toCanonicalJson(v, { pretty: true }), /exceeds the limit maxChars = 268435456/);
  assert.throws(() => toCanonicalJson(['abc'], { maxChars: 4 }), /maxChars = 4/);
});

test('canonical JSON: ints over 4300 digits cannot be written (ValueError, as in Python)', () => {
  assert.throws(() => toCanonicalJson(10n ** 4300n), (e: unknown) => e instanceof PyError && e.pyType === 'ValueError' && e.message === 'Exceeds the limit (4300 digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit');
});

test('toJsonValue gives plain JavaScript values for display', () => {
  const { value, conversions } = toJsonValue(PyDict.from([['__proto__', 1n], ['big', 2n ** 64n], ['n', NaN], ['d', new PyTimestamp('date', 2020, 1, 2)]]));
  assert.deepEqual(Object.keys(value as object), ['__proto__', 'big', 'n', 'd']);
  assert.deepEqual(JSON.stringify(value), '{"__proto__":1,"big":"18446744073709551616","n":"NaN","d":"2020-01-02"}');
  assert.deepEqual(conversions, ['$.n: non-finite float nan', '$.d: date written as ISO string']);
});
