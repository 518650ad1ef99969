/**
 * jinja2/filters.py: every filter of Jinja2 3.1 with its argument handling,
 * plus utils.htmlsafe_json_dumps for |tojson (json.dumps with sort_keys, written by
 * the kernel's JSON encoder ../py/json.ts).
 * Sorting uses the kernel's timsort (../py/sort.ts), so inconsistent orders
 * (NaN) come out as in Python.
 *
 * Residual differences: urlize, wordwrap and pprint of values wider than 80
 * columns are refused as unsupported; |random is rendered with a note that
 * cloud-init picks at random.
 */
import { binop } from './arith';
import { Builtin, f, indexArg } from './callargs';
import { LIMITS, typeError, unsupported } from './errors';
import { INVALID_ATTR_KEY, htmlEscape, stripTags } from './markup';
import { formatFixed, pyFloatOf, pyIntOf, roundFloat, roundInt } from './numbers';
import { pyPercentFormat } from './pypercent';
import { Renderer } from './runtime';
import { sliceValue } from './slicing';
import { JBytes, JDict, JDictView, JFunc, JGen, JGroupTuple, JMarkup, JNamespace, JRange, JTuple, JUndef, JValue, MISSING, ciUndef, hashKey, hintUndef, isInt, isIterable, pprintRepr, pyEq, pyLenOf, pyLt, pyOrder, pyRepr, pySorted, pyStr, toBig, truthy, typeName } from './values';
import { PyError } from '../py/errors';
import { pyIntFromString, pyIntStr } from '../py/int';
import { JsonObject, dumpJsonable, floatJson, type Jsonable } from '../py/json';
import { pyStrRepr } from '../py/repr';
import { pySorted as timsort } from '../py/sort';
import { PY_SPACE_CLASS_BODY, SURROGATE, codePoints, pyCapitalize, pyLen, pyReplace, pyRsplit, pySplitLines, pyStripChars } from '../py/str';


/**
 * json.dumps(v, sort_keys=True, indent=indent) as htmlsafe_json_dumps calls it: keys are sorted with
 * Jinja's Python ordering, then the kernel's JSON writer (ensure_ascii) prints the tree. The
 * conversion walks keys and values in the order the C encoder does, so the first error is Python's.
 */
export function jsonDumps(v: JValue, indent: string | null): string {
  const open = new Set<object>();
  const convert = (x: JValue): Jsonable => {
    if (x === null || typeof x === 'boolean' || typeof x === 'number' || typeof x === 'string') return x;
    if (typeof x === 'bigint') {
      pyIntStr(x); // the digit limit raises where the encoder meets the int
      return x;
    }
    if (x instanceof JMarkup) return x.s;
    if (Array.isArray(x) || x instanceof JTuple) {
      const items = Array.isArray(x) ? x : x.items;
      if (!items.length) return [];
      if (open.has(x)) throw new PyError('ValueError', 'Circular reference detected');
      open.add(x);
      const out = items.map(convert);
      open.delete(x);
      return out;
    }
    if (x instanceof JDict) {
      const out = new JsonObject();
      if (!x.size) return out;
      if (open.has(x)) throw new PyError('ValueError', 'Circular reference detected');
      open.add(x);
      for (const [k, val] of timsort(x.entries(), (a, b) => pyLt(a[0], b[0]))) {
        out.map.set(jsonKey(k), convert(val));
      }
      open.delete(x);
      return out;
    }
    throw typeError(`Object of type ${x instanceof JFunc ? x.typeName : typeName(x)} is not JSON serializable`);
  };
  return dumpJsonable(convert(v), { ensureAscii: true, indent: indent ?? undefined });
}

/** json's conversion of a dict key to its JSON string. */
function jsonKey(k: JValue): string {
  if (typeof k === 'string') return k;
  if (k instanceof JMarkup) return k.s;
  if (typeof k === 'number') return floatJson(k);
  if (k === true) return 'true';
  if (k === false) return 'false';
  if (k === null) return 'null';
  if (typeof k === 'bigint') return pyIntStr(k);
  throw typeError(`keys must be str, int, float, bool or None, not ${typeName(k)}`);
}

export function urlQuote(v: JValue, forQs: boolean): string {
  const s = typeof v === 'string' ? v : pyStr(v);
  if (SURROGATE.test(s) && /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)) {
    throw new PyError('UnicodeEncodeError', "'utf-8' codec can't encode character: surrogates not allowed");
  }
  let out = '';
  for (const b of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(b);
    if (/[A-Za-z0-9_.\-~]/.test(ch) || (!forQs && ch === '/')) out += ch;
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return forQs ? out.replace(/%20/g, '+') : out;
}

