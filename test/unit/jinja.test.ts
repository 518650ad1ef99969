/**
 * Unit tests for server/src/engine/userdata/jinja.ts. Every expectation
 * below was produced by cloud-init 22.4.2 (templater.render_string +
 * convert_jinja_instance_data) with Jinja2 3.1 under /usr/bin/python3;
 * no Python runs here. The differential oracle (test/oracle/jinja.diff.ts)
 * covers the rest with random templates.
 */

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  LIMITS,
  convertInstanceData,
  isJinjaTemplate,
  renderCloudInitJinja,
  type JinjaRenderResult,
} from '../../server/src/engine/userdata/jinja';

const DATA =
  '{"v1": {"instance_id": "i-abc", "local-hostname": "web-1", "region": "eu-west-1", "ratio": 1.0, "count": 3}, ' +
  '"ds": {"meta_data": {"x": [1, 2.5, "y"], "tags": {"Name": "web"}}}, "base64_encoded_keys": []}';

function render(template: string, data: unknown = DATA): JinjaRenderResult {
  return renderCloudInitJinja('## template: jinja\n' + template, data);
}

/** [template, what cloud-init + Jinja2 produced]. */
const CONFIRMED: Array<[string, Record<string, unknown>]> = [
  ["{{ v1.instance_id }} {{ ds.meta_data[\"x\"] }} {{ v1['local-hostname'] }} {{ local_hostname }} {{ region }}\n", {"ok": true, "text": "i-abc [1, 2.5, 'y'] web-1 web-1 eu-west-1\n", "missingVariables": []}],
  ["{{ True }} {{ None }} {{ 1.0 }} {{ ratio }} {{ count / 2 }} {{ [1, 'a', None, 2.5] }} {{ {'a': (1, 2.5)} }} {{ (1,) }}", {"ok": true, "text": "True None 1.0 1.0 1.5 [1, 'a', None, 2.5] {'a': (1, 2.5)} (1,)", "missingVariables": []}],
  ["{{ nope }} and {{ v1.nope }} and {{ [1][5] }}", {"ok": true, "text": "CI_MISSING_JINJA_VAR/nope and CI_MISSING_JINJA_VAR/nope and CI_MISSING_JINJA_VAR/5", "missingVariables": ["nope", "nope", "5"]}],
  ["host: {{ local-hostname }}", {"ok": false, "reason": "type", "message": "Undefined jinja variable: \"local-hostname\". Jinja tried subtraction. Perhaps you meant \"local_hostname\"?"}],
  ["{{ nope.x }}", {"ok": false, "reason": "undefined", "message": "'nope' is undefined"}],
  ["{{ v1.nope.x }}", {"ok": false, "reason": "undefined", "message": "'dict object' has no attribute 'nope'"}],
  ["{% if %}", {"ok": false, "reason": "syntax", "message": "Expected an expression, got 'end of statement block'"}],
  ["{% if true %}\nA\n{% endif %}\nB\n", {"ok": true, "text": "A\nB\n", "missingVariables": []}],
  ["a  {{- \" b \" -}}  c\n  {%- if true %} d {% endif -%}  \n e", {"ok": true, "text": "a b c d e", "missingVariables": []}],
  ["{% for x in [3, 1, 2] %}{{ loop.index }}:{{ x }}{% if not loop.last %},{% endif %}{% else %}empty{% endfor %}|{% for x in [] %}x{% else %}empty{% endfor %}", {"ok": true, "text": "1:3,2:1,3:2|empty", "missingVariables": []}],
  ["{% set t = 0 %}{% for i in [1, 2, 3] %}{% set t = t + i %}{% endfor %}{{ t }} {% set ns = namespace(t=0) %}{% for i in [1, 2, 3] %}{% set ns.t = ns.t + i %}{% endfor %}{{ ns.t }}", {"ok": true, "text": "0 6", "missingVariables": []}],
  ["{% set l = [] %}{% do l.append(v1.region) %}{% do l.extend([1, 2]) %}{{ l }} {{ l|length }}", {"ok": true, "text": "['eu-west-1', 1, 2] 3", "missingVariables": []}],
  ["{{ nope|default('dflt') }} {{ ''|d('empty', true) }} {{ 'AbC'|lower }}{{ 'AbC'|upper }} {{ 'a-b-c'|replace('-', '_') }} {{ [1, 2, 3]|join(', ') }} {{ '42'|int + 1 }} {{ 'x'|int }} {{ 3.7|int }} {{ 1|string }} {{ '  pad  '|trim }}|{{ [5, 6]|first }}{{ [5, 6]|last }}", {"ok": true, "text": "dflt empty abcABC a_b_c 1, 2, 3 43 0 3 1 pad|56", "missingVariables": []}],
  ["{{ {\"b\": [1, 2.0], \"a\": None, \"c\": \"<\u00e9>\"}|tojson }}", {"ok": true, "text": "{\"a\": null, \"b\": [1, 2.0], \"c\": \"\\u003c\\u00e9\\u003e\"}", "missingVariables": []}],
  ["{% raw %}{{ not rendered }}{% endraw %} {# comment #}x", {"ok": true, "text": "{{ not rendered }} x", "missingVariables": []}],
  ["x\n\n", {"ok": true, "text": "x\n\n", "missingVariables": []}],
  ["x", {"ok": true, "text": "x", "missingVariables": []}],
  ["{{ range(3)|list }} {{ range(3) }} {{ {'a': 1}.items() }} {{ 'a,b'.split(',') }} {{ 'abc'[::-1] }} {{ 7 // 2 }} {{ -7 % 3 }} {{ 2 ** 10 }} {{ 10 / 4 }}", {"ok": true, "text": "[0, 1, 2] range(0, 3) dict_items([('a', 1)]) ['a', 'b'] cba 3 2 1024 2.5", "missingVariables": []}],
  ["{{ 1 / 0 }}", {"ok": false, "reason": "runtime", "exception": "ZeroDivisionError", "message": "division by zero"}],
  ["{{ [1, 2]|unique }}", {"ok": true, "text": "<generator object sync_do_unique at 0x7f52ef45e130>", "missingVariables": []}],
  ["{{ {}[:] }}", {"ok": true, "text": "CI_MISSING_JINJA_VAR/slice(None, None, None)", "missingVariables": ["slice(None,"]}],
  ["{{ x if false }}|{{ 0 or \"y\" }}|{{ 1 and [] }}|{{ \"a\" ~ 1 ~ none }}|{{ 2 in [1, 2] }}|{{ \"b\" not in \"abc\" }}|{{ x is defined }}|{{ none is none }}", {"ok": true, "text": "|y|[]|a1None|True|False|False|True", "missingVariables": []}],
  ["{{ \"%s-%05.1f-%x\" % (\"a\", 3.14159, 255) }}", {"ok": true, "text": "a-003.1-ff", "missingVariables": []}],
  ["{% set x %}block {{ 1 }}{% endset %}[{{ x }}]", {"ok": true, "text": "[block 1]", "missingVariables": []}],
  ["{{ 'k: %s'|format(v1.region) }}\n{{ ds.meta_data.tags|dictsort }}\n{{ v1.count|string|center(5) }}|", {"ok": true, "text": "k: eu-west-1\n[('Name', 'web')]\n  3  |", "missingVariables": []}],
];

