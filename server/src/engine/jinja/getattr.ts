/**
 * Python's getattr on template values: the attributes and bound methods of
 * str/int/float/list/tuple/dict/range values (./pymethods.ts), of
 * markupsafe.Markup (a str subclass whose methods escape their arguments)
 * and of Jinja's LoopContext, Cycler, Joiner and Namespace.
 *
 * Residual differences: real underscore attributes of Python values (object
 * internals) are refused as unsupported in 22.4's plain Environment.
 */
import { methodArgs, strArg } from './callargs';
import { LIMITS, typeError, unsupported } from './errors';
import { htmlEscape, htmlUnescape, stripTags } from './markup';
import { FormatHost, formatValue, pyFormat } from './pyformat';
import { DICT_ATTRS, FLOAT_ATTRS, INT_ATTRS, LIST_ATTRS, Method, RANGE_ATTRS, STR_ATTRS, TUPLE_ATTRS, bound, dictFromkeys, dictMethods, formatHost, listMethods, strMethods, subscriptError } from './pymethods';
import { Renderer } from './runtime';
import { FAIL, trySubscript } from './slicing';
import { JCycler, JDict, JDictView, JFunc, JGen, JGroupTuple, JJoiner, JLoop, JMarkup, JNamespace, JRange, JTuple, JUndef, JValue, MISSING, hashKey, hintUndef, isInt, pyEq, pyStr, seqEq, toBig, typeName } from './values';
import { PyError } from '../py/errors';
import { pyStrRepr } from '../py/repr';

/** getattr(obj, name), or MISSING when Python raises AttributeError. */
export function pyGetattr(obj: JValue, name: string, r: Renderer): JValue | typeof MISSING {
  void r;
  if (typeof obj === 'string') return STR_ATTRS.has(name) ? bound('str', name, strMethods(obj)[name]) : MISSING;
  if (isInt(obj)) {
    if (!INT_ATTRS.has(name)) return MISSING;
    const v = toBig(obj);
    if (name === 'real' || name === 'numerator') return v;
    if (name === 'imag') return 0n;
    if (name === 'denominator') return 1n;
    return bound('int', name, undefined);
  }
  if (typeof obj === 'number') {
    if (!FLOAT_ATTRS.has(name)) return MISSING;
    if (name === 'real') return obj;
    if (name === 'imag') return 0.0;
    if (name === 'is_integer') {
      return bound('float', name, (a) => (methodArgs(a, 'float.is_integer', [], 0), Number.isFinite(obj) && Math.floor(obj) === obj));
    }
    return bound('float', name, undefined);
  }
  if (obj === null) return MISSING;
  if (Array.isArray(obj)) return LIST_ATTRS.has(name) ? bound('list', name, listMethods(obj)[name]) : MISSING;
  if (obj instanceof JGroupTuple && (name === 'grouper' || name === 'list')) return obj.items[name === 'grouper' ? 0 : 1];
  if (obj instanceof JTuple) {
    if (!TUPLE_ATTRS.has(name)) return MISSING;
    const items = obj.items;
    if (name === 'count') {
      return bound('tuple', name, (a) => {
        const [x] = methodArgs(a, 'tuple.count', ['value'], 1);
        return BigInt(items.filter((y) => y === x || pyEq(y, x as JValue)).length);
      });
    }
    return bound('tuple', name, (a) => {
      const [x, start, stop] = methodArgs(a, 'index', ['value', 'start', 'stop'], 1, [], 'tuple');
      if (start !== undefined || stop !== undefined) throw unsupported('tuple.index with start/stop');
      const idx = items.findIndex((y) => y === x || pyEq(y, x as JValue));
      if (idx < 0) throw new PyError('ValueError', 'tuple.index(x): x not in tuple');
      return BigInt(idx);
    });
  }
  if (obj instanceof JDict) return DICT_ATTRS.has(name) ? bound('dict', name, dictMethods(obj)[name]) : MISSING;
  if (obj instanceof JRange) {
    if (!RANGE_ATTRS.has(name)) return MISSING;
    if (name === 'start') return obj.start;
    if (name === 'stop') return obj.stop;
    if (name === 'step') return obj.step;
    return bound('range', name, undefined);
  }
  if (obj instanceof JNamespace) {
    const e = obj.attrs.map.get(hashKey(name));
    return e ? e.v : MISSING;
  }
  if (obj instanceof JLoop) return loopAttr(obj, name);
  if (obj instanceof JCycler) {
    if (name === 'current') return obj.items[obj.pos];
    if (name === 'items') return new JTuple(obj.items);
    if (name === 'pos') return BigInt(obj.pos);
    if (name === 'next') {
      return new JFunc('Cycler.next', (a) => {
        if (a.args.length || a.kwargs.length) throw typeError(`Cycler.next() takes 1 positional argument but ${a.args.length + 1} were given`);
        const rv = obj.items[obj.pos];
        obj.pos = (obj.pos + 1) % obj.items.length;
        return rv;
      });
    }
    if (name === 'reset') {
      return new JFunc('Cycler.reset', () => {
        obj.pos = 0;
        return null;
      });
    }
    return MISSING;
  }
  if (obj instanceof JJoiner) {
    if (name === 'sep') return obj.sep;
    if (name === 'used') return obj.used;
    return MISSING;
  }
  if (obj instanceof JDictView) {
    if (name === 'mapping' || name === 'isdisjoint') throw unsupported(`dict view attribute ${pyStrRepr(name)}`);
    return MISSING;
  }
  if (obj instanceof JMarkup) return markupAttr(obj, name);
  if (obj instanceof JFunc && obj.typeName === 'type' && obj.name === 'dict' && name === 'fromkeys') return new JFunc('dict.fromkeys', dictFromkeys);
  if (obj instanceof JFunc && obj.typeName !== 'type') return MISSING;
  if (obj instanceof JGen && !['close', 'send', 'throw', 'gi_code', 'gi_frame', 'gi_running', 'gi_yieldfrom', 'gi_suspended'].includes(name)) {
    return MISSING;
  }
  throw unsupported(`attribute ${pyStrRepr(name)} of a ${typeName(obj)} object`);
}

