/**
 * lint/specLint.ts on its own, without a document or a server: each finding of a merge spec (string form
 * and list form), what it marks, its severity by context, and its fixes. What cloud-init does with each
 * spec is pinned against the oracle by the conformance cases (test/conformance); these pin the linter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintListSpec, lintStringSpec, type SpecContext } from '../../server/src/engine/lint/specLint';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { spansOfValue } from '../../server/src/engine/userdata/specSpans';

function lintString(spec: string, context: SpecContext = 'part') {
  const r = lintStringSpec(spec, 0, { context, label: 'merge_how', span: { start: 0, end: spec.length } });
  return { ...r, marked: r.findings.map((f) => [f.code, f.severity, spec.slice(f.span.start, f.span.end)]) };
}

function lintList(yaml: string) {
  const loaded = loadYaml(yaml);
  assert.ok(loaded.ok);
  const r = lintListSpec(loaded.value, spansOfValue(loaded.value, loaded.rootSpan!, yaml), { context: 'part', label: 'merge_how', span: loaded.rootSpan! });
  return r.findings.map((f) => [f.code, f.severity, yaml.slice(f.span.start, f.span.end)]);
}

const STRING_CASES: Array<[string, Array<[string, string, string]>]> = [
  ['list(append)+dict(no_replace,recurse_list)+str()', []],
  ['list(apend)+dict()', [['unknown-option', 'warning', 'apend']]],
  ['list()', [['no-dict-merger', 'error', 'list()']]],
  ['dict(replace)+list(append)', [['merger-unreachable', 'warning', 'list(append)']]],
  ['dict(no_replace)+list(append)', [['list-merger-unreachable', 'warning', 'list(append)']]],
  ['dict()+str(append)', [['str-append-unreachable', 'warning', 'str(append)']]],
  ['list (append)+dict()', [['space-before-paren', 'error', 'list (append)']]],
  ['list(append', [['unclosed-parenthesis', 'error', 'list(append']]],
  ['list(append)dict()', [['missing-plus', 'error', 'append)dict(']]],
  ['list(append)+list(prepend)+dict()', [['duplicate-merger', 'warning', 'list(prepend)'], ['list-merger-unreachable', 'warning', 'list(append)']]],
  ['dict(replace,no_replace)', [['conflicting-options', 'warning', 'no_replace']]],
  ['dict(a+b)', [['plus-in-options', 'error', 'dict(a+b)']]],
  ['yaml()+dict()', [['unknown-merger', 'error', 'yaml']]],
  ['dict(append)', [['option-ignored', 'warning', 'append']]],
  ['', [['empty-spec', 'info', '']]],
  ['dict(recurse_list,recurse_list)', [['duplicate-option', 'hint', 'recurse_list']]],
];

test('string specs: each finding on exactly the text it is about', () => {
  for (const [spec, expected] of STRING_CASES) assert.deepEqual(lintString(spec).marked, expected, spec);
});

test('the same spec costs more in a user-data part than in system config (no dict(): the part is discarded)', () => {
  assert.deepEqual(lintString('list()', 'part').marked, [['no-dict-merger', 'error', 'list()']]);
  assert.deepEqual(lintString('list()', 'system').marked, [['no-dict-merger', 'warning', 'list()']]);
});

test('fixes: a near-miss option is replaced in place; a missing dict() is added at the end', () => {
  const typo = lintString('list(apend)+dict()');
  const fix = typo.findings[0].fixes?.[0];
  assert.ok(fix, 'a fix for the typo');
  assert.deepEqual(fix.edits, [{ span: { start: 5, end: 10 }, newText: 'append' }]);
  const noDict = lintString('list(append)');
  assert.deepEqual(noDict.findings[0].fixes?.[0].edits, [{ span: { start: 12, end: 12 }, newText: '+dict(no_replace,recurse_list)' }]);
});

test('the parsed spec and the mergers cloud-init would build come back with the findings', () => {
  const r = lintString('list(append)+dict(no_replace,recurse_list)+str()');
  assert.deepEqual(r.spec?.mergers.map((m) => m.name), ['list', 'dict', 'str']);
  assert.deepEqual(r.root?.mergers.map((m) => m.describe()), [
    'ListMerger: (method=append,recurse_str=False,recurse_dict=False,recurse_array=False)',
    'DictMerger: (method=no_replace,recurse_str=False,recurse_dict=True,recurse_array=True,allow_delete=False)',
    'StringMerger: (append=False)',
  ]);
});

test('list-form specs: shape errors on the element or key at fault', () => {
  assert.deepEqual(lintList('- name: list\n  settings: [append]\n- name: dict\n  settings: [no_replace, recurse_list]\n'), []);
  assert.deepEqual(lintList('- list(append)\n'), [['string-element', 'error', 'list(append)']]);
  assert.deepEqual(lintList('{name: list}\n'), [['merge-how-mapping', 'error', '{name: list}']]);
  assert.deepEqual(lintList('- name: List\n  settings: []\n'), [['name-not-lowercase', 'error', 'List']]);
  assert.deepEqual(lintList('- name: dict\n'), [['missing-settings', 'error', 'name: dict']]);
  assert.deepEqual(lintList('- name: dict\n  settings: []\n  extra: 1\n'), [['extra-key', 'warning', 'extra']]);
  assert.deepEqual(lintList('- name: list\n  settings: append\n'), [
    ['settings-is-string', 'warning', 'append'],
    ['no-dict-merger', 'error', '- name: list\n  settings: append'],
  ]);
});
