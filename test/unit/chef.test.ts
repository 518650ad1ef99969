// Chef-style deep merge (issue: custom mergers and Chef deep merge).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chefDeepMerge, chefMergeFiles, knockoutFindingsIn } from '../../server/src/engine/chef/deepMerge';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { loadChefFiles } from '../../server/src/engine/chef/files';
import { PyDict, PySet, PyValue } from '../../server/src/engine/py/values';
import { py, canon } from '../support/py';

const merge = (a: string, b: string) => canon(chefDeepMerge(py(a), py(b)));

test('arrays are unioned without duplicates, earlier items first', () => {
  assert.equal(merge('[1,2]', '[3]'), '[1,2,3]');
  assert.equal(merge('[1,2]', '[2,3,1]'), '[1,2,3]');
  assert.equal(merge('[[1,2]]', '[[3]]'), '[[1,2],[3]]');
  assert.equal(merge('[[1,2]]', '[[1,2]]'), '[[1,2]]');
  assert.equal(merge('[1]', '[1.0]'), '[1,1.0]', '1 and 1.0 are different items, as in Ruby');
});

test('hashes merge recursively; the later scalar wins; a different type replaces', () => {
  assert.equal(merge('{"a":{"x":1,"y":2},"b":1}', '{"a":{"y":3},"b":"two"}'), '{"a":{"x":1,"y":3},"b":"two"}');
  assert.equal(merge('{"a":[1]}', '{"a":{"k":1}}'), '{"a":{"k":1}}');
  assert.equal(merge('{"a":{"k":1}}', '{"a":[1]}'), '{"a":[1]}');
  assert.equal(merge('{"a":false}', '{"a":{"k":1}}'), '{"a":{"k":1}}');
});

test('knockout prefix !merge: removes a string, or everything before it', () => {
  assert.equal(merge('["1","2","3"]', '["!merge:2"]'), '["1","3"]');
  assert.equal(merge('[1,2,3]', '["!merge:","4"]'), '["4"]');
  assert.equal(merge('["a"]', '["b","!merge:","c"]'), '["c"]');
});

test('integer knockouts and knockouts that match nothing are reported', () => {
  const result = chefMergeFiles([py('{"default_attributes":{"p":[1,2]}}'), py('{"default_attributes":{"p":["!merge:2","!merge:x"]}}')]);
  assert.equal(canon(result.merged), '{"p":[1,2]}');
  assert.deepEqual(result.notices.map((n) => n.kind), ['knockout-number', 'knockout-no-match']);
});

test('hashes cannot be removed: a knockout string in a mapping is a plain string', () => {
  const result = chefMergeFiles([py('{"a":{"k":1}}'), py('{"a":"!merge:"}')]);
  assert.equal(canon(result.merged), '{"a":"!merge:"}');
  assert.equal(result.notices[0].kind, 'knockout-in-mapping');
});

test('role and environment files: override_attributes win over default_attributes, later files win', () => {
  const role = py('{"chef_type":"role","default_attributes":{"port":80,"pkgs":["a"]},"override_attributes":{"mode":"prod"}}');
  const env = py('{"chef_type":"environment","default_attributes":{"port":8080,"pkgs":["b"],"mode":"dev"}}');
  const result = chefMergeFiles([role, env]);
  assert.deepEqual(result.kinds, ['role', 'environment']);
  assert.equal(canon(result.merged), '{"mode":"prod","pkgs":["a","b"],"port":8080}');
});

test('knockout diagnostics point at the entry in the file', () => {
  const text = 'default_attributes:\n  p: ["!merge:2"]\n  m: "!merge:"\n';
  const loaded = loadYaml(text);
  assert.ok(loaded.ok);
  const findings = knockoutFindingsIn((loaded as { value: PyValue }).value);
  assert.deepEqual(findings.map((f) => [f.kind, text.slice(f.span.start, f.span.end)]), [
    ['knockout-number', '"!merge:2"'],
    ['knockout-in-mapping', '"!merge:"'],
  ]);
});

test('a file whose top level is not a JSON object is refused, not merged as {} (regression)', () => {
  const files = (text: string) => [{ name: 'role.json', bytes: Buffer.from('{"chef_type":"role","default_attributes":{"a":1}}') }, { name: 'bad.json', bytes: Buffer.from(text) }];
  for (const [text, what] of [
    ['[1, 2]', 'a list'],
    ['"text"', 'a str value'],
    ['', 'empty'],
  ]) {
    const loaded = loadChefFiles(files(text));
    assert.deepEqual(loaded.errors, [`bad.json: the top level is ${what}, not a JSON object: Chef reads attributes only from an object ({...})`]);
    assert.equal(loaded.values[1], null);
  }
  assert.deepEqual(loadChefFiles(files('{}')).errors, []);
});

test('Chef arrays keep two different YAML sets (or !!pairs) as two items; a date key is named in notices', () => {
  const load = (name: string, text: string) => loadChefFiles([{ name, bytes: Buffer.from(text) }]).values[0];
  const a = load('a.yaml', 'sets:\n  - !!set {x: null}\n');
  const b = load('b.yaml', 'sets:\n  - !!set {y: null}\n  - !!set {x: null}\n');
  const merged = chefMergeFiles([a, b]).merged as PyDict;
  const sets = merged.get('sets') as PySet[];
  assert.deepEqual(sets.map((s) => s.values()), [['x'], ['y']], 'two different sets are two items; the same set is one');
  const pairs = chefMergeFiles([load('a.yaml', 'p:\n  - !!pairs [{a: [1]}]\n'), load('b.yaml', 'p:\n  - !!pairs [{a: [2]}]\n')]).merged as PyDict;
  assert.equal((pairs.get('p') as PyValue[]).length, 2, 'pairs holding different lists are two items');

  const dated = chefMergeFiles([load('c.yaml', 'when: {a: 1}\n'), load('d.yaml', "when:\n  2024-01-02: '!merge:x'\n")]);
  assert.deepEqual(dated.notices.map((n) => n.path.join('.')), ['when.2024-01-02']);
});
