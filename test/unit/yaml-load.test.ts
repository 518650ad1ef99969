// loadYaml (server/src/engine/yaml/load.ts) against PyYAML 6.0 SafeLoader + !!python/unicode
// (cloud-init 22.4.2). Every expectation below is the repr() PyYAML 6.0 / CPython 3.11
// printed for the same text (sets printed sorted), or the exception it raised.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadYaml, mergeExpansionError, sharedExpansion, type YamlLoadOptions, type YamlLoadResult, type YamlProblem } from '../../server/src/engine/yaml/load';
import * as V from '../../server/src/engine/py/values';
import type { PyValue } from '../../server/src/engine/py/values';
import { pyFloatRepr, pyStrRepr } from '../../server/src/engine/py/repr';

/** Python's repr(), with sets written as set(<sorted items>). */
function repr(v: PyValue): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return v.toString();
    case 'number':
      return pyFloatRepr(v);
    case 'string':
      return pyStrRepr(v);
  }
  if (Array.isArray(v)) return '[' + v.map(repr).join(', ') + ']';
  if (v instanceof V.PyTuple) return '(' + v.items.map(repr).join(', ') + (v.items.length === 1 ? ',' : '') + ')';
  if (v instanceof V.PyDict) return '{' + v.entries().map(([k, x]) => `${repr(k)}: ${repr(x)}`).join(', ') + '}';
  if (v instanceof V.PySet) return 'set(' + v.values().map(repr).sort().join(', ') + ')';
  if (v instanceof V.PyBytes) {
    let s = "b'";
    for (const b of v.bytes) s += b === 0x27 || b === 0x5c ? '\\' + String.fromCharCode(b) : b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '\\x' + b.toString(16).padStart(2, '0');
    return s + "'";
  }
  if (v instanceof V.PyTimestamp) {
    if (v.kind === 'date') return `datetime.date(${v.year}, ${v.month}, ${v.day})`;
    const parts = [v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond];
    if (parts[6] === 0) {
      parts.pop();
      if (parts[5] === 0) parts.pop();
    }
    let tz = '';
    if (v.offsetMinutes === 0) tz = ', tzinfo=datetime.timezone.utc';
    else if (v.offsetMinutes !== null) {
      const seconds = v.offsetMinutes * 60;
      const delta = seconds < 0 ? `days=-1, seconds=${86400 + seconds}` : `seconds=${seconds}`;
      tz = `, tzinfo=datetime.timezone(datetime.timedelta(${delta}))`;
    }
    return `datetime.datetime(${parts.join(', ')}${tz})`;
  }
  return String(v);
}

function value(text: string, options?: YamlLoadOptions): PyValue {
  const r = loadYaml(text, options);
  if (!r.ok) assert.fail(`loading ${JSON.stringify(text)} failed: ${r.error.kind}: ${r.error.message}`);
  return r.value;
}

function error(text: string, options?: YamlLoadOptions): YamlProblem {
  const r = loadYaml(text, options);
  if (r.ok) assert.fail(`loading ${JSON.stringify(text)} should fail, got ${repr(r.value)}`);
  return r.error;
}

function checkTable(rows: ReadonlyArray<readonly [string, string]>): void {
  for (const [text, expected] of rows) {
    assert.equal(repr(value(text)), expected, `for ${JSON.stringify(text)}`);
  }
}

test('implicit bool: exactly the 18 YAML 1.1 spellings', () => {
  const yes = ['yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'];
  const no = ['no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'];
  for (const t of yes) assert.equal(value(t), true, t);
  for (const t of no) assert.equal(value(t), false, t);
  checkTable([
    ['y', "'y'"],
    ['n', "'n'"],
    ['yEs', "'yEs'"],
    ['tRUE', "'tRUE'"],
  ]);
});

test('implicit null', () => {
  checkTable([
    ['~', 'None'],
    ['null', 'None'],
    ['Null', 'None'],
    ['NULL', 'None'],
    ['', 'None'],
    ['nULL', "'nULL'"],
    ['a:', "{'a': None}"],
    ['a: ~', "{'a': None}"],
    ['---\n', 'None'],
    ['# only a comment\n', 'None'],
  ]);
});

