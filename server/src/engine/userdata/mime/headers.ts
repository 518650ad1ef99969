/**
 * Content-Type / Content-Disposition parameters as CPython 3.11's `email` package reads them:
 * `email.message._parseparam` (quoted ';'), `Message._get_params_preserve`, `email.utils.unquote`,
 * `email._parseaddr.quote`, `email.utils.decode_params` (RFC 2231 continuations and charsets, and the
 * TypeError Python raises when `name*` and `name*0` are mixed) and
 * `email.utils.collapse_rfc2231_value` (errors='replace', fallback 'us-ascii').
 * Originals: Lib/email/message.py, Lib/email/utils.py, Lib/email/_parseaddr.py.
 *
 * Residual differences:
 * - RFC 2231 charsets: only the codecs of engine/py/codecs.ts; a value in another charset is only
 *   unquoted where Python would decode it with that codec.
 * - `_parseparam` is a linear-time rewrite of the same algorithm (Python's is quadratic on many
 *   quotes); the results are the same.
 */
import { PyError } from '../../py/errors';
import { comparePyStr, pySplitMax, pyStrip } from '../../py/str';
import { decodeWithCodec, lookupCodec, rawUnicodeEscape } from '../../py/codecs';
import { pyLower } from './strings';
/** RFC 2231 value: (charset, language, text). */
interface Rfc2231Value {
  charset: string | null;
  language: string | null;
  text: string;
}
export type ParamValue = string | Rfc2231Value;

/** email.utils.unquote. */
export function pyUnquote(s: string): string {
  if (s.length > 1) {
    if (s.startsWith('"') && s.endsWith('"')) return s.slice(1, -1).replaceAll('\\\\', '\\').replaceAll('\\"', '"');
    if (s.startsWith('<') && s.endsWith('>')) return s.slice(1, -1);
  }
  return s;
}

/** email._parseaddr.quote. */
function pyQuote(s: string): string {
  return s.replaceAll('\\', '\\\\').replaceAll('"', '\\"');
}

/** email.message._parseparam (linear-time version of the same algorithm). */
function parseParam(value: string): string[] {
  const s0 = ';' + value;
  const n = s0.length;
  // Prefix counts of '"' and of '\"' pairs (a pair counted at its backslash),
  // for s.count('"', 0, end) - s.count('\\"', 0, end); only needed with quotes.
  let dq: Int32Array | null = null;
  let esc: Int32Array | null = null;
  if (value.includes('"')) {
    dq = new Int32Array(n + 1);
    esc = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      dq[i + 1] = dq[i] + (s0.charCodeAt(i) === 0x22 ? 1 : 0);
      esc[i + 1] = esc[i] + (s0.charCodeAt(i) === 0x5c && s0.charCodeAt(i + 1) === 0x22 ? 1 : 0);
    }
  }
  const plist: string[] = [];
  let pos = 0; // Python's `s` is s0.slice(pos)
  while (pos < n && s0.charCodeAt(pos) === 0x3b) {
    pos++;
    const find = (from: number): number => {
      const r = s0.indexOf(';', pos + from);
      return r < 0 ? -1 : r - pos;
    };
    let end = find(0);
    if (dq && esc) {
      const odd = (e: number): boolean => {
        const quotes = dq[pos + e] - dq[pos];
        const pairs = e >= 2 ? esc[pos + e - 1] - esc[pos] : 0;
        return (quotes - pairs) % 2 !== 0;
      };
      while (end > 0 && odd(end)) end = find(end + 1);
    }
    if (end < 0) end = n - pos;
    let f = s0.slice(pos, pos + end);
    const i = f.indexOf('=');
    if (i >= 0) f = pyLower(pyStrip(f.slice(0, i))) + '=' + pyStrip(f.slice(i + 1));
    plist.push(pyStrip(f));
    pos += end;
  }
  return plist;
}

const RFC2231_CONTINUATION = /^([A-Za-z0-9_]+)\*(([0-9]+)\*?)?$/;

/** Numeric comparison of two digit strings. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, '');
  const y = b.replace(/^0+(?=.)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

/** email.utils.decode_params. */
function decodeParams(params: [string, string][]): [string, ParamValue][] {
  const out: [string, ParamValue][] = [params[0]];
  const rfc: Map<string, { num: string | null; value: string; encoded: boolean }[]> = new Map();
  for (let k = 1; k < params.length; k++) {
    const name = params[k][0];
    const encoded = name.endsWith('*');
    const value = pyUnquote(params[k][1]);
    const mo = RFC2231_CONTINUATION.exec(name);
    if (mo) {
      const base = mo[1];
      let list = rfc.get(base);
      if (!list) rfc.set(base, (list = []));
      list.push({ num: mo[3] ?? null, value, encoded });
    } else {
      out.push([name, '"' + pyQuote(value) + '"']);
    }
  }
  for (const [name, conts] of rfc) {
    const hasNone = conts.some((c) => c.num === null);
    const hasNum = conts.some((c) => c.num !== null);
    if (hasNone && hasNum && conts.length > 1) {
      throw new PyError('TypeError', "'<' not supported between instances of 'int' and 'NoneType'");
    }
    conts.sort((a, b) => {
      if (a.num !== null && b.num !== null) {
        const c = compareDigits(a.num, b.num);
        if (c) return c;
      }
      const c = comparePyStr(a.value, b.value);
      if (c) return c;
      return Number(a.encoded) - Number(b.encoded);
    });
    let extended = false;
    let joined = '';
    for (const c of conts) {
      let s = c.value;
      if (c.encoded) {
        s = s.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
        extended = true;
      }
      joined += s;
    }
    const value = pyQuote(joined);
    if (extended) {
      const parts = pySplitMax(value, "'", 2);
      if (parts.length <= 2) out.push([name, { charset: null, language: null, text: '"' + value + '"' }]);
      else out.push([name, { charset: parts[0], language: parts[1], text: '"' + parts[2] + '"' }]);
    } else out.push([name, '"' + value + '"']);
  }
  return out;
}


/** Message._get_params_preserve for a header value. */
export function paramsPreserve(value: string): [string, ParamValue][] {
  const params: [string, string][] = [];
  for (const p of parseParam(value)) {
    const i = p.indexOf('=');
    if (i >= 0) params.push([pyStrip(p.slice(0, i)), pyStrip(p.slice(i + 1))]);
    else params.push([pyStrip(p), '']);
  }
  return decodeParams(params);
}

/** email.utils.collapse_rfc2231_value(value) with errors='replace', fallback 'us-ascii'. */
export function collapseRfc2231(value: ParamValue): string {
  if (typeof value === 'string') return pyUnquote(value);
  const codec = lookupCodec(value.charset ?? 'us-ascii');
  if (codec === null) return pyUnquote(value.text);
  return decodeWithCodec(rawUnicodeEscape(value.text), codec);
}
