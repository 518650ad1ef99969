/**
 * cloud-init's handling of a `## template: jinja` user-data part
 * (handlers/jinja_template.py: render_jinja_payload and
 * convert_jinja_instance_data), rendered with the Jinja2 3.1 port in
 * ../jinja/ (22.4.2 on Debian bookworm; `options.version` picks current
 * cloud-init's sandbox). templater.py's part is ./templater.ts.
 *
 * What cloud-init does with such a part (handlers/jinja_template.py,
 * templater.py):
 *  - the first line must match `##\s*template:(.*)` (case-insensitive) with
 *    the captured text, lower-cased and stripped, equal to `jinja`; the rest
 *    after the first "\n" is the template. (`## template: basic` or a first
 *    line that does not match raise NotJinjaError; any other type raises
 *    ValueError: both are caught by the part-handler runner, which logs
 *    "Failed calling handler ..." and drops the part: `reason: 'not-jinja'`.)
 *  - the instance data is /run/cloud-init/instance-data-sensitive.json. A
 *    missing file, unparsable JSON or a non-object root raise JinjaLoadError,
 *    again caught by the handler runner and the part is dropped:
 *    `reason: 'no-instance-data'`.
 *  - the JSON is converted by convert_jinja_instance_data (see
 *    convertInstanceData below) and the template rendered by
 *    `jinja2.Template(content, undefined=UndefinedJinjaVariable,
 *    trim_blocks=True, extensions=["jinja2.ext.do"]).render(**vars)`, plus
 *    "\n" when the template text ends with "\n" (keep_trailing_newline is
 *    off, so Jinja drops exactly one trailing newline and cloud-init puts it
 *    back).
 *  - an undefined variable prints as `CI_MISSING_JINJA_VAR/<name>`; after
 *    rendering, every `CI_MISSING_JINJA_VAR/\S+` in the output is reported in
 *    the warning "Could not render jinja template variables in file ...":
 *    `missingVariables` lists them in order (prefix removed, as cloud-init
 *    does, duplicates kept).
 *  - TypeError and jinja2 UndefinedError (e.g. attribute access on an
 *    undefined variable, `local-hostname` read as a subtraction) are caught:
 *    "Ignoring jinja template for <part>: <message>" and the part is dropped:
 *    `reason: 'undefined' | 'type'`, `message` is str(exception).
 *  - every other exception, TemplateSyntaxError included, propagates to the
 *    handler runner ("Failed calling handler ..."), the part is dropped:
 *    `reason: 'syntax'` (TemplateSyntaxError / TemplateAssertionError) or
 *    `reason: 'runtime'` (ZeroDivisionError, ValueError, TemplateRuntimeError
 *    ...), with `exception` naming the Python class.
 *  - an empty rendered text makes cloud-init drop the part silently; this
 *    module returns `{ok: true, text: ''}` and leaves that to the caller.
 *
 * Instance data: pass the JSON text of instance-data-sensitive.json (a
 * string) to keep Python's int/float distinction exactly (`1.0` stays a
 * float and prints `1.0`; big integers stay exact; NaN/Infinity accepted
 * like Python's json module, ../py/json.ts). A pre-parsed plain JS value is
 * accepted too; then a JS number is a Python int when Number.isInteger, else
 * a float (`bigint` is always an int). `undefined` means "no file".
 *
 * What the Jinja port supports, cannot reproduce, and its limits: ../jinja/
 * (each module's opening comment; README.md, "Jinja templates").
 *
 * Verification: test/unit/jinja.test.ts (expectations produced by cloud-init
 * + Jinja2) and test/oracle/jinja.diff.ts (thousands of random templates and
 * instance data compared with the real thing).
 *
 * Residual differences: instance data nested deeper than 500 levels is
 * refused as `unsupported` (Python goes on to its recursion limit); a key
 * whose base64 decoding fails raises as in Python, but the message of
 * binascii.Error may differ in wording.
 */
import { JinjaUnsupportedError, TemplateSyntaxError, cannotReproduce, typeError, unsupported } from '../jinja/errors';
import { JBytes, JDict, JTuple, JValue, pyLt, pyStr, typeName } from '../jinja/values';
import { a2bBase64 } from '../py/binascii';
import { PyError } from '../py/errors';
import { PyRecursionError, parsePythonJson } from '../py/json';
import { pySorted as timsort } from '../py/sort';
import { codePoints } from '../py/str';
import { atLeast, type CloudInitVersion } from '../version/versions';
import { PyDict, type PyValue } from '../py/values';
import type { OutputOrigin } from '../jinja/environment';
import { detectTemplate, jinjaSource, renderJinjaString } from './templater';