test('implicit int: binary, octal, decimal, hex, sexagesimal, underscores', () => {
  checkTable([
    ['0b1010', '10'],
    ['-0b1_0', '-2'],
    ['017', '15'],
    ['-0_17', '-15'],
    ['00', '0'],
    ['0', '0'],
    ['-0', '0'],
    ['+12', '12'],
    ['1_000', '1000'],
    ['0x1F', '31'],
    ['-0xff', '-255'],
    ['0xA_b', '171'],
    ['1:30', '90'],
    ['-1:30:05', '-5405'],
    ['190:20:30', '685230'],
    ['12345678901234567890', '12345678901234567890'],
    // not ints
    ['0o17', "'0o17'"],
    ['09', "'09'"],
    ['1:60', "'1:60'"],
  ]);
  assert.equal(typeof value('5'), 'bigint');
});

test('implicit resolution without regexes (digit-led scalars, bool and null words) agrees with PyYAML', () => {
  // The resolver answers these by scanning the digits or looking the word up; PyYAML runs its regexes.
  checkTable([
    ['1_', '1'],
    ['1__2', '12'],
    ['07_', '7'],
    ['123abc', "'123abc'"],
    ['9a', "'9a'"],
    ['0a', "'0a'"],
    ['0x', "'0x'"],
    ['0xg', "'0xg'"],
    ['0bz', "'0bz'"],
    ['0_8', "'0_8'"],
    ['12E3', "'12E3'"],
    ['1_000a', "'1_000a'"],
    ['123-45', "'123-45'"],
    ['2001-12-14x', "'2001-12-14x'"],
    ['573047E5C45BFC3E5A5B141AFDBBB4D12AE4D556', "'573047E5C45BFC3E5A5B141AFDBBB4D12AE4D556'"],
    ['nulls', "'nulls'"],
    ['offx', "'offx'"],
    ['owner', "'owner'"],
    // The non-specific tag resolves quoted text, where Python's `$` also matches before a final newline.
    ['! "12\\n"', '12'],
    ['! "Null\\n"', 'None'],
    ['! "0x1F\\n"', '31'],
  ]);
  assert.equal(error('! "yes\\n"').pyException, 'KeyError');
});

test('scalars on one line without escapes are the source text; folded or escaped ones are built', () => {
  checkTable([
    ['a:  b  c  # x', "{'a': 'b  c'}"],
    ['k: deb [signed-by=$K] http://x $R main', "{'k': 'deb [signed-by=$K] http://x $R main'}"],
    ['k: a\n  b\n\n  c', "{'k': 'a b\\nc'}"],
    ["k: 'a  b'", "{'k': 'a  b'}"],
    ["k: 'it''s'", '{\'k\': "it\'s"}'],
    ["k: 'a\n  b'", "{'k': 'a b'}"],
    ['k: "a\\tb \' x"', '{\'k\': "a\\tb \' x"}'],
    ['k: "a \\\n  b"', "{'k': 'a b'}"],
    ['[a b, "c  d"]', "['a b', 'c  d']"],
  ]);
});

test('anchors and tags in either order, a BOM at the start: the recycled tokens and events keep them apart', () => {
  checkTable([
    ['a: &x !!str 5\nb: *x', "{'a': '5', 'b': '5'}"],
    ['- !!int &a 12\n- *a', '[12, 12]'],
    ['\ufeffa: 1', "{'a': 1}"],
    ['\ufeff', 'None'],
    ['{a: &k [1, 2], b: *k, c: !!str 3}', "{'a': [1, 2], 'b': [1, 2], 'c': '3'}"],
  ]);
});

test('implicit float: YAML 1.1 forms only (1e5 is a string)', () => {
  checkTable([
    ['1.5', '1.5'],
    ['1.10', '1.1'],
    ['1.', '1.0'],
    ['-1.5', '-1.5'],
    ['+1.5', '1.5'],
    ['.5', '0.5'],
    ['1.0e+5', '100000.0'],
    ['1.5E-3', '0.0015'],
    ['6.8523015e+5', '685230.15'],
    ['685.230_15e+03', '685230.15'],
    ['1_0.5_0', '10.5'],
    ['190:20:30.15', '685230.15'],
    ['.inf', 'inf'],
    ['-.Inf', '-inf'],
    ['+.INF', 'inf'],
    ['.NaN', 'nan'],
    ['.nan', 'nan'],
    // not floats
    ['1e5', "'1e5'"],
    ['1.5e3', "'1.5e3'"],
    ['+.5', "'+.5'"],
    ['._5', "'._5'"],
    ['-.nan', "'-.nan'"],
  ]);
  assert.equal(typeof value('1.0'), 'number');
});

