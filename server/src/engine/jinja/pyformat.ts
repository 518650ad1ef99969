/**
 * Python's `str.format` / `str.format_map` (string.Formatter's grammar) and
 * the format-spec mini-language of `format(value, spec)` for str, int, bool
 * and float, as templates call them (`{{ '{}-{}'.format(a, b) }}`).
 *
 * Written from the Python Language Reference ("Format String Syntax", "Format
 * Specification Mini-Language") and checked against CPython 3.11 by
 * test/oracle/jinja.diff.ts; no CPython code is reused. Values are reached
 * through a host (pymethods.ts) so that attribute and item lookups in fields
 * (`{0.a}`, `{0[k]}`) follow the environment: Python's own getattr in 22.4's
 * plain Environment, the sandbox's checked lookup in current cloud-init.
 *
 * Floats are formatted from their exact binary value with round-half-even,
 * as CPython does (JavaScript's toFixed/toExponential round differently).
 *
 * Residual differences (reported as "cannot reproduce"): the `n` type
 * (locale-dependent), zero padding combined with a thousands separator,
 * format specs given to values other than str/int/bool/float/None, and the
 * wording of some ValueError messages (the class always matches).
 */

import type { PyErrorType } from '../py/errors';

export interface FormatHost<V> {
  kind(v: V): 'str' | 'int' | 'bool' | 'float' | 'none' | 'other';
  strValue(v: V): string;
  intValue(v: V): bigint;
  floatValue(v: V): number;
  typeName(v: V): string;
  str(v: V): string;
  repr(v: V): string;
  ascii(v: V): string;
  /** string.Formatter (the sandbox's) rather than str.format's C code: some messages differ. */
  pythonFormatter?: boolean;
  /** Markup's EscapeFormatter: formats one field itself (escaping the result). */
  formatField?(v: V, spec: string): string;
  /** repr() of a float. */
  floatRepr(x: number): string;
  /** `value.name` as the formatter resolves it. */
  getattr(v: V, name: string): V;
  /** `value[key]` as the formatter resolves it. */
  getitem(v: V, key: string | bigint): V;
  error(pyType: PyErrorType, message: string): never;
  cannot(what: string): never;
}

interface Field {
  literal: string;
  field?: { name: string; conv: string | null; spec: string };
}

/** Split a format string into literal text and replacement fields, lazily as Python does (an error surfaces when reached). */
function* parseFormat<V>(host: FormatHost<V>, fmt: string): Generator<Field> {
  let lit = '';
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c === '}') {
      if (fmt[i + 1] === '}') {
        lit += '}';
        i += 2;
        continue;
      }
      host.error('ValueError', "Single '}' encountered in format string");
    }
    if (c !== '{') {
      lit += c;
      i++;
      continue;
    }
    if (fmt[i + 1] === '{') {
      lit += '{';
      i += 2;
      continue;
    }
    // A field: up to the matching '}', counting nested braces in the spec.
    let depth = 1;
    let j = i + 1;
    let inBracket = false;
    while (j < fmt.length && depth > 0) {
      const d = fmt[j];
      if (d === '[') inBracket = true;
      else if (d === ']') inBracket = false;
      else if (!inBracket || depth > 1) {
        if (d === '{') depth++;
        else if (d === '}') depth--;
      }
      if (depth > 0) j++;
    }
    if (depth > 0) host.error('ValueError', j >= fmt.length && fmt.indexOf('}', i) < 0 ? "Single '{' encountered in format string" : "expected '}' before end of string");
    const body = fmt.slice(i + 1, j);
    // field_name ends at the first '!' or ':' outside brackets
    let k = 0;
    let br = false;
    while (k < body.length) {
      const d = body[k];
      if (d === '[') br = true;
      else if (d === ']') br = false;
      else if (!br && (d === '!' || d === ':')) break;
      k++;
    }
    const name = body.slice(0, k);
    let conv: string | null = null;
    let spec = '';
    let rest = body.slice(k);
    if (rest.startsWith('!')) {
      if (rest.length < 2) host.error('ValueError', 'end of string while looking for conversion specifier');
      conv = rest[1];
      rest = rest.slice(2);
      if (rest.length && !rest.startsWith(':')) host.error('ValueError', 'expected \':\' after conversion specifier');
    }
    if (rest.startsWith(':')) spec = rest.slice(1);
    yield { literal: lit, field: { name, conv, spec } };
    lit = '';
    i = j + 1;
  }
  yield { literal: lit };
}

