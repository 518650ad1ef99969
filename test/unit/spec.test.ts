// Merge-spec parsing (spec §1.2, §1.3); every expectation was checked with the oracle's --parse-spec / --parse-merge-how.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainSpec } from '../../server/src/engine/lint/explainSpec';
import { nearest } from '../../server/src/engine/findings/findings';
import { parseStringSpec, SpecError } from '../../server/src/engine/spec/parse';
import { py, canon } from '../support/py';

function parsed(spec: string | ReturnType<typeof py>) {
  const e = explainSpec(spec, { version: '22.4' });
  return { parsed: e.parsed?.map(([n, o]) => [canon(n), canon(o)].join(' ')), error: e.error };
}

test('string form: lower-cased, stripped, dashes folded', () => {
  assert.deepEqual(parsed('LIST(Append)+Dict(No-Replace)').parsed, ['"list" ["append"]', '"dict" ["no_replace"]']);
  assert.deepEqual(parsed('list( append , , prepend )').parsed, ['"list" ["append","prepend"]']);
  assert.deepEqual(parsed('m_list(append)').parsed, ['"m_list" ["append"]']);
});

test('string form: silent oddities that still parse', () => {
  assert.deepEqual(parsed('list()dict()').parsed, ['"list" [")dict("]']);
  assert.deepEqual(parsed('list(append)extra)').parsed, ['"list" ["append)extra"]']);
  assert.deepEqual(parsed('').parsed, []);
  assert.deepEqual(parsed('+list()++dict()+').parsed, ['"list" []', '"dict" []']);
  assert.equal(explainSpec('').defaultApplies, true);
});

test('string form: ValueError cases name the normalised piece', () => {
  const cases: Array<[string, string]> = [
    [' list ( append ) ', "Matcher identifer 'list ( append )' is not in the right format"],
    ['list', "Matcher identifer 'list' is not in the right format"],
    ['list(a+b)', "Matcher identifer 'list(a' is not in the right format"],
    ['list.x()', "Matcher identifer 'list.x()' is not in the right format"],
    ['1list()', "Matcher identifer '1list()' is not in the right format"],
    ['list(a\nb)', "Matcher identifer 'list(a\\nb)' is not in the right format"],
  ];
  for (const [spec, message] of cases) {
    assert.deepEqual(parsed(spec).error, { kind: 'ValueError', stage: 'parse', message }, spec);
  }
});

test('current cloud-init spells the message "identifier"', () => {
  assert.throws(() => parseStringSpec('list', 0, 'current'), /Matcher identifier 'list'/);
});

test('string form: spans point at the piece, name and options', () => {
  const spec = parseStringSpec('list(append, prepend)+ dict(no-replace)', 10);
  assert.deepEqual(spec.mergers[0].nameSpan, { start: 10, end: 14 });
  assert.deepEqual(spec.mergers[0].optionSpans, [{ start: 15, end: 21 }, { start: 23, end: 30 }]);
  assert.deepEqual(spec.mergers[1].span, { start: 33, end: 49 });
  try {
    parseStringSpec('list()+li st()', 0);
    assert.fail('expected a ValueError');
  } catch (e) {
    assert.ok(e instanceof SpecError);
    assert.deepEqual(e.span, { start: 7, end: 14 });
  }
});

test('unknown names fail at construction with ImportError', () => {
  assert.deepEqual(parsed('foo()').error, {
    kind: 'ImportError',
    stage: 'construct',
    message: "Could not find merger module named 'm_foo' with attribute 'Merger' (searched ['cloudinit.mergers.m_foo'])",
  });
  assert.equal(parsed('list(append)+foo()').error?.kind, 'ImportError');
});