/** str methods MarkupSafe wraps: string arguments are escaped, the result is Markup. */
export const MARKUP_WRAPPED = new Set(['capitalize', 'title', 'lower', 'upper', 'replace', 'ljust', 'rjust', 'lstrip', 'rstrip', 'center', 'strip', 'translate', 'expandtabs', 'swapcase', 'zfill']);
/** split/rsplit/splitlines: arguments as given, items Markup; partition/rpartition escape the separator. */
export const MARKUP_SPLITS = new Set(['split', 'rsplit', 'splitlines']);

export function escapeArg(v: JValue): JValue {
  return typeof v === 'string' ? new JMarkup(htmlEscape(v)) : v;
}

export function toMarkup(v: JValue): JValue {
  if (typeof v === 'string') return new JMarkup(v);
  if (Array.isArray(v)) return v.map(toMarkup);
  if (v instanceof JTuple) return new JTuple(v.items.map(toMarkup));
  return v;
}

/** Attributes of a markupsafe.Markup (a str subclass). */
export function markupAttr(m: JMarkup, name: string): JValue | typeof MISSING {
  // Markup's own methods are Python functions: bound, they are of type 'method'.
  const pyMethod = (n: string, f: Method) => bound('Markup', n, f, 'method');
  if (name === 'unescape' || name === 'striptags') {
    return pyMethod(name, (a) => {
      methodArgs(a, `Markup.${name}`, [], 0);
      const cannot = (what: string): never => {
        throw unsupported(what);
      };
      return name === 'unescape' ? htmlUnescape(m.s, cannot) : new JMarkup(stripTags(m.s, cannot)).s;
    });
  }
  if (name === 'escape') return pyMethod(name, (a) => {
    const [v] = methodArgs(a, 'Markup.escape', ['s'], 1);
    return v instanceof JMarkup ? v : new JMarkup(htmlEscape(pyStr(v as JValue)));
  });
  if (!STR_ATTRS.has(name)) return MISSING;
  if (name === 'format' || name === 'format_map') {
    // MarkupSafe's EscapeFormatter (a string.Formatter): each field is escaped, the result is Markup.
    // MarkupSafe 2.1 has no format_map of its own: outside the sandbox it is str.format_map (plain str).
    return pyMethod(name, (a, r) => {
      if (name === 'format_map' && !r.sandbox) return strMethods(m.s).format_map(a, r);
      const host: FormatHost<JValue> = {
        ...formatHost(r),
        pythonFormatter: true,
        formatField: (v, spec) => {
          if (v instanceof JMarkup) {
            if (spec) throw new PyError('ValueError', 'Unsupported format specification for Markup.');
            return v.s;
          }
          return htmlEscape(formatValue(host, v, spec));
        },
      };
      let args: JValue[] = a.args;
      let kw: (n: string) => JValue | undefined;
      if (name === 'format') {
        const m = new Map(a.kwargs);
        kw = (n) => m.get(n);
      } else {
        if (a.kwargs.length) throw typeError('str.format_map() takes no keyword arguments');
        if (a.args.length !== 1) throw typeError(`format_map() takes exactly one argument ${a.args.length} given`);
        const mapping = a.args[0];
        args = [];
        kw = (n) => {
          if (mapping instanceof JUndef) throw mapping.fail();
          const got = trySubscript(mapping, n);
          if (got !== FAIL) return got;
          throw subscriptError(mapping, n);
        };
      }
      const out = pyFormat(host, m.s, { args, kw }, 2);
      if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return new JMarkup(out);
    });
  }
  const method = strMethods(m.s)[name];
  if (!method) return bound('str', name, undefined);
  if (name === 'join') {
    return pyMethod(name, (a, r) => {
      const [seq] = methodArgs(a, 'join', ['iterable'], 1);
      const items = r.list(seq as JValue).map(escapeArg);
      return new JMarkup(strArg(method({ args: [items], kwargs: [] }, r), ''));
    });
  }
  if (MARKUP_SPLITS.has(name)) return pyMethod(name, (a, r) => toMarkup(method(a, r)));
  if (MARKUP_WRAPPED.has(name) || name === 'partition' || name === 'rpartition') {
    return pyMethod(name, (a, r) => {
      const out = method({ args: a.args.map(escapeArg), kwargs: a.kwargs.map(([k, v]) => [k, escapeArg(v)] as [string, JValue]) }, r);
      return toMarkup(out);
    });
  }
  return bound('str', name, method);
}