for (const [template, expected] of CONFIRMED) {
  test(`matches cloud-init: ${JSON.stringify(template).slice(0, 70)}`, () => {
    const got = render(template);
    if ((expected as { text?: string }).text?.startsWith('<generator object')) {
      assert.equal(got.ok, false);
      assert.equal(!got.ok && got.reason, 'unsupported');
      return;
    }
    if (expected.ok) {
      assert.deepEqual(got, expected);
    } else {
      assert.equal(got.ok, false);
      if (got.ok) return;
      assert.equal(got.reason, expected.reason);
      assert.equal(got.message, expected.message);
      if (expected.exception) assert.equal(got.exception, expected.exception);
    }
  });
}

test('unsupported constructs are reported, not guessed', () => {
  const r = render('{% macro m() %}{% endmacro %}');
  assert.equal(r.ok, false);
  assert.equal(!r.ok && r.reason, 'unsupported');
  assert.match(!r.ok ? r.message : '', /macro/);
  assert.equal(!r.ok && r.offset, '## template: jinja\n{% '.length);
  assert.match(!r.ok ? r.message : '', /^this tool cannot reproduce .*; cloud-init would render it$/);
  for (const t of ['{% call f() %}{% endcall %}', '{% for x in y recursive %}{% endfor %}', '{% block b %}{% endblock %}', '{% autoescape true %}{% endautoescape %}']) {
    const u = render(t);
    assert.equal(!u.ok && u.reason, 'unsupported', t);
  }
  // cloud-init's environment has no loader: include/import/from/extends raise TypeError (checked with both oracles).
  for (const t of ["{% include 'x' %}", "{% import 'x' as y %}", "{% from 'x' import y %}", "{% extends 'x' %}", "{% include nope ignore missing %}"]) {
    const u = render(t);
    assert.equal(!u.ok && u.reason, 'type', t);
    assert.equal(!u.ok && u.message, 'no loader for this environment specified', t);
  }
  assert.deepEqual(render("{% if false %}{% include 'x' %}{% endif %}ok"), { ok: true, text: 'ok', missingVariables: [] });
  // generators print their address in Python
  assert.equal(((r) => !r.ok && r.reason)(render('{{ [1, 2]|unique }}')), 'unsupported');
});