test('implicit timestamp: date, datetime, fraction to microseconds, offsets', () => {
  checkTable([
    ['2001-12-14', 'datetime.date(2001, 12, 14)'],
    ['2001-12-14t21:59:43.10-05:00', 'datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))'],
    ['2001-12-14 21:59:43.10 -5', 'datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))'],
    ['2001-12-15T02:59:43.1Z', 'datetime.datetime(2001, 12, 15, 2, 59, 43, 100000, tzinfo=datetime.timezone.utc)'],
    ['2001-12-15 2:59:43.10', 'datetime.datetime(2001, 12, 15, 2, 59, 43, 100000)'],
    ['2001-01-01 01:02:03.1234567', 'datetime.datetime(2001, 1, 1, 1, 2, 3, 123456)'],
    ['2001-01-01T01:02:03.5+05:30', 'datetime.datetime(2001, 1, 1, 1, 2, 3, 500000, tzinfo=datetime.timezone(datetime.timedelta(seconds=19800)))'],
    ['2001-01-01  01:02:03 Z', 'datetime.datetime(2001, 1, 1, 1, 2, 3, tzinfo=datetime.timezone.utc)'],
    // a date needs two-digit month and day
    ['2001-1-1', "'2001-1-1'"],
  ]);
  const e = error('2001-02-30');
  assert.equal(e.pyException, 'ValueError');
  assert.equal(e.message, 'day is out of range for month');
});

test('timestamp keys: years 1-99 are their own instants (regression: 0050 and 1950 were one key)', () => {
  // PyYAML: {datetime(50, 1, 1, tzinfo=utc): 'a', datetime(1950, 1, 1, tzinfo=utc): 'b', datetime(2000, 1, 1, 1, 0, tzinfo=+01:00): 'd'}
  const v = value('{0050-01-01 00:00:00Z: a, 1950-01-01 00:00:00Z: b, 2000-01-01 01:00:00+01:00: c, 2000-01-01 00:00:00Z: d}');
  assert.ok(v instanceof V.PyDict);
  assert.deepEqual(v.entries().map(([k, x]) => [(k as V.PyTimestamp).isoformat(), x]), [
    ['0050-01-01T00:00:00+00:00', 'a'],
    ['1950-01-01T00:00:00+00:00', 'b'],
    ['2000-01-01T01:00:00+01:00', 'd'],
  ]);
});

test('quoted and block scalars are strings; the non-specific tag ! resolves even quoted ones', () => {
  checkTable([
    ["'5'", "'5'"],
    ['"yes"', "'yes'"],
    ['"1.5"', "'1.5'"],
    ["'~'", "'~'"],
    ['|\n  5\n', "'5\\n'"],
    ['>-\n  yes\n', "'yes'"],
    ['! 5', '5'],
    ["! 'yes'", 'True'],
    ['! "1.5"', '1.5'],
  ]);
});