export { LIMITS, cannotReproduce, JinjaUnsupportedError } from '../jinja/errors';
export { detectTemplate, isJinjaTemplate } from './templater';

// ---------------------------------------------------------------------------
// Public API types

export type JinjaFailureReason =
  | 'syntax'
  | 'undefined'
  | 'type'
  /** SecurityError from the sandbox (current cloud-init only), caught like TypeError. */
  | 'security'
  | 'unsupported'
  | 'no-instance-data'
  | 'runtime'
  | 'not-jinja';

export type JinjaRenderResult =
  | {
      ok: true;
      text: string;
      missingVariables: string[];
      notes?: string[];
      /** With `trackOrigins`: the payload offset (header line included) that produced a rendered offset. */
      payloadOffsetOf?: (renderedOffset: number) => number;
    }
  | {
      ok: false;
      reason: JinjaFailureReason;
      message: string;
      /** Offset in the payload (header line included) of the construct at fault, when known. */
      offset?: number;
      /** The Python exception class cloud-init would see (e.g. 'TemplateSyntaxError', 'ZeroDivisionError'). */
      exception?: string;
      /** For syntax errors: Jinja's line number (1-based, in the template after the header line) and that line's text. */
      line?: number;
      lineText?: string;
    };

/**
 * `str()` of cloud-init's JinjaSyntaxParsingException (24.1 and later) for a syntax failure: the message,
 * the line, and the line's text when it is not blank.
 */
export function jinjaSyntaxErrorText(failure: { message: string; line?: number; lineText?: string }): string {
  const content = failure.lineText?.trim();
  return `Unable to parse Jinja template due to syntax error: ${failure.message} on line ${(failure.line ?? 0) + 1}${content ? `: ${content}` : ''}`;
}

export interface JinjaRenderOptions {
  /**
   * Which cloud-init renders: 22.4 to 25.1 use a plain jinja2 Environment, current
   * cloud-init (26.x) a SandboxedEnvironment (underscore attributes are unsafe
   * undefineds, ranges are capped, SecurityError is caught like TypeError).
   * Default '22.4'.
   */
  version?: CloudInitVersion;
  /** Also say where each piece of the rendered text came from (`payloadOffsetOf`), for editors. */
  trackOrigins?: boolean;
}

// ---------------------------------------------------------------------------
// Instance data: Python's json.loads, cloud-init's convert_jinja_instance_data

/** Instance data cloud-init cannot load (its JinjaLoadError). */
export class JsonError extends Error {}

/** Deepest instance-data nesting this tool converts (Python itself would stop near its recursion limit). */
const MAX_INSTANCE_DATA_DEPTH = 500;

/** json.loads (the kernel's, with Python's result types) as a template value. */
function parseInstanceJson(text: string): JValue {
  let parsed: PyValue;
  try {
    parsed = parsePythonJson(text, { maxDepth: MAX_INSTANCE_DATA_DEPTH + 1 });
  } catch (e) {
    if (e instanceof PyRecursionError) throw unsupported(`instance data nested deeper than ${MAX_INSTANCE_DATA_DEPTH} levels`);
    if (e instanceof PyError) throw new JsonError(e.message);
    throw e;
  }
  return fromJsonValue(parsed);
}

/** What json.loads gives (floats stay floats, ints are bigints) as a template value. */
function fromJsonValue(v: PyValue): JValue {
  if (Array.isArray(v)) return v.map(fromJsonValue);
  if (v instanceof PyDict) {
    const d = new JDict();
    for (const [k, x] of v.entries()) d.set(fromJsonValue(k), fromJsonValue(x));
    return d;
  }
  if (v === null || typeof v !== 'object') return v;
  throw new JsonError(`json.loads gave a ${v.constructor.name}`);
}

/** A plain JS value (e.g. from JSON.parse) as a Python value. */
export function fromPlain(v: unknown, depth = 0): JValue {
  if (depth > 500) throw unsupported('instance data nested deeper than 500 levels');
  if (v === null) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
    case 'bigint':
      return v;
    case 'number':
      return Number.isInteger(v) ? BigInt(v) : v;
  }
  if (Array.isArray(v)) return v.map((x) => fromPlain(x, depth + 1));
  if (v instanceof Uint8Array) return new JBytes(v);
  if (v instanceof Map) {
    const d = new JDict();
    for (const [k, x] of v) d.set(fromPlain(k, depth + 1), fromPlain(x, depth + 1));
    return d;
  }
  if (typeof v === 'object') {
    const d = new JDict();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) d.set(k, fromPlain(x, depth + 1));
    return d;
  }
  throw new JsonError(`cannot use a ${typeof v} as instance data`);
}

