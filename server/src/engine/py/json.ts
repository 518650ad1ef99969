/**
 * Python's `json` module as cloud-init and the reference oracle use it:
 *
 * - `parsePythonJson`: CPython 3.11's `json.loads(text)` (the C scanner,
 *   strict=True), optionally with python3-jsonpatch's `multidict`
 *   object_pairs_hook; errors carry Python's exact messages.
 * - `toCanonicalJson`: what `shared/oracle/oracle.py` prints for a value:
 *   its `to_jsonable` conversion, then `json.dumps(obj, sort_keys=True,
 *   ensure_ascii=False, separators=(",", ":"))` (or `indent=2`).
 *
 * Residual differences (see also test/oracle/jsonpatch.diff.ts):
 * - Python strings are sequences of code points, JavaScript strings of UTF-16
 *   units: a Python string holding a lone high surrogate directly followed by
 *   a lone low surrogate (only possible by mixing a `\ud8xx` escape with a raw
 *   surrogate character) becomes one astral character here.
 * - Recursion: CPython gives up on deep nesting with RecursionError at a depth
 *   that depends on how deep the caller's stack already is. `maxDepth`
 *   (default 983 nested arrays/objects, counting the outermost; an object
 *   needs 3 more frames for the `multidict` hook) is what cloud-init 22.4.2's
 *   jsonp handler reaches under the oracle, i.e. a value nested 981 deep in
 *   `[{"op": "add", "path": "/a", "value": ...}]`. A real boot's stack may
 *   differ by a few frames, and once CPython has specialised the hook's code
 *   (after earlier JSON objects were decoded in the same process) the hook
 *   needs 2 frames, not 3.
 * - Sets: Python iterates a set in hash order, this model in insertion order.
 *   The canonical dump sorts set items, so only the order of the conversion
 *   notes of set items, and the relative order of set items whose JSON dumps
 *   are identical (a date and the string of its isoformat), can differ.
 * - The oracle's `to_jsonable` and json.dumps recurse, so Python cannot print
 *   values nested about 1000 deep (RecursionError); `toCanonicalJson` is
 *   iterative and prints any depth. Its guards (node count, text length,
 *   recursive structures) throw plain errors that name the limit.
 * - NaN dict keys: each NaN object is its own key in Python; the value model
 *   keeps one NaN key per dict.
 */
import { repeatedNodes } from './jsonExpansion';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, PyValue } from './values';
import { PyError } from './errors';
import { PY_INT_MAX_STR_DIGITS, intDigitLimitError, pyIntStr } from './int';
import { pyFloatRepr, pyRepr, pyStr, pyStrRepr } from './repr';
import { comparePyStr } from './str';
import { DEFAULT_LIMITS, LimitExceededError } from '../limits';

// ---------------------------------------------------------------------------
// errors
// ---------------------------------------------------------------------------

/** `json.JSONDecodeError` (a subclass of ValueError). */
export class JsonDecodeError extends PyError {
  /** The Python class name. */
  readonly className = 'JSONDecodeError';
  constructor(
    /** The bare message, e.g. "Expecting value". */
    readonly msg: string,
    /** Position in code points, as Python counts. */
    override readonly pos: number,
    readonly lineno: number,
    readonly colno: number,
  ) {
    super('ValueError', `${msg}: line ${lineno} column ${colno} (char ${pos})`);
    this.name = 'JSONDecodeError';
  }
}

/**
 * Python's `RecursionError` (a subclass of RuntimeError). `pyType` stays
 * within the shared PyErrorType union ('RuntimeError'); `className` is the
 * real class name.
 */
export class PyRecursionError extends PyError {
  readonly className = 'RecursionError';
  constructor(message: string) {
    super('RuntimeError', message);
    this.name = 'RecursionError';
  }
}

/** Python's class name for a PyError (JSONDecodeError, RecursionError, or its pyType). */
export function pyClassOfError(e: PyError): string {
  const cls = (e as { className?: unknown }).className;
  return typeof cls === 'string' ? cls : e.pyType;
}