test('list form: elements, names, settings as Python sees them', () => {
  assert.deepEqual(parsed(py('[{"name":"List","settings":["append"]}]')).error?.message, "Could not find merger module named 'm_List' with attribute 'Merger' (searched ['cloudinit.mergers.m_List'])");
  assert.deepEqual(parsed(py('["list"]')).parsed, ['"l" "ist"']);
  assert.deepEqual(parsed(py('{"name":"list","settings":["append"]}')).parsed, ['"n" "ame"', '"s" "ettings"']);
  assert.deepEqual(parsed(py('[["list","append"]]')).parsed, ['"list" ["append"]']);
  assert.deepEqual(parsed(py('[[0,"x"]]')).parsed, []);
  assert.deepEqual(parsed(py('[{"name":" ","settings":null}]')).parsed, []);
  assert.deepEqual(parsed(py('[{"name":"list","settings":"no_replace"}]')).parsed, ['"list" "no_replace"']);
});

test('list form: failures classified like cloud-init', () => {
  const cases: Array<[string, string, string, string]> = [
    ['5', 'TypeError', 'parse', "'int' object is not iterable"],
    ['[[]]', 'IndexError', 'parse', 'list index out of range'],
    ['[[5,"append"]]', 'AttributeError', 'construct', "'int' object has no attribute 'startswith'"],
    ['[{"name":5,"settings":[]}]', 'AttributeError', 'parse', "'int' object has no attribute 'replace'"],
    ['[{"name":"list"}]', 'KeyError', 'parse', "'settings'"],
    ['[{"settings":[]}]', 'KeyError', 'parse', "'name'"],
    ['[{"name":"list","settings":null}]', 'TypeError', 'construct', "argument of type 'NoneType' is not iterable"],
    ['[["list.x"]]', 'ModuleNotFoundError', 'construct', "__path__ attribute not found on 'cloudinit.mergers.m_list' while trying to find 'cloudinit.mergers.m_list.x'"],
    ['[["foo.bar"]]', 'ModuleNotFoundError', 'construct', "No module named 'cloudinit.mergers.m_foo'"],
  ];
  for (const [value, kind, stage, message] of cases) {
    assert.deepEqual(parsed(py(value)).error, { kind, stage, message }, value);
  }
});

test('string settings are tested as substrings: "no_replace" means replace for lists', () => {
  const e = explainSpec(py('[{"name":"list","settings":"no_replace"}]'));
  assert.equal(e.effective?.list?.method, 'replace');
  assert.equal(explainSpec(py('[{"name":"list","settings":{"append":1}}]')).effective?.list?.method, 'append');
  assert.equal(explainSpec(py('[{"name":"list","settings":["append",7]}]')).effective?.list?.method, 'append');
});

test('option precedence is fixed, not positional', () => {
  assert.equal(explainSpec('list(prepend,append)').effective?.list?.method, 'append');
  assert.equal(explainSpec('list(no_replace,replace)').effective?.list?.method, 'replace');
  assert.equal(explainSpec('dict(no_replace,replace)').effective?.dict?.method, 'replace');
  assert.equal(explainSpec('list(append)+list(prepend)').effective?.list?.method, 'append');
});

test('a spec without dict() has no mapping merger', () => {
  const e = explainSpec('list(append)+str()');
  assert.equal(e.effective?.dict, null);
  assert.match(e.words.join('\n'), /whole part is discarded/);
});

test('suggestions: the nearest known word within three edits, and none for a whole file read as one option', () => {
  const options = ['append', 'prepend', 'replace', 'no_replace', 'recurse_list', 'recurse_dict', 'recurse_str', 'recurse_array', 'allow_delete'];
  assert.equal(nearest('apend', options), 'append');
  assert.equal(nearest('recurse_lsit', options), 'recurse_list');
  assert.equal(nearest('no_replacee', options), 'no_replace');
  assert.equal(nearest('recurse', options), 'recurse_list', 'a prefix');
  assert.equal(nearest('zzz', options), undefined);
  // A quote left open makes the rest of the file one "option" (the fuzzer's 230 KB reproducer in
  // test/robustness/found/server-hang-61483b7319): no suggestion, and no letter-by-letter comparison.
  assert.equal(nearest('append' + 'runcmd: [two] '.repeat(20_000), options), 'append', 'a known word it starts with');
  assert.equal(nearest('x' + 'runcmd: [two] '.repeat(20_000), options), undefined);
});
