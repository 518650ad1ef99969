/**
 * The methods templates call on Python values: str (CPython
 * Objects/unicodeobject.c), list and dict (listobject.c, dictobject.c), with
 * Python's argument rules and messages; str.format/format_map go through
 * ./pyformat.ts with the environment's lookups.
 *
 * Residual differences: methods whose Unicode tables differ between Python
 * 3.11 and the JS engine (casefold, title, swapcase ...) are emulated for
 * ASCII text only and refused as unsupported otherwise.
 */
import { pushAll } from '../arrays';
import { indexArg, methodArgs, strArg } from './callargs';
import { LIMITS, typeError, unsupported } from './errors';
import { FormatHost, pyFormat } from './pyformat';
import { pyAscii } from './pypercent';
import { Renderer } from './runtime';
import { FAIL, trySubscript } from './slicing';
import { CallArgs, JBytes, JDict, JDictView, JFunc, JMarkup, JNamespace, JRange, JTuple, JUndef, JValue, MISSING, hashKey, isInt, isIterable, pyEq, pyRepr, pySorted, pyStr, toBig, truthy, typeName } from './values';
import { PyError } from '../py/errors';
import { pyFloatRepr, pyStrRepr } from '../py/repr';
import { SURROGATE, codePoints, isCased, isPySpaceText, pyCapitalize, pyIsLower, pyIsUpper, pyLen, pyReplace, pyRsplit, pySplit, pySplitLines, pyStripChars } from '../py/str';


export const STR_ATTRS = new Set([
  'capitalize', 'casefold', 'center', 'count', 'encode', 'endswith', 'expandtabs', 'find', 'format', 'format_map',
  'index', 'isalnum', 'isalpha', 'isascii', 'isdecimal', 'isdigit', 'isidentifier', 'islower', 'isnumeric',
  'isprintable', 'isspace', 'istitle', 'isupper', 'join', 'ljust', 'lower', 'lstrip', 'maketrans', 'partition',
  'removeprefix', 'removesuffix', 'replace', 'rfind', 'rindex', 'rjust', 'rpartition', 'rsplit', 'rstrip', 'split',
  'splitlines', 'startswith', 'strip', 'swapcase', 'title', 'translate', 'upper', 'zfill',
]);
export const INT_ATTRS = new Set([
  'as_integer_ratio', 'bit_count', 'bit_length', 'conjugate', 'denominator', 'from_bytes', 'imag', 'numerator', 'real',
  'to_bytes',
]);
export const FLOAT_ATTRS = new Set(['as_integer_ratio', 'conjugate', 'fromhex', 'hex', 'imag', 'is_integer', 'real']);
export const LIST_ATTRS = new Set(['append', 'clear', 'copy', 'count', 'extend', 'index', 'insert', 'pop', 'remove', 'reverse', 'sort']);
export const TUPLE_ATTRS = new Set(['count', 'index']);
export const DICT_ATTRS = new Set(['clear', 'copy', 'fromkeys', 'get', 'items', 'keys', 'pop', 'popitem', 'setdefault', 'update', 'values']);
export const RANGE_ATTRS = new Set(['count', 'index', 'start', 'step', 'stop']);

export type Method = (a: CallArgs, r: Renderer) => JValue;

export function bound(owner: string, name: string, m: Method | undefined, typeName = 'builtin_function_or_method'): JFunc {
  return new JFunc(`${owner}.${name}`, m ?? null, null, typeName);
}

export function strPredicate(s: string, re: RegExp): boolean {
  return s.length > 0 && Array.from(s).every((c) => re.test(c));
}