export function toPlain(v: JValue): unknown {
  if (typeof v === 'bigint') return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
  if (Array.isArray(v)) return v.map(toPlain);
  if (v instanceof JDict) {
    const o: Record<string, unknown> = {};
    for (const [k, x] of v.entries()) Object.defineProperty(o, pyStr(k), { value: toPlain(x), enumerable: true, writable: true, configurable: true });
    return o;
  }
  if (v instanceof JBytes) return v.bytes;
  if (v instanceof JTuple) return v.items.map(toPlain);
  return v;
}

export function deepCopy(v: JValue, memo = new Map<object, JValue>()): JValue {
  if (v === null || typeof v !== 'object') return v;
  const seen = memo.get(v);
  if (seen !== undefined) return seen;
  if (Array.isArray(v)) {
    const out: JValue[] = [];
    memo.set(v, out);
    for (const x of v) out.push(deepCopy(x, memo));
    return out;
  }
  if (v instanceof JDict) {
    const out = new JDict();
    memo.set(v, out);
    for (const [k, x] of v.entries()) out.set(deepCopy(k, memo), deepCopy(x, memo));
    return out;
  }
  return v;
}

/** base64.b64decode (non-validating) + utf-8 decode attempt, as cloud-init's util.b64d. */
export function b64d(v: JValue): JValue {
  let data: Uint8Array;
  if (typeof v === 'string') {
    if (/[^\x00-\x7f]/.test(v)) throw new PyError('ValueError', 'string argument should contain only ASCII characters');
    data = Buffer.from(v, 'latin1');
  } else if (v instanceof JBytes) data = v.bytes;
  else throw typeError(`argument should be a bytes-like object or ASCII string, not '${typeName(v)}'`);
  let bytes: Uint8Array;
  try {
    bytes = a2bBase64(data, false);
  } catch (e) {
    // type(e).__name__ of binascii.Error is "Error": that is what cloud-init's log shows.
    if (e instanceof PyError && e.pyType === 'binascii.Error') throw new PyError('Error', e.message);
    throw e;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return new JBytes(bytes);
  }
}