test('explicit standard tags', () => {
  checkTable([
    ['!!str 5', "'5'"],
    ['!!str yes', "'yes'"],
    ['!!str ~', "'~'"],
    ['!!int "0x1F"', '31'],
    ["!!int '0o17'", '15'],
    ['!!int " 5 "', '5'],
    ["!!int '1:30'", '90'],
    ['!!float "1"', '1.0'],
    ['!!float 1e5', '100000.0'],
    ["!!float '1:30'", '90.0'],
    ['!!bool yes', 'True'],
    ["!!bool 'OFF'", 'False'],
    ["!!null 'x'", 'None'],
    ['!!binary aGVsbG8=', "b'hello'"],
    ['!!binary |\n  aGVs\n  bG8=\n', "b'hello'"],
    ["!!timestamp '2001-12-14'", 'datetime.date(2001, 12, 14)'],
    ['!!timestamp 2001-12-14 21:59:43.10 -5', 'datetime.datetime(2001, 12, 14, 21, 59, 43, 100000, tzinfo=datetime.timezone(datetime.timedelta(days=-1, seconds=68400)))'],
    ['!!omap [a: 1, b: 2]', "[('a', 1), ('b', 2)]"],
    ['!!pairs [{a: 1}, {a: 2}]', "[('a', 1), ('a', 2)]"],
    ['!!set {a, b, 1}', "set('a', 'b', 1)"],
    ['!!seq [1]', '[1]'],
    ['!!map {a: 1}', "{'a': 1}"],
    ["!<tag:yaml.org,2002:int> '7'", '7'],
    ['!!python/unicode 5', "'5'"],
    ['"\\x41\\u00e9\\N\\_\\/"', "'Aé\\x85\\xa0/'"],
  ]);
  assert.ok(value('!!omap [a: 1]') instanceof Array);
  assert.ok((value('!!omap [a: 1]') as PyValue[])[0] instanceof V.PyTuple);
  assert.ok(value('!!set {a}') instanceof V.PySet);
  assert.ok(value('!!binary aGk=') instanceof V.PyBytes);
});

test('!!python/unicode can be turned off', () => {
  const e = error('!!python/unicode x', { pythonUnicodeTag: false });
  assert.equal(e.kind, 'unknown-tag');
  assert.equal(e.message, "could not determine a constructor for the tag 'tag:yaml.org,2002:python/unicode'");
});

test('constructor errors of explicit tags, with the Python exception', () => {
  const cases: Array<[string, string, string, string]> = [
    ['!foo x', 'unknown-tag', 'ConstructorError', "could not determine a constructor for the tag '!foo'"],
    ['!!python/str x', 'unknown-tag', 'ConstructorError', "could not determine a constructor for the tag 'tag:yaml.org,2002:python/str'"],
    ['a: =', 'unknown-tag', 'ConstructorError', "could not determine a constructor for the tag 'tag:yaml.org,2002:value'"],
    ['- <<', 'unknown-tag', 'ConstructorError', "could not determine a constructor for the tag 'tag:yaml.org,2002:merge'"],
    ['k: !!int x', 'value', 'ValueError', "invalid literal for int() with base 10: 'x'"],
    ['!!bool maybe', 'value', 'KeyError', "'maybe'"],
    ['!!float x', 'value', 'ValueError', "could not convert string to float: 'x'"],
    ['!!timestamp x', 'value', 'AttributeError', "'NoneType' object has no attribute 'groupdict'"],
    ['!!binary aGVsbG8', 'constructor', 'ConstructorError', 'failed to decode base64 data: Incorrect padding'],
    ['!!python/unicode [x]', 'constructor', 'ConstructorError', 'expected a scalar node, but found sequence'],
    ['!!set [a]', 'constructor', 'ConstructorError', 'expected a mapping node, but found sequence'],
  ];
  for (const [text, kind, py, message] of cases) {
    const e = error(text);
    assert.deepEqual([e.kind, e.pyException, e.message], [kind, py, message], text);
  }
  assert.equal(repr(value('=: 1')), "{'=': 1}");
});

test('merge keys', () => {
  checkTable([
    ['b: &b {x: 1, y: 2}\nc: {<<: *b, y: 3, z: 4}', "{'b': {'x': 1, 'y': 2}, 'c': {'x': 1, 'y': 3, 'z': 4}}"],
    // later mappings of a merge sequence go first, so earlier ones win
    ['a: &a {k: 1, x: a}\nb: &b {k: 2, y: b}\nc:\n  <<: [*a, *b]\n  z: c', "{'a': {'k': 1, 'x': 'a'}, 'b': {'k': 2, 'y': 'b'}, 'c': {'k': 1, 'y': 'b', 'x': 'a', 'z': 'c'}}"],
    // explicit keys win wherever they are written
    ['a: &a {k: 1}\nc: {k: 0, <<: *a}', "{'a': {'k': 1}, 'c': {'k': 0}}"],
    // two << keys: the later one wins
    ['c: {<<: {a: 1}, <<: {a: 2, b: 2}}', "{'c': {'a': 2, 'b': 2}}"],
    ["c: {'<<': {a: 1}}", "{'c': {'<<': {'a': 1}}}"],
    ['c: !!set {<<: {a: 1}, b}', "{'c': set('a', 'b')}"],
    ['&a {<<: *a}', '{}'],
  ]);
  const e1 = error('c: {<<: 1}');
  assert.deepEqual([e1.kind, e1.message], ['merge', 'while constructing a mapping\nexpected a mapping or list of mappings for merging, but found scalar']);
  const e2 = error('c: {<<: [{a: 1}, 2]}');
  assert.deepEqual([e2.kind, e2.message], ['merge', 'while constructing a mapping\nexpected a mapping for merging, but found scalar']);
});