export function loopAttr(l: JLoop, name: string): JValue | typeof MISSING {
  switch (name) {
    case 'index0':
      return BigInt(l.index0);
    case 'index':
      return BigInt(l.index0 + 1);
    case 'length':
      return BigInt(l.length);
    case 'revindex':
      return BigInt(l.length - l.index0);
    case 'revindex0':
      return BigInt(l.length - l.index0 - 1);
    case 'first':
      return l.index0 === 0;
    case 'last':
      return l.peek() === MISSING;
    case 'depth':
      return 1n;
    case 'depth0':
      return 0n;
    case 'previtem':
      if (l.index0 === 0) return hintUndef('there is no previous item');
      return l.before;
    case 'nextitem': {
      const n = l.peek();
      return n === MISSING ? hintUndef('there is no next item') : n;
    }
    case 'cycle':
      return new JFunc('LoopContext.cycle', (a) => {
        if (a.kwargs.length) throw typeError(`LoopContext.cycle() got an unexpected keyword argument ${pyStrRepr(a.kwargs[0][0])}`);
        if (!a.args.length) throw typeError('no items for cycling given');
        return a.args[l.index0 % a.args.length];
      });
    case 'changed':
      return new JFunc('LoopContext.changed', (a) => {
        if (a.kwargs.length) throw typeError(`LoopContext.changed() got an unexpected keyword argument ${pyStrRepr(a.kwargs[0][0])}`);
        const v = a.args;
        if (l.lastChanged === MISSING || !seqEq(l.lastChanged, v)) {
          l.lastChanged = v;
          return true;
        }
        return false;
      });
  }
  return MISSING;
}