test('hostile templates hit explicit limits', () => {
  const loop = render('{% for i in range(10**9) %}x{% endfor %}');
  assert.equal(!loop.ok && loop.reason, 'unsupported');
  assert.match(!loop.ok ? loop.message : '', new RegExp(String(LIMITS.maxSteps)));
  const big = render("{{ 'a' * 10**9 }}");
  assert.equal(!big.ok && big.reason, 'unsupported');
  assert.match(!big.ok ? big.message : '', /limit/);
  const deep = render('{{ ' + '('.repeat(200) + '1' + ')'.repeat(200) + ' }}');
  assert.equal(!deep.ok && deep.reason, 'unsupported');
  assert.match(!deep.ok ? deep.message : '', /nesting/);
  const pow = render('{{ 2 ** 10000000 }}');
  assert.equal(!pow.ok && pow.reason, 'unsupported');
  const out = render('{% for i in range(900) %}{{ "x" * 9000 }}{% endfor %}');
  assert.equal(!out.ok && out.reason, 'unsupported');
  assert.match(!out.ok ? out.message : '', /output larger/);
});

test('header detection follows detect_template', () => {
  // confirmed with templater.detect_template
  assert.equal(isJinjaTemplate('## template: jinja\nx'), true);
  assert.equal(isJinjaTemplate('##template:JINJA  \nx'), true);
  assert.equal(isJinjaTemplate('## Template:  Jinja\t\nx'), true);
  assert.equal(isJinjaTemplate('## template: jinja'), true);
  assert.equal(isJinjaTemplate(' ## template: jinja\nx'), false);
  assert.equal(isJinjaTemplate('#cloud-config\n'), false);
  assert.equal(isJinjaTemplate('## template: basic\nx'), false);
  assert.equal(isJinjaTemplate('## template: jinja2\nx'), false);
  const bad = renderCloudInitJinja('## template: jinja2\nx', DATA);
  assert.deepEqual(bad, { ok: false, reason: 'not-jinja', message: "Unknown template rendering type 'jinja2' requested", exception: 'ValueError' });
});

test('instance data: missing file, bad JSON, int vs float', () => {
  const none = renderCloudInitJinja('## template: jinja\nx', undefined);
  assert.equal(!none.ok && none.reason, 'no-instance-data');
  assert.match(!none.ok ? none.message : '', /instance-data-sensitive\.json/);
  const bad = render('x', '{not json');
  assert.equal(!bad.ok && bad.reason, 'no-instance-data');
  const list = render('x', '[1]');
  assert.equal(!list.ok && list.reason, 'no-instance-data');
  // JSON text keeps Python's int/float typing; a pre-parsed value cannot tell 1.0 from 1
  assert.deepEqual(render('{{ a }} {{ b }} {{ c }}', '{"a": 1.0, "b": 1, "c": 12345678901234567890123}'), {
    ok: true,
    text: '1.0 1 12345678901234567890123',
    missingVariables: [],
  });
  assert.deepEqual(render('{{ a }} {{ b }}', { a: 1.5, b: 2 }), { ok: true, text: '1.5 2', missingVariables: [] });
});

test('convertInstanceData: aliases, v1 hoisting, base64-encoded-keys', () => {
  // expected = convert_jinja_instance_data(d, decode_paths=d["base64-encoded-keys"], include_key_aliases=True)
  const d = {
    v1: { 'local-hostname': 'h', 'a.b': 1 },
    'x-y': { v2: 3 },
    enc: 'aGVsbG8=',
    'base64-encoded-keys': ['enc'],
    instance_id: 'top',
  };
  const got = convertInstanceData(d);
  const sortKeys = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]))
      : v;
  assert.deepEqual(sortKeys(got), {
    'a.b': 1,
    a_b: 1,
    'base64-encoded-keys': ['enc'],
    base64_encoded_keys: ['enc'],
    enc: 'hello',
    instance_id: 'top',
    'local-hostname': 'h',
    local_hostname: 'h',
    v1: { 'a.b': 1, a_b: 1, 'local-hostname': 'h', local_hostname: 'h' },
    'x-y': { v2: 3 },
    x_y: { v2: 3 },
  });
});

test('sort and dictsort sort as Python does (timsort): NaN stays where timsort leaves it, reverse keeps ties in order (regression)', () => {
  // cloud-init 26.2 (oracle): a "[3.0, nan, 1.0, 2.0]", b "[3.0, nan, 2.0, 1.0]", c "[[2, 'x'], [2, 'z'], [1, 'y']]"
  const r = render("{{ [3.0, 'nan'|float, 1.0, 2.0]|sort }}|{{ [3.0, 'nan'|float, 1.0, 2.0]|sort(reverse=true) }}|{{ [[2,'x'],[1,'y'],[2,'z']]|sort(attribute=0, reverse=true) }}|{{ {'b': 1, 'a': 2}|dictsort }}");
  assert.deepEqual(r, { ok: true, text: "[3.0, nan, 1.0, 2.0]|[3.0, nan, 2.0, 1.0]|[[2, 'x'], [2, 'z'], [1, 'y']]|[('a', 2), ('b', 1)]", missingVariables: [] });
});