test('duplicate keys: last value wins at the first position, each later key reported', () => {
  const text = 'a: 1\nb: 2\na: 3';
  const r = loadYaml(text);
  assert.ok(r.ok);
  assert.equal(repr(r.value), "{'a': 3, 'b': 2}");
  assert.equal(r.duplicateKeys.length, 1);
  assert.deepEqual(r.duplicateKeys[0], { message: "duplicate key 'a'", span: { start: 10, end: 11 }, kind: 'duplicate-key', contextSpan: { start: 0, end: 1 } });
  // Python key equality: 1 == 1.0 == True, the first key object is kept
  const r2 = loadYaml('1: a\n1.0: b\ntrue: c');
  assert.ok(r2.ok);
  assert.equal(repr(r2.value), "{1: 'c'}");
  assert.deepEqual(
    r2.duplicateKeys.map((d) => [d.message, d.span.start, d.contextSpan?.start]),
    [
      ['duplicate key 1.0', 5, 0],
      ['duplicate key True', 12, 5],
    ],
  );
  // keys brought in by a merge are not duplicates
  const r3 = loadYaml('b: &b {x: 1}\nc: {<<: *b, x: 2}');
  assert.ok(r3.ok);
  assert.equal(r3.duplicateKeys.length, 0);
});

test('complex keys: hashable ones keep their type, collections are unhashable', () => {
  checkTable([['? 2001-01-01\n: d\n1.5: f\n~: n\nno: b', "{datetime.date(2001, 1, 1): 'd', 1.5: 'f', None: 'n', False: 'b'}"]]);
  for (const [text, pos] of [
    ['[a]: b', 0],
    ['{a: 1}: b', 0],
    ['!!set {[a]}', 7],
  ] as const) {
    const e = error(text);
    assert.deepEqual([e.kind, e.pyException, e.message, e.span.start], ['unhashable-key', 'ConstructorError', 'while constructing a mapping\nfound unhashable key', pos], text);
  }
});

test('aliases share the constructed object; alias bombs cost nothing', () => {
  const v = value('- &x [1]\n- *x') as PyValue[];
  assert.equal(repr(v), '[[1], [1]]');
  assert.equal(v[0], v[1]);
  let bomb = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
  for (let k = 1; k < 30; k++) bomb += `a${k}: &a${k} [${Array(10).fill(`*a${k - 1}`).join(', ')}]\n`;
  const started = Date.now();
  const r = loadYaml(bomb);
  assert.ok(r.ok);
  assert.ok(Date.now() - started < 2000);
  const limited = loadYaml(bomb, { maxAliasExpansion: 1_000_000 });
  assert.ok(!limited.ok);
  assert.equal(limited.error.kind, 'expansion');
  assert.ok(loadYaml('a: &a [1, 2]\nb: *a', { maxAliasExpansion: 100 }).ok);
});

test('merge keys that multiply pairs (a merge-key bomb) stop at maxMergedPairs, naming maxExpandedNodes', () => {
  // Each level merges the level before twice: PyYAML copies the pairs, 2^n of them (it never finishes at 40).
  const bomb = (levels: number) => ['l0: &l0 {a: 1, b: 2}', ...Array.from({ length: levels }, (_, i) => `l${i + 1}: &l${i + 1} {<<: [*l${i}, *l${i}]}`)].join('\n');
  const small = loadYaml(bomb(10));
  assert.ok(small.ok, 'a few thousand copied pairs are fine');
  assert.equal(repr((small.value as V.PyDict).get('l10') ?? null), "{'a': 1, 'b': 2}");
  const r = loadYaml(bomb(40));
  assert.ok(!r.ok);
  assert.equal(r.error.kind, 'expansion');
  assert.match(r.error.message, /^merge keys \(<<\) would copy more than 5000000 key\/value pairs into mappings \(limit maxExpandedNodes = 5000000\)/);
  const limited = loadYaml(bomb(10), { maxMergedPairs: 1000 });
  assert.ok(!limited.ok);
  assert.match(limited.error.message, /more than 1000 key\/value pairs/);
  assert.equal(mergeExpansionError(limited, 1000)?.limit, 'maxExpandedNodes');
  assert.equal(mergeExpansionError(small), undefined);
});

