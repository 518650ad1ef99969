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