// ---------------------------------------------------------------------------
// Filters (jinja2/filters.py semantics)

export function softStr(v: JValue): JValue {
  return v instanceof JMarkup ? v : pyStr(v);
}

/** Apply a str -> str function to soft_str(v), keeping Markup-ness. */
export function mapStr(v: JValue, f: (s: string) => string): JValue {
  if (v instanceof JMarkup) return new JMarkup(f(v.s));
  return f(pyStr(v));
}

export function ignoreCase(v: JValue): JValue {
  if (typeof v === 'string') return v.toLowerCase();
  if (v instanceof JMarkup) return new JMarkup(v.s.toLowerCase());
  return v;
}

export function prepareAttributeParts(attr: JValue): JValue[] {
  if (attr === null) return [];
  if (typeof attr === 'string') return attr.split('.').map((x) => (/^[0-9]+$/.test(x) ? BigInt(x) : x));
  if (attr instanceof JMarkup) return prepareAttributeParts(attr.s);
  return [attr];
}

export function makeAttrgetter(r: Renderer, attribute: JValue, postprocess: ((v: JValue) => JValue) | null, dflt: JValue = null): (x: JValue) => JValue {
  const parts = prepareAttributeParts(attribute);
  return (item: JValue) => {
    for (const part of parts) {
      item = r.getitem(item, part);
      if (dflt !== null && item instanceof JUndef) item = dflt;
    }
    return postprocess ? postprocess(item) : item;
  };
}

export function makeMultiAttrgetter(r: Renderer, attribute: JValue, postprocess: ((v: JValue) => JValue) | null): (x: JValue) => JValue {
  const split: JValue[] = typeof attribute === 'string' ? attribute.split(',') : [attribute];
  const parts = split.map(prepareAttributeParts);
  return (item: JValue) =>
    parts.map((ps) => {
      let x = item;
      for (const p of ps) x = r.getitem(x, p);
      return postprocess ? postprocess(x) : x;
    });
}

export function gen(r: Renderer, body: () => Generator<JValue>): JGen {
  void r;
  return new JGen(body());
}

export function reversedOf(v: JValue, r: Renderer): JGen | null {
  if (typeof v === 'string' || v instanceof JMarkup) {
    const chars = codePoints(typeof v === 'string' ? v : v.s).reverse();
    return new JGen(chars[Symbol.iterator](), 'reversed');
  }
  if (Array.isArray(v)) return new JGen([...v].reverse()[Symbol.iterator](), 'list_reverseiterator');
  if (v instanceof JTuple) return new JGen([...v.items].reverse()[Symbol.iterator](), 'reversed');
  if (v instanceof JRange) {
    const rg = v;
    return new JGen(
      (function* () {
        for (let i = rg.length - 1n; i >= 0n; i--) {
          r.step();
          yield rg.at(i);
        }
      })(),
      'range_iterator',
    );
  }
  if (v instanceof JDict) return new JGen(v.keys().reverse()[Symbol.iterator](), 'dict_reversekeyiterator');
  if (v instanceof JDictView) {
    const names = { keys: 'dict_reversekeyiterator', values: 'dict_reversevalueiterator', items: 'dict_reverseitemiterator' };
    return new JGen(v.list().reverse()[Symbol.iterator](), names[v.kind]);
  }
  if (v instanceof JUndef) return new JGen([][Symbol.iterator](), 'reversed');
  return null;
}

export function doLen(v: JValue): JValue {
  return pyLenOf(v);
}

export function selectOrReject(r: Renderer, value: JValue, args: JValue[], kw: Array<[string, JValue]>, negate: boolean, lookupAttr: boolean): JGen {
  return gen(r, function* () {
    if (!truthy(value)) return;
    let transfunc = (x: JValue) => x;
    let off = 0;
    if (lookupAttr) {
      if (!args.length) throw new PyError('FilterArgumentError', 'Missing parameter for attribute name');
      transfunc = makeAttrgetter(r, args[0], null);
      off = 1;
    }
    let func: (x: JValue) => boolean;
    if (args.length > off) {
      const name = args[off];
      const rest = args.slice(1 + off);
      func = (x) => truthy(callTestByName(r, name, x, rest, kw));
    } else func = truthy;
    const it = r.iter(value);
    for (let x = it.next(); !x.done; x = it.next()) {
      const ok = func(transfunc(x.value));
      if (negate ? !ok : ok) yield x.value;
    }
  });
}