test('many copies of one key: each duplicate names the copy before it (and loading stays linear)', () => {
  const r = loadYaml('a: 1\nb: 2\n' + 'a: 3\n'.repeat(20000) + 'b: 4\n');
  assert.ok(r.ok);
  assert.equal(r.duplicateKeys.length, 20001);
  const lineOf = (offset: number) => r.ok && offset >= 0 ? 'a: 1\nb: 2\n'.concat('a: 3\n'.repeat(20000), 'b: 4\n').slice(0, offset).split('\n').length : -1;
  assert.equal(lineOf(r.duplicateKeys[0].contextSpan!.start), 1);
  assert.equal(lineOf(r.duplicateKeys[1].span.start), 4);
  assert.equal(lineOf(r.duplicateKeys[1].contextSpan!.start), 3);
  assert.equal(lineOf(r.duplicateKeys[20000].contextSpan!.start), 2, 'b: 4 names b: 2');
  assert.equal(repr(r.value), "{'a': 3, 'b': 4}");
});

test('recursive structures are an error of kind recursive', () => {
  for (const text of ['&a [*a]', '&a {x: *a}', 'a: &a {b: [*a]}']) {
    assert.equal(error(text).kind, 'recursive', text);
  }
  // PyYAML itself recurses forever here
  const e = error('&a !!str {=: *a}');
  assert.deepEqual([e.kind, e.pyException], ['recursive', 'RecursionError']);
  // but an alias to its own mapping as a key is PyYAML's unhashable-key error
  assert.equal(error('&a {*a: 1}').kind, 'unhashable-key');
});

test('one document only', () => {
  checkTable([
    ['---\na\n...\n', "'a'"],
    ['--- a', "'a'"],
  ]);
  const e = error('a\n---\nb');
  assert.deepEqual([e.kind, e.pyException, e.message, e.span.start], ['multiple-documents', 'ComposerError', 'expected a single document in the stream\nbut found another document', 2]);
  const e2 = error('a\n...\nb');
  assert.deepEqual([e2.kind, e2.message, e2.span.start], ['syntax', "expected '<document start>', but found '<scalar>'", 6]);
});

test('syntax errors: PyYAML messages and positions', () => {
  const cases: Array<[string, string, string, number]> = [
    ['a:\tb', 'ScannerError', "while scanning for the next token\nfound character '\\t' that cannot start any token", 2],
    ['\ta: b', 'ScannerError', "while scanning for the next token\nfound character '\\t' that cannot start any token", 0],
    ['a: b\t', 'ScannerError', "while scanning for the next token\nfound character '\\t' that cannot start any token", 4],
    ['a:\n  b: 1\n c: 2', 'ParserError', "while parsing a block mapping\nexpected <block end>, but found '<block mapping start>'", 11],
    ['a: b: c', 'ScannerError', 'mapping values are not allowed here', 4],
    ['- a\nb: c', 'ParserError', "while parsing a block collection\nexpected <block end>, but found '?'", 4],
    ['[a, b', 'ParserError', "while parsing a flow sequence\nexpected ',' or ']', but got '<stream end>'", 5],
    ['"a', 'ScannerError', 'while scanning a quoted scalar\nfound unexpected end of stream', 2],
    ['[url?x=1]', 'ParserError', "while parsing a flow sequence\nexpected ',' or ']', but got '?'", 4],
    ['&a.b x', 'ScannerError', "while scanning an anchor\nexpected alphabetic or numeric character, but found '.'", 2],
    ['--- |\nfoo', 'ParserError', "expected '<document start>', but found '<scalar>'", 6],
    ['a: x\u2028  b: 1', 'ScannerError', 'mapping values are not allowed here', 8],
    ['"\\q"', 'ScannerError', "while scanning a double-quoted scalar\nfound unknown escape character 'q'", 2],
    ['!e!x y', 'ParserError', "while parsing a node\nfound undefined tag handle '!e!'", 0],
  ];
  for (const [text, py, message, pos] of cases) {
    const e = error(text);
    assert.deepEqual([e.kind, e.pyException, e.message, e.span.start], ['syntax', py, message, pos], text);
  }
});

