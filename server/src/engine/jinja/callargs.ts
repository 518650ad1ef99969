/**
 * Python's argument binding for built-in callables (the messages of
 * CPython's getargs.c and Argument Clinic, and of Python-level signatures for
 * Jinja's filters and globals), plus the `f` helper that declares a filter's
 * signature.
 *
 * Residual differences: some argument-binding TypeError messages are close to
 * but not identical to Python's (the error class always matches).
 */
import { typeError } from './errors';
import { Renderer } from './runtime';
import { CallArgs, JMarkup, JValue, isInt, toBig, typeName } from './values';
import { pyStrRepr } from '../py/repr';


export const UNSET: unique symbol = Symbol('unset');

export interface Builtin {
  /** Python function name, for messages. */
  fn: string;
  /** Positional-or-keyword parameters, hidden leading ones (environment, context...) included. */
  params: string[];
  hidden?: number;
  /** Defaults of the trailing parameters. */
  defaults?: JValue[];
  varargs?: boolean;
  varkw?: boolean;
  /** A C builtin taking exactly one argument (len, abs ...): different messages. */
  cOne?: boolean;
  /** A C builtin of the operator module taking exactly two (operator.eq ...). */
  cTwo?: boolean;
  impl: (v: JValue[], r: Renderer, extra: { rest: JValue[]; kw: Array<[string, JValue]> }) => JValue;
}

export function callBuiltin(b: Builtin, args: JValue[], kwargs: Array<[string, JValue]>, r: Renderer): JValue {
  if (b.cOne) {
    if (kwargs.length) throw typeError(`${b.fn}() takes no keyword arguments`);
    if (args.length !== 1) throw typeError(`${b.fn}() takes exactly one argument (${args.length} given)`);
    return b.impl(args, r, { rest: [], kw: [] });
  }
  if (b.cTwo) {
    if (kwargs.length) throw typeError(`${b.fn}() takes no keyword arguments`);
    if (args.length !== 2) throw typeError(`${b.fn} expected 2 arguments, got ${args.length}`);
    return b.impl(args, r, { rest: [], kw: [] });
  }
  const h = b.hidden ?? 0;
  const np = b.params.length;
  const defaults = b.defaults ?? [];
  const vals: Array<JValue | typeof UNSET> = new Array<JValue | typeof UNSET>(np).fill(UNSET);
  for (let i = 0; i < Math.min(args.length, np - h); i++) vals[h + i] = args[i];
  const rest = args.slice(np - h);
  const kw: Array<[string, JValue]> = [];
  for (const [k, v] of kwargs) {
    const idx = b.params.indexOf(k);
    if (idx < 0) {
      if (b.varkw) {
        kw.push([k, v]);
        continue;
      }
      throw typeError(`${b.fn}() got an unexpected keyword argument ${pyStrRepr(k)}`);
    }
    if (idx < h || vals[idx] !== UNSET) throw typeError(`${b.fn}() got multiple values for argument ${pyStrRepr(k)}`);
    vals[idx] = v;
  }
  if (args.length > np - h && !b.varargs) {
    const min = np - defaults.length;
    const given = args.length + h;
    const takes = min === np ? `${np} positional argument${np === 1 ? '' : 's'}` : `from ${min} to ${np} positional arguments`;
    throw typeError(`${b.fn}() takes ${takes} but ${given} ${given === 1 ? 'was' : 'were'} given`);
  }
  const missing: string[] = [];
  for (let i = h; i < np - defaults.length; i++) if (vals[i] === UNSET) missing.push(pyStrRepr(b.params[i]));
  if (missing.length) {
    const list =
      missing.length === 1
        ? missing[0]
        : missing.length === 2
          ? `${missing[0]} and ${missing[1]}`
          : `${missing.slice(0, -1).join(', ')}, and ${missing[missing.length - 1]}`;
    throw typeError(`${b.fn}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${list}`);
  }
  for (let i = np - defaults.length; i < np; i++) if (vals[i] === UNSET) vals[i] = defaults[i - (np - defaults.length)];
  return b.impl(vals.slice(h) as JValue[], r, { rest, kw });
}

/** Arguments of a C method (str.split, list.append ...), with positional-only or keyword use. */
export function methodArgs(a: CallArgs, fname: string, names: string[], required: number, kwNames: string[] = [], clinic: string | null = null): Array<JValue | undefined> {
  const out: Array<JValue | undefined> = new Array<JValue | undefined>(names.length).fill(undefined);
  if (clinic) {
    // Argument Clinic's positional-only check (_PyArg_CheckPositional) words it differently.
    if (a.kwargs.length) throw typeError(`${clinic}.${fname}() takes no keyword arguments`);
    const n = a.args.length;
    const s = (k: number) => `${k} argument${k === 1 ? '' : 's'}`;
    if (required === names.length && n !== required) throw typeError(`${fname} expected ${s(required)}, got ${n}`);
    if (n < required) throw typeError(`${fname} expected at least ${s(required)}, got ${n}`);
    if (n > names.length) throw typeError(`${fname} expected at most ${s(names.length)}, got ${n}`);
    a.args.forEach((v, i) => (out[i] = v));
    return out;
  }
  if (a.kwargs.length && !kwNames.length) throw typeError(`${fname}() takes no keyword arguments`);
  if (a.args.length > names.length) {
    if (names.length === 0) throw typeError(`${fname}() takes no arguments (${a.args.length} given)`);
    throw typeError(`${fname}() takes at most ${names.length} argument${names.length === 1 ? '' : 's'} (${a.args.length} given)`);
  }
  a.args.forEach((v, i) => (out[i] = v));
  for (const [k, v] of a.kwargs) {
    const idx = names.indexOf(k);
    if (idx < 0 || !kwNames.includes(k)) throw typeError(`${fname}() got an unexpected keyword argument ${pyStrRepr(k)}`);
    if (out[idx] !== undefined) throw typeError(`argument for ${fname}() given by name (${pyStrRepr(k)}) and position (${idx + 1})`);
    out[idx] = v;
  }
  const given = out.filter((x) => x !== undefined).length;
  if (given < required) {
    throw typeError(`${fname}() takes ${required === names.length ? 'exactly' : 'at least'} ${required} argument${required === 1 ? '' : 's'} (${a.args.length} given)`);
  }
  return out;
}

export function indexArg(v: JValue): bigint {
  if (isInt(v)) return toBig(v);
  throw typeError(`'${typeName(v)}' object cannot be interpreted as an integer`);
}

export function strArg(v: JValue, what: string): string {
  if (typeof v === 'string') return v;
  if (v instanceof JMarkup) return v.s;
  throw typeError(`${what}, not ${typeName(v)}`);
}

export function f(
  fn: string,
  params: string[],
  impl: Builtin['impl'],
  o: Partial<Pick<Builtin, 'hidden' | 'defaults' | 'varargs' | 'varkw' | 'cOne'>> = {},
): Builtin {
  return { fn, params, impl, ...o };
}
