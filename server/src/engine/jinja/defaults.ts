/**
 * jinja2/defaults.py: DEFAULT_NAMESPACE, the globals every template sees:
 * range (jinja2.sandbox.safe_range in the sandbox), dict, namespace, cycler,
 * joiner (lipsum is refused as unsupported: random text); and the names of
 * DEFAULT_FILTERS and DEFAULT_TESTS, which the compiler checks against.
 *
 * Residual differences: none known.
 */
import { Builtin, callBuiltin, f, indexArg } from './callargs';
import { typeError } from './errors';
import { dictUpdate } from './pymethods';
import { Renderer } from './runtime';
import { JCycler, JDict, JFunc, JJoiner, JNamespace, JRange, JValue } from './values';
import { PyError } from '../py/errors';
import { pyStrRepr } from '../py/repr';

/** The sandbox's safe_range refuses ranges longer than this (jinja2.sandbox.MAX_RANGE). */
export const SANDBOX_MAX_RANGE = 100_000n;

export function makeGlobals(sandbox: boolean): Map<string, JValue> {
  const g = new Map<string, JValue>();
  g.set(
    'range',
    new JFunc('range', (a, r) => {
      if (a.kwargs.length) throw typeError('range() takes no keyword arguments');
      const n = a.args.length;
      if (n === 0) throw typeError('range expected at least 1 argument, got 0');
      if (n > 3) throw typeError(`range expected at most 3 arguments, got ${n}`);
      const ints = a.args.map(indexArg);
      const [start, stop, step] = n === 1 ? [0n, ints[0], 1n] : [ints[0], ints[1], n === 3 ? ints[2] : 1n];
      if (step === 0n) throw new PyError('ValueError', 'range() arg 3 must not be zero');
      void r;
      const rng = new JRange(start, stop, step);
      if (sandbox && rng.length > SANDBOX_MAX_RANGE) {
        throw new PyError('OverflowError', `Range too big. The sandbox blocks ranges larger than MAX_RANGE (${SANDBOX_MAX_RANGE}).`);
      }
      return rng;
    }, sandbox ? null : "<class 'range'>", sandbox ? 'function' : 'type'),
  );
  g.set(
    'dict',
    new JFunc('dict', (a, r) => {
      const d = new JDict();
      dictUpdate(d, a, r, 'dict');
      return d;
    }, "<class 'dict'>", 'type'),
  );
  g.set('lipsum', new JFunc('generate_lorem_ipsum', null, null, 'function'));
  g.set(
    'cycler',
    new JFunc('Cycler', (a) => {
      if (a.kwargs.length) throw typeError(`Cycler.__init__() got an unexpected keyword argument ${pyStrRepr(a.kwargs[0][0])}`);
      if (!a.args.length) throw new PyError('RuntimeError', 'at least one item has to be provided');
      return new JCycler([...a.args]);
    }, "<class 'jinja2.utils.Cycler'>", 'type'),
  );
  g.set(
    'joiner',
    new JFunc('Joiner', (a) => {
      const b: Builtin = f('Joiner.__init__', ['self', 'sep'], ([sep]) => new JJoiner(sep), { hidden: 1, defaults: [', '] });
      return callBuiltin(b, a.args, a.kwargs, null as unknown as Renderer);
    }, "<class 'jinja2.utils.Joiner'>", 'type'),
  );
  g.set(
    'namespace',
    new JFunc('Namespace', (a, r) => {
      const ns = new JNamespace();
      dictUpdate(ns.attrs, a, r, 'dict');
      return ns;
    }, "<class 'jinja2.utils.Namespace'>", 'type'),
  );
  return g;
}

/** DEFAULT_FILTERS and DEFAULT_TESTS: the names Jinja knows (those this port cannot run included). */
export const KNOWN_FILTERS = new Set([
  'abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape',
  'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'join', 'last',
  'length', 'list', 'lower', 'items', 'map', 'min', 'max', 'pprint', 'random', 'reject', 'rejectattr',
  'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum',
  'title', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr',
  'tojson',
]);
export const KNOWN_TESTS = new Set([
  'odd', 'even', 'divisibleby', 'defined', 'undefined', 'filter', 'test', 'none', 'boolean', 'false', 'true',
  'integer', 'float', 'lower', 'upper', 'string', 'mapping', 'number', 'sequence', 'iterable', 'callable',
  'sameas', 'escaped', 'in', '==', 'eq', 'equalto', '!=', 'ne', '>', 'gt', 'greaterthan', 'ge', '>=', '<', 'lt',
  'lessthan', '<=', 'le',
]);