export function padTo(s: string, width: JValue, fill: JValue | undefined, where: 'l' | 'r' | 'c'): string {
  const w = Number(indexArg(width));
  const fc = fill === undefined ? ' ' : strArg(fill, 'The fill character must be a unicode character');
  if (pyLen(fc) !== 1) throw typeError('The fill character must be exactly one character long');
  const marg = w - pyLen(s);
  if (marg <= 0) return s;
  if (w > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
  if (where === 'l') return s + fc.repeat(marg);
  if (where === 'r') return fc.repeat(marg) + s;
  const left = Math.floor(marg / 2) + (marg & w & 1);
  return fc.repeat(left) + s + fc.repeat(marg - left);
}

export function affixArg(v: JValue, fname: string): string[] {
  if (typeof v === 'string' || v instanceof JMarkup) return [strArg(v, '')];
  if (v instanceof JTuple) {
    return v.items.map((x) => {
      if (typeof x !== 'string') throw typeError(`tuple for ${fname} must only contain str, not ${typeName(x)}`);
      return x;
    });
  }
  throw typeError(`${fname} first arg must be str or a tuple of str, not ${typeName(v)}`);
}

/** What Python's obj[key] raises when it fails (str or int keys, as format fields give). */
export function subscriptError(v: JValue, key: string | bigint): PyError {
  if (v instanceof JDict) return new PyError('KeyError', pyRepr(key));
  if (Array.isArray(v) || v instanceof JTuple) {
    if (typeof key === 'bigint') return new PyError('IndexError', `${typeName(v)} index out of range`);
    return typeError(`${typeName(v)} indices must be integers or slices, not str`);
  }
  if (typeof v === 'string' || v instanceof JMarkup) {
    if (typeof key === 'bigint') return new PyError('IndexError', 'string index out of range');
    // Markup.__getitem__ escapes its argument first: the key is then a Markup.
    return typeError(`string indices must be integers, not '${v instanceof JMarkup ? 'Markup' : 'str'}'`);
  }
  if (v instanceof JRange) {
    if (typeof key === 'bigint') return new PyError('IndexError', 'range object index out of range');
    return typeError('range indices must be integers or slices, not str');
  }
  return typeError(`'${typeName(v)}' object is not subscriptable`);
}

/** pyformat.ts's view of template values; `sandbox` chooses how fields look up attributes and items. */
export function formatHost(r: Renderer): FormatHost<JValue> {
  return {
    kind: (v) => (typeof v === 'string' || v instanceof JMarkup ? 'str' : typeof v === 'boolean' ? 'bool' : typeof v === 'bigint' ? 'int' : typeof v === 'number' ? 'float' : v === null ? 'none' : 'other'),
    strValue: (v) => (v instanceof JMarkup ? v.s : (v as string)),
    intValue: (v) => toBig(v as bigint | boolean),
    floatValue: (v) => v as number,
    typeName: (v) => typeName(v),
    str: (v) => pyStr(v),
    repr: (v) => pyRepr(v),
    ascii: (v) =>
      typeof v === 'string'
        ? pyAscii(v)
        : [...pyRepr(v)].map((ch) => {
            const cp = ch.codePointAt(0) as number;
            return cp < 0x80 ? ch : cp < 0x100 ? '\\x' + cp.toString(16).padStart(2, '0') : cp < 0x10000 ? '\\u' + cp.toString(16).padStart(4, '0') : '\\U' + cp.toString(16).padStart(8, '0');
          }).join(''),
    pythonFormatter: r.sandbox,
    floatRepr: (x) => pyFloatRepr(x),
    getattr: (v, name) => {
      if (r.sandbox) return r.getattr(v, name);
      const priv = r.privateAttr(v, name);
      if (priv !== MISSING) return priv;
      if (v instanceof JUndef) throw v.fail();
      const a = name.startsWith('_') && !(v instanceof JNamespace) ? MISSING : r.getattrOnly(v, name);
      if (a === MISSING) throw new PyError('AttributeError', `'${typeName(v)}' object has no attribute ${pyStrRepr(name)}`);
      return a;
    },
    getitem: (v, key) => {
      if (r.sandbox) return r.getitem(v, key);
      if (v instanceof JUndef) throw v.fail();
      const got = trySubscript(v, key);
      if (got !== FAIL) return got;
      throw subscriptError(v, key);
    },
    error: (pyType, message) => {
      throw pyType === 'TypeError' ? typeError(message) : new PyError(pyType, message);
    },
    cannot: (what) => {
      throw unsupported(what);
    },
  };
}

export function strFormat(s: string, r: Renderer, args: JValue[], kw: (name: string) => JValue | undefined, mapOnly = false): string {
  const out = pyFormat(formatHost(r), s, { args, kw, mapOnly }, 2);
  if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
  return out;
}

/** Python's Unicode tables are not JavaScript's: some methods are emulated for ASCII text only. */
export function asciiOnly(s: string, method: string): void {
  if (/[^\x00-\x7f]/.test(s)) throw unsupported(`str.${method} of non-ASCII text`);
}

export function strMethods(s: string): Record<string, Method> {
  const sepArg = (v: JValue | undefined): string | null => (v === undefined || v === null ? null : strArg(v, 'must be str or None'));
  const m: Record<string, Method> = {
    format: (a, r) => {
      const kw = new Map(a.kwargs);
      return strFormat(s, r, a.args, (name) => kw.get(name));
    },
    format_map: (a, r) => {
      if (a.kwargs.length) throw typeError('str.format_map() takes no keyword arguments');
      if (a.args.length !== 1) throw typeError(`str.format_map() takes exactly one argument (${a.args.length} given)`);
      const m = a.args[0];
      return strFormat(s, r, [], (name) => {
        if (m instanceof JDict) {
          const e = m.map.get(hashKey(name));
          return e ? e.v : undefined;
        }
        if (m instanceof JUndef) throw m.fail();
        const got = trySubscript(m, name);
        if (got !== FAIL) return got;
        throw subscriptError(m, name);
      }, true);
    },
    lower: (a) => (methodArgs(a, 'str.lower', [], 0), s.toLowerCase()),
    upper: (a) => (methodArgs(a, 'str.upper', [], 0), s.toUpperCase()),
    capitalize: (a) => (methodArgs(a, 'str.capitalize', [], 0), pyCapitalize(s)),
    title: (a) => {
      methodArgs(a, 'str.title', [], 0);
      let out = '';
      let prevCased = false;
      for (const c of s) {
        out += prevCased ? c.toLowerCase() : c.toUpperCase();
        prevCased = isCased(c);
      }
      return out;
    },
    strip: (a) => pyStripChars(s, sepArg(methodArgs(a, 'strip', ['chars'], 0, [], 'str')[0]), true, true),
    lstrip: (a) => pyStripChars(s, sepArg(methodArgs(a, 'lstrip', ['chars'], 0, [], 'str')[0]), true, false),
    rstrip: (a) => pyStripChars(s, sepArg(methodArgs(a, 'rstrip', ['chars'], 0, [], 'str')[0]), false, true),
    split: (a) => {
      const [sep, max] = methodArgs(a, 'split', ['sep', 'maxsplit'], 0, ['sep', 'maxsplit']);
      return pySplit(s, sepArg(sep), max === undefined ? -1 : Number(indexArg(max)));
    },
    rsplit: (a) => {
      const [sep, max] = methodArgs(a, 'rsplit', ['sep', 'maxsplit'], 0, ['sep', 'maxsplit']);
      return pyRsplit(s, sepArg(sep), max === undefined ? -1 : Number(indexArg(max)));
    },
    splitlines: (a) => {
      const [keep] = methodArgs(a, 'splitlines', ['keepends'], 0, ['keepends']);
      return pySplitLines(s, keep !== undefined && truthy(keep));
    },
    startswith: (a) => {
      const [p, start, end] = methodArgs(a, 'startswith', ['prefix', 'start', 'end'], 1);
      if (start !== undefined || end !== undefined) throw unsupported('startswith with start/end');
      return affixArg(p as JValue, 'startswith').some((x) => s.startsWith(x));
    },
    endswith: (a) => {
      const [p, start, end] = methodArgs(a, 'endswith', ['suffix', 'start', 'end'], 1);
      if (start !== undefined || end !== undefined) throw unsupported('endswith with start/end');
      return affixArg(p as JValue, 'endswith').some((x) => s.endsWith(x));
    },
    replace: (a) => {
      const [old, neu, count] = methodArgs(a, 'replace', ['old', 'new', 'count'], 2, [], 'str');
      const o = strArg(old as JValue, 'replace() argument 1 must be str');
      const n = strArg(neu as JValue, 'replace() argument 2 must be str');
      const c = count === undefined ? -1 : Number(indexArg(count));
      const out = pyReplace(s, o, n, c);
      if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return out;
    },
    join: (a, r) => {
      const [it] = methodArgs(a, 'str.join', ['iterable'], 1);
      if (!isIterable(it as JValue)) throw typeError('can only join an iterable');
      const items = r.list(it as JValue);
      return items
        .map((x, i) => {
          if (typeof x === 'string') return x;
          if (x instanceof JMarkup) return x.s;
          throw typeError(`sequence item ${i}: expected str instance, ${typeName(x)} found`);
        })
        .join(s);
    },
    count: (a) => {
      const [sub, start, end] = methodArgs(a, 'count', ['sub', 'start', 'end'], 1);
      if (start !== undefined || end !== undefined) throw unsupported('count with start/end');
      const t = strArg(sub as JValue, 'must be str');
      if (t === '') return BigInt(pyLen(s) + 1);
      return BigInt(s.split(t).length - 1);
    },
    find: (a) => {
      const [sub, start, end] = methodArgs(a, 'find', ['sub', 'start', 'end'], 1);
      if (start !== undefined || end !== undefined) throw unsupported('find with start/end');
      const i = s.indexOf(strArg(sub as JValue, 'must be str'));
      return BigInt(i < 0 ? -1 : pyLen(s.slice(0, i)));
    },
    rfind: (a) => {
      const [sub, start, end] = methodArgs(a, 'rfind', ['sub', 'start', 'end'], 1);
      if (start !== undefined || end !== undefined) throw unsupported('rfind with start/end');
      const i = s.lastIndexOf(strArg(sub as JValue, 'must be str'));
      return BigInt(i < 0 ? -1 : pyLen(s.slice(0, i)));
    },
    index: (a) => {
      const [sub, start, end] = methodArgs(a, 'index', ['sub', 'start', 'end'], 1);
      if (start !== undefined || end !== undefined) throw unsupported('index with start/end');
      const i = s.indexOf(strArg(sub as JValue, 'must be str'));
      if (i < 0) throw new PyError('ValueError', 'substring not found');
      return BigInt(pyLen(s.slice(0, i)));
    },
    rindex: (a) => {
      const [sub, start, end] = methodArgs(a, 'rindex', ['sub', 'start', 'end'], 1);
      if (start !== undefined || end !== undefined) throw unsupported('rindex with start/end');
      const i = s.lastIndexOf(strArg(sub as JValue, 'must be str'));
      if (i < 0) throw new PyError('ValueError', 'substring not found');
      return BigInt(pyLen(s.slice(0, i)));
    },
    isascii: (a) => (methodArgs(a, 'str.isascii', [], 0), /^[\x00-\x7f]*$/.test(s)),
    isidentifier: (a) => (methodArgs(a, 'str.isidentifier', [], 0), asciiOnly(s, 'isidentifier'), /^[A-Za-z_][A-Za-z0-9_]*$/.test(s)),
    isnumeric: (a) => (methodArgs(a, 'str.isnumeric', [], 0), asciiOnly(s, 'isnumeric'), /^[0-9]+$/.test(s)),
    isprintable: (a) => (methodArgs(a, 'str.isprintable', [], 0), asciiOnly(s, 'isprintable'), /^[\x20-\x7e]*$/.test(s)),
    istitle: (a) => {
      methodArgs(a, 'str.istitle', [], 0);
      let cased = false;
      let prev = false;
      for (const c of s) {
        if (/\p{Lu}|\p{Lt}/u.test(c)) {
          if (prev) return false;
          prev = true;
          cased = true;
        } else if (/\p{Ll}/u.test(c)) {
          if (!prev) return false;
          prev = true;
          cased = true;
        } else prev = false;
      }
      return cased;
    },
    casefold: (a) => (methodArgs(a, 'str.casefold', [], 0), asciiOnly(s, 'casefold'), s.toLowerCase()),
    swapcase: (a) => (methodArgs(a, 'str.swapcase', [], 0), asciiOnly(s, 'swapcase'), s.replace(/[A-Za-z]/g, (c) => (c >= 'a' ? c.toUpperCase() : c.toLowerCase()))),
    expandtabs: (a) => {
      const [ts] = methodArgs(a, 'expandtabs', ['tabsize'], 0, ['tabsize']);
      const size = ts === undefined ? 8 : Number(indexArg(ts));
      let out = '';
      let col = 0;
      for (const c of s) {
        if (c === '\t') {
          if (size > 0) {
            const n = size - (col % size);
            if (out.length + n > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
            out += ' '.repeat(n);
            col += n;
          }
        } else {
          out += c;
          col = c === '\n' || c === '\r' ? 0 : col + 1;
        }
      }
      return out;
    },
    encode: (a) => {
      const [enc, errors] = methodArgs(a, 'encode', ['encoding', 'errors'], 0, ['encoding', 'errors']);
      const name = (enc === undefined ? 'utf-8' : strArg(enc, "encode() argument 'encoding' must be str")).toLowerCase().replace(/_/g, '-');
      if (errors !== undefined && strArg(errors, "encode() argument 'errors' must be str") !== 'strict') throw unsupported('str.encode with an error handler');
      const chars = codePoints(s);
      if (name === 'utf-8' || name === 'utf8') {
        const bad = chars.findIndex((c) => SURROGATE.test(c));
        if (bad >= 0) throw new PyError('UnicodeEncodeError', `'utf-8' codec can't encode character '\\u${(chars[bad].codePointAt(0) as number).toString(16)}' in position ${bad}: surrogates not allowed`);
        return new JBytes(new TextEncoder().encode(s));
      }
      const limit = name === 'ascii' || name === 'us-ascii' ? 0x80 : name === 'latin-1' || name === 'latin1' || name === 'iso-8859-1' ? 0x100 : 0;
      if (!limit) throw unsupported(`str.encode with the codec ${pyStrRepr(name)}`);
      const bad = chars.findIndex((c) => (c.codePointAt(0) as number) >= limit);
      if (bad >= 0) {
        const cp = chars[bad].codePointAt(0) as number;
        const codec = limit === 0x80 ? 'ascii' : 'latin-1';
        throw new PyError('UnicodeEncodeError', `'${codec}' codec can't encode character ${pyStrRepr(chars[bad])} in position ${bad}: ordinal not in range(${limit})`.replace(pyStrRepr(chars[bad]), `'\\${cp < 0x100 ? 'x' + cp.toString(16).padStart(2, '0') : cp < 0x10000 ? 'u' + cp.toString(16).padStart(4, '0') : 'U' + cp.toString(16).padStart(8, '0')}'`));
      }
      return new JBytes(Uint8Array.from(chars.map((c) => c.codePointAt(0) as number)));
    },
    translate: (a) => {
      const [table] = methodArgs(a, 'translate', ['table'], 1);
      if (!(table instanceof JDict)) throw unsupported('str.translate with a table that is not a dict');
      let out = '';
      for (const c of s) {
        const v = table.get(BigInt(c.codePointAt(0) as number));
        if (v === undefined) out += c;
        else if (v === null) continue;
        else if (typeof v === 'string') out += v;
        else if (isInt(v)) {
          const n = toBig(v);
          if (n < 0n || n > 0x10ffffn) throw new PyError('ValueError', 'character mapping must be in range(0x110000)');
          out += String.fromCodePoint(Number(n));
        } else throw typeError('character mapping must return integer, None or str');
        if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      }
      return out;
    },
    maketrans: (a) => {
      const [x, y, z] = methodArgs(a, 'maketrans', ['x', 'y', 'z'], 1, [], 'str');
      const d = new JDict();
      if (y === undefined) {
        if (!(x instanceof JDict)) throw typeError('if you give only one argument to maketrans it must be a dict');
        for (const [k, v] of x.entries()) {
          if (typeof k === 'string') {
            if (pyLen(k) !== 1) throw new PyError('ValueError', 'string keys in translate table must be of length 1');
            d.set(BigInt(k.codePointAt(0) as number), v);
          } else if (isInt(k)) d.set(toBig(k), v);
          else throw typeError('keys in translate table must be strings or integers');
        }
        return d;
      }
      const xs = codePoints(strArg(x as JValue, 'maketrans() argument 1 must be str'));
      const ys = codePoints(strArg(y, 'maketrans() argument 2 must be str'));
      if (xs.length !== ys.length) throw new PyError('ValueError', 'the first two maketrans arguments must have equal length');
      xs.forEach((c, i) => d.set(BigInt(c.codePointAt(0) as number), BigInt(ys[i].codePointAt(0) as number)));
      if (z !== undefined) for (const c of codePoints(strArg(z, 'maketrans() argument 3 must be str'))) d.set(BigInt(c.codePointAt(0) as number), null);
      return d;
    },
    isdigit: (a) => (methodArgs(a, 'str.isdigit', [], 0), strPredicate(s, /^[0-9]$/)),
    isdecimal: (a) => (methodArgs(a, 'str.isdecimal', [], 0), strPredicate(s, /^[0-9]$/)),
    isalpha: (a) => (methodArgs(a, 'str.isalpha', [], 0), strPredicate(s, /^\p{L}$/u)),
    isalnum: (a) => (methodArgs(a, 'str.isalnum', [], 0), strPredicate(s, /^[\p{L}\p{N}]$/u)),
    isspace: (a) => (methodArgs(a, 'str.isspace', [], 0), s.length > 0 && isPySpaceText(s)),
    islower: (a) => (methodArgs(a, 'str.islower', [], 0), pyIsLower(s)),
    isupper: (a) => (methodArgs(a, 'str.isupper', [], 0), pyIsUpper(s)),
    zfill: (a) => {
      const [w] = methodArgs(a, 'zfill', ['width'], 1);
      const width = Number(indexArg(w as JValue));
      const n = pyLen(s);
      if (width <= n) return s;
      if (width > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      const signed = s.startsWith('+') || s.startsWith('-');
      return signed ? s[0] + '0'.repeat(width - n) + s.slice(1) : '0'.repeat(width - n) + s;
    },
    ljust: (a) => {
      const [w, fc] = methodArgs(a, 'ljust', ['width', 'fillchar'], 1, [], 'str');
      return padTo(s, w as JValue, fc, 'l');
    },
    rjust: (a) => {
      const [w, fc] = methodArgs(a, 'rjust', ['width', 'fillchar'], 1, [], 'str');
      return padTo(s, w as JValue, fc, 'r');
    },
    center: (a) => {
      const [w, fc] = methodArgs(a, 'center', ['width', 'fillchar'], 1, [], 'str');
      return padTo(s, w as JValue, fc, 'c');
    },
    removeprefix: (a) => {
      const p = strArg(methodArgs(a, 'removeprefix', ['prefix'], 1)[0] as JValue, 'removeprefix() argument must be str');
      return p && s.startsWith(p) ? s.slice(p.length) : s;
    },
    removesuffix: (a) => {
      const p = strArg(methodArgs(a, 'removesuffix', ['suffix'], 1)[0] as JValue, 'removesuffix() argument must be str');
      return p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
    },
    partition: (a) => {
      const sep = strArg(methodArgs(a, 'partition', ['sep'], 1)[0] as JValue, 'must be str');
      if (!sep) throw new PyError('ValueError', 'empty separator');
      const i = s.indexOf(sep);
      return i < 0 ? new JTuple([s, '', '']) : new JTuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
    },
    rpartition: (a) => {
      const sep = strArg(methodArgs(a, 'rpartition', ['sep'], 1)[0] as JValue, 'must be str');
      if (!sep) throw new PyError('ValueError', 'empty separator');
      const i = s.lastIndexOf(sep);
      return i < 0 ? new JTuple(['', '', s]) : new JTuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
    },
  };
  return m;
}

/** dict(*args, **kwargs) / dict.update: fill `d`. */
export function dictUpdate(d: JDict, a: CallArgs, r: Renderer, fname: string): void {
  if (a.args.length > 1) throw typeError(`${fname} expected at most 1 argument, got ${a.args.length}`);
  if (a.args.length) {
    const src = a.args[0];
    if (src instanceof JDict) for (const [k, v] of src.entries()) d.set(k, v);
    else {
      if (!isIterable(src)) throw typeError(`'${typeName(src)}' object is not iterable`);
      const items = r.list(src);
      items.forEach((item, i) => {
        if (!isIterable(item)) throw typeError(`cannot convert dictionary update sequence element #${i} to a sequence`);
        const kv = r.list(item);
        if (kv.length !== 2) {
          throw new PyError('ValueError', `dictionary update sequence element #${i} has length ${kv.length}; 2 is required`);
        }
        d.set(kv[0], kv[1]);
      });
    }
  }
  for (const [k, v] of a.kwargs) d.set(k, v);
}

/** dict.fromkeys(iterable, value=None) */
export function dictFromkeys(a: CallArgs, r: Renderer): JValue {
  const [it, v] = methodArgs(a, 'fromkeys', ['iterable', 'value'], 1, [], 'dict');
  const d = new JDict();
  for (const k of r.list(it as JValue)) {
    r.step();
    d.set(k, v === undefined ? null : v);
  }
  return d;
}

export function dictMethods(d: JDict): Record<string, Method> {
  return {
    get: (a) => {
      const [k, dflt] = methodArgs(a, 'get', ['key', 'default'], 1, [], 'dict');
      const e = d.map.get(hashKey(k as JValue));
      return e ? e.v : dflt === undefined ? null : dflt;
    },
    keys: (a) => (methodArgs(a, 'dict.keys', [], 0), new JDictView(d, 'keys')),
    values: (a) => (methodArgs(a, 'dict.values', [], 0), new JDictView(d, 'values')),
    items: (a) => (methodArgs(a, 'dict.items', [], 0), new JDictView(d, 'items')),
    copy: (a) => {
      methodArgs(a, 'dict.copy', [], 0);
      const c = new JDict();
      for (const [k, v] of d.entries()) c.set(k, v);
      return c;
    },
    update: (a, r) => {
      dictUpdate(d, a, r, 'update');
      return null;
    },
    pop: (a) => {
      const [k, dflt] = methodArgs(a, 'pop', ['key', 'default'], 1, [], 'dict');
      const id = hashKey(k as JValue);
      const e = d.map.get(id);
      if (!e) {
        if (dflt !== undefined) return dflt;
        throw new PyError('KeyError', pyRepr(k as JValue));
      }
      d.map.delete(id);
      return e.v;
    },
    popitem: (a) => {
      methodArgs(a, 'dict.popitem', [], 0);
      const keys = [...d.map.keys()];
      if (!keys.length) throw new PyError('KeyError', "'popitem(): dictionary is empty'");
      const e = d.map.get(keys[keys.length - 1])!;
      d.map.delete(keys[keys.length - 1]);
      return new JTuple([e.k, e.v]);
    },
    fromkeys: (a, r) => dictFromkeys(a, r),
    setdefault: (a) => {
      const [k, dflt] = methodArgs(a, 'setdefault', ['key', 'default'], 1, [], 'dict');
      const e = d.map.get(hashKey(k as JValue));
      if (e) return e.v;
      d.set(k as JValue, dflt === undefined ? null : dflt);
      return dflt === undefined ? null : dflt;
    },
    clear: (a) => {
      methodArgs(a, 'dict.clear', [], 0);
      d.map.clear();
      return null;
    },
  };
}

export function listMethods(l: JValue[]): Record<string, Method> {
  const normIndex = (i: bigint, n: number, clamp: boolean): number => {
    let x = i < 0n ? i + BigInt(n) : i;
    if (clamp) {
      if (x < 0n) x = 0n;
      if (x > BigInt(n)) x = BigInt(n);
    }
    return Number(x);
  };
  return {
    append: (a) => {
      const [x] = methodArgs(a, 'list.append', ['object'], 1);
      if (l.length >= LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      l.push(x as JValue);
      return null;
    },
    extend: (a, r) => {
      const [x] = methodArgs(a, 'list.extend', ['iterable'], 1);
      const items = r.list(x as JValue);
      if (l.length + items.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      pushAll(l, items);
      return null;
    },
    insert: (a) => {
      const [i, x] = methodArgs(a, 'insert', ['index', 'object'], 2, [], 'list');
      l.splice(normIndex(indexArg(i as JValue), l.length, true), 0, x as JValue);
      return null;
    },
    pop: (a) => {
      const [i] = methodArgs(a, 'pop', ['index'], 0, [], 'list');
      if (!l.length) throw new PyError('IndexError', 'pop from empty list');
      const idx = i === undefined ? l.length - 1 : normIndex(indexArg(i), l.length, false);
      if (idx < 0 || idx >= l.length) throw new PyError('IndexError', 'pop index out of range');
      return l.splice(idx, 1)[0];
    },
    sort: (a) => {
      if (a.args.length) throw typeError('sort() takes no positional arguments');
      let reverse = false;
      for (const [k, v] of a.kwargs) {
        if (k === 'reverse') reverse = truthy(v);
        else if (k === 'key') {
          if (v !== null) throw unsupported('list.sort with a key function');
        } else throw typeError(`sort() got an unexpected keyword argument ${pyStrRepr(k)}`);
      }
      const sorted = pySorted(l.slice(), (x) => x, reverse);
      l.splice(0, l.length, ...sorted);
      return null;
    },
    remove: (a) => {
      const [x] = methodArgs(a, 'list.remove', ['value'], 1);
      const idx = l.findIndex((y) => y === x || pyEq(y, x as JValue));
      if (idx < 0) throw new PyError('ValueError', 'list.remove(x): x not in list');
      l.splice(idx, 1);
      return null;
    },
    index: (a) => {
      const [x, start, stop] = methodArgs(a, 'index', ['value', 'start', 'stop'], 1, [], 'list');
      if (start !== undefined || stop !== undefined) throw unsupported('list.index with start/stop');
      const idx = l.findIndex((y) => y === x || pyEq(y, x as JValue));
      if (idx < 0) throw new PyError('ValueError', `${pyRepr(x as JValue)} is not in list`);
      return BigInt(idx);
    },
    count: (a) => {
      const [x] = methodArgs(a, 'list.count', ['value'], 1);
      return BigInt(l.filter((y) => y === x || pyEq(y, x as JValue)).length);
    },
    copy: (a) => (methodArgs(a, 'list.copy', [], 0), [...l]),
    reverse: (a) => {
      methodArgs(a, 'list.reverse', [], 0);
      l.reverse();
      return null;
    },
    clear: (a) => {
      methodArgs(a, 'list.clear', [], 0);
      l.length = 0;
      return null;
    },
  };
}