export function callTestByName(r: Renderer, name: JValue, item: JValue, args: JValue[], kw: Array<[string, JValue]>): JValue {
  if (typeof name !== 'string') {
    if (name instanceof JUndef) throw new PyError('TemplateRuntimeError', `No test named ${pyRepr(name)}. (${name.message()}; did you forget to quote the callable name?)`);
    hashKey(name);
    throw new PyError('TemplateRuntimeError', `No test named ${pyRepr(name)}.`);
  }
  return r.callTest(name, item, { args, kwargs: kw });
}

export function callFilterByName(r: Renderer, name: JValue, item: JValue, args: JValue[], kw: Array<[string, JValue]>): JValue {
  if (typeof name !== 'string') {
    if (name instanceof JUndef) throw new PyError('TemplateRuntimeError', `No filter named ${pyRepr(name)}. (${name.message()}; did you forget to quote the callable name?)`);
    hashKey(name);
    throw new PyError('TemplateRuntimeError', `No filter named ${pyRepr(name)}.`);
  }
  return r.callFilter(name, item, { args, kwargs: kw });
}

export function minMax(r: Renderer, value: JValue, caseSensitive: JValue, attribute: JValue, isMax: boolean): JValue {
  const it = r.iter(value);
  const first = it.next();
  if (first.done) return hintUndef('No aggregated item, sequence was empty.');
  const key = makeAttrgetter(r, attribute, truthy(caseSensitive) ? null : ignoreCase);
  let best = first.value;
  let bestKey = key(best);
  for (let x = it.next(); !x.done; x = it.next()) {
    const k = key(x.value);
    if (isMax ? pyOrder('gt', k, bestKey) : pyOrder('lt', k, bestKey)) {
      best = x.value;
      bestKey = k;
    }
  }
  return best;
}