export interface FormatArgs<V> {
  args: V[];
  /** A keyword argument or mapping entry by name; undefined when absent (KeyError). */
  kw: (name: string) => V | undefined;
  /** format_map: positional fields are refused. */
  mapOnly?: boolean;
}

/** str.format / str.format_map */
export function pyFormat<V>(host: FormatHost<V>, fmt: string, a: FormatArgs<V>, depth = 2): string {
  if (depth < 0) host.error('ValueError', 'Max string recursion exceeded');
  let auto: number | null = 0;
  let manual = false;
  let out = '';
  for (const part of parseFormat(host, fmt)) {
    out += part.literal;
    if (!part.field) continue;
    const { name, conv } = part.field;
    // first: the argument, then .attr / [key] parts
    const m = /^[^.[]*/.exec(name)![0];
    let v: V;
    const positional = (idx: number): V => {
      if (a.mapOnly && !host.pythonFormatter) host.error('ValueError', 'Format string contains positional fields');
      if (idx >= a.args.length) host.error('IndexError', host.pythonFormatter ? 'tuple index out of range' : `Replacement index ${idx} out of range for positional args tuple`);
      return a.args[idx];
    };
    if (host.pythonFormatter) {
      // string.Formatter: numbering is decided on the whole field name, the argument by its first part.
      if (name === '') {
        if (manual) host.error('ValueError', 'cannot switch from manual field specification to automatic field numbering');
        const idx = auto as number;
        auto = idx + 1;
        v = positional(idx);
      } else if (/^[0-9]+$/.test(name)) {
        if (auto) host.error('ValueError', 'cannot switch from manual field specification to automatic field numbering');
        manual = true;
        auto = 0;
        v = positional(Number(name));
      } else if (/^[0-9]+$/.test(m)) {
        v = positional(Number(m));
      } else {
        const got = a.kw(m);
        if (got === undefined) host.error('KeyError', `'${m}'`);
        v = got;
      }
    } else if (m === '') {
      if (manual) host.error('ValueError', 'cannot switch from manual field specification to automatic field numbering');
      const idx = auto as number;
      auto = idx + 1;
      v = positional(idx);
    } else if (/^[0-9]+$/.test(m)) {
      if (auto !== 0 && auto !== null) {
        host.error('ValueError', 'cannot switch from automatic field numbering to manual field specification');
      }
      manual = true;
      auto = null;
      v = positional(Number(m));
    } else {
      const got = a.kw(m);
      if (got === undefined) host.error('KeyError', `'${m}'`);
      v = got;
    }
    let rest = name.slice(m.length);
    while (rest.length) {
      if (rest[0] === '.') {
        const an = /^\.([^.[]*)/.exec(rest)![1];
        if (an === '') host.error('ValueError', 'Empty attribute in format string');
        v = host.getattr(v, an);
        rest = rest.slice(1 + an.length);
      } else if (rest[0] === '[') {
        const close = rest.indexOf(']');
        if (close < 0) host.error('ValueError', "Missing ']' in format string");
        const key = rest.slice(1, close);
        if (key === '') host.error('ValueError', 'Empty attribute in format string');
        v = host.getitem(v, /^[0-9]+$/.test(key) ? BigInt(key) : key);
        rest = rest.slice(close + 1);
        if (rest.length && rest[0] !== '.' && rest[0] !== '[') host.error('ValueError', 'Only \'.\' or \'[\' may follow \']\' in format field specifier');
      } else {
        host.error('ValueError', 'Only \'.\' or \'[\' may follow \']\' in format field specifier');
      }
    }
    let spec = part.field.spec;
    if (spec.includes('{')) spec = pyFormat(host, spec, { args: a.args.slice(auto ?? 0), kw: a.kw, mapOnly: a.mapOnly }, depth - 1);
    let s: string;
    if (conv === null) s = host.formatField ? host.formatField(v, spec) : formatValue(host, v, spec);
    else {
      const conv2 = conv === 's' ? host.str(v) : conv === 'r' ? host.repr(v) : conv === 'a' ? host.ascii(v) : host.error('ValueError', `Unknown conversion specifier ${conv}`);
      s = host.formatField ? host.formatField(conv2 as unknown as V, spec) : formatStr(host, conv2, spec, 'str');
    }
    out += s;
  }
  return out;
}

interface Spec {
  fill: string;
  align: string | null;
  sign: string | null;
  alt: boolean;
  zero: boolean;
  width: number;
  grouping: string | null;
  precision: number | null;
  type: string | null;
}

function parseSpec<V>(host: FormatHost<V>, spec: string): Spec {
  const cp = [...spec];
  let i = 0;
  const s: Spec = { fill: ' ', align: null, sign: null, alt: false, zero: false, width: -1, grouping: null, precision: null, type: null };
  if (cp.length >= 2 && '<>=^'.includes(cp[1])) {
    s.fill = cp[0];
    s.align = cp[1];
    i = 2;
  } else if (cp.length >= 1 && '<>=^'.includes(cp[0])) {
    s.align = cp[0];
    i = 1;
  }
  if ('+- '.includes(cp[i] ?? 'x')) s.sign = cp[i++];
  if (cp[i] === 'z') host.cannot("the 'z' format option");
  if (cp[i] === '#') {
    s.alt = true;
    i++;
  }
  if (cp[i] === '0') {
    s.zero = true;
    if (s.align === null) {
      s.fill = '0';
      s.align = '=';
    }
    i++;
  }
  let w = '';
  while (i < cp.length && /[0-9]/.test(cp[i])) w += cp[i++];
  if (w) s.width = Number(w);
  if (cp[i] === ',' || cp[i] === '_') s.grouping = cp[i++];
  if (cp[i] === ',' || cp[i] === '_') host.error('ValueError', 'Cannot specify both \',\' and \'_\'.');
  if (cp[i] === '.') {
    i++;
    let p = '';
    while (i < cp.length && /[0-9]/.test(cp[i])) p += cp[i++];
    if (!p) host.error('ValueError', 'Format specifier missing precision');
    s.precision = Number(p);
  }
  if (cp.length - i > 1) host.error('ValueError', 'Invalid format specifier');
  if (i < cp.length) s.type = cp[i];
  if (s.width > 10_000_000 || (s.precision ?? 0) > 10_000_000) host.cannot('a format width or precision over 10,000,000');
  return s;
}

function pad(body: string, sp: Spec, defaultAlign: string, signPart = ''): string {
  const align = sp.align ?? defaultAlign;
  const len = [...signPart].length + [...body].length;
  const n = Math.max(0, sp.width - len);
  if (!n) return signPart + body;
  if (align === '<') return signPart + body + sp.fill.repeat(n);
  if (align === '>') return sp.fill.repeat(n) + signPart + body;
  if (align === '=') return signPart + sp.fill.repeat(n) + body;
  const left = Math.floor(n / 2);
  return sp.fill.repeat(left) + signPart + body + sp.fill.repeat(n - left);
}

export function formatStr<V>(host: FormatHost<V>, s: string, spec: string, typeName: string): string {
  if (spec === '') return s;
  const sp = parseSpec(host, spec);
  if (sp.type !== null && sp.type !== 's') host.error('ValueError', `Unknown format code '${sp.type}' for object of type '${typeName}'`);
  if (sp.sign !== null) host.error('ValueError', 'Sign not allowed in string format specifier');
  if (sp.alt) host.error('ValueError', 'Alternate form (#) not allowed in string format specifier');
  if (sp.grouping) host.error('ValueError', `Cannot specify '${sp.grouping}' with 's'.`);
  if (sp.align === '=') host.error('ValueError', "'=' alignment not allowed in string format specifier");
  let body = s;
  if (sp.precision !== null) body = [...s].slice(0, sp.precision).join('');
  return pad(body, sp, '<');
}

function group(digits: string, sep: string, size: number): string {
  let out = '';
  for (let i = digits.length; i > 0; i -= size) out = digits.slice(Math.max(0, i - size), i) + (out ? sep + out : '');
  return out;
}

function signOf(neg: boolean, sign: string | null): string {
  return neg ? '-' : sign === '+' ? '+' : sign === ' ' ? ' ' : '';
}

function formatInt<V>(host: FormatHost<V>, v: bigint, sp: Spec, typeName: string): string {
  const t = sp.type ?? 'd';
  if ('eEfFgG%'.includes(t)) return formatFloat(host, Number(v), sp, typeName);
  if (!'bcdoxXn'.includes(t)) host.error('ValueError', `Unknown format code '${t}' for object of type '${typeName}'`);
  if (t === 'n') host.cannot("the locale-dependent 'n' format type");
  if (sp.precision !== null) host.error('ValueError', 'Precision not allowed in integer format specifier');
  if (t === 'c') {
    if (sp.sign !== null) host.error('ValueError', "Sign not allowed with integer format specifier 'c'");
    if (sp.alt) host.error('ValueError', "Alternate form (#) not allowed with integer format specifier 'c'");
    if (v < 0n || v > 0x10ffffn) host.error('OverflowError', '%c arg not in range(0x110000)');
    return pad(String.fromCodePoint(Number(v)), sp, '>');
  }
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const radix = t === 'b' ? 2 : t === 'o' ? 8 : t === 'x' || t === 'X' ? 16 : 10;
  let digits = abs.toString(radix);
  if (t === 'X') digits = digits.toUpperCase();
  if (sp.grouping === ',' && radix !== 10) host.error('ValueError', `Cannot specify ',' with '${t}'.`);
  const prefix = sp.alt && radix !== 10 ? '0' + (t === 'X' ? 'X' : t) : '';
  return finishNumber(host, digits, prefix, '', neg, sp, radix === 10 ? 3 : 4);
}

/** Sign, prefix, grouping of the integer part, padding. */
function finishNumber<V>(host: FormatHost<V>, intDigits: string, prefix: string, tail: string, neg: boolean, sp: Spec, groupSize: number): string {
  if (sp.grouping && sp.align === '=' && sp.fill === '0' && sp.width > 0) host.cannot('zero padding combined with a thousands separator');
  const grouped = sp.grouping ? group(intDigits, sp.grouping, groupSize) : intDigits;
  return pad(grouped + tail, sp, '>', signOf(neg, sp.sign) + prefix);
}

/** The exact decimal expansion of a finite non-zero double: value = 0.DIGITS × 10^point. */
function exactDecimal(x: number): { digits: string; point: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const bexp = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e: number;
  if (bexp === 0) e = -1074;
  else {
    mant |= 1n << 52n;
    e = bexp - 1075;
  }
  let digits: string;
  let point: number;
  if (e >= 0) {
    digits = (mant << BigInt(e)).toString();
    point = digits.length;
  } else {
    digits = (mant * 5n ** BigInt(-e)).toString();
    point = digits.length + e;
  }
  digits = digits.replace(/0+$/, '');
  return { digits, point };
}

/** Round 0.DIGITS × 10^point to `keep` digits (half-even); returns the new digits (exactly `keep`, may carry) and point. */
function roundDigits(digits: string, point: number, keep: number): { digits: string; point: number } {
  if (keep < 0) return { digits: '', point };
  if (digits.length <= keep) return { digits: digits.padEnd(keep, '0'), point };
  const head = digits.slice(0, keep);
  const next = digits[keep];
  const rest = digits.slice(keep + 1);
  let up = false;
  if (next > '5') up = true;
  else if (next === '5') up = /[1-9]/.test(rest) || (keep > 0 ? Number(head[keep - 1]) % 2 === 1 : false);
  if (!up) return { digits: head, point };
  if (keep === 0) return { digits: '1', point: point + 1 };
  const n = (BigInt(head) + 1n).toString();
  if (n.length > keep) return { digits: n.slice(0, keep), point: point + 1 };
  return { digits: n.padStart(keep, '0'), point };
}

function fixed(x: number, prec: number): { int: string; frac: string } {
  if (x === 0) return { int: '0', frac: '0'.repeat(prec) };
  const d = exactDecimal(x);
  const keep = d.point + prec;
  if (keep < 0) return { int: '0', frac: '0'.repeat(prec) };
  const r = roundDigits(d.digits, d.point, keep);
  let all = r.digits;
  // all has r.point integer digits followed by prec fraction digits (r.point may be <= 0)
  if (r.point <= 0) all = '0'.repeat(-r.point) + all;
  const intLen = Math.max(0, r.point);
  const full = all.padEnd(intLen + prec, '0');
  const int = full.slice(0, intLen) || '0';
  return { int: int.replace(/^0+(?=\d)/, ''), frac: full.slice(intLen, intLen + prec) };
}

function sci(x: number, prec: number): { mant: string; exp: number } {
  if (x === 0) return { mant: '0' + (prec ? '.' + '0'.repeat(prec) : ''), exp: 0 };
  const d = exactDecimal(x);
  const r = roundDigits(d.digits, d.point, prec + 1);
  const ds = r.digits;
  return { mant: ds[0] + (prec ? '.' + ds.slice(1) : ''), exp: r.point - 1 };
}

function expStr(e: number, upper: boolean): string {
  return (upper ? 'E' : 'e') + (e < 0 ? '-' : '+') + String(Math.abs(e)).padStart(2, '0');
}

function formatFloat<V>(host: FormatHost<V>, x: number, sp: Spec, typeName: string): string {
  const t = sp.type;
  if (t !== null && !'eEfFgG%'.includes(t)) {
    if (t === 'n') host.cannot("the locale-dependent 'n' format type");
    host.error('ValueError', `Unknown format code '${t}' for object of type '${typeName}'`);
  }
  const neg = x < 0 || Object.is(x, -0);
  const ax = Math.abs(x);
  const upper = t === 'E' || t === 'F' || t === 'G';
  let body: string;
  let intPart: string;
  let tail: string;
  if (!Number.isFinite(x)) {
    body = Number.isNaN(x) ? 'nan' : 'inf';
    if (upper) body = body.toUpperCase();
    if (t === '%') body += '%';
    return pad(body, { ...sp, fill: sp.zero && sp.align === '=' && sp.fill === '0' ? ' ' : sp.fill }, '>', signOf(Number.isNaN(x) ? false : neg, sp.sign));
  }
  if (t === 'f' || t === 'F' || t === '%') {
    const prec = sp.precision ?? 6;
    const f = fixed(t === '%' ? ax * 100 : ax, prec);
    if (t === '%' && !Number.isFinite(ax * 100)) host.cannot('a percentage of a float near the largest one');
    intPart = f.int;
    tail = (prec || sp.alt ? '.' : '') + f.frac + (t === '%' ? '%' : '');
  } else if (t === 'e' || t === 'E') {
    const prec = sp.precision ?? 6;
    const s = sci(ax, prec);
    const [i, fr] = s.mant.split('.');
    intPart = i;
    tail = (fr !== undefined ? '.' + fr : sp.alt ? '.' : '') + expStr(s.exp, upper);
  } else if (t === 'g' || t === 'G' || (t === null && sp.precision !== null)) {
    let prec = sp.precision ?? 6;
    if (prec === 0) prec = 1;
    const s = ax === 0 ? { mant: '0', exp: 0 } : sci(ax, prec - 1);
    const exp = s.exp;
    let txt: string;
    if (-4 <= exp && exp < (t === null ? Math.min(prec, 16) : prec)) {
      const f = fixed(ax, Math.max(0, prec - 1 - exp));
      txt = f.frac ? `${f.int}.${f.frac}` : f.int;
      if (!sp.alt) txt = txt.includes('.') ? txt.replace(/0+$/, '').replace(/\.$/, '') : txt;
      if (t === null && !txt.includes('.')) txt += '.0';
    } else {
      let m = s.mant;
      if (!sp.alt && m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '');
      txt = m + expStr(exp, upper);
    }
    if (sp.alt && !txt.includes('.')) {
      const ei = txt.search(/[eE]/);
      txt = ei < 0 ? txt + '.' : txt.slice(0, ei) + '.' + txt.slice(ei);
    }
    const ei = txt.search(/[.eE]/);
    intPart = ei < 0 ? txt : txt.slice(0, ei);
    tail = ei < 0 ? '' : txt.slice(ei);
  } else {
    // no type, no precision: repr
    const r = host.floatRepr(ax);
    const ei = r.search(/[.eE]/);
    intPart = ei < 0 ? r : r.slice(0, ei);
    tail = ei < 0 ? '' : r.slice(ei);
  }
  return finishNumber(host, intPart, '', tail, neg, sp, 3);
}

/** format(value, spec) for the values templates format. */
export function formatValue<V>(host: FormatHost<V>, v: V, spec: string): string {
  const kind = host.kind(v);
  const tn = host.typeName(v);
  if (kind === 'str') return formatStr(host, host.strValue(v), spec, tn);
  if (kind === 'int' || kind === 'bool') {
    if (spec === '') return host.str(v);
    return formatInt(host, host.intValue(v), parseSpec(host, spec), tn);
  }
  if (kind === 'float') {
    if (spec === '') return host.str(v);
    return formatFloat(host, host.floatValue(v), parseSpec(host, spec), tn);
  }
  if (spec === '') return host.str(v);
  // object.__format__ takes only the empty spec.
  return host.error('TypeError', `unsupported format string passed to ${tn}.__format__`);
}

/** The digits of `%e/%E/%g/%G` (printf-style `%` formatting) for |x|: no sign, no padding. */
export function floatFormatBody(x: number, type: 'e' | 'E' | 'g' | 'G', precision: number, alt: boolean): string {
  const host = {
    error: (t: string, m: string): never => {
      throw new Error(`${t}: ${m}`);
    },
    cannot: (w: string): never => {
      throw new Error(w);
    },
    floatRepr: (v: number) => String(v),
  } as unknown as FormatHost<unknown>;
  const sp: Spec = { fill: ' ', align: null, sign: null, alt, zero: false, width: -1, grouping: null, precision, type };
  return formatFloat(host, Math.abs(x), sp, 'float');
}
