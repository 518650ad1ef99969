/**
 * Python's `repr()` for the values whose spelling leaks into cloud-init's
 * output and messages: floats (YAML and JSON output) and strings (error
 * messages such as "Matcher identifer 'x' ...").
 */

/** `repr(float)`: shortest round-trip digits, exponent form below 1e-4 and from 1e16. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, expText] = Math.abs(x).toExponential().split('e');
  const exponent = Number(expText);
  const digits = mantissa.replace('.', '');
  if (exponent < -4 || exponent >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exponent).toString().padStart(2, '0');
    return `${sign}${m}e${exponent < 0 ? '-' : '+'}${e}`;
  }
  const pointAt = exponent + 1;
  let text: string;
  if (pointAt <= 0) {
    text = '0.' + '0'.repeat(-pointAt) + digits;
  } else if (pointAt >= digits.length) {
    text = digits + '0'.repeat(pointAt - digits.length) + '.0';
  } else {
    text = digits.slice(0, pointAt) + '.' + digits.slice(pointAt);
  }
  return sign + text;
}

/** Characters Python's `str.isprintable()` rejects, approximated by Unicode categories. */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|[^\S ]/u;

/** `repr(str)`: quote choice and escapes as CPython does. */
export function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (NON_PRINTABLE.test(ch)) {
      const cp = ch.codePointAt(0) as number;
      if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0');
      else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
      else out += '\\U' + cp.toString(16).padStart(8, '0');
    } else out += ch;
  }
  return out + quote;
}

import type { PyValue } from './values';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple } from './values';
import { PyError } from './errors';
import { DEFAULT_LIMITS, LimitExceededError } from '../limits';

/**
 * Python's own limit on nested reprs: `repr()` of a container enters a
 * recursive call per level and raises RecursionError near the recursion limit
 * (1000). Here a little below it, so no repr ever overflows the JS stack.
 */
export const PY_REPR_MAX_DEPTH = 990;

/**
 * `repr(value)` for any loaded value (used where cloud-init prints or `str()`s data).
 * Throws PyError RecursionError for values nested deeper than PY_REPR_MAX_DEPTH (as
 * Python does), and LimitExceededError (maxExpandedNodes) when the text would be longer
 * than `maxChars` (default DEFAULT_LIMITS.maxExpandedNodes): aliases let a tiny YAML
 * file hold a value whose repr is gigabytes long ("billion laughs").
 */
export function pyRepr(value: PyValue, maxChars: number = DEFAULT_LIMITS.maxExpandedNodes): string {
  if (value === null || typeof value !== 'object' || value instanceof PyBytes || value instanceof PyTimestamp) return scalarRepr(value);
  const out: string[] = [];
  let length = 0;
  // Whether a container was met again (a YAML alias): only then does the message speak of expanding shared references.
  const seen = new Set<object>();
  let shared = false;
  const put = (text: string) => {
    length += text.length;
    if (length > maxChars) throw new LimitExceededError('maxExpandedNodes', maxChars, '', `The repr() of a value${shared ? ' (shared references expanded)' : ''} would be longer than ${maxChars} characters: over the limit maxExpandedNodes = ${maxChars}`);
    out.push(text);
  };
  const walk = (v: PyValue, depth: number): void => {
    if (v === null || typeof v !== 'object' || v instanceof PyBytes || v instanceof PyTimestamp) {
      put(scalarRepr(v));
      return;
    }
    if (depth > PY_REPR_MAX_DEPTH) throw new PyError('RecursionError', 'maximum recursion depth exceeded while getting the repr of an object');
    if (seen.has(v)) shared = true;
    else seen.add(v);
    const list = (items: PyValue[], open: string, close: string, oneTuple = false) => {
      put(open);
      items.forEach((x, i) => {
        if (i) put(', ');
        walk(x, depth + 1);
      });
      put(oneTuple ? ',' + close : close);
    };
    if (Array.isArray(v)) list(v, '[', ']');
    else if (v instanceof PyTuple) list(v.items, '(', ')', v.items.length === 1);
    else if (v instanceof PySet) {
      if (v.size) list(v.values(), '{', '}');
      else put('set()');
    } else if (v instanceof PyDict) {
      put('{');
      v.entries().forEach(([k, x], i) => {
        if (i) put(', ');
        walk(k, depth + 1);
        put(': ');
        walk(x, depth + 1);
      });
      put('}');
    } else put(String(v));
  };
  walk(value, 1);
  return out.join('');
}

/** `repr(value)` for a message: the whole text if it is short, else a note of its size (never throws). */
export function pyReprForMessage(value: PyValue, maxChars = 1000): string {
  try {
    return pyRepr(value, maxChars);
  } catch {
    return `<a value whose repr is over ${maxChars} characters or nested too deep>`;
  }
}

function scalarRepr(value: null | boolean | bigint | number | string | PyBytes | PyTimestamp): string {
  if (value === null) return 'None';
  switch (typeof value) {
    case 'boolean':
      return value ? 'True' : 'False';
    case 'bigint':
      return value.toString();
    case 'number':
      return pyFloatRepr(value);
    case 'string':
      return pyStrRepr(value);
  }
  if (value instanceof PyBytes) return pyBytesRepr(value.bytes);
  if (value instanceof PyTimestamp) {
    const parts = [value.year, value.month, value.day];
    if (value.kind === 'date') return `datetime.date(${parts.join(', ')})`;
    const time = [value.hour, value.minute];
    if (value.second || value.microsecond) time.push(value.second);
    if (value.microsecond) time.push(value.microsecond);
    const tz = value.offsetMinutes === null ? '' : value.offsetMinutes === 0 ? ', tzinfo=datetime.timezone.utc' : `, tzinfo=datetime.timezone(datetime.timedelta(${tzDelta(value.offsetMinutes)}))`;
    return `datetime.datetime(${[...parts, ...time].join(', ')}${tz})`;
  }
  return String(value);
}

function tzDelta(minutes: number): string {
  // timedelta normalises negative offsets to days=-1, seconds=...
  if (minutes < 0) return `days=-1, seconds=${86400 + minutes * 60}`;
  return `seconds=${minutes * 60}`;
}

/** `str(value)`: strings as they are, timestamps in isoformat, everything else its repr. */
export function pyStr(value: PyValue): string {
  if (typeof value === 'string') return value;
  if (value instanceof PyTimestamp) return value.isoformat(' ');
  return pyRepr(value);
}

export function pyBytesRepr(bytes: Uint8Array): string {
  const hasSingle = bytes.includes(0x27);
  const quote = hasSingle && !bytes.includes(0x22) ? '"' : "'";
  let out = 'b' + quote;
  for (const b of bytes) {
    if (b === 0x5c) out += '\\\\';
    else if (b === quote.charCodeAt(0)) out += '\\' + quote;
    else if (b === 0x0a) out += '\\n';
    else if (b === 0x0d) out += '\\r';
    else if (b === 0x09) out += '\\t';
    else if (b < 0x20 || b >= 0x7f) out += '\\x' + b.toString(16).padStart(2, '0');
    else out += String.fromCharCode(b);
  }
  return out + quote;
}
