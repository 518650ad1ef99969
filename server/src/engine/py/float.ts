/**
 * CPython 3.11's `float(s)`, with its message. (`repr(float)` is `pyFloatRepr` in ./repr.)
 *
 * Residual differences: the decimal-to-binary conversion is JavaScript's `Number()`, which rounds
 * correctly as CPython's does; none known.
 */
import { PyError } from './errors';
import { pyNumberText } from './int';
import { pyStrRepr } from './repr';

const FLOAT_SYNTAX = /^([+-]?)(?:(inf|infinity|nan)|((?:[0-9](?:_?[0-9])*)?(?:\.(?:[0-9](?:_?[0-9])*)?)?)(?:[eE]([+-]?[0-9](?:_?[0-9])*))?)$/i;

/** Python's `float(s)`; a PyError('ValueError') where Python raises one. */
export function pyFloatFromString(s: string): number {
  const t = pyNumberText(s);
  const m = FLOAT_SYNTAX.exec(t);
  if (m && m[2]) {
    const word = m[2].toLowerCase();
    if (word === 'nan') return NaN;
    return m[1] === '-' ? -Infinity : Infinity;
  }
  if (m && m[3] !== undefined && /[0-9]/.test(m[3])) {
    return Number(t.replace(/_/g, ''));
  }
  throw new PyError('ValueError', `could not convert string to float: ${pyStrRepr(s)}`);
}
