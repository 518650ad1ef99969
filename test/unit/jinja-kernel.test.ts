/**
 * Issue 13: Jinja's `int`/`float` of strings are the kernel's (server/src/engine/py/int.ts, float.ts),
 * not a private copy. Expectations produced by cloud-init 22.4.2 and upstream (oracle.py, instance
 * data `{}`) on this template; before, Unicode digits were refused as "cannot reproduce".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderCloudInitJinja } from '../../server/src/engine/userdata/jinja';
import { pyIntFromString } from '../../server/src/engine/py/int';

const TEMPLATE = `## template: jinja\n#cloud-config\na: "{{ '١٢'|int }}|{{ 'zz'|int(base=36) }}|{{ '0x1f'|int(base=0) }}|{{ '010'|int(base=0) }}|{{ ' 1_000 '|int }}|{{ '٣.5'|float }}|{{ '1e3'|int }}"\n`;

for (const version of ['22.4', 'current'] as const) {
  test(`int and float filters on strings, as Python (${version})`, () => {
    const r = renderCloudInitJinja(TEMPLATE, '{}', { version });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.text, '#cloud-config\na: "12|1295|31|10|1000|3.5|1000"\n');
  });
}

test("the kernel's int(s, base): base 0 and 2..36, Python's errors", () => {
  assert.equal(pyIntFromString('0b101', 0), 5n);
  assert.equal(pyIntFromString('0o_17', 0), 15n);
  assert.equal(pyIntFromString('-Z', 36), -35n);
  assert.equal(pyIntFromString('00', 0), 0n);
  assert.throws(() => pyIntFromString('010', 0), /invalid literal for int\(\) with base 0: '010'/);
  assert.throws(() => pyIntFromString('1__0', 10), /invalid literal for int\(\) with base 10: '1__0'/);
  assert.throws(() => pyIntFromString('1'.repeat(4301), 10), /Exceeds the limit \(4300 digits\) for integer string conversion: value has 4301 digits/);
  assert.throws(() => pyIntFromString('1'.repeat(4301), 36), /value has 4301 digits/, 'bases that are not powers of two are limited too');
  assert.equal(pyIntFromString('v'.repeat(5000), 32), 32n ** 5000n - 1n, 'powers of two are not');
});

// |tojson is written by the kernel's JSON encoder (py/json.ts); keys sorted with Python's ordering
// across bool/int/float, string indent, ensure_ascii with surrogate pairs, then the HTML-safe escapes.
// Checked against cloud-init 22.4.2 and upstream (oracle.py, instance data `{}`).
const TOJSON = `## template: jinja\n#cloud-config\na: '{{ {2: [1, (2, "é😀<>&")], 1.5: {"z": none, "y": true}, true: 1e300}|tojson(indent="\\t") }}'\nb: '{{ [{}, [], {"k": 3.0}]|tojson(2) }}'\n`;

for (const version of ['22.4', 'current'] as const) {
  test(`tojson through the kernel's JSON encoder (${version})`, () => {
    const r = renderCloudInitJinja(TOJSON, '{}', { version });
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(
      r.text,
      '#cloud-config\na: \'{\n\t"true": 1e+300,\n\t"1.5": {\n\t\t"y": true,\n\t\t"z": null\n\t},\n\t"2": [\n\t\t1,\n\t\t[\n\t\t\t2,\n\t\t\t"\\u00e9\\ud83d\\ude00\\u003c\\u003e\\u0026"\n\t\t]\n\t]\n}\'\nb: \'[\n  {},\n  [],\n  {\n    "k": 3.0\n  }\n]\'\n',
    );
  });
}