test('composer errors', () => {
  const e1 = error('*a');
  assert.deepEqual([e1.kind, e1.message, e1.span], ['undefined-alias', "found undefined alias 'a'", { start: 0, end: 2 }]);
  const e2 = error('- &a x\n- &a y');
  assert.deepEqual([e2.kind, e2.message, e2.span.start, e2.contextSpan?.start], ['duplicate-anchor', "found duplicate anchor 'a'; first occurrence\nsecond occurrence", 9, 2]);
});

test('reader: non-printable characters are rejected, a leading BOM is skipped', () => {
  const e = error('a: \u0001');
  assert.deepEqual([e.kind, e.pyException, e.message, e.span], ['invalid-character', 'ReaderError', 'unacceptable character #x0001: special characters are not allowed', { start: 3, end: 4 }]);
  assert.equal(error('a: \ud800').message, 'unacceptable character #xd800: special characters are not allowed');
  checkTable([['\ufeffa: 1', "{'a': 1}"]]);
});

test('PyYAML scanner rules the yaml package does not share', () => {
  checkTable([
    ['a: "foo\nbar"', "{'a': 'foo bar'}"],
    ['a: [b,\nc]', "{'a': ['b', 'c']}"],
    ['"a"#c', "'a'"],
    ['x\u2028y', "'x\\u2028y'"],
    ['a: |\n  x\n\n', "{'a': 'x\\n'}"],
    ['a: |+\n  x\n\n', "{'a': 'x\\n\\n'}"],
    ['a: >\n  x\n  y\n\n  z\n', "{'a': 'x y\\nz\\n'}"],
  ]);
});

test('origins: spans of keys, values and list items, with the source index', () => {
  const text = 'a: 1\nb:\n  - x\n  - *r\nc: &r [y]\n';
  // *r is used before it is defined: an error; use a valid variant
  assert.equal(error(text).kind, 'undefined-alias');
  const ok = 'c: &r [y]\nb:\n  - x\n  - *r\n  -\nd: {k: v}\n';
  const r = loadYaml(ok, { source: 7 });
  assert.ok(r.ok);
  const d = r.value as V.PyDict;
  const span = (s: { start: number; end: number } | undefined) => (s ? ok.slice(s.start, s.end) : undefined);
  const oc = d.originOf('c');
  assert.equal(oc?.source, 7);
  assert.equal(span(oc?.key), 'c');
  assert.equal(span(oc?.value), '&r [y]');
  const ob = d.originOf('b');
  assert.equal(span(ob?.value), '- x\n  - *r\n  -');
  const list = d.get('b') as PyValue[];
  const items = V.getListOrigins(list);
  assert.deepEqual(
    items?.map((o) => span(o?.value)),
    ['x', '*r', ''],
  );
  assert.equal(items?.[0]?.source, 7);
  assert.equal(span(d.originOf('d')?.value), '{k: v}');
  const inner = d.get('d') as V.PyDict;
  assert.deepEqual([span(inner.originOf('k')?.key), span(inner.originOf('k')?.value)], ['k', 'v']);
  // merged entries point at the mapping they come from
  const m = 'base: &b {x: 1}\nuse: {<<: *b, y: 2}';
  const mv = value(m) as V.PyDict;
  const use = mv.get('use') as V.PyDict;
  const ox = use.originOf('x');
  assert.deepEqual([ox?.key?.start, ox?.value?.start], [10, 13]);
  // block scalars end with their last content line
  const b = 'k: |\n  one\n  two\n\nz: 1';
  const bo = (value(b) as V.PyDict).originOf('k')?.value;
  assert.equal(bo && b.slice(bo.start, bo.end), '|\n  one\n  two');
  // spans are UTF-16 offsets
  const u = '😀: é';
  const uo = (value(u) as V.PyDict).originOf('😀');
  assert.deepEqual([uo?.key, uo?.value], [{ start: 0, end: 2 }, { start: 4, end: 5 }]);
});