// ---------------------------------------------------------------------------
// json.loads
// ---------------------------------------------------------------------------

export interface ParseJsonOptions {
  /**
   * The `object_pairs_hook`: 'dict' (plain `json.loads`: duplicate keys, last
   * value wins at the first key's position) or 'multidict' (jsonpatch's
   * loader: the values of a duplicated key are collected into a list).
   */
  objects?: 'dict' | 'multidict';
  /**
   * Deepest array/object nesting (the outermost counts 1) before
   * RecursionError: CPython's recursion limit minus the caller's stack.
   * Default 983: cloud-init 22.4.2's jsonp handler under the oracle.
   */
  maxDepth?: number;
}

/** Frames the `multidict` hook needs on top of the object being decoded (before CPython specialises it). */
const MULTIDICT_HOOK_FRAMES = 3;
export const DEFAULT_JSON_MAX_DEPTH = 983;

const WS_SPACE = 0x20;
const WS_TAB = 0x09;
const WS_LF = 0x0a;
const WS_CR = 0x0d;

function isJsonWs(c: number): boolean {
  return c === WS_SPACE || c === WS_TAB || c === WS_LF || c === WS_CR;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Number of code points in s[0, pos) (a surrogate pair counts once, as Python sees it). */
function codePointIndex(s: string, pos: number): number {
  let n = 0;
  for (let i = 0; i < pos; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < pos) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function decodeError(msg: string, s: string, pos: number): JsonDecodeError {
  const cp = codePointIndex(s, pos);
  const head = s.slice(0, pos);
  let lineno = 1;
  for (let i = head.indexOf('\n'); i !== -1; i = head.indexOf('\n', i + 1)) lineno++;
  const lastNl = head.lastIndexOf('\n');
  const colno = lastNl === -1 ? cp + 1 : cp - codePointIndex(s, lastNl);
  return new JsonDecodeError(msg, cp, lineno, colno);
}

/** Raised where the C scanner raises StopIteration(idx): becomes "Expecting value". */
class StopIteration {
  constructor(readonly idx: number) {}
}

class Scanner {
  private readonly len: number;
  private readonly maxDepth: number;
  private readonly multidict: boolean;

  constructor(
    private readonly s: string,
    options: ParseJsonOptions,
  ) {
    this.len = s.length;
    this.maxDepth = options.maxDepth ?? DEFAULT_JSON_MAX_DEPTH;
    this.multidict = options.objects === 'multidict';
  }

  /** Index just after the value last scanned. */
  end = 0;

  private done<T>(value: T, end: number): T {
    this.end = end;
    return value;
  }

  /** `scan_once(s, idx)`: the value at idx; `this.end` is set after it. */
  scanOnce(idx: number, depth: number): PyValue {
    const s = this.s;
    const len = this.len;
    if (idx >= len) throw new StopIteration(idx);
    const c = s.charCodeAt(idx);
    switch (c) {
      case 0x22: // "
        return this.scanString(idx + 1);
      case 0x7b: // {
        if (depth + 1 > this.maxDepth) throw new PyRecursionError('maximum recursion depth exceeded while decoding a JSON object from a unicode string');
        return this.parseObject(idx + 1, depth + 1);
      case 0x5b: // [
        if (depth + 1 > this.maxDepth) throw new PyRecursionError('maximum recursion depth exceeded while decoding a JSON array from a unicode string');
        return this.parseArray(idx + 1, depth + 1);
      case 0x6e: // n
        if (idx + 3 < len && s.startsWith('ull', idx + 1)) return this.done(null, idx + 4);
        break;
      case 0x74: // t
        if (idx + 3 < len && s.startsWith('rue', idx + 1)) return this.done(true, idx + 4);
        break;
      case 0x66: // f
        if (idx + 4 < len && s.startsWith('alse', idx + 1)) return this.done(false, idx + 5);
        break;
      case 0x4e: // N
        if (idx + 2 < len && s.startsWith('aN', idx + 1)) return this.done(NaN, idx + 3);
        break;
      case 0x49: // I
        if (idx + 7 < len && s.startsWith('nfinity', idx + 1)) return this.done(Infinity, idx + 8);
        break;
      case 0x2d: // -
        if (idx + 8 < len && s.startsWith('Infinity', idx + 1)) return this.done(-Infinity, idx + 9);
        break;
    }
    return this.matchNumber(idx);
  }

  private matchNumber(start: number): PyValue {
    const s = this.s;
    const endIdx = this.len - 1;
    let idx = start;
    let isFloat = false;
    if (s.charCodeAt(idx) === 0x2d) {
      idx++;
      if (idx > endIdx) throw new StopIteration(start);
    }
    const first = s.charCodeAt(idx);
    if (first >= 0x31 && first <= 0x39) {
      idx++;
      while (idx <= endIdx && isDigit(s.charCodeAt(idx))) idx++;
    } else if (first === 0x30) {
      idx++;
    } else {
      throw new StopIteration(start);
    }
    if (idx < endIdx && s.charCodeAt(idx) === 0x2e && isDigit(s.charCodeAt(idx + 1))) {
      isFloat = true;
      idx += 2;
      while (idx <= endIdx && isDigit(s.charCodeAt(idx))) idx++;
    }
    if (idx < endIdx && (s.charCodeAt(idx) === 0x65 || s.charCodeAt(idx) === 0x45)) {
      const eStart = idx;
      idx++;
      if (idx < endIdx && (s.charCodeAt(idx) === 0x2d || s.charCodeAt(idx) === 0x2b)) idx++;
      while (idx <= endIdx && isDigit(s.charCodeAt(idx))) idx++;
      if (isDigit(s.charCodeAt(idx - 1))) isFloat = true;
      else idx = eStart;
    }
    const text = s.slice(start, idx);
    if (isFloat) return this.done(Number(text), idx);
    const digits = text.startsWith('-') ? text.length - 1 : text.length;
    if (digits > PY_INT_MAX_STR_DIGITS) throw intDigitLimitError(digits);
    return this.done(BigInt(text), idx);
  }

  /** `scanstring(s, end, strict=True)`: `end` is just after the opening quote. */
  scanString(end: number): string {
    const s = this.s;
    const len = this.len;
    const begin = end - 1;
    const chunks: string[] = [];
    for (;;) {
      let next = end;
      let c = 0;
      for (; next < len; next++) {
        c = s.charCodeAt(next);
        if (c === 0x22 || c === 0x5c) break;
        if (c <= 0x1f) throw decodeError('Invalid control character at', s, next);
      }
      if (!(next < len && (c === 0x22 || c === 0x5c))) throw decodeError('Unterminated string starting at', s, begin);
      if (next !== end) chunks.push(s.slice(end, next));
      next++;
      if (c === 0x22) {
        end = next;
        break;
      }
      if (next === len) throw decodeError('Unterminated string starting at', s, begin);
      c = s.charCodeAt(next);
      if (c !== 0x75) {
        end = next + 1;
        let out: string;
        switch (c) {
          case 0x22:
            out = '"';
            break;
          case 0x5c:
            out = '\\';
            break;
          case 0x2f:
            out = '/';
            break;
          case 0x62:
            out = '\b';
            break;
          case 0x66:
            out = '\f';
            break;
          case 0x6e:
            out = '\n';
            break;
          case 0x72:
            out = '\r';
            break;
          case 0x74:
            out = '\t';
            break;
          default:
            throw decodeError('Invalid \\escape', s, end - 2);
        }
        chunks.push(out);
      } else {
        next++;
        end = next + 4;
        if (end >= len) throw decodeError('Invalid \\uXXXX escape', s, next - 1);
        let u = this.hex4(next, end);
        next = end;
        if (u >= 0xd800 && u <= 0xdbff && end + 6 < len && s.charCodeAt(next) === 0x5c && s.charCodeAt(next + 1) === 0x75) {
          next += 2;
          end += 6;
          const u2 = this.hex4(next, end);
          if (u2 >= 0xdc00 && u2 <= 0xdfff) {
            u = 0x10000 + ((u - 0xd800) << 10) + (u2 - 0xdc00);
          } else {
            end -= 6;
          }
        }
        chunks.push(String.fromCodePoint(u));
      }
    }
    return this.done(chunks.join(''), end);
  }

  private hex4(from: number, end: number): number {
    let v = 0;
    for (let i = from; i < end; i++) {
      const d = this.s.charCodeAt(i);
      let x: number;
      if (d >= 0x30 && d <= 0x39) x = d - 0x30;
      else if (d >= 0x61 && d <= 0x66) x = d - 0x61 + 10;
      else if (d >= 0x41 && d <= 0x46) x = d - 0x41 + 10;
      else throw decodeError('Invalid \\uXXXX escape', this.s, end - 5);
      v = (v << 4) | x;
    }
    return v;
  }

  private skipWs(idx: number): number {
    const s = this.s;
    while (idx < this.len && isJsonWs(s.charCodeAt(idx))) idx++;
    return idx;
  }

  private parseObject(idx: number, depth: number): PyValue {
    const s = this.s;
    const endIdx = this.len - 1;
    const pairs: Array<[string, PyValue]> = [];
    idx = this.skipWs(idx);
    if (idx > endIdx || s.charCodeAt(idx) !== 0x7d) {
      for (;;) {
        if (idx > endIdx || s.charCodeAt(idx) !== 0x22) throw decodeError('Expecting property name enclosed in double quotes', s, idx);
        const key = this.scanString(idx + 1);
        const afterKey = this.end;
        idx = this.skipWs(afterKey);
        if (idx > endIdx || s.charCodeAt(idx) !== 0x3a) throw decodeError("Expecting ':' delimiter", s, idx);
        idx = this.skipWs(idx + 1);
        const val = this.scanOnce(idx, depth);
        const afterVal = this.end;
        pairs.push([key, val]);
        idx = this.skipWs(afterVal);
        if (idx <= endIdx && s.charCodeAt(idx) === 0x7d) break;
        if (idx > endIdx || s.charCodeAt(idx) !== 0x2c) throw decodeError("Expecting ',' delimiter", s, idx);
        idx = this.skipWs(idx + 1);
      }
    }
    if (this.multidict) {
      if (depth + MULTIDICT_HOOK_FRAMES > this.maxDepth) throw new PyRecursionError('maximum recursion depth exceeded while calling a Python object');
      return this.done(multidict(pairs), idx + 1);
    }
    const d = new PyDict();
    for (const [k, v] of pairs) d.set(k, v);
    return this.done(d, idx + 1);
  }

  private parseArray(idx: number, depth: number): PyValue {
    const s = this.s;
    const endIdx = this.len - 1;
    const out: PyValue[] = [];
    idx = this.skipWs(idx);
    if (idx > endIdx || s.charCodeAt(idx) !== 0x5d) {
      for (;;) {
        const val = this.scanOnce(idx, depth);
        const after = this.end;
        out.push(val);
        idx = this.skipWs(after);
        if (idx <= endIdx && s.charCodeAt(idx) === 0x5d) break;
        if (idx > endIdx || s.charCodeAt(idx) !== 0x2c) throw decodeError("Expecting ',' delimiter", s, idx);
        idx = this.skipWs(idx + 1);
      }
    }
    return this.done(out, idx + 1);
  }
}

/** jsonpatch's `multidict` object_pairs_hook: duplicated keys collect their values in a list. */
function multidict(pairs: Array<[string, PyValue]>): PyDict {
  const grouped = new Map<string, PyValue[]>();
  for (const [k, v] of pairs) {
    const list = grouped.get(k);
    if (list) list.push(v);
    else grouped.set(k, [v]);
  }
  const d = new PyDict();
  for (const [k, values] of grouped) d.set(k, values.length === 1 ? values[0] : values);
  return d;
}

/**
 * Python 3.11's `json.loads(text)`. Throws `JsonDecodeError` (a ValueError)
 * with Python's message, `PyError('ValueError')` for integers over 4300
 * digits, `PyRecursionError` for nesting beyond `maxDepth`.
 */
export function parsePythonJson(text: string, options: ParseJsonOptions = {}): PyValue {
  if (text.startsWith('\ufeff')) throw decodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', text, 0);
  const scanner = new Scanner(text, options);
  let idx = 0;
  while (idx < text.length && isJsonWs(text.charCodeAt(idx))) idx++;
  let value: PyValue;
  let end: number;
  try {
    value = scanner.scanOnce(idx, 0);
    end = scanner.end;
  } catch (e) {
    if (e instanceof StopIteration) throw decodeError('Expecting value', text, e.idx);
    throw e;
  }
  while (end < text.length && isJsonWs(text.charCodeAt(end))) end++;
  if (end !== text.length) throw decodeError('Extra data', text, end);
  return value;
}

// ---------------------------------------------------------------------------
// to_jsonable + json.dumps
// ---------------------------------------------------------------------------

/** A JSON-ready value: object keys are strings, in insertion order. */
export type Jsonable = null | boolean | bigint | number | string | Jsonable[] | JsonObject;

export class JsonObject {
  readonly map = new Map<string, Jsonable>();
}

export interface ToJsonableOptions {
  /**
   * Most nodes the conversion may add by expanding shared references (a container met again is written out
   * again, each time: an alias bomb). A value without shared containers is converted whatever its size.
   */
  maxNodes?: number;
  /**
   * Count the expansion before writing it (default true), so that a value over the limit fails at once. False
   * only where a test proves that this count is the one the conversion reaches.
   */
  measureFirst?: boolean;
}

export const DEFAULT_MAX_JSON_NODES = DEFAULT_LIMITS.maxExpandedNodes;

/**
 * The oracle's `to_jsonable(obj, notes)`: non-string keys get their JSON
 * spelling, dates become ISO strings, bytes `{"$binary": base64}`, sets sorted
 * lists, tuples lists. Every lossy conversion is appended to `notes` with the
 * oracle's wording, in the oracle's order. Iterative: any depth works.
 */
export function toJsonable(value: PyValue, notes: string[] = [], options: ToJsonableOptions = {}): Jsonable {
  const maxNodes = options.maxNodes ?? DEFAULT_MAX_JSON_NODES;
  let nodes = 0;
  /** Containers converted once already, and how many frames on the stack are such repetitions. */
  const converted = new WeakSet<object>();
  let repeating = 0;
  /** Containers being converted (a value met again among them is recursive). */
  const active = new Set<object>();
  /** Keys and indexes from the root to the current value, for the notes' paths. */
  const at: Array<string | number> = [];

  interface Frame {
    obj: object;
    kind: 'dict' | 'list' | 'set';
    /** Original dict keys (dict frames). */
    keys: PyValue[];
    items: PyValue[];
    /** Index of the child being converted. */
    i: number;
    list: Jsonable[];
    dict: JsonObject;
    /** The converted key of the child being converted (dict frames). */
    ks: string;
    /** A container converted before (a shared reference written out again). */
    repeat?: boolean;
  }
  const stack: Frame[] = [];
  let measured = options.measureFirst === false;

  /** Converts a scalar at once (returns it), or opens a frame for a container (returns undefined). */
  const enter = (obj: PyValue): Jsonable | undefined => {
    if (repeating > 0 && ++nodes > maxNodes) throw new LimitExceededError('maxExpandedNodes', maxNodes, 'The JSON form of the value (shared references expanded)');
    if (obj === null || typeof obj === 'string' || typeof obj === 'boolean' || typeof obj === 'bigint') return obj;
    if (typeof obj === 'number') {
      if (!Number.isFinite(obj)) notes.push(`${pathText(at)}: non-finite float ${pyFloatRepr(obj)}`);
      return obj;
    }
    if (obj instanceof PyTimestamp) {
      notes.push(`${pathText(at)}: ${obj.kind} written as ISO string`);
      return obj.isoformat();
    }
    if (obj instanceof PyBytes) {
      notes.push(`${pathText(at)}: bytes written as {"$binary": base64}`);
      const o = new JsonObject();
      o.map.set('$binary', Buffer.from(obj.bytes).toString('base64'));
      return o;
    }
    if (active.has(obj)) throw new Error(`${pathText(at)}: the value contains itself (a recursive structure); it has no JSON form`);
    let frame: Frame;
    if (obj instanceof PyDict) {
      frame = { obj, kind: 'dict', keys: obj.keys(), items: obj.values(), i: -1, list: [], dict: new JsonObject(), ks: '' };
    } else if (Array.isArray(obj) || obj instanceof PyTuple) {
      if (obj instanceof PyTuple) notes.push(`${pathText(at)}: tuple written as list`);
      const items = Array.isArray(obj) ? obj : obj.items;
      frame = { obj, kind: 'list', keys: [], items, i: -1, list: new Array<Jsonable>(items.length), dict: EMPTY_OBJECT, ks: '' };
    } else if (obj instanceof PySet) {
      notes.push(`${pathText(at)}: set written as sorted list`);
      frame = { obj, kind: 'set', keys: [], items: obj.values(), i: -1, list: [], dict: EMPTY_OBJECT, ks: '' };
    } else {
      return pyRepr(obj); // not reachable for the value model; the oracle writes repr()
    }
    active.add(obj);
    if (converted.has(obj)) {
      // The first shared reference met: if writing out every repetition would pass the limit, say so now, not
      // after expanding millions of nodes (an alias bomb's JSON took seconds to fail).
      if (!measured) {
        measured = true;
        if (repeatedNodes(value, maxNodes) > maxNodes) throw new LimitExceededError('maxExpandedNodes', maxNodes, 'The JSON form of the value (shared references expanded)');
      }
      frame.repeat = true;
      // A repetition's own node (inside another repetition it was counted on entering).
      if (repeating++ === 0 && ++nodes > maxNodes) throw new LimitExceededError('maxExpandedNodes', maxNodes, 'The JSON form of the value (shared references expanded)');
    } else converted.add(obj);
    stack.push(frame);
    return undefined;
  };

  let result = enter(value);
  while (stack.length) {
    const frame = stack[stack.length - 1];
    if (result !== undefined && frame.i >= 0) {
      // the child frame.i is converted
      if (frame.kind === 'dict') {
        frame.dict.map.set(frame.ks, result);
        at.pop();
      } else if (frame.kind === 'list') {
        frame.list[frame.i] = result;
        at.pop();
      } else frame.list.push(result);
    }
    if (++frame.i < frame.items.length) {
      if (frame.kind === 'dict') {
        const ks = keyStr(frame.keys[frame.i], notes, at);
        if (frame.dict.map.has(ks)) notes.push(`${pathText(at)}: key collision on ${pyStrRepr(ks)} after conversion`);
        frame.ks = ks;
        at.push(ks);
      } else if (frame.kind === 'list') at.push(frame.i);
      result = enter(frame.items[frame.i]);
      continue;
    }
    // the container is complete
    stack.pop();
    active.delete(frame.obj);
    if (frame.repeat) repeating--;
    if (frame.kind === 'dict') result = frame.dict;
    else if (frame.kind === 'list') result = frame.list;
    else {
      const items = frame.list.map((j) => ({ j, key: dumpJsonable(j, { sortKeys: true, ensureAscii: true, separators: [', ', ': '] }) }));
      items.sort((a, b) => comparePyStr(a.key, b.key));
      result = items.map((x) => x.j);
    }
  }
  return result as Jsonable;
}

const EMPTY_OBJECT = new JsonObject();

/** The oracle's note path: `$`, `$.key`, `$[0]`. */
function pathText(at: ReadonlyArray<string | number>): string {
  let text = '$';
  for (const seg of at) text += typeof seg === 'number' ? `[${seg}]` : '.' + seg;
  return text;
}

function keyStr(k: PyValue, notes: string[], at: ReadonlyArray<string | number>): string {
  if (typeof k === 'string') return k;
  let s: string;
  if (typeof k === 'boolean') s = k ? 'true' : 'false';
  else if (k === null) s = 'null';
  else if (typeof k === 'bigint') s = pyIntStr(k);
  else if (typeof k === 'number') s = pyFloatRepr(k);
  else s = pyStr(k);
  notes.push(`${pathText(at)}: non-string key ${pyRepr(k)} written as ${pyStrRepr(s)}`);
  return s;
}

/** Longest JSON text produced (V8 strings stop a little above 2^29 UTF-16 units). */
export const DEFAULT_MAX_JSON_CHARS = 2 ** 28;

export interface DumpOptions {
  /** Longest text to produce; an Error naming the limit is thrown beyond it. */
  maxChars?: number;
  sortKeys?: boolean;
  ensureAscii?: boolean;
  /** `indent=N` (N spaces) or `indent="..."`; item separator becomes ',' and key separator ': '. */
  indent?: number | string;
  /** `separators=(item, key)`; default (', ', ': '), or (',', ': ') with indent. */
  separators?: [string, string];
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** `json.encoder.encode_basestring` (ensure_ascii=False). */
function encodeStr(s: string): string {
  return '"' + s.replace(/[\x00-\x1f\\"]/g, (ch) => ESCAPES[ch] ?? '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')) + '"';
}

/** `json.encoder.encode_basestring_ascii` (ensure_ascii=True). */
function encodeStrAscii(s: string): string {
  return '"' + s.replace(/[\x00-\x1f\\"\x7f-\uffff]/g, (ch) => ESCAPES[ch] ?? '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0')) + '"';
}

/** `float.__repr__` as json.dumps writes it (allow_nan=True), for values and for dict keys. */
export function floatJson(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

/** `json.dumps` of a Jsonable value. Iterative: any depth works. */
export function dumpJsonable(value: Jsonable, options: DumpOptions = {}): string {
  const indent = options.indent;
  const [itemSep, keySep] = options.separators ?? (indent !== undefined ? [',', ': '] : [', ', ': ']);
  const enc = options.ensureAscii ? encodeStrAscii : encodeStr;
  const indentText = typeof indent === 'number' ? ' '.repeat(indent) : indent;
  const newline = (level: number) => (indentText === undefined ? '' : '\n' + indentText.repeat(level));
  let out = '';
  interface Frame {
    items: Jsonable[];
    keys: string[] | null;
    i: number;
  }
  const stack: Frame[] = [];
  /** Writes a scalar or an empty container, or opens a frame. */
  const open = (v: Jsonable): void => {
    if (v === null) out += 'null';
    else if (v === true) out += 'true';
    else if (v === false) out += 'false';
    else if (typeof v === 'bigint') out += pyIntStr(v);
    else if (typeof v === 'number') out += floatJson(v);
    else if (typeof v === 'string') out += enc(v);
    else if (Array.isArray(v)) {
      if (v.length === 0) out += '[]';
      else {
        out += '[';
        stack.push({ items: v, keys: null, i: 0 });
      }
    } else if (v.map.size === 0) out += '{}';
    else {
      let entries = [...v.map.entries()];
      if (options.sortKeys) entries = entries.sort((a, b) => comparePyStr(a[0], b[0]));
      out += '{';
      stack.push({ items: entries.map((e) => e[1]), keys: entries.map((e) => e[0]), i: 0 });
    }
  };
  open(value);
  const maxChars = options.maxChars ?? DEFAULT_MAX_JSON_CHARS;
  while (stack.length) {
    if (out.length > maxChars) throw new Error(`The JSON text exceeds the limit maxChars = ${maxChars} characters`);
    const frame = stack[stack.length - 1];
    const level = stack.length;
    if (frame.i < frame.items.length) {
      const i = frame.i++;
      if (i > 0) out += itemSep;
      out += newline(level);
      if (frame.keys) out += enc(frame.keys[i]) + keySep;
      open(frame.items[i]);
    } else {
      stack.pop();
      out += newline(level - 1) + (frame.keys ? '}' : ']');
    }
  }
  if (out.length > maxChars) throw new Error(`The JSON text exceeds the limit maxChars = ${maxChars} characters`);
  return out;
}

export interface CanonicalJsonOptions extends ToJsonableOptions {
  /** `indent=2` instead of compact separators (the oracle's --pretty). */
  pretty?: boolean;
  /** Longest text to produce (default DEFAULT_MAX_JSON_CHARS; indentation grows with depth squared). */
  maxChars?: number;
}

/**
 * Exactly what the oracle prints for a result (without the trailing
 * newline), and its conversion notes. Throws `LimitExceededError` when the
 * expansion of shared references would exceed `maxNodes`, a plain Error for
 * a recursive structure or a text longer than `maxChars`,
 * `PyError('ValueError')` for an int over 4300 digits.
 */
export function toCanonicalJson(value: PyValue, options: CanonicalJsonOptions = {}): { text: string; conversions: string[] } {
  const conversions: string[] = [];
  const jsonable = toJsonable(value, conversions, options);
  const text = options.pretty
    ? dumpJsonable(jsonable, { sortKeys: true, indent: 2, maxChars: options.maxChars })
    : dumpJsonable(jsonable, { sortKeys: true, separators: [',', ':'], maxChars: options.maxChars });
  return { text, conversions };
}

/**
 * A plain JavaScript value for display (e.g. in the LSP): objects with string
 * keys in insertion order, ints as numbers when exactly representable and as
 * decimal strings otherwise, non-finite floats as the strings "NaN",
 * "Infinity", "-Infinity". Conversions are reported as for the oracle.
 */
export function toJsonValue(value: PyValue, options: ToJsonableOptions = {}): { value: unknown; conversions: string[] } {
  const conversions: string[] = [];
  const root = toJsonable(value, conversions, options);
  const scalar = (v: Jsonable): unknown => {
    if (typeof v === 'bigint') {
      const n = Number(v);
      return Number.isSafeInteger(n) ? n : v.toString();
    }
    if (typeof v === 'number') return Number.isFinite(v) ? v : floatJson(v);
    return v;
  };
  const define = (o: Record<string, unknown>, k: string, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  const make = (v: Jsonable): unknown => (Array.isArray(v) ? new Array(v.length) : v instanceof JsonObject ? {} : scalar(v));
  const top = make(root);
  const work: Array<[Jsonable, unknown]> = [[root, top]];
  while (work.length) {
    const [src, dst] = work.pop() as [Jsonable, unknown];
    if (Array.isArray(src)) {
      src.forEach((item, i) => {
        const made = make(item);
        (dst as unknown[])[i] = made;
        if (typeof item === 'object' && item !== null) work.push([item, made]);
      });
    } else if (src instanceof JsonObject) {
      for (const [k, item] of src.map) {
        const made = make(item);
        define(dst as Record<string, unknown>, k, made);
        if (typeof item === 'object' && item !== null) work.push([item, made]);
      }
    }
  }
  return { value: top, conversions };
}
