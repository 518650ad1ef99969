/**
 * The editor's reading of half-typed templates (server/src/engine/template/tags.ts, assist.ts) and the
 * map from rendered text back to template lines (renderCloudInitJinja's trackOrigins). Case tables in
 * the user's terms: the text typed, with `§` where the cursor is.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FILTER_NAMES, TEST_NAMES, referenceAt, templateCursorAt } from '../../server/src/engine/template/assist';
import { FILTER_SUMMARIES, TEST_SUMMARIES } from '../../server/src/engine/template/jinjaNames';
import { instanceReferences } from '../../server/src/engine/lint/templateLint';
import { renderCloudInitJinja } from '../../server/src/engine/userdata/jinja';

const H = '## template: jinja\n#cloud-config\n';

function at(text: string): { text: string; offset: number } {
  const offset = text.indexOf('§');
  return { text: text.slice(0, offset) + text.slice(offset + 1), offset };
}

const CURSORS: Array<[string, unknown]> = [
  ['x: {{ v1.§ }}', { kind: 'path', root: 'v1', steps: [], partial: '' }],
  ['x: {{ v1.loc§ }}', { kind: 'path', root: 'v1', steps: [], partial: 'loc' }],
  ["x: {{ ds['meta-data'].placement.§ }}", { kind: 'path', root: 'ds', steps: [{ kind: 'item', key: 'meta-data' }, { kind: 'attr', name: 'placement' }], partial: '' }],
  ['x: {{ v1.public_ssh_keys[0].§ }}', { kind: 'path', root: 'v1', steps: [{ kind: 'attr', name: 'public_ssh_keys' }, { kind: 'item', key: 0 }], partial: '' }],
  ['x: {{ v1.region | up§ }}', { kind: 'filter', partial: 'up' }],
  ['{% if v1.region is § %}', { kind: 'test', partial: '' }],
  ['{% if v1.region is not str§ %}', { kind: 'test', partial: 'str' }],
  ['x: {{ § }}', { kind: 'name', partial: '' }],
  ['{% for k in v§ %}', { kind: 'name', partial: 'v' }],
  ["x: {{ 'v1.§ }}", null],
  ['x: v1.§', null],
  ['{# v1.§ #}', null],
];

for (const [typed, expected] of CURSORS) {
  test(`completion context: ${typed}`, () => {
    const { text, offset } = at(H + typed);
    const cursor = templateCursorAt(text, offset);
    if (expected === null) return assert.equal(cursor, null);
    assert.ok(cursor);
    const { replaceStart: _r, ...rest } = cursor as { replaceStart: number; dotAt?: number };
    delete rest.dotAt;
    assert.deepEqual(rest, expected);
  });
}

const REFERENCES: Array<[string, string[]]> = [
  ['x: {{ v1.region }} {{ ds.meta_data["local-hostname"] }}', ['v1.region', 'ds.meta_data["local-hostname"]']],
  ['{% for key in v1.public_ssh_keys %}- {{ key }}{% endfor %}', ['v1.public_ssh_keys']],
  ['{% set n = v1.region | upper %}{{ n }}', ['v1.region']],
  ['{{ v1.region.startswith("us") }} {{ range(3) }} {{ loop }}', ['v1.region']],
  ["{{ v1.region | default('x') }} {% if v1.zone is defined %}{% endif %}", ['v1.region', 'v1.zone']],
  ['{{ dict(a=1) }} {{ ns.x }}{% set ns = namespace(x=1) %}', []],
  ['{# {{ v1.hidden }} #}', []],
];

for (const [template, expected] of REFERENCES) {
  test(`instance-data references: ${template}`, () => {
    assert.deepEqual(instanceReferences(H + template).map((r) => r.text), expected);
  });
}

test('hover: the path is cut after the step under the cursor', () => {
  const { text, offset } = at(H + "x: {{ ds['meta-data'].place§ment['availability-zone'] }}");
  assert.equal(referenceAt(text, offset)?.text, "ds['meta-data'].placement");
  const root = at(H + 'x: {{ v§1.region }}');
  assert.equal(referenceAt(root.text, root.offset)?.text, 'v1');
});

test('rendered offsets map back to the template line that produced them', () => {
  const payload = H + 'a: {{ v1.a }}\n{% for i in [1, 2] %}\nb{{ i }}: {{ v1.b }}\n{% endfor %}\nc: 3\n';
  const r = renderCloudInitJinja(payload, { v1: { a: 'x', b: 'y' } }, { trackOrigins: true });
  assert.ok(r.ok && r.payloadOffsetOf);
  assert.equal(r.text, '#cloud-config\na: x\nb1: y\nb2: y\nc: 3\n');
  const lineOf = (offset: number) => payload.slice(0, offset).split('\n').length - 1;
  const renderedLine = (n: number) => r.text.split('\n').slice(0, n).join('\n').length + (n ? 1 : 0);
  assert.equal(lineOf(r.payloadOffsetOf(renderedLine(1))), 2, 'a: comes from line 2');
  assert.equal(lineOf(r.payloadOffsetOf(renderedLine(2) + 4)), 4, 'the value in b1: comes from line 4');
  assert.equal(lineOf(r.payloadOffsetOf(renderedLine(3) + 4)), 4, 'so does the value in b2:');
  assert.equal(lineOf(r.payloadOffsetOf(renderedLine(4))), 6, 'c: comes from line 6');
  const plain = renderCloudInitJinja(payload, { v1: {} });
  assert.ok(plain.ok && !('payloadOffsetOf' in plain), 'only when asked');
});

test('every filter and test offered has its line, and no line names something Jinja lacks', () => {
  assert.deepEqual(Object.keys(FILTER_SUMMARIES).sort(), [...FILTER_NAMES]);
  assert.deepEqual(Object.keys(TEST_SUMMARIES).sort(), [...TEST_NAMES]);
});