test('rootSpan: the span of the root node', () => {
  const r = loadYaml('# c\n- a\n- b\n');
  assert.ok(r.ok);
  assert.deepEqual(r.rootSpan, { start: 4, end: 11 });
  const empty = loadYaml('# nothing\n');
  assert.ok(empty.ok);
  assert.equal(empty.rootSpan, null);
});

test('a load result is plain data: it can be posted to a worker and written as JSON without parsing the text again', () => {
  // It used to carry a lazy second parse by the `yaml` package that nothing read: copying the result
  // (structured clone, JSON, a spread) ran that parse, and a clone failed on its classes (DataCloneError).
  const yamlPackage = () => Object.keys(require.cache).filter((k) => /[\\/]node_modules[\\/]yaml[\\/]/.test(k)).length;
  const before = yamlPackage();
  for (const text of ['a: 1\n', 'a: [']) {
    const r: YamlLoadResult = loadYaml(text);
    const cloned = structuredClone(r);
    assert.equal(cloned.ok, r.ok);
    assert.deepEqual(Object.keys(r).sort(), r.ok ? ['duplicateKeys', 'ok', 'rootSpan', 'value', 'warnings'] : ['error', 'ok']);
    JSON.parse(JSON.stringify(r));
  }
  assert.equal(yamlPackage(), before, 'the yaml package was not loaded');
});

test('deep nesting: no stack overflow, maxDepth gives a limit error', () => {
  const depth = 6000;
  const flow = '['.repeat(depth) + ']'.repeat(depth);
  const v = value(flow);
  let d = 0;
  for (let x = v; Array.isArray(x) && x.length; x = x[0]) d++;
  assert.equal(d, depth - 1);
  let block = '';
  for (let i = 0; i < 1000; i++) block += ' '.repeat(i) + 'k:\n';
  assert.ok(loadYaml(block).ok);
  const e = error('['.repeat(20) + ']'.repeat(20), { maxDepth: 10 });
  assert.equal(e.kind, 'limit');
  assert.equal(error('['.repeat(20000) + ']'.repeat(20000)).kind, 'limit');
});

test('a 20,000-line document loads quickly (linear time)', () => {
  const parts: string[] = ['#cloud-config'];
  for (let i = 0; parts.length < 20000; i++) {
    parts.push(`key${i}:`, `  name: "user ${i}"`, `  groups: [adm, sudo]`, `  uid: ${1000 + i}`, `  enabled: yes`, `  content: |`, `    line`, `  list:`, `    - a`, `    - b: 2001-01-01`);
  }
  const text = parts.join('\n');
  loadYaml(text); // warm up
  const started = process.hrtime.bigint();
  const r = loadYaml(text);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  assert.ok(r.ok);
  // A bound for catching non-linear behaviour, generous for loaded CI machines:
  // on an idle machine this takes well under 100 ms.
  assert.ok(ms < 5000, `took ${ms} ms`);
});

test('sharedExpansion: what repeating aliased values adds; a large document without aliases adds nothing (issue 43)', () => {
  const value = (text: string) => {
    const r = loadYaml(text);
    assert.ok(r.ok);
    return r.value;
  };
  const big = value('routes:\n' + Array.from({ length: 10_000 }, (_, i) => `  - {to: 10.0.${i >> 8}.${i & 255}/32, via: 192.168.0.1}\n`).join(''));
  assert.equal(sharedExpansion(big, 100), 0, '50,000 nodes written, none repeated');
  // [1, 2] is written once and repeated twice: each repetition is the list and its 2 items.
  assert.equal(sharedExpansion(value('a: &a [1, 2]\nb: *a\nc: [*a]\n'), 100), 6);
  assert.equal(sharedExpansion(value('s: &s text\nl: [*s, *s]\n'), 100), 0, 'a scalar alias costs what a scalar does');
  let bomb = 'l0: &l0 [a, a]\n';
  for (let i = 1; i <= 60; i++) bomb += `l${i}: &l${i} [*l${i - 1}, *l${i - 1}]\n`;
  const started = Date.now();
  assert.equal(sharedExpansion(value(bomb), 1_000_000), 1_000_001, 'stops past the limit');
  assert.ok(Date.now() - started < 5000);
});
