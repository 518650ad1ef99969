/**
 * jinja2/tests.py: every test of Jinja2 3.1 (`is defined`, `is number`,
 * the comparison aliases, `is filter`/`is test` ...).
 *
 * Residual differences: `sameas` on strings or large ints (object identity in
 * CPython) is refused as unsupported.
 */
import { KNOWN_FILTERS, KNOWN_TESTS } from './defaults';
import { binop } from './arith';
import { Builtin, f } from './callargs';

import { unsupported } from './errors';
import { JBytes, JDict, JFunc, JJoiner, JLoop, JMarkup, JRange, JTuple, JUndef, JValue, hashKey, isIterable, isNumber, pyEq, pyOrder, pyStr } from './values';
import { pyIsLower, pyIsUpper } from '../py/str';


export function opTest(name: string, op: (a: JValue, b: JValue) => boolean): Builtin {
  return {
    fn: name,
    params: ['a', 'b'],
    impl: ([a, b]) => op(a, b),
    cTwo: true,
  };
}

export const TESTS: Record<string, Builtin> = {
  odd: f('test_odd', ['value'], ([v], r) => pyEq(binop('mod', v, 2n, r), 1n)),
  even: f('test_even', ['value'], ([v], r) => pyEq(binop('mod', v, 2n, r), 0n)),
  divisibleby: f('test_divisibleby', ['value', 'num'], ([v, n], r) => pyEq(binop('mod', v, n, r), 0n)),
  defined: f('test_defined', ['value'], ([v]) => !(v instanceof JUndef)),
  undefined: f('test_undefined', ['value'], ([v]) => v instanceof JUndef),
  filter: f('test_filter', ['env', 'value'], ([v]) => {
    hashKey(v);
    return typeof v === 'string' && KNOWN_FILTERS.has(v);
  }, { hidden: 1 }),
  test: f('test_test', ['env', 'value'], ([v]) => {
    hashKey(v);
    return typeof v === 'string' && KNOWN_TESTS.has(v);
  }, { hidden: 1 }),
  none: f('test_none', ['value'], ([v]) => v === null),
  boolean: f('test_boolean', ['value'], ([v]) => typeof v === 'boolean'),
  false: f('test_false', ['value'], ([v]) => v === false),
  true: f('test_true', ['value'], ([v]) => v === true),
  integer: f('test_integer', ['value'], ([v]) => typeof v === 'bigint'),
  float: f('test_float', ['value'], ([v]) => typeof v === 'number'),
  lower: f('test_lower', ['value'], ([v]) => pyIsLower(pyStr(v))),
  upper: f('test_upper', ['value'], ([v]) => pyIsUpper(pyStr(v))),
  string: f('test_string', ['value'], ([v]) => typeof v === 'string' || v instanceof JMarkup),
  mapping: f('test_mapping', ['value'], ([v]) => v instanceof JDict),
  number: f('test_number', ['value'], ([v]) => isNumber(v)),
  sequence: f('test_sequence', ['value'], ([v]) =>
    typeof v === 'string' ||
    Array.isArray(v) ||
    v instanceof JTuple ||
    v instanceof JDict ||
    v instanceof JRange ||
    v instanceof JUndef ||
    v instanceof JMarkup ||
    v instanceof JBytes),
  iterable: f('test_iterable', ['value'], ([v]) => isIterable(v)),
  callable: f('callable', ['obj'], ([v]) => v instanceof JFunc || v instanceof JJoiner || v instanceof JLoop || v instanceof JUndef, {
    cOne: true,
  }),
  sameas: f('test_sameas', ['value', 'other'], ([a, b]) => {
    if (a === null || typeof a === 'boolean' || b === null || typeof b === 'boolean') return a === b;
    if (typeof a === 'bigint' && typeof b === 'bigint' && a >= -5n && a <= 256n) return a === b;
    if (typeof a === 'object' && typeof b === 'object') return a === b;
    if (typeof a !== typeof b) return false;
    throw unsupported('sameas (object identity) on strings or numbers');
  }),
  escaped: f('test_escaped', ['value'], ([v]) => v instanceof JMarkup),
  in: f('test_in', ['value', 'seq'], ([v, seq], r) => r.contains(seq, v)),
  '==': opTest('eq', pyEq),
  eq: opTest('eq', pyEq),
  equalto: opTest('eq', pyEq),
  '!=': opTest('ne', (a, b) => !pyEq(a, b)),
  ne: opTest('ne', (a, b) => !pyEq(a, b)),
  '>': opTest('gt', (a, b) => pyOrder('gt', a, b)),
  gt: opTest('gt', (a, b) => pyOrder('gt', a, b)),
  greaterthan: opTest('gt', (a, b) => pyOrder('gt', a, b)),
  ge: opTest('ge', (a, b) => pyOrder('gteq', a, b)),
  '>=': opTest('ge', (a, b) => pyOrder('gteq', a, b)),
  '<': opTest('lt', (a, b) => pyOrder('lt', a, b)),
  lt: opTest('lt', (a, b) => pyOrder('lt', a, b)),
  lessthan: opTest('lt', (a, b) => pyOrder('lt', a, b)),
  '<=': opTest('le', (a, b) => pyOrder('lteq', a, b)),
  le: opTest('le', (a, b) => pyOrder('lteq', a, b)),
};