export const FILTERS: Record<string, Builtin> = {
  abs: f('abs', ['x'], ([x]) => {
    if (x instanceof JUndef) throw typeError(`bad operand type for abs(): '${typeName(x)}'`);
    if (isInt(x)) {
      const b = toBig(x);
      return b < 0n ? -b : b;
    }
    if (typeof x === 'number') return Math.abs(x);
    throw typeError(`bad operand type for abs(): '${typeName(x)}'`);
  }, { cOne: true }),
  attr: f('do_attr', ['environment', 'obj', 'name'], ([obj, nameArg], r) => {
    // getattr only, never the item; an attribute that does not exist is an undefined.
    if (typeof nameArg !== 'string' && !(nameArg instanceof JMarkup)) throw typeError(`attribute name must be string, not '${typeName(nameArg)}'`);
    const name = typeof nameArg === 'string' ? nameArg : nameArg.s;
    const priv = r.privateAttr(obj, name);
    if (priv !== MISSING) return priv;
    if (obj instanceof JUndef) {
      if (name.startsWith('__')) return ciUndef(name, obj);
      throw obj.fail();
    }
    if (name.startsWith('_') && !(obj instanceof JNamespace)) return ciUndef(name, obj);
    const a = r.getattrOnly(obj, name);
    return a === MISSING ? ciUndef(name, obj) : a;
  }, { hidden: 1 }),
  batch: f('do_batch', ['value', 'linecount', 'fill_with'], ([value, linecount, fill], r) =>
    gen(r, function* () {
      let tmp: JValue[] = [];
      const it = r.iter(value);
      for (let x = it.next(); !x.done; x = it.next()) {
        if (pyEq(BigInt(tmp.length), linecount)) {
          yield tmp;
          tmp = [];
        }
        tmp.push(x.value);
      }
      if (tmp.length) {
        if (fill !== null && pyOrder('lt', BigInt(tmp.length), linecount)) {
          const more = binop('mul', [fill], binop('sub', linecount, BigInt(tmp.length), r), r) as JValue[];
          tmp = [...tmp, ...more];
        }
        yield tmp;
      }
    }), { defaults: [null] }),
  capitalize: f('do_capitalize', ['s'], ([s]) => mapStr(s, pyCapitalize)),
  center: f('do_center', ['value', 'width'], ([value, width]) =>
    mapStr(value, (s) => {
      if (typeof width === 'number') throw typeError('integer argument expected, got float');
      const w = Number(indexArg(width));
      const marg = w - pyLen(s);
      if (marg <= 0) return s;
      const left = Math.floor(marg / 2) + (marg & w & 1);
      if (w > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return ' '.repeat(left) + s + ' '.repeat(marg - left);
    }), { defaults: [80n] }),
  count: f('len', ['obj'], ([v]) => doLen(v), { cOne: true }),
  d: f('do_default', ['value', 'default_value', 'boolean'], ([v, d, b]) => (v instanceof JUndef || (truthy(b) && !truthy(v)) ? d : v), {
    defaults: ['', false],
  }),
  default: f('do_default', ['value', 'default_value', 'boolean'], ([v, d, b]) => (v instanceof JUndef || (truthy(b) && !truthy(v)) ? d : v), {
    defaults: ['', false],
  }),
  dictsort: f('do_dictsort', ['value', 'case_sensitive', 'by', 'reverse'], ([value, cs, by, reverse]) => {
    let pos: number;
    if (pyEq(by, 'key')) pos = 0;
    else if (pyEq(by, 'value')) pos = 1;
    else throw new PyError('FilterArgumentError', 'You can only sort by either "key" or "value"');
    if (value instanceof JUndef) throw value.fail();
    if (!(value instanceof JDict)) throw new PyError('AttributeError', `'${typeName(value)}' object has no attribute 'items'`);
    const items = value.entries().map(([k, v]) => new JTuple([k, v]));
    return pySorted(items, (it) => {
      const x = (it as JTuple).items[pos];
      return truthy(cs) ? x : ignoreCase(x);
    }, truthy(reverse));
  }, { defaults: [false, 'key', false] }),
  filesizeformat: f('do_filesizeformat', ['value', 'binary'], ([value, binary]) => {
    const bytes = pyFloatOf(value);
    const bin = truthy(binary);
    const base = bin ? 1024 : 1000;
    const prefixes = bin ? ['KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB', 'ZiB', 'YiB'] : ['kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];
    if (bytes === 1) return '1 Byte';
    if (bytes < base) return `${pyIntStr(pyIntOf(bytes))} Bytes`;
    let unit = 0;
    let prefix = '';
    for (let i = 0; i < prefixes.length; i++) {
      unit = Number(BigInt(base) ** BigInt(i + 2));
      prefix = prefixes[i];
      if (bytes < unit) return `${formatFixed((base * bytes) / unit, 1)} ${prefix}`;
    }
    return `${formatFixed((base * bytes) / unit, 1)} ${prefix}`;
  }, { defaults: [false] }),
  first: f('sync_do_first', ['environment', 'seq'], ([seq], r) => {
    const x = r.iter(seq).next();
    return x.done ? hintUndef('No first item, sequence was empty.') : x.value;
  }, { hidden: 1 }),
  // cloud-init picks at random on every boot; the preview shows the first item and says so.
  random: f('do_random', ['context', 'seq'], ([seq], r) => {
    const items: JValue[] = [];
    const it = r.iter(seq);
    for (let x = it.next(); !x.done; x = it.next()) items.push(x.value);
    if (!items.length) return hintUndef('No random item, sequence was empty.');
    r.notes.push(`the 'random' filter picks a different item on every boot (one of ${items.length}); the preview shows the first`);
    return items[0];
  }, { hidden: 1 }),
  float: f('do_float', ['value', 'default'], ([value, dflt]) => {
    try {
      return pyFloatOf(value);
    } catch (e) {
      if (e instanceof PyError && (e.pyType === 'TypeError' || e.pyType === 'ValueError')) return dflt;
      throw e;
    }
  }, { defaults: [0.0] }),
  format: f('do_format', ['value'], ([value], r, { rest, kw }) => {
    if (rest.length && kw.length) throw new PyError('FilterArgumentError', "can't handle positional and keyword arguments at the same time");
    if (value instanceof JMarkup) throw unsupported('format of a Markup value');
    let arg: JValue;
    if (kw.length) {
      const d = new JDict();
      for (const [k, v] of kw) d.set(k, v);
      arg = d;
    } else arg = new JTuple(rest);
    return pyPercentFormat(pyStr(value), arg, r);
  }, { varargs: true, varkw: true }),
  indent: f('do_indent', ['s', 'width', 'first', 'blank'], ([s, width, first, blank], r) => {
    if (s instanceof JMarkup) throw unsupported('indent of a Markup value');
    let indention: string;
    if (typeof width === 'string') indention = width;
    else if (width instanceof JMarkup) indention = width.s;
    else indention = binop('mul', ' ', width, r) as string;
    if (s instanceof JUndef) throw s.fail();
    if (Array.isArray(s)) throw new PyError('AttributeError', "'list' object has no attribute 'splitlines'");
    if (s instanceof JTuple) throw typeError('can only concatenate tuple (not "str") to tuple');
    if (typeof s !== 'string') throw typeError(`unsupported operand type(s) for +=: '${typeName(s)}' and 'str'`);
    const text = s + '\n';
    let rv: string;
    if (truthy(blank)) rv = pySplitLines(text).join('\n' + indention);
    else {
      const lines = pySplitLines(text);
      rv = lines.shift() as string;
      if (lines.length) rv += '\n' + lines.map((l) => (l ? indention + l : l)).join('\n');
    }
    if (truthy(first)) rv = indention + rv;
    if (rv.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
    return rv;
  }, { defaults: [4n, false, false] }),
  int: f('do_int', ['value', 'default', 'base'], ([value, dflt, base]) => {
    const soft = (e: unknown) => e instanceof PyError && (e.pyType === 'TypeError' || e.pyType === 'ValueError');
    try {
      if (typeof value === 'string' || value instanceof JMarkup) {
        const s = typeof value === 'string' ? value : value.s;
        const b = indexArg(base);
        if (b !== 0n && (b < 2n || b > 36n)) throw new PyError('ValueError', 'int() base must be >= 2 and <= 36, or 0');
        return pyIntFromString(s, Number(b));
      }
      return pyIntOf(value);
    } catch (e) {
      if (!soft(e)) throw e;
      try {
        return pyIntOf(pyFloatOf(value));
      } catch (e2) {
        if (!soft(e2)) throw e2;
        return dflt;
      }
    }
  }, { defaults: [0n, 10n] }),
  items: f('do_items', ['value'], ([value], r) =>
    gen(r, function* () {
      if (value instanceof JUndef) return;
      if (!(value instanceof JDict)) throw typeError('Can only get item pairs from a mapping.');
      yield* r.iter(new JDictView(value, 'items')) as Generator<JValue>;
    })),
  join: f('sync_do_join', ['eval_ctx', 'value', 'd', 'attribute'], ([value, d, attribute], r) => {
    const getter = attribute !== null ? makeAttrgetter(r, attribute, null) : null;
    const sep = pyStr(d);
    const it = r.iter(value);
    const parts: string[] = [];
    let len = 0;
    for (let x = it.next(); !x.done; x = it.next()) {
      const s = pyStr(getter ? getter(x.value) : x.value);
      len += s.length + sep.length;
      if (len > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      parts.push(s);
    }
    return parts.join(sep);
  }, { hidden: 1, defaults: ['', null] }),
  last: f('do_last', ['environment', 'seq'], ([seq], r) => {
    const rev = reversedOf(seq, r);
    if (!rev) {
      if (seq instanceof JMarkup) throw unsupported('last of a Markup value');
      throw typeError(`'${typeName(seq)}' object is not reversible`);
    }
    const x = rev.it.next();
    return x.done ? hintUndef('No last item, sequence was empty.') : x.value;
  }, { hidden: 1 }),
  length: f('len', ['obj'], ([v]) => doLen(v), { cOne: true }),
  list: f('sync_do_list', ['value'], ([v], r) => r.list(v)),
  lower: f('do_lower', ['s'], ([s]) => mapStr(s, (x) => x.toLowerCase())),
  map: f('sync_do_map', ['context', 'value'], ([value], r, { rest, kw }) =>
    gen(r, function* () {
      if (!truthy(value)) return;
      let func: (x: JValue) => JValue;
      const kwm = new Map(kw);
      if (!rest.length && kwm.has('attribute')) {
        const attribute = kwm.get('attribute') as JValue;
        kwm.delete('attribute');
        const dflt = kwm.has('default') ? (kwm.get('default') as JValue) : null;
        kwm.delete('default');
        if (kwm.size) throw new PyError('FilterArgumentError', `Unexpected keyword argument ${pyStrRepr([...kwm.keys()][0])}`);
        func = makeAttrgetter(r, attribute, null, dflt);
      } else {
        if (!rest.length) throw new PyError('FilterArgumentError', 'map requires a filter argument');
        const [name, ...fargs] = rest;
        func = (x) => callFilterByName(r, name, x, fargs, kw);
      }
      const it = r.iter(value);
      for (let x = it.next(); !x.done; x = it.next()) yield func(x.value);
    }), { hidden: 1, varargs: true, varkw: true }),
  max: f('do_max', ['environment', 'value', 'case_sensitive', 'attribute'], ([v, cs, attr], r) => minMax(r, v, cs, attr, true), {
    hidden: 1,
    defaults: [false, null],
  }),
  min: f('do_min', ['environment', 'value', 'case_sensitive', 'attribute'], ([v, cs, attr], r) => minMax(r, v, cs, attr, false), {
    hidden: 1,
    defaults: [false, null],
  }),
  reject: f('sync_do_reject', ['context', 'value'], ([v], r, { rest, kw }) => selectOrReject(r, v, rest, kw, true, false), {
    hidden: 1,
    varargs: true,
    varkw: true,
  }),
  rejectattr: f('sync_do_rejectattr', ['context', 'value'], ([v], r, { rest, kw }) => selectOrReject(r, v, rest, kw, true, true), {
    hidden: 1,
    varargs: true,
    varkw: true,
  }),
  replace: f('do_replace', ['eval_ctx', 's', 'old', 'new', 'count'], ([s, old, neu, count]) => {
    let c = -1;
    if (count !== null) {
      if (typeof count === 'number') throw typeError("'float' object cannot be interpreted as an integer");
      const b = indexArg(count);
      c = b < 0n ? -1 : b > 1_000_000_000n ? 1_000_000_000 : Number(b);
    }
    const out = pyReplace(pyStr(s), pyStr(old), pyStr(neu), c);
    if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
    return out;
  }, { hidden: 1, defaults: [null] }),
  reverse: f('do_reverse', ['value'], ([value], r) => {
    if (typeof value === 'string') return codePoints(value).reverse().join('');
    if (value instanceof JMarkup) return new JMarkup(codePoints(value.s).reverse().join(''));
    const rev = reversedOf(value, r);
    if (rev) return rev;
    try {
      return r.list(value).reverse();
    } catch (e) {
      if (e instanceof PyError && e.pyType === 'TypeError') throw new PyError('FilterArgumentError', 'argument must be iterable');
      throw e;
    }
  }),
  round: f('do_round', ['value', 'precision', 'method'], ([value, precision, method], r) => {
    if (!(pyEq(method, 'common') || pyEq(method, 'ceil') || pyEq(method, 'floor'))) {
      throw new PyError('FilterArgumentError', 'method must be common, ceil or floor');
    }
    if (pyEq(method, 'common')) {
      if (isInt(value)) return roundInt(toBig(value), Number(indexArg(precision)));
      if (typeof value === 'number') {
        const nd = indexArg(precision);
        return roundFloat(value, nd > 400n ? 400 : nd < -400n ? -400 : Number(nd));
      }
      throw typeError(`type ${typeName(value)} doesn't define __round__ method`);
    }
    const scale = binop('pow', 10n, precision, r);
    const x = binop('mul', value, scale, r);
    let n: bigint;
    if (isInt(x)) n = toBig(x);
    else if (typeof x === 'number') {
      if (Number.isNaN(x)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
      if (!Number.isFinite(x)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
      n = BigInt(pyEq(method, 'ceil') ? Math.ceil(x) : Math.floor(x));
    } else throw typeError(`must be real number, not ${typeName(x)}`);
    return binop('div', n, scale, r);
  }, { defaults: [0n, 'common'] }),
  select: f('sync_do_select', ['context', 'value'], ([v], r, { rest, kw }) => selectOrReject(r, v, rest, kw, false, false), {
    hidden: 1,
    varargs: true,
    varkw: true,
  }),
  selectattr: f('sync_do_selectattr', ['context', 'value'], ([v], r, { rest, kw }) => selectOrReject(r, v, rest, kw, false, true), {
    hidden: 1,
    varargs: true,
    varkw: true,
  }),
  slice: f('sync_do_slice', ['value', 'slices', 'fill_with'], ([value, slices, fill], r) =>
    gen(r, function* () {
      const seq = r.list(value);
      const length = BigInt(seq.length);
      const per = binop('floordiv', length, slices, r);
      const extra = binop('mod', length, slices, r);
      const n = indexArg(slices);
      if (!isInt(per) || !isInt(extra)) throw typeError("'float' object cannot be interpreted as an integer");
      const perN = toBig(per);
      const extraN = toBig(extra);
      let offset = 0n;
      for (let i = 0n; i < n; i++) {
        r.step();
        const start = offset + i * perN;
        if (i < extraN) offset += 1n;
        const end = offset + (i + 1n) * perN;
        const tmp = sliceValue(seq, start, end, null) as JValue[];
        if (fill !== null && i >= extraN) tmp.push(fill);
        yield tmp;
      }
    }), { defaults: [null] }),
  groupby: f('sync_do_groupby', ['environment', 'value', 'attribute', 'default', 'case_sensitive'], ([value, attribute, dflt, cs], r) => {
    // Sorted by the (case-folded) key, then runs of equal keys; the grouper is the first item's real key.
    const expr = makeAttrgetter(r, attribute, truthy(cs) ? null : ignoreCase, dflt);
    const sorted = pySorted(r.list(value), expr, false);
    const groups: Array<[JValue, JValue[]]> = [];
    for (const item of sorted) {
      r.step();
      const k = expr(item);
      const last = groups[groups.length - 1];
      if (last && (last[0] === k || pyEq(last[0], k))) last[1].push(item);
      else groups.push([k, [item]]);
    }
    const output = truthy(cs) ? null : makeAttrgetter(r, attribute, null, dflt);
    return groups.map(([k, items]) => new JGroupTuple([output ? output(items[0]) : k, items]));
  }, { hidden: 1, defaults: [null, false] }),
  pprint: f('do_pprint', ['value'], ([value]) => {
    // pprint.pformat: the repr with dict keys sorted, when it fits in 80 columns.
    const rep = pprintRepr(value, new Set());
    if (pyLen(rep) > 80) throw unsupported('pprint of a value whose repr is longer than 80 characters (pprint wraps it)');
    return rep;
  }),
  sort: f('do_sort', ['environment', 'value', 'reverse', 'case_sensitive', 'attribute'], ([value, reverse, cs, attribute], r) => {
    const key = makeMultiAttrgetter(r, attribute, truthy(cs) ? null : ignoreCase);
    return pySorted(r.list(value), key, truthy(reverse));
  }, { hidden: 1, defaults: [false, false, null] }),
  string: f('soft_str', ['s'], ([v]) => softStr(v), { cOne: true }),
  sum: f('sync_do_sum', ['environment', 'iterable', 'attribute', 'start'], ([iterable, attribute, start], r) => {
    if (typeof start === 'string' || start instanceof JMarkup) throw typeError("sum() can't sum strings [use ''.join(seq) instead]");
    if (start instanceof JBytes) throw typeError("sum() can't sum bytes [use b''.join(seq) instead]");
    const getter = attribute !== null ? makeAttrgetter(r, attribute, null) : null;
    let acc: JValue = start;
    const it = r.iter(iterable);
    for (let x = it.next(); !x.done; x = it.next()) acc = binop('add', acc, getter ? getter(x.value) : x.value, r);
    return acc;
  }, { hidden: 1, defaults: [null, 0n] }),
  title: f('do_title', ['s'], ([s]) =>
    mapStr(s, (x) =>
      x
        .split(new RegExp(`([-${PY_SPACE_CLASS_BODY}({\\[<]+)`))
        .filter((item) => item)
        .map((item) => {
          const c = codePoints(item);
          return c[0].toUpperCase() + c.slice(1).join('').toLowerCase();
        })
        .join(''),
    )),
  trim: f('do_trim', ['value', 'chars'], ([value, chars]) => {
    if (chars !== null && typeof chars !== 'string' && !(chars instanceof JMarkup)) throw typeError('strip arg must be None or str');
    const c = chars === null ? null : typeof chars === 'string' ? chars : chars.s;
    return mapStr(value, (s) => pyStripChars(s, c === null ? null : c, true, true));
  }, { defaults: [null] }),
  truncate: f('do_truncate', ['env', 's', 'length', 'killwords', 'end', 'leeway'], ([s, length, killwords, end, leeway], r) => {
    const lw = leeway === null ? 5n : leeway;
    const endLen = pyLenOf(end);
    if (!pyOrder('gteq', length, endLen)) throw new PyError('AssertionError', `expected length >= ${endLen}, got ${pyStr(length)}`);
    if (!pyOrder('gteq', lw, 0n)) throw new PyError('AssertionError', `expected leeway >= 0, got ${pyStr(lw)}`);
    if (s instanceof JMarkup) throw unsupported('truncate of a Markup value');
    if (pyOrder('lteq', pyLenOf(s), binop('add', length, lw, r))) return s;
    const cut = binop('sub', length, endLen, r);
    const head = sliceValue(s, null, cut, null);
    if (truthy(killwords)) return binop('add', head, end, r);
    const parts = pyRsplit(pyStr(head), ' ', 1);
    return binop('add', parts[0], end, r);
  }, { hidden: 1, defaults: [255n, false, '...', null] }),
  unique: f('do_unique', ['environment', 'value', 'case_sensitive', 'attribute'], ([value, cs, attribute], r) =>
    gen(r, function* () {
      const getter = makeAttrgetter(r, attribute, truthy(cs) ? null : ignoreCase);
      const seen = new Set<string>();
      const it = r.iter(value);
      for (let x = it.next(); !x.done; x = it.next()) {
        const k = hashKey(getter(x.value));
        if (!seen.has(k)) {
          seen.add(k);
          yield x.value;
        }
      }
    }), { hidden: 1, defaults: [false, null] }),
  upper: f('do_upper', ['s'], ([s]) => mapStr(s, (x) => x.toUpperCase())),
  // markupsafe.escape: a Markup is kept as it is, anything else is str()-ed and escaped.
  escape: f('escape', ['s'], ([s]) => (s instanceof JMarkup ? s : new JMarkup(htmlEscape(pyStr(s)))), { cOne: true }),
  e: f('escape', ['s'], ([s]) => (s instanceof JMarkup ? s : new JMarkup(htmlEscape(pyStr(s)))), { cOne: true }),
  forceescape: f('do_forceescape', ['value'], ([v]) => new JMarkup(htmlEscape(v instanceof JMarkup ? v.s : pyStr(v)))),
  safe: f('do_mark_safe', ['value'], ([v]) => (v instanceof JMarkup ? v : new JMarkup(pyStr(v)))),
  striptags: f('do_striptags', ['value'], ([v]) =>
    stripTags(v instanceof JMarkup ? v.s : pyStr(v), (what) => {
      throw unsupported(what);
    }),
  ),
  xmlattr: f('do_xmlattr', ['eval_ctx', 'd', 'autospace'], ([d, autospace], r) => {
    const entries: Array<[JValue, JValue]> = d instanceof JDict ? d.entries() : [];
    if (!(d instanceof JDict)) {
      if (d instanceof JUndef) throw d.fail();
      throw new PyError('AttributeError', `'${typeName(d)}' object has no attribute 'items'`);
    }
    const items: string[] = [];
    for (const [k, v] of entries) {
      r.step();
      if (v === null || v instanceof JUndef) continue;
      if (typeof k !== 'string' && !(k instanceof JMarkup)) throw typeError('expected string or bytes-like object, got ' + pyStrRepr(typeName(k)));
      const key = typeof k === 'string' ? k : k.s;
      if (INVALID_ATTR_KEY.test(key)) throw new PyError('ValueError', `Invalid character in attribute name: ${pyRepr(k)}`);
      items.push(`${k instanceof JMarkup ? key : htmlEscape(key)}="${v instanceof JMarkup ? v.s : htmlEscape(pyStr(v))}"`);
    }
    const rv = items.join(' ');
    return truthy(autospace) && rv ? ' ' + rv : rv;
  }, { hidden: 1, defaults: [true] }),
  urlencode: f('do_urlencode', ['value'], ([value], r) => {
    if (typeof value === 'string' || value instanceof JMarkup || !isIterable(value)) return urlQuote(value instanceof JMarkup ? value.s : value, false);
    const items = value instanceof JDict ? value.entries().map(([k, v]) => new JTuple([k, v])) : r.list(value);
    return items
      .map((item) => {
        const [k, v] = r.unpack(item, 2);
        return `${urlQuote(k, true)}=${urlQuote(v, true)}`;
      })
      .join('&');
  }),
  wordcount: f('do_wordcount', ['s'], ([s]) => BigInt((pyStr(s).match(/[\p{L}\p{N}_]+/gu) ?? []).length)),
  tojson: f('do_tojson', ['eval_ctx', 'value', 'indent'], ([value, indent], r) => {
    let ind: string | null = null;
    if (indent !== null) {
      if (typeof indent === 'string') ind = indent;
      else ind = binop('mul', ' ', indent, r) as string;
    }
    const s = jsonDumps(value, ind)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/'/g, '\\u0027');
    return new JMarkup(s);
  }, { hidden: 1, defaults: [null] }),
};