export const OPERATOR_RE = /\/\/|\*\*|==|!=|>=|<=|[+\-/*%~[\](){}><=.:|,;]/g;

export function convertJinja(data: JDict, prefix: string, decodePaths: JValue): JDict {
  const paths: string[] = [];
  const rawPaths: JValue[] =
    typeof decodePaths === 'string'
      ? codePoints(decodePaths)
      : Array.isArray(decodePaths)
        ? decodePaths
        : decodePaths instanceof JDict
          ? decodePaths.keys()
          : decodePaths instanceof JTuple
            ? decodePaths.items
            : (() => {
                throw typeError(`'${typeName(decodePaths)}' object is not iterable`);
              })();
  for (const p of rawPaths) {
    if (typeof p !== 'string') throw new PyError('AttributeError', `'${typeName(p)}' object has no attribute 'replace'`);
    paths.push(p.split('-').join('_'));
  }
  const result = new JDict();
  const entries = timsort(data.entries(), (a, b) => pyLt(a[0], b[0]));
  for (const [key, raw] of entries) {
    const k = key as string;
    const keyPath = prefix ? `${prefix}/${k}` : k;
    let value = raw;
    if (paths.includes(keyPath)) value = b64d(value);
    if (value instanceof JDict) {
      const sub = convertJinja(value, keyPath, paths);
      result.set(k, sub);
      if (/^v\p{Nd}+\n?$/u.test(k)) {
        for (const [sk, sv] of sub.entries()) result.set(sk, deepCopy(sv));
      }
    } else {
      result.set(k, value);
    }
    const alias = k.replace(OPERATOR_RE, '_');
    if (alias !== k) result.set(alias, deepCopy(result.get(k) as JValue));
  }
  return result;
}

export function loadInstanceData(instanceData: unknown): JDict {
  let data: JValue;
  if (typeof instanceData === 'string') data = parseInstanceJson(instanceData);
  else if (instanceData instanceof Uint8Array) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(instanceData);
    } catch {
      throw new JsonError('invalid utf-8');
    }
    data = parseInstanceJson(text);
  } else data = fromPlain(instanceData);
  if (!(data instanceof JDict)) throw new JsonError(`(<class 'dict'>) root types expected, got ${typeName(data)} instead`);
  return data;
}

/**
 * cloud-init's convert_jinja_instance_data(data, decode_paths=data["base64-encoded-keys"],
 * include_key_aliases=True), as plain JS values (ints as numbers, or bigint beyond 2**53).
 * `data` is the JSON text (exact) or a parsed value. Throws on invalid data.
 */
export function convertInstanceData(data: unknown): Record<string, unknown> {
  const d = loadInstanceData(data);
  const paths = d.get('base64-encoded-keys');
  return toPlain(convertJinja(d, '', paths === undefined ? [] : paths)) as Record<string, unknown>;
}

/**
 * Render a `## template: jinja` part as cloud-init would (22.4.2 by default, `options.version`).
 * `instanceData`: the text of instance-data-sensitive.json (exact int/float
 * typing), a parsed JSON value, or undefined when the file does not exist.
 */
export function renderCloudInitJinja(payload: string, instanceData: unknown, options: JinjaRenderOptions = {}): JinjaRenderResult {
  const detected = detectTemplate(payload);
  if ('error' in detected) return { ok: false, reason: 'not-jinja', message: detected.error, exception: 'ValueError' };
  if (detected.type !== 'jinja') {
    return { ok: false, reason: 'not-jinja', message: 'Payload is not a jinja template', exception: 'NotJinjaError' };
  }
  if (instanceData === undefined) {
    return {
      ok: false,
      reason: 'no-instance-data',
      message:
        'Cannot render jinja template vars. Instance data not yet present at /run/cloud-init/instance-data-sensitive.json',
      exception: 'JinjaLoadError',
    };
  }
  const headerLen = payload.length - detected.rest.length;
  const content = detected.rest;
  const src = jinjaSource(content);
  const origOffset = (pos: number | undefined): number | undefined => {
    if (pos === undefined) return undefined;
    let o = 0;
    for (let i = 0; i < pos && o < content.length; i++) o += content.startsWith('\r\n', o) ? 2 : 1;
    return headerLen + o;
  };
  const fail = (reason: JinjaFailureReason, message: string, exception?: string, pos?: number): JinjaRenderResult => {
    const r: JinjaRenderResult = { ok: false, reason, message };
    if (exception) r.exception = exception;
    const off = origOffset(pos);
    if (off !== undefined) r.offset = off;
    return r;
  };
  let params: JDict;
  try {
    const data = loadInstanceData(instanceData);
    const paths = data.get('base64-encoded-keys');
    params = convertJinja(data, '', paths === undefined ? [] : paths);
  } catch (e) {
    if (e instanceof JsonError) return fail('no-instance-data', 'Loading Jinja instance data failed', 'JinjaLoadError');
    if (e instanceof PyError) return fail('runtime', e.message, e.pyType);
    if (e instanceof JinjaUnsupportedError) return fail('unsupported', e.message);
    throw e;
  }
  try {
    const sandbox = atLeast(options.version ?? '22.4', 'current');
    const { text, missingVariables, notes, origins } = renderJinjaString(content, params, sandbox, options.trackOrigins);
    const result: JinjaRenderResult = notes.length ? { ok: true, text, missingVariables, notes } : { ok: true, text, missingVariables };
    if (origins) result.payloadOffsetOf = (offset) => originOf(origins, offset, origOffset);
    return result;
  } catch (e) {
    if (e instanceof TemplateSyntaxError) {
      const r = fail('syntax', e.message, e.pyType, e.pos);
      if (!r.ok) {
        const line = e.pos === undefined ? src.split('\n').length : src.slice(0, e.pos).split('\n').length;
        r.line = line;
        r.lineText = src.split('\n')[line - 1] ?? '';
      }
      return r;
    }
    if (e instanceof JinjaUnsupportedError) {
      return fail('unsupported', cannotReproduce(e.construct), undefined, e.offset);
    }
    if (e instanceof PyError) {
      const reason = e.pyType === 'UndefinedError' ? 'undefined' : e.pyType === 'TypeError' ? 'type' : e.pyType === 'SecurityError' ? 'security' : 'runtime';
      return fail(reason, e.message, e.pyType, e.pos);
    }
    if (e instanceof RangeError) return fail('unsupported', cannotReproduce(`${e.message} (recursion limit)`));
    throw e;
  }
}
/** The payload offset behind a rendered offset: inside template data the same character, else the expression's start. */
function originOf(origins: OutputOrigin[], offset: number, toPayload: (pos: number) => number | undefined): number {
  let lo = 0;
  let hi = origins.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (origins[mid].out <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  if (found < 0) return toPayload(0) ?? 0;
  const o = origins[found];
  return toPayload(o.data ? o.src + (offset - o.out) : o.src) ?? 0;
}
