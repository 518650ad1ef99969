/**
 * `## template: jinja` user-data parts, rendered the way cloud-init 22.4.2
 * does it with Jinja2 3.1 (Debian bookworm): an independent re-implementation
 * of the subset of Jinja that cloud-config authors use, which fails
 * explicitly (`reason: 'unsupported'`) instead of guessing outside it.
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
 * like Python's json module). A pre-parsed plain JS value is accepted too;
 * then a JS number is a Python int when Number.isInteger, else a float
 * (`bigint` is always an int). `undefined` means "no file".
 *
 * Supported: the whole Jinja statement/expression grammar is parsed (so
 * syntax errors are classified like Jinja does); rendered are output,
 * if/elif/else, for (else, loop filter, tuple targets, `loop.*`), set (also
 * block set and namespace attributes), do, with, filter blocks, print, raw,
 * comments, whitespace control, trim_blocks; include/import/from/extends
 * (cloud-init's environment has no loader: TypeError); Jinja's scoping
 * rules (ported from its symbol tracking, e.g. sets inside loops do not
 * leak); literals, arithmetic, comparisons, `in`, `~`, conditional
 * expressions, slicing, `*args`/`**kwargs`; globals range/dict/namespace/
 * cycler/joiner; every filter and test of Jinja2 3.1 but those listed
 * below; the str/list/dict methods, str.format/format_map
 * (../jinja/pyformat.ts), MarkupSafe's escaping and Markup's operators and
 * methods (../jinja/markup.ts). Python semantics are emulated for values
 * (int vs float, repr of containers, str of floats, truthiness, `and`/`or`
 * returning operands, dict views, ranges ...). Attribute lookup is
 * Environment.getattr for every name: Python's attribute, else the item;
 * which underscore attributes a Python value really has is in
 * ../jinja/pyattrs.ts.
 *
 * Versions (options.version): '22.4' renders in a plain Environment;
 * 'current' in a SandboxedEnvironment (since cloud-init 25.1): underscore
 * attributes (and gi_code/gi_frame, type.mro) give an unsafe undefined
 * (prints as a missing variable, raises SecurityError otherwise), range()
 * refuses more than MAX_RANGE items, str.format goes through
 * string.Formatter with the sandbox's lookups, and SecurityError is caught
 * by cloud-init like TypeError (`reason: 'security'`).
 *
 * Cannot be reproduced (=> `reason: 'unsupported'`, message "this tool
 * cannot reproduce <construct>; cloud-init would render it", the tool's own
 * words, never a cloud-init log line; the list is documented in README.md,
 * "Jinja templates"): macros, call blocks, blocks, autoescape, recursive
 * loops, the filters urlize/wordwrap and pprint over 80 columns, lipsum,
 * real underscore attributes of Python values in 22.4 (object internals)
 * and anything whose Python output is an object address (generators,
 * functions, bound methods), `\N{...}` escapes and non-ASCII
 * identifiers/digits inside tags, the `n` format type, `*` widths in %
 * formatting, `*args`/`**kwargs` of values that are not a sequence/dict.
 *
 * Limits against hostile templates (exceeding one gives `reason:
 * 'unsupported'` with a message naming the limit): LIMITS below (loop
 * iterations and produced items, output size, string/list sizes, integer
 * size, expression and block nesting, which also keeps away from CPython's
 * own "too many nested parentheses" compile limit).
 *
 * Jinja's compile-time constant folding is emulated (nodes.as_const plus
 * the optimizer's safe-repr rule), because it is observable: `{{ {}[:] }}`
 * prints `CI_MISSING_JINJA_VAR/slice(None, None, None)` instead of raising.
 *
 * Verification: test/unit/jinja.test.ts (expectations produced by cloud-init
 * + Jinja2) and test/oracle/jinja.diff.ts (thousands of random templates and
 * instance data compared with the real thing: text, ok/error class, missing
 * variables, UndefinedError/TypeError messages, runtime exception class).
 *
 * Residual differences (known, not worth emulating): syntax-error messages
 * and some argument-binding TypeError messages are close to but not always
 * identical to Python's (the error class always matches); which error is
 * reported when a template has several problems may differ (we lex the whole
 * template before parsing, Jinja lazily); a dict literal with an unhashable
 * key fails Jinja's optimizer at compile time even in a branch never taken
 * (we only fail when it is evaluated); Unicode tables follow the JS engine
 * (Unicode 15) rather than Python 3.11's (Unicode 14) for case mapping,
 * `isprintable` in repr and `\w`; dict keys that are NaN are merged into one
 * key; `sameas` on strings or large ints (object identity) is unsupported;
 * float-to-int true division of huge ints may differ in the last bit for
 * subnormal results.
 */

import { pyFloatRepr, pyStrRepr } from '../py/repr';
import { pySplitMax } from '../py/str';
import { pushAll } from '../arrays';
import { pySorted as timsort } from '../py/sort';
import { hasPrivateAttr } from '../jinja/pyattrs';
import { htmlEscape, htmlUnescape, INVALID_ATTR_KEY, stripTags } from '../jinja/markup';
import { FormatHost, floatFormatBody, formatValue, pyFormat } from '../jinja/pyformat';
import type { CloudInitVersion } from '../spec/parse';

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
  | { ok: true; text: string; missingVariables: string[]; notes?: string[] }
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

export interface JinjaRenderOptions {
  /**
   * Which cloud-init renders: '22.4' uses a plain jinja2 Environment, current
   * cloud-init a SandboxedEnvironment (underscore attributes are unsafe
   * undefineds, ranges are capped, SecurityError is caught like TypeError).
   * Default '22.4'.
   */
  version?: CloudInitVersion;
}

/** Hard limits; exceeding one is reported as `unsupported`. */
export const LIMITS = {
  /** Total loop iterations plus items produced by range/list/filters, per render. */
  maxSteps: 1_000_000,
  /** Rendered text, in UTF-16 code units. */
  maxOutput: 4_000_000,
  /** Any single string or list built during rendering. */
  maxValueSize: 4_000_000,
  /** Bits of an integer produced by ** or * . */
  maxIntBits: 65_536,
  /** Nesting of expressions (AST depth). */
  maxExprDepth: 48,
  /** Nesting of block statements. */
  maxBlockDepth: 40,
};

/**
 * The tool's own message for what it cannot reproduce (never one of
 * cloud-init's): cloud-init renders such a template, this tool does not know
 * what it would give.
 */
export function cannotReproduce(construct: string, offset?: number): string {
  return `this tool cannot reproduce ${construct}${offset !== undefined ? ` (at offset ${offset})` : ''}; cloud-init would render it`;
}

/** Thrown (and reported as `unsupported`) for anything outside the emulated subset. */
export class JinjaUnsupportedError extends Error {
  constructor(
    readonly construct: string,
    public offset?: number,
  ) {
    super(cannotReproduce(construct, offset));
  }
}

class TemplateSyntaxError extends Error {
  constructor(
    message: string,
    readonly pos: number | undefined,
    readonly pyType: string = 'TemplateSyntaxError',
  ) {
    super(message);
  }
}

/** A Python exception raised while rendering. */
class PyError extends Error {
  pos?: number;
  constructor(
    readonly pyType: string,
    message: string,
  ) {
    super(message);
  }
}

function typeError(msg: string): PyError {
  return new PyError('TypeError', msg);
}

function unsupported(what: string, pos?: number): JinjaUnsupportedError {
  return new JinjaUnsupportedError(what, pos);
}

// ---------------------------------------------------------------------------
// Values
//
// None → null, bool → boolean, int → bigint, float → number, str → string,
// list → JS array, everything else a class below.

type JValue = null | boolean | bigint | number | string | JValue[] | JObject;

const MISSING: unique symbol = Symbol('missing');
type Slot = JValue | typeof MISSING;

abstract class JObject {
  abstract pyType(): string;
}

class JTuple extends JObject {
  constructor(readonly items: JValue[]) {
    super();
  }
  pyType(): string {
    return 'tuple';
  }
}

/** jinja2.filters._GroupTuple, what groupby returns: a named tuple (grouper, list). */
class JGroupTuple extends JTuple {
  override pyType(): string {
    return '_GroupTuple';
  }
}

class JUndef extends JObject {
  constructor(
    /** 'ci' = cloud-init's UndefinedJinjaVariable; 'plain' = jinja2.Undefined (implicit else of `x if y`). */
    readonly kind: 'ci' | 'plain',
    readonly name: JValue,
    readonly obj: JValue | typeof MISSING = MISSING,
    readonly hint: string | null = null,
    /** The exception class its misuse raises (SecurityError for the sandbox's unsafe undefined). */
    readonly exc: string = 'UndefinedError',
  ) {
    super();
  }
  pyType(): string {
    return this.kind === 'ci' ? 'UndefinedJinjaVariable' : 'Undefined';
  }
  message(): string {
    if (this.hint) return this.hint;
    if (this.obj === MISSING) return `${pyRepr(this.name)} is undefined`;
    if (typeof this.name !== 'string') return `${objectTypeRepr(this.obj)} has no element ${pyRepr(this.name)}`;
    return `${pyStrRepr(objectTypeRepr(this.obj))} has no attribute ${pyStrRepr(this.name)}`;
  }
  fail(): PyError {
    return new PyError(this.exc, this.message());
  }
}

function ciUndef(name: JValue, obj: JValue | typeof MISSING = MISSING): JUndef {
  return new JUndef('ci', name, obj);
}
function hintUndef(hint: string): JUndef {
  return new JUndef('ci', null, MISSING, hint);
}
/** SandboxedEnvironment.unsafe_undefined: prints as a missing variable, any other use raises SecurityError. */
function unsafeUndef(obj: JValue, attr: string): JUndef {
  return new JUndef('ci', attr, obj, `access to attribute ${pyStrRepr(attr)} of ${pyStrRepr(typeName(obj))} object is unsafe.`, 'SecurityError');
}

/** markupsafe.Markup: only produced by `tojson`. */
class JMarkup extends JObject {
  constructor(readonly s: string) {
    super();
  }
  pyType(): string {
    return 'Markup';
  }
}

class JBytes extends JObject {
  constructor(readonly bytes: Uint8Array) {
    super();
  }
  pyType(): string {
    return 'bytes';
  }
}

/** A Python slice object (only seen as the name of an undefined from a constant-folded subscript). */
class JSlice extends JObject {
  constructor(
    readonly start: JValue,
    readonly stop: JValue,
    readonly step: JValue,
  ) {
    super();
  }
  pyType(): string {
    return 'slice';
  }
}

class JDict extends JObject {
  readonly map = new Map<string, { k: JValue; v: JValue }>();
  pyType(): string {
    return 'dict';
  }
  get size(): number {
    return this.map.size;
  }
  get(k: JValue): JValue | undefined {
    return this.map.get(hashKey(k))?.v;
  }
  has(k: JValue): boolean {
    return this.map.has(hashKey(k));
  }
  set(k: JValue, v: JValue): void {
    const id = hashKey(k);
    const e = this.map.get(id);
    if (e) e.v = v;
    else this.map.set(id, { k, v });
  }
  delete(k: JValue): boolean {
    return this.map.delete(hashKey(k));
  }
  keys(): JValue[] {
    return [...this.map.values()].map((e) => e.k);
  }
  values(): JValue[] {
    return [...this.map.values()].map((e) => e.v);
  }
  entries(): Array<[JValue, JValue]> {
    return [...this.map.values()].map((e) => [e.k, e.v]);
  }
}

class JRange extends JObject {
  constructor(
    readonly start: bigint,
    readonly stop: bigint,
    readonly step: bigint,
  ) {
    super();
  }
  pyType(): string {
    return 'range';
  }
  get length(): bigint {
    const { start, stop, step } = this;
    if (step > 0n) return stop > start ? (stop - start + step - 1n) / step : 0n;
    return start > stop ? (start - stop - step - 1n) / -step : 0n;
  }
  at(i: bigint): bigint {
    return this.start + i * this.step;
  }
}

/** A one-shot Python iterator (generator objects, reversed(...), ...). */
class JGen extends JObject {
  constructor(
    readonly it: Iterator<JValue>,
    readonly typeName: string = 'generator',
  ) {
    super();
  }
  pyType(): string {
    return this.typeName;
  }
}

class JDictView extends JObject {
  constructor(
    readonly dict: JDict,
    readonly kind: 'keys' | 'values' | 'items',
  ) {
    super();
  }
  pyType(): string {
    return 'dict_' + this.kind;
  }
  list(): JValue[] {
    if (this.kind === 'keys') return this.dict.keys();
    if (this.kind === 'values') return this.dict.values();
    return this.dict.entries().map(([k, v]) => new JTuple([k, v]));
  }
}

class JNamespace extends JObject {
  readonly attrs = new JDict();
  pyType(): string {
    return 'Namespace';
  }
}

class JCycler extends JObject {
  pos = 0;
  constructor(readonly items: JValue[]) {
    super();
  }
  pyType(): string {
    return 'Cycler';
  }
}

class JJoiner extends JObject {
  used = false;
  constructor(readonly sep: JValue) {
    super();
  }
  pyType(): string {
    return 'Joiner';
  }
}

type CallArgs = { args: JValue[]; kwargs: Array<[string, JValue]> };

/** A callable: builtin function, class, or bound method. */
class JFunc extends JObject {
  constructor(
    readonly name: string,
    readonly call: ((a: CallArgs, r: Renderer) => JValue) | null,
    /** Printable repr when deterministic (classes), else null (address => unsupported). */
    readonly reprText: string | null = null,
    readonly typeName: string = 'builtin_function_or_method',
  ) {
    super();
  }
  pyType(): string {
    return this.typeName;
  }
}

class JLoop extends JObject {
  index0 = -1;
  private lengthCache: number | null = null;
  after: JValue | typeof MISSING = MISSING;
  current: JValue | typeof MISSING = MISSING;
  before: JValue | typeof MISSING = MISSING;
  lastChanged: JValue[] | typeof MISSING = MISSING;
  iterator: Iterator<JValue>;
  constructor(
    readonly iterable: JValue,
    readonly r: Renderer,
  ) {
    super();
    this.iterator = r.iter(iterable);
  }
  pyType(): string {
    return 'LoopContext';
  }
  get length(): number {
    if (this.lengthCache !== null) return this.lengthCache;
    const n = tryLen(this.iterable);
    if (n !== null) {
      this.lengthCache = n;
    } else {
      const rest: JValue[] = [];
      for (let x = this.iterator.next(); !x.done; x = this.iterator.next()) {
        this.r.step();
        rest.push(x.value);
      }
      this.iterator = rest[Symbol.iterator]();
      this.lengthCache = rest.length + this.index0 + 1 + (this.after !== MISSING ? 1 : 0);
    }
    return this.lengthCache;
  }
  peek(): JValue | typeof MISSING {
    if (this.after !== MISSING) return this.after;
    const x = this.iterator.next();
    this.after = x.done ? MISSING : x.value;
    return this.after;
  }
  next(): { done: true } | { done: false; value: JValue } {
    let rv: JValue;
    if (this.after !== MISSING) {
      rv = this.after;
      this.after = MISSING;
    } else {
      const x = this.iterator.next();
      if (x.done) return { done: true };
      rv = x.value;
    }
    this.index0++;
    this.before = this.current;
    this.current = rv;
    return { done: false, value: rv };
  }
}

function isList(v: JValue): v is JValue[] {
  return Array.isArray(v);
}

function isInt(v: JValue): v is bigint | boolean {
  return typeof v === 'bigint' || typeof v === 'boolean';
}

function toBig(v: bigint | boolean): bigint {
  return typeof v === 'boolean' ? (v ? 1n : 0n) : v;
}

function isNumber(v: JValue): v is bigint | boolean | number {
  return typeof v === 'bigint' || typeof v === 'boolean' || typeof v === 'number';
}

/** Python's type(x).__name__. */
function typeName(v: JValue): string {
  if (v === null) return 'NoneType';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'str';
  }
  if (Array.isArray(v)) return 'list';
  return v.pyType();
}

const MODULE_OF: Record<string, string> = {
  UndefinedJinjaVariable: 'cloudinit.templater',
  Undefined: 'jinja2.runtime',
  LoopContext: 'jinja2.runtime',
  Namespace: 'jinja2.utils',
  Cycler: 'jinja2.utils',
  Joiner: 'jinja2.utils',
  Markup: 'markupsafe',
};

/** jinja2.utils.object_type_repr */
function objectTypeRepr(v: JValue | typeof MISSING): string {
  if (v === MISSING) return 'missing';
  if (v === null) return 'None';
  const t = typeName(v);
  const mod = MODULE_OF[t];
  return mod ? `${mod}.${t} object` : `${t} object`;
}

// ---------------------------------------------------------------------------
// Strings: Python semantics on code points

const PY_WS = '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_WS_CLASS = `[${PY_WS}]`;
const RE_WS_RUN = new RegExp(`${PY_WS_CLASS}+`);
const RE_SURROGATE = /[\uD800-\uDFFF]/;

function pyIsSpace(ch: string): boolean {
  return ch.length > 0 && new RegExp(`^${PY_WS_CLASS}+$`).test(ch);
}

function cps(s: string): string[] {
  return RE_SURROGATE.test(s) ? Array.from(s) : s.split('');
}

function pyLen(s: string): number {
  if (!RE_SURROGATE.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function pyStrip(s: string, chars: string | null, left: boolean, right: boolean): string {
  const arr = cps(s);
  const isStrip = chars === null ? (c: string) => pyIsSpace(c) : (c: string) => chars.includes(c);
  let a = 0;
  let b = arr.length;
  if (left) while (a < b && isStrip(arr[a])) a++;
  if (right) while (b > a && isStrip(arr[b - 1])) b--;
  return arr.slice(a, b).join('');
}

function cmpStr(a: string, b: string): number {
  if (!RE_SURROGATE.test(a) && !RE_SURROGATE.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i].codePointAt(0) as number) - (y[i].codePointAt(0) as number);
    if (d) return d < 0 ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
}

const SPLITLINES_RE = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

function pySplitlines(s: string, keepends = false): string[] {
  const out: string[] = [];
  let rest = s;
  while (rest.length) {
    const m = SPLITLINES_RE.exec(rest);
    if (!m) {
      out.push(rest);
      break;
    }
    out.push(rest.slice(0, keepends ? m.index + m[0].length : m.index));
    rest = rest.slice(m.index + m[0].length);
  }
  return out;
}

function pyReplace(s: string, old: string, neu: string, count: number): string {
  if (count < 0) count = Infinity;
  if (old === '') {
    const arr = cps(s);
    let out = '';
    let n = 0;
    for (let i = 0; i <= arr.length; i++) {
      if (n < count) {
        out += neu;
        n++;
      }
      if (i < arr.length) out += arr[i];
    }
    return out;
  }
  let out = '';
  let pos = 0;
  let n = 0;
  while (n < count) {
    const i = s.indexOf(old, pos);
    if (i < 0) break;
    out += s.slice(pos, i) + neu;
    pos = i + old.length;
    n++;
  }
  return out + s.slice(pos);
}

function pySplit(s: string, sep: string | null, maxsplit: number): string[] {
  if (maxsplit < 0) maxsplit = Infinity;
  if (sep === null) {
    const out: string[] = [];
    let rest = pyStrip(s, null, true, false);
    while (rest.length) {
      if (out.length >= maxsplit) {
        out.push(rest);
        return out;
      }
      const m = RE_WS_RUN.exec(rest);
      if (!m) {
        out.push(rest);
        return out;
      }
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    return out;
  }
  if (sep === '') throw new PyError('ValueError', 'empty separator');
  return pySplitMax(s, sep, maxsplit);
}

function pyRsplit(s: string, sep: string | null, maxsplit: number): string[] {
  if (maxsplit < 0) return pySplit(s, sep, maxsplit);
  if (sep === null) {
    const out: string[] = [];
    let rest = pyStrip(s, null, false, true);
    while (rest.length) {
      if (out.length >= maxsplit) {
        out.unshift(rest);
        return out;
      }
      const m = new RegExp(`${PY_WS_CLASS}+(?=[^${PY_WS}]*$)`).exec(rest);
      if (!m) {
        out.unshift(rest);
        return out;
      }
      out.unshift(rest.slice(m.index + m[0].length));
      rest = rest.slice(0, m.index);
    }
    return out;
  }
  if (sep === '') throw new PyError('ValueError', 'empty separator');
  const out: string[] = [];
  let end = s.length;
  while (out.length < maxsplit) {
    const i = end - sep.length >= 0 ? s.lastIndexOf(sep, end - sep.length) : -1;
    if (i < 0) break;
    out.unshift(s.slice(i + sep.length, end));
    end = i;
  }
  out.unshift(s.slice(0, end));
  return out;
}

function isCased(c: string): boolean {
  return c.toLowerCase() !== c.toUpperCase();
}
function pyIsLower(s: string): boolean {
  let cased = false;
  for (const c of s) {
    if (!isCased(c)) continue;
    if (c !== c.toLowerCase() || c === c.toUpperCase()) return false;
    cased = true;
  }
  return cased;
}
function pyIsUpper(s: string): boolean {
  let cased = false;
  for (const c of s) {
    if (!isCased(c)) continue;
    if (c !== c.toUpperCase() || c === c.toLowerCase()) return false;
    cased = true;
  }
  return cased;
}

function pyCapitalize(s: string): string {
  const arr = cps(s);
  if (!arr.length) return '';
  return arr[0].toUpperCase() + arr.slice(1).join('').toLowerCase();
}

// ---------------------------------------------------------------------------
// str() and repr()

const INT_MAX_STR_DIGITS = 4300;

function intStr(v: bigint): string {
  const s = v.toString();
  const digits = s.startsWith('-') ? s.length - 1 : s.length;
  if (digits > INT_MAX_STR_DIGITS) {
    throw new PyError(
      'ValueError',
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  return s;
}

function bytesRepr(b: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const x of b) {
    if (x === 0x27) hasSingle = true;
    if (x === 0x22) hasDouble = true;
  }
  const q = hasSingle && !hasDouble ? '"' : "'";
  let out = 'b' + q;
  for (const x of b) {
    if (x === q.charCodeAt(0) || x === 0x5c) out += '\\' + String.fromCharCode(x);
    else if (x === 0x09) out += '\\t';
    else if (x === 0x0a) out += '\\n';
    else if (x === 0x0d) out += '\\r';
    else if (x < 0x20 || x >= 0x7f) out += '\\x' + x.toString(16).padStart(2, '0');
    else out += String.fromCharCode(x);
  }
  return out + q;
}

/** Python str(v). */
function pyStr(v: JValue, seen?: Set<object>): string {
  if (typeof v === 'string') return v;
  if (v instanceof JUndef) return v.kind === 'ci' ? 'CI_MISSING_JINJA_VAR/' + pyStr(v.name) : '';
  if (v instanceof JMarkup) return v.s;
  return pyRepr(v, seen);
}

/** Python repr(v). */
/** pprint's _safe_repr: repr, with the items of every dict sorted by key. */
function pprintRepr(v: JValue, seen: Set<object>): string {
  const inner = (x: JValue): string => pprintRepr(x, seen);
  if (Array.isArray(v) || v instanceof JTuple || v instanceof JDict) {
    if (seen.has(v)) throw unsupported('pprint of a value that contains itself');
    seen.add(v);
    let out: string;
    if (Array.isArray(v)) out = '[' + v.map(inner).join(', ') + ']';
    else if (v instanceof JTuple) {
      const parts = v.items.map(inner);
      out = parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
    } else {
      let entries: Array<[JValue, JValue]>;
      try {
        entries = timsort(v.entries(), (a, b) => pyLt(a[0], b[0]));
      } catch (e) {
        if (e instanceof PyError && e.pyType === 'TypeError') throw unsupported('pprint of a dict whose keys cannot be compared (Python then orders them by memory address)');
        throw e;
      }
      out = '{' + entries.map(([k, x]) => `${inner(k)}: ${inner(x)}`).join(', ') + '}';
    }
    seen.delete(v);
    return out;
  }
  return pyRepr(v);
}

function pyRepr(v: JValue, seen: Set<object> = new Set()): string {
  if (v === null) return 'None';
  switch (typeof v) {
    case 'boolean':
      return v ? 'True' : 'False';
    case 'bigint':
      return intStr(v);
    case 'number':
      return pyFloatRepr(v);
    case 'string':
      return pyStrRepr(v);
  }
  if (Array.isArray(v)) {
    if (seen.has(v)) return '[...]';
    seen.add(v);
    const s = '[' + v.map((x) => pyRepr(x, seen)).join(', ') + ']';
    seen.delete(v);
    return s;
  }
  if (v instanceof JTuple) {
    if (seen.has(v)) return '(...)';
    seen.add(v);
    const parts = v.items.map((x) => pyRepr(x, seen));
    seen.delete(v);
    return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(', ')})`;
  }
  if (v instanceof JDict) {
    if (seen.has(v)) return '{...}';
    seen.add(v);
    const s = '{' + v.entries().map(([k, x]) => `${pyRepr(k, seen)}: ${pyRepr(x, seen)}`).join(', ') + '}';
    seen.delete(v);
    return s;
  }
  if (v instanceof JUndef) return 'Undefined';
  if (v instanceof JMarkup) return `Markup(${pyStrRepr(v.s)})`;
  if (v instanceof JBytes) return bytesRepr(v.bytes);
  if (v instanceof JSlice) return `slice(${pyRepr(v.start, seen)}, ${pyRepr(v.stop, seen)}, ${pyRepr(v.step, seen)})`;
  if (v instanceof JRange) {
    return v.step === 1n ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
  }
  if (v instanceof JDictView) {
    if (seen.has(v.dict)) return `${v.pyType()}([...])`;
    return `${v.pyType()}(${pyRepr(v.list(), seen)})`;
  }
  if (v instanceof JNamespace) {
    if (seen.has(v)) return '<Namespace {...}>';
    seen.add(v);
    const s = `<Namespace ${pyRepr(v.attrs, seen)}>`;
    seen.delete(v);
    return s;
  }
  if (v instanceof JLoop) return `<LoopContext ${v.index0 + 1}/${v.length}>`;
  if (v instanceof JFunc && v.reprText !== null) return v.reprText;
  throw unsupported(`printing a ${typeName(v)} object (Python prints its memory address)`);
}

// ---------------------------------------------------------------------------
// Hashing, equality, ordering

const objectIds = new WeakMap<object, number>();
let nextObjectId = 1;
function objectId(o: object): number {
  let id = objectIds.get(o);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(o, id);
  }
  return id;
}

/** A string equal for two keys exactly when Python's hash/== say they are the same dict key. */
function hashKey(k: JValue): string {
  if (k === null) return 'N';
  switch (typeof k) {
    case 'boolean':
      return k ? 'i1' : 'i0';
    case 'bigint':
      return 'i' + k.toString();
    case 'number':
      if (Number.isInteger(k)) return 'i' + BigInt(k).toString();
      return 'f' + String(k);
    case 'string':
      return 's' + k;
  }
  if (k instanceof JMarkup) return 's' + k.s;
  if (k instanceof JTuple) return 'T(' + k.items.map(hashKey).join(',') + ')';
  if (k instanceof JUndef) return 'U' + k.kind;
  if (k instanceof JBytes) return 'b' + Buffer.from(k.bytes).toString('base64');
  if (k instanceof JRange) {
    const n = k.length;
    return n === 0n ? 'R0' : n === 1n ? `R1,${k.start}` : `R${n},${k.start},${k.step}`;
  }
  if (Array.isArray(k) || k instanceof JDict || k instanceof JSlice || (k instanceof JDictView && k.kind !== 'values')) {
    throw typeError(`unhashable type: '${typeName(k)}'`);
  }
  return 'o' + objectId(k);
}

function numCmp(a: bigint | boolean | number, b: bigint | boolean | number): number {
  // exact comparison between Python ints and floats
  if (typeof a === 'boolean') a = a ? 1n : 0n;
  if (typeof b === 'boolean') b = b ? 1n : 0n;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  if (typeof a === 'number') return -numCmp(b, a);
  // a bigint, b float
  const fb = b as number;
  if (Number.isNaN(fb)) return NaN;
  if (fb === Infinity) return -1;
  if (fb === -Infinity) return 1;
  const ai = a as bigint;
  const fl = Math.floor(fb);
  const bi = BigInt(fl);
  if (ai < bi) return -1;
  if (ai > bi) return 1;
  return fb > fl ? -1 : 0;
}

/** Python a == b. */
function pyEq(a: JValue, b: JValue): boolean {
  if (a === b) return true;
  if (a instanceof JUndef || b instanceof JUndef) {
    return a instanceof JUndef && b instanceof JUndef && a.kind === b.kind;
  }
  if (isNumber(a) && isNumber(b)) return numCmp(a, b) === 0;
  const sa = typeof a === 'string' ? a : a instanceof JMarkup ? a.s : undefined;
  const sb = typeof b === 'string' ? b : b instanceof JMarkup ? b.s : undefined;
  if (sa !== undefined || sb !== undefined) return sa === sb;
  if (a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && seqEq(a, b);
  if (a instanceof JTuple) return b instanceof JTuple && seqEq(a.items, b.items);
  if (a instanceof JDict) {
    if (!(b instanceof JDict) || a.size !== b.size) return false;
    for (const [id, e] of a.map) {
      const o = b.map.get(id);
      if (!o || !pyEq(e.v, o.v)) return false;
    }
    return true;
  }
  if (a instanceof JRange) return b instanceof JRange && hashKey(a) === hashKey(b);
  if (a instanceof JBytes) return b instanceof JBytes && Buffer.from(a.bytes).equals(Buffer.from(b.bytes));
  if (a instanceof JDictView && b instanceof JDictView && a.kind === b.kind && a.kind !== 'values') {
    const ka = a.list();
    const kb = b.list();
    if (ka.length !== kb.length) return false;
    const ids = new Set(kb.map(hashKey));
    return ka.every((k) => ids.has(hashKey(k)));
  }
  return false;
}

function seqEq(a: JValue[], b: JValue[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !pyEq(a[i], b[i])) return false;
  return true;
}

type CmpOp = 'lt' | 'lteq' | 'gt' | 'gteq';
const CMP_SYMBOL: Record<CmpOp, string> = { lt: '<', lteq: '<=', gt: '>', gteq: '>=' };

/** Python a <op> b for the ordering operators. */
function pyOrder(op: CmpOp, a: JValue, b: JValue): boolean {
  if (a instanceof JUndef) throw a.fail();
  if (b instanceof JUndef) throw b.fail();
  const test = (c: number) =>
    op === 'lt' ? c < 0 : op === 'lteq' ? c <= 0 : op === 'gt' ? c > 0 : c >= 0;
  if (isNumber(a) && isNumber(b)) return test(numCmp(a, b));
  const sa = typeof a === 'string' ? a : a instanceof JMarkup ? a.s : undefined;
  const sb = typeof b === 'string' ? b : b instanceof JMarkup ? b.s : undefined;
  if (sa !== undefined && sb !== undefined) return test(cmpStr(sa, sb));
  const la = Array.isArray(a) ? a : null;
  const lb = Array.isArray(b) ? b : null;
  const ta = a instanceof JTuple ? a.items : null;
  const tb = b instanceof JTuple ? b.items : null;
  const x = la && lb ? [la, lb] : ta && tb ? [ta, tb] : null;
  if (x) {
    const [p, q] = x;
    let i = 0;
    while (i < p.length && i < q.length && (p[i] === q[i] || pyEq(p[i], q[i]))) i++;
    if (i >= p.length || i >= q.length) return test(p.length - q.length);
    if (op === 'lteq' || op === 'lt') return pyOrder('lt', p[i], q[i]);
    return pyOrder('gt', p[i], q[i]);
  }
  throw typeError(`'${CMP_SYMBOL[op]}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
}

function pyLt(a: JValue, b: JValue): boolean {
  return pyOrder('lt', a, b);
}

/** Python truthiness. */
function truthy(v: JValue): boolean {
  if (v === null || v === false || v === '' || v === 0 || v === 0n) return false;
  if (typeof v === 'number') return !Number.isNaN(v) ? v !== 0 : true;
  if (typeof v !== 'object') return true;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof JTuple) return v.items.length > 0;
  if (v instanceof JDict) return v.size > 0;
  if (v instanceof JUndef) return false;
  if (v instanceof JMarkup) return v.s.length > 0;
  if (v instanceof JBytes) return v.bytes.length > 0;
  if (v instanceof JRange) return v.length > 0n;
  if (v instanceof JDictView) return v.dict.size > 0;
  if (v instanceof JLoop) return v.length > 0;
  return true;
}

/** len(v), or null when the object has no __len__. */
function tryLen(v: JValue): number | null {
  if (typeof v === 'string') return pyLen(v);
  if (Array.isArray(v)) return v.length;
  if (v instanceof JTuple) return v.items.length;
  if (v instanceof JDict) return v.size;
  if (v instanceof JUndef) return 0;
  if (v instanceof JMarkup) return pyLen(v.s);
  if (v instanceof JBytes) return v.bytes.length;
  if (v instanceof JRange) {
    const n = v.length;
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new PyError('OverflowError', 'Python int too large to convert to C ssize_t');
    return Number(n);
  }
  if (v instanceof JDictView) return v.dict.size;
  if (v instanceof JLoop) return v.length;
  return null;
}

function pyLenOf(v: JValue): bigint {
  const n = tryLen(v);
  if (n === null) throw typeError(`object of type '${typeName(v)}' has no len()`);
  return BigInt(n);
}

// ---------------------------------------------------------------------------
// Numbers

function bitLength(v: bigint): number {
  if (v < 0n) v = -v;
  return v === 0n ? 0 : v.toString(2).length;
}

function checkIntSize(v: bigint): bigint {
  if (bitLength(v) > LIMITS.maxIntBits) throw unsupported(`integer larger than ${LIMITS.maxIntBits} bits (limit)`);
  return v;
}

/** float(int), with Python's OverflowError. */
function toFloat(v: bigint | boolean | number): number {
  if (typeof v === 'number') return v;
  const f = Number(toBig(v));
  if (!Number.isFinite(f)) throw new PyError('OverflowError', 'int too large to convert to float');
  return f;
}

/** Correctly rounded int / int (Python true division). */
function intTrueDiv(a: bigint, b: bigint): number {
  if (b === 0n) throw new PyError('ZeroDivisionError', 'division by zero');
  const neg = a < 0n !== b < 0n;
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  const lim = 1n << 53n;
  let r: number;
  if (a <= lim && b <= lim) {
    r = Number(a) / Number(b);
  } else {
    const shift = 55 - (bitLength(a) - bitLength(b));
    const num = shift >= 0 ? a << BigInt(shift) : a;
    const den = shift >= 0 ? b : b << BigInt(-shift);
    let q = num / den;
    if (num % den !== 0n) q |= 1n;
    r = Number(q) * Math.pow(2, -shift);
    if (!Number.isFinite(r)) throw new PyError('OverflowError', 'integer division result too large for a float');
  }
  return neg ? -r : r;
}

function floatFloorDivMod(vx: number, wx: number): [number, number] {
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = wx < 0 ? -0.0 : 0.0;
  }
  let floordiv: number;
  if (div) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = vx / wx < 0 || Object.is(vx / wx, -0) ? -0.0 : 0.0;
  }
  return [floordiv, mod];
}

function floatPow(a: number, b: number): JValue {
  if (b === 0) return 1.0;
  if (Number.isNaN(a)) return a === 1 ? 1.0 : NaN;
  if (Number.isNaN(b)) return a === 1.0 ? 1.0 : NaN;
  if (a === 0 && b < 0) throw new PyError('ZeroDivisionError', '0.0 cannot be raised to a negative power');
  if (a < 0 && Number.isFinite(a) && Number.isFinite(b) && Math.floor(b) !== b) {
    throw unsupported('complex number result of ** (negative base, fractional exponent)');
  }
  if (a === -1 && !Number.isFinite(b)) return 1.0;
  if (a === 1) return 1.0;
  const r = Math.pow(a, b);
  if (!Number.isFinite(r) && Number.isFinite(a) && Number.isFinite(b)) {
    throw new PyError('OverflowError', "(34, 'Numerical result out of range')");
  }
  return r;
}

function unsupportedOperands(sym: string, a: JValue, b: JValue): PyError {
  return typeError(`unsupported operand type(s) for ${sym}: '${typeName(a)}' and '${typeName(b)}'`);
}

type BinOp = 'add' | 'sub' | 'mul' | 'div' | 'floordiv' | 'mod' | 'pow';
const BINOP_SYMBOL: Record<BinOp, string> = { add: '+', sub: '-', mul: '*', div: '/', floordiv: '//', mod: '%', pow: '**' };

function repeatCount(n: bigint | boolean, unitLen: number): number {
  const k = toBig(n);
  if (k <= 0n) return 0;
  if (unitLen === 0) return 0;
  if (k * BigInt(unitLen) > BigInt(LIMITS.maxValueSize)) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
  return Number(k);
}

/** Python binary arithmetic. */
function binop(op: BinOp, a: JValue, b: JValue, r: Renderer): JValue {
  if (a instanceof JUndef) {
    if (op === 'sub' && a.kind === 'ci') {
      const other = pyStr(b).split('CI_MISSING_JINJA_VAR/').join('');
      const self = pyStr(a.name);
      throw typeError(
        `Undefined jinja variable: "${self}-${other}". Jinja tried subtraction. Perhaps you meant "${self}_${other}"?`,
      );
    }
    throw a.fail();
  }
  if (op === 'mod' && (typeof a === 'string' || a instanceof JMarkup)) {
    if (a instanceof JMarkup) throw unsupported('% formatting of a Markup value');
    return pyPercentFormat(a, b, r);
  }
  if (b instanceof JUndef) throw b.fail();
  if (a instanceof JMarkup || b instanceof JMarkup) {
    // Markup.__add__/__radd__ escape the str side; Markup * int repeats.
    const isStrLike = (x: JValue) => typeof x === 'string' || x instanceof JMarkup;
    const esc = (x: JValue) => (x instanceof JMarkup ? x.s : htmlEscape(x as string));
    if (op === 'add' && isStrLike(a) && isStrLike(b)) {
      const out = esc(a) + esc(b);
      if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return new JMarkup(out);
    }
    if (op === 'mul' && (a instanceof JMarkup ? isInt(b) : isInt(a))) {
      const m = (a instanceof JMarkup ? a : b) as JMarkup;
      const k = repeatCount((a instanceof JMarkup ? b : a) as bigint | boolean, m.s.length);
      return new JMarkup(m.s.repeat(k));
    }
    if (op === 'add' || op === 'mul') {
      const other = a instanceof JMarkup ? b : a;
      if (!(other instanceof JMarkup) && !isStrLike(other)) {
        if (op === 'add') throw typeError(`unsupported operand type(s) for +: '${typeName(a)}' and '${typeName(b)}'`);
      }
    }
    if ((op === 'sub' || op === 'div' || op === 'floordiv' || op === 'pow') && !(a instanceof JUndef) && !(b instanceof JUndef)) throw unsupportedOperands(op === 'pow' ? '** or pow()' : BINOP_SYMBOL[op], a, b);
    throw unsupported(`arithmetic on a Markup value (${BINOP_SYMBOL[op]})`);
  }
  const sym = BINOP_SYMBOL[op];
  if (isNumber(a) && isNumber(b)) {
    if (isInt(a) && isInt(b)) {
      const x = toBig(a);
      const y = toBig(b);
      switch (op) {
        case 'add':
          return checkIntSize(x + y);
        case 'sub':
          return checkIntSize(x - y);
        case 'mul':
          if (bitLength(x) + bitLength(y) > LIMITS.maxIntBits + 1) throw unsupported(`integer larger than ${LIMITS.maxIntBits} bits (limit)`);
          return checkIntSize(x * y);
        case 'div':
          return intTrueDiv(x, y);
        case 'floordiv':
        case 'mod': {
          if (y === 0n) {
            throw new PyError('ZeroDivisionError', op === 'mod' ? 'integer modulo by zero' : 'integer division or modulo by zero');
          }
          let q = x / y;
          let m = x % y;
          if (m !== 0n && m < 0n !== y < 0n) {
            q -= 1n;
            m += y;
          }
          return op === 'mod' ? m : q;
        }
        case 'pow': {
          if (y < 0n) {
            return floatPow(toFloat(x), toFloat(y));
          }
          if (x === 0n || x === 1n) return y === 0n ? 1n : x;
          if (x === -1n) return y % 2n === 0n ? 1n : -1n;
          if (BigInt(bitLength(x)) * y > BigInt(LIMITS.maxIntBits)) {
            throw unsupported(`integer larger than ${LIMITS.maxIntBits} bits (limit)`);
          }
          return x ** y;
        }
      }
    }
    const x = toFloat(a);
    const y = toFloat(b);
    switch (op) {
      case 'add':
        return x + y;
      case 'sub':
        return x - y;
      case 'mul':
        return x * y;
      case 'div':
        if (y === 0) throw new PyError('ZeroDivisionError', 'float division by zero');
        return x / y;
      case 'floordiv':
        if (y === 0) throw new PyError('ZeroDivisionError', 'float floor division by zero');
        return floatFloorDivMod(x, y)[0];
      case 'mod':
        if (y === 0) throw new PyError('ZeroDivisionError', 'float modulo');
        return floatFloorDivMod(x, y)[1];
      case 'pow':
        return floatPow(x, y);
    }
  }
  if (op === 'add') {
    if (typeof a === 'string') {
      if (typeof b !== 'string') throw typeError(`can only concatenate str (not "${typeName(b)}") to str`);
      if (a.length + b.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return a + b;
    }
    if (Array.isArray(a)) {
      if (!Array.isArray(b)) throw typeError(`can only concatenate list (not "${typeName(b)}") to list`);
      if (a.length + b.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
      return [...a, ...b];
    }
    if (a instanceof JTuple) {
      if (!(b instanceof JTuple)) throw typeError(`can only concatenate tuple (not "${typeName(b)}") to tuple`);
      return new JTuple([...a.items, ...b.items]);
    }
    throw unsupportedOperands(sym, a, b);
  }
  if (op === 'mul') {
    const seqTimes = (s: JValue, n: JValue): JValue => {
      if (!isInt(n)) throw typeError(`can't multiply sequence by non-int of type '${n instanceof JFunc ? n.typeName : typeName(n)}'`);
      if (typeof s === 'string') return s.repeat(repeatCount(n, s.length));
      const items = Array.isArray(s) ? s : (s as JTuple).items;
      const k = repeatCount(n, items.length);
      const out: JValue[] = [];
      for (let i = 0; i < k; i++) pushAll(out, items);
      return Array.isArray(s) ? out : new JTuple(out);
    };
    const isSeq = (x: JValue) => typeof x === 'string' || Array.isArray(x) || x instanceof JTuple;
    if (isSeq(a)) return seqTimes(a, b);
    if (isSeq(b)) return seqTimes(b, a);
    throw unsupportedOperands(sym, a, b);
  }
  if (op === 'pow') throw typeError(`unsupported operand type(s) for ** or pow(): '${typeName(a)}' and '${typeName(b)}'`);
  throw unsupportedOperands(sym, a, b);
}

function unaryop(op: 'neg' | 'pos', v: JValue): JValue {
  if (v instanceof JUndef) throw v.fail();
  if (isInt(v)) return op === 'neg' ? -toBig(v) : toBig(v);
  if (typeof v === 'number') return op === 'neg' ? -v : v;
  throw typeError(`bad operand type for unary ${op === 'neg' ? '-' : '+'}: '${typeName(v)}'`);
}

// Exact decimal handling of doubles (for %f, round(), filesizeformat)

/** x (finite) = digits * 10**exp exactly. */
function exactDecimal(x: number): { neg: boolean; digits: bigint; exp: number } {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const neg = hi >>> 31 === 1;
  const e = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp2: number;
  if (e === 0) exp2 = -1074;
  else {
    m |= 1n << 52n;
    exp2 = e - 1075;
  }
  if (exp2 >= 0) return { neg, digits: m << BigInt(exp2), exp: 0 };
  return { neg, digits: m * 5n ** BigInt(-exp2), exp: exp2 };
}

/** Round x to `nd` digits after the point (nd may be negative), half to even, exactly; returns the scaled integer. */
function roundScaled(x: number, nd: number): { neg: boolean; n: bigint } {
  const { neg, digits, exp } = exactDecimal(x);
  // value = digits * 10^exp ; we want round(value * 10^nd)
  const shift = exp + nd;
  if (shift >= 0) return { neg, n: digits * 10n ** BigInt(shift) };
  const div = 10n ** BigInt(-shift);
  let q = digits / div;
  const rem = digits % div;
  const twice = rem * 2n;
  if (twice > div || (twice === div && q % 2n === 1n)) q += 1n;
  return { neg, n: q };
}

/** '%.{prec}f' % x */
function formatFixed(x: number, prec: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const { neg, n } = roundScaled(x, prec);
  let s = n.toString();
  if (prec > 0) {
    s = s.padStart(prec + 1, '0');
    s = s.slice(0, s.length - prec) + '.' + s.slice(s.length - prec);
  }
  return (neg ? '-' : '') + s;
}

/** Python round(float, ndigits) */
function roundFloat(x: number, nd: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  if (nd > 330) return x;
  if (nd < -330) return x < 0 || Object.is(x, -0) ? -0.0 : 0.0;
  const { neg, n } = roundScaled(x, nd);
  const s = nd >= 0 ? `${n}e-${nd}` : `${n}e${-nd}`;
  const r = Number(s);
  if (!Number.isFinite(r)) throw new PyError('OverflowError', 'rounded value too large to represent');
  return neg ? -r : r;
}

function roundInt(v: bigint, nd: number): bigint {
  if (nd >= 0) return v;
  const p = 10n ** BigInt(-nd);
  let q = v / p;
  let rem = v % p;
  if (rem < 0n) {
    rem += p;
    q -= 1n;
  }
  const twice = rem * 2n;
  if (twice > p || (twice === p && (q % 2n === 1n || q % 2n === -1n))) q += 1n;
  return q * p;
}

// ---------------------------------------------------------------------------
// Lexer (jinja2/lexer.py with trim_blocks=True, lstrip_blocks=False)

interface Token {
  type: string;
  value: JValue;
  /** Offset in the normalized template source. */
  pos: number;
}

const OPERATORS: Array<[string, string]> = [
  ['//', 'floordiv'],
  ['**', 'pow'],
  ['==', 'eq'],
  ['!=', 'ne'],
  ['>=', 'gteq'],
  ['<=', 'lteq'],
  ['+', 'add'],
  ['-', 'sub'],
  ['/', 'div'],
  ['*', 'mul'],
  ['%', 'mod'],
  ['~', 'tilde'],
  ['[', 'lbracket'],
  [']', 'rbracket'],
  ['(', 'lparen'],
  [')', 'rparen'],
  ['{', 'lbrace'],
  ['}', 'rbrace'],
  ['>', 'gt'],
  ['<', 'lt'],
  ['=', 'assign'],
  ['.', 'dot'],
  [':', 'colon'],
  ['|', 'pipe'],
  [',', 'comma'],
  [';', 'semicolon'],
];
const OPERATOR_SYMBOL: Record<string, string> = Object.fromEntries(OPERATORS.map(([s, t]) => [t, s]));

const RE = {
  tagStart: /\{[%{#]/g,
  rawBegin: new RegExp(`\\{%(-|\\+|)${PY_WS_CLASS}*raw${PY_WS_CLASS}*(?:-%\\}${PY_WS_CLASS}*|%\\})`, 'y'),
  rawEnd: new RegExp(
    `\\{%(-|\\+|)${PY_WS_CLASS}*endraw${PY_WS_CLASS}*(?:\\+%\\}|-%\\}${PY_WS_CLASS}*|%\\}\\n?)`,
    'g',
  ),
  commentEnd: new RegExp(`\\+#\\}|-#\\}${PY_WS_CLASS}*|#\\}\\n?`, 'g'),
  blockEnd: new RegExp(`\\+%\\}|-%\\}${PY_WS_CLASS}*|%\\}\\n?`, 'y'),
  variableEnd: new RegExp(`-\\}\\}${PY_WS_CLASS}*|\\}\\}`, 'y'),
  whitespace: new RegExp(`${PY_WS_CLASS}+`, 'y'),
  float: /(?<!\.)(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?e[+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/iy,
  integer: /0b(?:_?[01])+|0o(?:_?[0-7])+|0x(?:_?[\da-f])+|[1-9](?:_?\d)*|0(?:_?0)*/iy,
  name: /[A-Za-z0-9_]+/y,
  nonAsciiWord: /[^\x00-\x7f]/y,
  string: /'([^'\\]*(?:\\.[^'\\]*)*)'|"([^"\\]*(?:\\.[^"\\]*)*)"/sy,
};

/** The string-literal decoding Jinja does: backslashreplace to ASCII, then Python's unicode-escape codec. */
function decodeStringLiteral(raw: string, pos: number): string {
  let ascii = '';
  for (const ch of raw) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) ascii += ch;
    else if (cp < 0x100) ascii += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) ascii += '\\u' + cp.toString(16).padStart(4, '0');
    else ascii += '\\U' + cp.toString(16).padStart(8, '0');
  }
  let out = '';
  const simple: Record<string, string> = {
    '\n': '',
    '\\': '\\',
    "'": "'",
    '"': '"',
    a: '\x07',
    b: '\x08',
    f: '\x0c',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\x0b',
  };
  for (let i = 0; i < ascii.length; i++) {
    const c = ascii[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    if (i + 1 >= ascii.length) throw new TemplateSyntaxError('\\ at end of string', pos);
    const d = ascii[++i];
    if (d in simple) {
      out += simple[d];
    } else if (d >= '0' && d <= '7') {
      let v = d;
      while (v.length < 3 && i + 1 < ascii.length && ascii[i + 1] >= '0' && ascii[i + 1] <= '7') v += ascii[++i];
      out += String.fromCodePoint(parseInt(v, 8));
    } else if (d === 'x' || d === 'u' || d === 'U') {
      const n = d === 'x' ? 2 : d === 'u' ? 4 : 8;
      const hex = ascii.slice(i + 1, i + 1 + n);
      if (hex.length < n || !/^[0-9a-fA-F]+$/.test(hex)) {
        const what = d === 'x' ? '\\xXX' : d === 'u' ? '\\uXXXX' : '\\UXXXXXXXX';
        throw new TemplateSyntaxError(`truncated ${what} escape`, pos);
      }
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff) throw new TemplateSyntaxError('illegal Unicode character', pos);
      out += String.fromCodePoint(cp);
      i += n;
    } else if (d === 'N') {
      throw unsupported('\\N{...} escape in a string literal', pos);
    } else {
      out += '\\' + d;
    }
  }
  return out;
}

function parseIntLiteral(text: string): bigint {
  const t = text.replace(/_/g, '').toLowerCase();
  if (t.startsWith('0b') || t.startsWith('0o') || t.startsWith('0x')) return BigInt(t);
  return BigInt(t);
}

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  const n = src.length;
  let pos = 0;
  const fail = (msg: string, at: number): never => {
    throw new TemplateSyntaxError(msg, at);
  };
  while (pos < n) {
    RE.tagStart.lastIndex = pos;
    const m = RE.tagStart.exec(src);
    if (!m) {
      tokens.push({ type: 'data', value: src.slice(pos), pos });
      break;
    }
    const at = m.index;
    let text = src.slice(pos, at);
    let kind: 'raw' | 'block' | 'variable' | 'comment';
    let sign: string;
    let after: number;
    if (src[at + 1] === '%') {
      RE.rawBegin.lastIndex = at;
      const rm = RE.rawBegin.exec(src);
      if (rm) {
        kind = 'raw';
        sign = rm[1];
        after = at + rm[0].length;
      } else {
        kind = 'block';
        sign = src[at + 2] === '-' || src[at + 2] === '+' ? src[at + 2] : '';
        after = at + 2 + sign.length;
      }
    } else {
      kind = src[at + 1] === '{' ? 'variable' : 'comment';
      sign = src[at + 2] === '-' || src[at + 2] === '+' ? src[at + 2] : '';
      after = at + 2 + sign.length;
    }
    if (sign === '-') text = pyStrip(text, null, false, true);
    if (text) tokens.push({ type: 'data', value: text, pos });
    pos = after;
    if (kind === 'comment') {
      RE.commentEnd.lastIndex = pos;
      const cm = RE.commentEnd.exec(src);
      if (!cm && pos >= n) break;
      if (!cm) fail('Missing end of comment tag', at);
      pos = (cm as RegExpExecArray).index + (cm as RegExpExecArray)[0].length;
      continue;
    }
    if (kind === 'raw') {
      RE.rawEnd.lastIndex = pos;
      const em = RE.rawEnd.exec(src);
      if (!em && pos >= n) break;
      if (!em) fail('Missing end of raw directive', at);
      const e = em as RegExpExecArray;
      let body = src.slice(pos, e.index);
      if (e[1] === '-') body = pyStrip(body, null, false, true);
      if (body) tokens.push({ type: 'data', value: body, pos });
      pos = e.index + e[0].length;
      continue;
    }
    tokens.push({ type: kind === 'block' ? 'block_begin' : 'variable_begin', value: null, pos: at });
    const endRe = kind === 'block' ? RE.blockEnd : RE.variableEnd;
    const balancing: string[] = [];
    let closed = false;
    while (pos < n) {
      if (!balancing.length) {
        endRe.lastIndex = pos;
        const em = endRe.exec(src);
        if (em) {
          tokens.push({ type: kind === 'block' ? 'block_end' : 'variable_end', value: null, pos });
          pos += em[0].length;
          closed = true;
          break;
        }
      }
      const tryRe = (re: RegExp): string | null => {
        re.lastIndex = pos;
        const x = re.exec(src);
        return x ? x[0] : null;
      };
      let t = tryRe(RE.whitespace);
      if (t !== null) {
        pos += t.length;
        continue;
      }
      t = tryRe(RE.float);
      if (t !== null) {
        tokens.push({ type: 'float', value: Number(t.replace(/_/g, '')), pos });
        pos += t.length;
        continue;
      }
      t = tryRe(RE.integer);
      if (t !== null) {
        tokens.push({ type: 'integer', value: parseIntLiteral(t), pos });
        pos += t.length;
        continue;
      }
      t = tryRe(RE.name);
      if (t !== null) {
        RE.nonAsciiWord.lastIndex = pos + t.length;
        if (RE.nonAsciiWord.test(src)) throw unsupported('non-ASCII identifier', pos);
        tokens.push({ type: 'name', value: t, pos });
        pos += t.length;
        continue;
      }
      RE.string.lastIndex = pos;
      const sm = RE.string.exec(src);
      if (sm) {
        const raw = sm[1] ?? sm[2];
        tokens.push({ type: 'string', value: decodeStringLiteral(raw, pos), pos });
        pos += sm[0].length;
        continue;
      }
      let op: [string, string] | undefined;
      for (const o of OPERATORS) {
        if (src.startsWith(o[0], pos)) {
          op = o;
          break;
        }
      }
      if (op) {
        const s = op[0];
        if (s === '{') balancing.push('}');
        else if (s === '(') balancing.push(')');
        else if (s === '[') balancing.push(']');
        else if (s === '}' || s === ')' || s === ']') {
          if (!balancing.length) fail(`unexpected '${s}'`, pos);
          const expected = balancing.pop();
          if (expected !== s) fail(`unexpected '${s}', expected '${expected}'`, pos);
        }
        tokens.push({ type: op[1], value: s, pos });
        pos += s.length;
        continue;
      }
      if (src.charCodeAt(pos) > 0x7f && /[\p{L}\p{N}]/u.test(String.fromCodePoint(src.codePointAt(pos) as number))) {
        throw unsupported('non-ASCII identifier or digit', pos);
      }
      fail(`unexpected char ${pyStrRepr(String.fromCodePoint(src.codePointAt(pos) as number))} at ${pos}`, pos);
    }
    if (!closed) break;
  }
  tokens.push({ type: 'eof', value: null, pos: n });
  return tokens;
}

function describeTokenType(type: string): string {
  if (type in OPERATOR_SYMBOL) return OPERATOR_SYMBOL[type];
  const names: Record<string, string> = {
    block_begin: 'begin of statement block',
    block_end: 'end of statement block',
    variable_begin: 'begin of print statement',
    variable_end: 'end of print statement',
    data: 'template data / text',
    eof: 'end of template',
  };
  return names[type] ?? type;
}

function describeToken(t: Token): string {
  return t.type === 'name' ? String(t.value) : describeTokenType(t.type);
}

function describeTokenExpr(expr: string): string {
  const i = expr.indexOf(':');
  if (i >= 0 && expr.slice(0, i) === 'name') return expr.slice(i + 1);
  return describeTokenType(i >= 0 ? expr.slice(0, i) : expr);
}

// ---------------------------------------------------------------------------
// Parser (jinja2/parser.py)

type NodeKind =
  | 'Output' | 'If' | 'For' | 'Assign' | 'AssignBlock' | 'With' | 'FilterBlock' | 'ExprStmt' | 'Unsupported' | 'LoadTemplate'
  | 'Name' | 'NSRef' | 'Const' | 'TemplateData' | 'Tuple' | 'List' | 'Dict' | 'CondExpr' | 'And' | 'Or' | 'Not'
  | 'Neg' | 'Pos' | 'BinOp' | 'Concat' | 'Compare' | 'Getattr' | 'Getitem' | 'Slice' | 'Call' | 'Filter' | 'Test';

interface Node {
  kind: NodeKind;
  pos: number;
  name?: string;
  ctx?: 'load' | 'store' | 'param';
  value?: JValue;
  items?: Node[];
  pairs?: Array<[Node, Node]>;
  node?: Node | null;
  left?: Node;
  right?: Node;
  op?: string;
  ops?: Array<{ op: string; expr: Node }>;
  attr?: string;
  arg?: Node;
  start?: Node | null;
  stop?: Node | null;
  step?: Node | null;
  args?: Node[];
  kwargs?: Array<[string, Node]>;
  dynArgs?: Node | null;
  dynKwargs?: Node | null;
  test?: Node | null;
  expr1?: Node;
  expr2?: Node | null;
  body?: Node[];
  elifs?: Node[];
  else_?: Node[];
  target?: Node;
  iter?: Node;
  recursive?: boolean;
  filter?: Node | null;
  targets?: Node[];
  values?: Node[];
  nodes?: Node[];
  // annotations from the compile pass
  ref?: string;
  loads?: Array<[string, Load]>;
  elseLoads?: Array<[string, Load]>;
  testLoads?: Array<[string, Load]>;
  testLocals?: Set<string>;
  extended?: boolean;
  loopRef?: string;
  soft?: boolean;
  toplevel?: boolean;
  konst?: boolean;
  outputKonst?: boolean;
}

const STATEMENT_KEYWORDS = new Set([
  'for', 'if', 'block', 'extends', 'print', 'macro', 'include', 'from', 'import', 'set', 'with', 'autoescape',
]);
const COMPARE_OPS = new Set(['eq', 'ne', 'lt', 'lteq', 'gt', 'gteq']);
const CONST_NAMES = new Set(['true', 'false', 'True', 'False', 'none', 'None']);

class Parser {
  private i = 0;
  private tagStack: string[] = [];
  private endTokenStack: string[][] = [];
  private depth = 0;
  private blockDepth = 0;
  constructor(private readonly toks: Token[]) {}

  private get cur(): Token {
    return this.toks[this.i] as Token;
  }
  private curType(): string {
    return this.toks[this.i].type;
  }
  private look(): Token {
    return this.toks[Math.min(this.i + 1, this.toks.length - 1)];
  }
  private next(): Token {
    const t = this.toks[this.i];
    if (t.type !== 'eof') this.i++;
    return t;
  }
  private test(t: Token, expr: string): boolean {
    if (t.type === expr) return true;
    const k = expr.indexOf(':');
    return k >= 0 && t.type === expr.slice(0, k) && t.value === expr.slice(k + 1);
  }
  private testAny(t: Token, exprs: string[]): boolean {
    return exprs.some((e) => this.test(t, e));
  }
  private skipIf(expr: string): boolean {
    if (this.test(this.cur, expr)) {
      this.next();
      return true;
    }
    return false;
  }
  private fail(msg: string, pos?: number, pyType = 'TemplateSyntaxError'): never {
    throw new TemplateSyntaxError(msg, pos ?? this.cur.pos, pyType);
  }
  private expect(expr: string): Token {
    if (!this.test(this.cur, expr)) {
      const d = describeTokenExpr(expr);
      if (this.cur.type === 'eof') this.fail(`unexpected end of template, expected ${pyStrRepr(d)}.`);
      this.fail(`expected token ${pyStrRepr(d)}, got ${pyStrRepr(describeToken(this.cur))}`);
    }
    return this.next();
  }

  private failUtEof(name: string | null, stack: string[][]): never {
    const expected = new Set<string>();
    for (const exprs of stack) for (const e of exprs) expected.add(describeTokenExpr(e));
    const looking = stack.length ? stack[stack.length - 1].map((e) => pyStrRepr(describeTokenExpr(e))).join(' or ') : null;
    const message = [name === null ? 'Unexpected end of template.' : `Encountered unknown tag ${pyStrRepr(name)}.`];
    if (looking) {
      if (name !== null && expected.has(name)) {
        message.push(`You probably made a nesting mistake. Jinja is expecting this tag, but currently looking for ${looking}.`);
      } else {
        message.push(`Jinja was looking for the following tags: ${looking}.`);
      }
    }
    if (this.tagStack.length) message.push(`The innermost block that needs to be closed is ${pyStrRepr(this.tagStack[this.tagStack.length - 1])}.`);
    this.fail(message.join(' '));
  }

  parse(): Node[] {
    return this.subparse(null);
  }

  private subparse(endTokens: string[] | null): Node[] {
    const body: Node[] = [];
    let data: Node[] = [];
    if (endTokens) this.endTokenStack.push(endTokens);
    const flush = () => {
      if (data.length) {
        body.push({ kind: 'Output', pos: data[0].pos, nodes: data });
        data = [];
      }
    };
    try {
      while (this.cur.type !== 'eof') {
        const t = this.cur;
        if (t.type === 'data') {
          if (t.value) data.push({ kind: 'TemplateData', pos: t.pos, value: t.value });
          this.next();
        } else if (t.type === 'variable_begin') {
          this.next();
          data.push(this.parseTuple({ withCondexpr: true }));
          this.expect('variable_end');
        } else if (t.type === 'block_begin') {
          flush();
          this.next();
          if (endTokens && this.testAny(this.cur, endTokens)) return body;
          body.push(this.parseStatement());
          this.expect('block_end');
        } else {
          throw new Error('internal parsing error');
        }
      }
      flush();
    } finally {
      if (endTokens) this.endTokenStack.pop();
    }
    return body;
  }

  private parseStatement(): Node {
    const t = this.cur;
    if (t.type !== 'name') this.fail('tag name expected', t.pos);
    const name = t.value as string;
    this.tagStack.push(name);
    let pop = true;
    if (++this.blockDepth > LIMITS.maxBlockDepth) throw unsupported(`block nesting deeper than ${LIMITS.maxBlockDepth} (limit)`, t.pos);
    try {
      switch (name) {
        case 'for':
          return this.parseFor();
        case 'if':
          return this.parseIf();
        case 'set':
          return this.parseSet();
        case 'with':
          return this.parseWith();
        case 'print': {
          const pos = this.next().pos;
          const nodes: Node[] = [];
          while (this.cur.type !== 'block_end') {
            if (nodes.length) this.expect('comma');
            nodes.push(this.parseExpression());
          }
          return { kind: 'Output', pos, nodes };
        }
        case 'filter': {
          const pos = this.next().pos;
          const filter = this.parseFilter(null, true) as Node;
          const body = this.parseStatements(['name:endfilter'], true);
          return { kind: 'FilterBlock', pos, filter, body };
        }
        case 'do': {
          const pos = this.next().pos;
          return { kind: 'ExprStmt', pos, node: this.parseTuple({}) };
        }
        case 'block':
          return this.parseBlock();
        case 'extends': {
          const pos = this.next().pos;
          return { kind: 'LoadTemplate', pos, name: 'extends', node: this.parseExpression() };
        }
        case 'macro':
          return this.parseMacro();
        case 'call':
          return this.parseCallBlock();
        case 'include':
          return this.parseInclude();
        case 'import':
          return this.parseImport();
        case 'from':
          return this.parseFrom();
        case 'autoescape': {
          const pos = this.next().pos;
          this.parseExpression();
          this.parseStatements(['name:endautoescape'], true);
          return { kind: 'Unsupported', pos, name: '{% autoescape %}' };
        }
      }
      this.tagStack.pop();
      pop = false;
      return this.failUtEof(name, this.endTokenStack);
    } finally {
      if (pop) this.tagStack.pop();
      this.blockDepth--;
    }
  }

  private parseStatements(endTokens: string[], dropNeedle = false): Node[] {
    this.skipIf('colon');
    this.expect('block_end');
    const result = this.subparse(endTokens);
    if (this.cur.type === 'eof') this.failUtEof(null, [...this.endTokenStack, endTokens]);
    if (dropNeedle) this.next();
    return result;
  }

  private parseSet(): Node {
    const pos = this.next().pos;
    const target = this.parseAssignTarget({ withNamespace: true });
    if (this.skipIf('assign')) {
      return { kind: 'Assign', pos, target, node: this.parseTuple({}) };
    }
    const filter = this.parseFilter(null);
    const body = this.parseStatements(['name:endset'], true);
    return { kind: 'AssignBlock', pos, target, filter, body };
  }

  private parseFor(): Node {
    const pos = this.expect('name:for').pos;
    const target = this.parseAssignTarget({ extraEndRules: ['name:in'] });
    this.expect('name:in');
    const iter = this.parseTuple({ withCondexpr: false, extraEndRules: ['name:recursive'] });
    let test: Node | null = null;
    if (this.skipIf('name:if')) test = this.parseExpression();
    const recursive = this.skipIf('name:recursive');
    const body = this.parseStatements(['name:endfor', 'name:else']);
    let else_: Node[] = [];
    if (this.next().value !== 'endfor') else_ = this.parseStatements(['name:endfor'], true);
    return { kind: 'For', pos, target, iter, body, else_, test, recursive };
  }

  private parseIf(): Node {
    const result: Node = { kind: 'If', pos: this.expect('name:if').pos, elifs: [], else_: [] };
    let node = result;
    for (;;) {
      node.test = this.parseTuple({ withCondexpr: false });
      node.body = this.parseStatements(['name:elif', 'name:else', 'name:endif']);
      node.elifs = node === result ? result.elifs : [];
      node.else_ = node === result ? result.else_ : [];
      const t = this.next();
      if (this.test(t, 'name:elif')) {
        node = { kind: 'If', pos: this.cur.pos, elifs: [], else_: [] };
        (result.elifs as Node[]).push(node);
        continue;
      } else if (this.test(t, 'name:else')) {
        result.else_ = this.parseStatements(['name:endif'], true);
      }
      break;
    }
    return result;
  }

  private parseWith(): Node {
    const pos = this.next().pos;
    const targets: Node[] = [];
    const values: Node[] = [];
    while (this.cur.type !== 'block_end') {
      if (targets.length) this.expect('comma');
      const target = this.parseAssignTarget({});
      setCtx(target, 'param');
      targets.push(target);
      this.expect('assign');
      values.push(this.parseExpression());
    }
    const body = this.parseStatements(['name:endwith'], true);
    return { kind: 'With', pos, targets, values, body };
  }

  private parseBlock(): Node {
    const pos = this.next().pos;
    const name = this.expect('name').value as string;
    this.skipIf('name:scoped');
    this.skipIf('name:required');
    if (this.cur.type === 'sub') {
      this.fail(
        'Block names in Jinja have to be valid Python identifiers and may not contain hyphens, use an underscore instead.',
      );
    }
    this.parseStatements(['name:endblock'], true);
    this.skipIf('name:' + name);
    return { kind: 'Unsupported', pos, name: '{% block %}' };
  }

  private parseSignature(): void {
    const args: Node[] = [];
    let defaults = 0;
    this.expect('lparen');
    while (this.cur.type !== 'rparen') {
      if (args.length) this.expect('comma');
      const arg = this.parseAssignTarget({ nameOnly: true });
      if (this.skipIf('assign')) {
        this.parseExpression();
        defaults++;
      } else if (defaults) {
        this.fail('non-default argument follows default argument');
      }
      args.push(arg);
    }
    this.expect('rparen');
  }

  private parseMacro(): Node {
    const pos = this.next().pos;
    this.parseAssignTarget({ nameOnly: true });
    this.parseSignature();
    this.parseStatements(['name:endmacro'], true);
    return { kind: 'Unsupported', pos, name: '{% macro %}' };
  }

  private parseCallBlock(): Node {
    const pos = this.next().pos;
    if (this.cur.type === 'lparen') this.parseSignature();
    const call = this.parseExpression();
    if (call.kind !== 'Call') this.fail('expected call', pos);
    this.parseStatements(['name:endcall'], true);
    return { kind: 'Unsupported', pos, name: '{% call %}' };
  }

  private parseImportContext(): void {
    if (this.testAny(this.cur, ['name:with', 'name:without']) && this.test(this.look(), 'name:context')) {
      this.next();
      this.next();
    }
  }

  private parseInclude(): Node {
    const pos = this.next().pos;
    const node = this.parseExpression();
    if (this.test(this.cur, 'name:ignore') && this.test(this.look(), 'name:missing')) {
      this.next();
      this.next();
    }
    this.parseImportContext();
    return { kind: 'LoadTemplate', pos, node };
  }

  private parseImport(): Node {
    const pos = this.next().pos;
    const node = this.parseExpression();
    this.expect('name:as');
    this.parseAssignTarget({ nameOnly: true });
    this.parseImportContext();
    return { kind: 'LoadTemplate', pos, node };
  }

  private parseFrom(): Node {
    const pos = this.next().pos;
    const node = this.parseExpression();
    this.expect('name:import');
    let count = 0;
    const parseContext = (): boolean => {
      if ((this.cur.value === 'with' || this.cur.value === 'without') && this.test(this.look(), 'name:context')) {
        this.next();
        this.next();
        return true;
      }
      return false;
    };
    for (;;) {
      if (count) this.expect('comma');
      if (this.cur.type === 'name') {
        if (parseContext()) break;
        const target = this.parseAssignTarget({ nameOnly: true });
        if ((target.name as string).startsWith('_')) {
          this.fail('names starting with an underline can not be imported', target.pos, 'TemplateAssertionError');
        }
        if (this.skipIf('name:as')) this.parseAssignTarget({ nameOnly: true });
        count++;
        if (parseContext() || this.curType() !== 'comma') break;
      } else {
        this.expect('name');
      }
    }
    return { kind: 'LoadTemplate', pos, node };
  }

  private parseAssignTarget(o: {
    withTuple?: boolean;
    nameOnly?: boolean;
    extraEndRules?: string[];
    withNamespace?: boolean;
  }): Node {
    let target: Node;
    if (o.withNamespace && this.look().type === 'dot') {
      const t = this.expect('name');
      this.next();
      const attr = this.expect('name');
      target = { kind: 'NSRef', pos: t.pos, name: t.value as string, attr: attr.value as string };
    } else if (o.nameOnly) {
      const t = this.expect('name');
      target = { kind: 'Name', pos: t.pos, name: t.value as string, ctx: 'store' };
    } else {
      target =
        o.withTuple === false
          ? this.parsePrimary()
          : this.parseTuple({ simplified: true, extraEndRules: o.extraEndRules });
      setCtx(target, 'store');
    }
    if (!canAssign(target)) {
      this.fail(`can't assign to ${pyStrRepr(target.kind.toLowerCase())}`, target.pos);
    }
    return target;
  }

  parseExpression(withCondexpr = true): Node {
    if (++this.depth > LIMITS.maxExprDepth) {
      throw unsupported(`expression nesting deeper than ${LIMITS.maxExprDepth} (limit)`, this.cur.pos);
    }
    try {
      return withCondexpr ? this.parseCondexpr() : this.parseOr();
    } finally {
      this.depth--;
    }
  }

  private parseCondexpr(): Node {
    const pos = this.cur.pos;
    let expr1 = this.parseOr();
    while (this.skipIf('name:if')) {
      const expr2 = this.parseOr();
      const expr3 = this.skipIf('name:else') ? this.parseCondexpr() : null;
      expr1 = { kind: 'CondExpr', pos, test: expr2, expr1, expr2: expr3 };
    }
    return expr1;
  }

  private parseOr(): Node {
    let left = this.parseAnd();
    while (this.test(this.cur, 'name:or')) {
      const pos = this.next().pos;
      left = { kind: 'Or', pos, left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): Node {
    let left = this.parseNot();
    while (this.test(this.cur, 'name:and')) {
      const pos = this.next().pos;
      left = { kind: 'And', pos, left, right: this.parseNot() };
    }
    return left;
  }

  private guard(): void {
    if (++this.depth > LIMITS.maxExprDepth) {
      throw unsupported(`expression nesting deeper than ${LIMITS.maxExprDepth} (limit)`, this.cur.pos);
    }
  }

  private parseNot(): Node {
    if (this.test(this.cur, 'name:not')) {
      const pos = this.next().pos;
      this.guard();
      const node = this.parseNot();
      this.depth--;
      return { kind: 'Not', pos, node };
    }
    return this.parseCompare();
  }

  private parseCompare(): Node {
    const pos = this.cur.pos;
    const expr = this.parseMath1();
    const ops: Array<{ op: string; expr: Node }> = [];
    for (;;) {
      const tt = this.cur.type;
      if (COMPARE_OPS.has(tt)) {
        this.next();
        ops.push({ op: tt, expr: this.parseMath1() });
      } else if (this.skipIf('name:in')) {
        ops.push({ op: 'in', expr: this.parseMath1() });
      } else if (this.test(this.cur, 'name:not') && this.test(this.look(), 'name:in')) {
        this.next();
        this.next();
        ops.push({ op: 'notin', expr: this.parseMath1() });
      } else break;
    }
    if (!ops.length) return expr;
    return { kind: 'Compare', pos, node: expr, ops };
  }

  private parseMath1(): Node {
    let left = this.parseConcat();
    while (this.cur.type === 'add' || this.cur.type === 'sub') {
      const t = this.next();
      left = { kind: 'BinOp', pos: t.pos, op: t.type, left, right: this.parseConcat() };
    }
    return left;
  }

  private parseConcat(): Node {
    const pos = this.cur.pos;
    const args = [this.parseMath2()];
    while (this.cur.type === 'tilde') {
      this.next();
      args.push(this.parseMath2());
    }
    if (args.length === 1) return args[0];
    return { kind: 'Concat', pos, nodes: args };
  }

  private parseMath2(): Node {
    let left = this.parsePow();
    while (['mul', 'div', 'floordiv', 'mod'].includes(this.cur.type)) {
      const t = this.next();
      left = { kind: 'BinOp', pos: t.pos, op: t.type, left, right: this.parsePow() };
    }
    return left;
  }

  private parsePow(): Node {
    let left = this.parseUnary();
    while (this.cur.type === 'pow') {
      const t = this.next();
      left = { kind: 'BinOp', pos: t.pos, op: 'pow', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(withFilter = true): Node {
    const tt = this.cur.type;
    const pos = this.cur.pos;
    let node: Node;
    if (tt === 'sub' || tt === 'add') {
      this.next();
      this.guard();
      node = { kind: tt === 'sub' ? 'Neg' : 'Pos', pos, node: this.parseUnary(false) };
      this.depth--;
    } else {
      node = this.parsePrimary();
    }
    node = this.parsePostfix(node);
    if (withFilter) node = this.parseFilterExpr(node);
    return node;
  }

  private parsePrimary(): Node {
    const t = this.cur;
    let node: Node;
    if (t.type === 'name') {
      const v = t.value as string;
      if (v === 'true' || v === 'false' || v === 'True' || v === 'False') {
        node = { kind: 'Const', pos: t.pos, value: v === 'true' || v === 'True' };
      } else if (v === 'none' || v === 'None') {
        node = { kind: 'Const', pos: t.pos, value: null };
      } else {
        node = { kind: 'Name', pos: t.pos, name: v, ctx: 'load' };
      }
      this.next();
    } else if (t.type === 'string') {
      this.next();
      let s = t.value as string;
      while (this.cur.type === 'string') s += this.next().value as string;
      node = { kind: 'Const', pos: t.pos, value: s };
    } else if (t.type === 'integer' || t.type === 'float') {
      this.next();
      node = { kind: 'Const', pos: t.pos, value: t.value };
    } else if (t.type === 'lparen') {
      this.next();
      node = this.parseTuple({ explicitParentheses: true });
      this.expect('rparen');
    } else if (t.type === 'lbracket') {
      node = this.parseList();
    } else if (t.type === 'lbrace') {
      node = this.parseDict();
    } else {
      this.fail(`unexpected ${pyStrRepr(describeToken(t))}`, t.pos);
    }
    return node;
  }

  parseTuple(o: { simplified?: boolean; withCondexpr?: boolean; extraEndRules?: string[]; explicitParentheses?: boolean }): Node {
    const pos = this.cur.pos;
    const parse = o.simplified
      ? () => this.parsePrimary()
      : o.withCondexpr === false
        ? () => this.parseExpression(false)
        : () => this.parseExpression();
    const args: Node[] = [];
    let isTuple = false;
    for (;;) {
      if (args.length) this.expect('comma');
      if (this.isTupleEnd(o.extraEndRules)) break;
      args.push(parse());
      if (this.cur.type === 'comma') isTuple = true;
      else break;
    }
    if (!isTuple) {
      if (args.length) return args[0];
      if (!o.explicitParentheses) this.fail(`Expected an expression, got ${pyStrRepr(describeToken(this.cur))}`);
    }
    return { kind: 'Tuple', pos, items: args, ctx: 'load' };
  }

  private isTupleEnd(extra?: string[]): boolean {
    const tt = this.cur.type;
    if (tt === 'variable_end' || tt === 'block_end' || tt === 'rparen') return true;
    return extra ? this.testAny(this.cur, extra) : false;
  }

  private parseList(): Node {
    const t = this.expect('lbracket');
    const items: Node[] = [];
    while (this.cur.type !== 'rbracket') {
      if (items.length) this.expect('comma');
      if (this.cur.type === 'rbracket') break;
      items.push(this.parseExpression());
    }
    this.expect('rbracket');
    return { kind: 'List', pos: t.pos, items };
  }

  private parseDict(): Node {
    const t = this.expect('lbrace');
    const pairs: Array<[Node, Node]> = [];
    while (this.cur.type !== 'rbrace') {
      if (pairs.length) this.expect('comma');
      if (this.cur.type === 'rbrace') break;
      const key = this.parseExpression();
      this.expect('colon');
      pairs.push([key, this.parseExpression()]);
    }
    this.expect('rbrace');
    return { kind: 'Dict', pos: t.pos, pairs };
  }

  private parsePostfix(node: Node): Node {
    for (;;) {
      const tt = this.cur.type;
      if (tt === 'dot' || tt === 'lbracket') node = this.parseSubscript(node);
      else if (tt === 'lparen') node = this.parseCall(node);
      else break;
    }
    return node;
  }

  private parseFilterExpr(node: Node): Node {
    for (;;) {
      const tt = this.cur.type;
      if (tt === 'pipe') node = this.parseFilter(node) as Node;
      else if (tt === 'name' && this.cur.value === 'is') node = this.parseTest(node);
      else if (tt === 'lparen') node = this.parseCall(node);
      else break;
    }
    return node;
  }

  private parseSubscript(node: Node): Node {
    const t = this.next();
    if (t.type === 'dot') {
      const a = this.cur;
      this.next();
      if (a.type === 'name') return { kind: 'Getattr', pos: t.pos, node, attr: a.value as string };
      if (a.type !== 'integer') this.fail('expected name or number', a.pos);
      return { kind: 'Getitem', pos: t.pos, node, arg: { kind: 'Const', pos: a.pos, value: a.value } };
    }
    // lbracket
    const args: Node[] = [];
    while (this.cur.type !== 'rbracket') {
      if (args.length) this.expect('comma');
      args.push(this.parseSubscribed());
    }
    this.expect('rbracket');
    const arg = args.length === 1 ? args[0] : { kind: 'Tuple' as const, pos: t.pos, items: args, ctx: 'load' as const };
    return { kind: 'Getitem', pos: t.pos, node, arg };
  }

  private parseSubscribed(): Node {
    const pos = this.cur.pos;
    const args: Array<Node | null> = [];
    if (this.cur.type === 'colon') {
      this.next();
      args.push(null);
    } else {
      const node = this.parseExpression();
      if (this.cur.type !== 'colon') return node;
      this.next();
      args.push(node);
    }
    if (this.cur.type === 'colon') args.push(null);
    else if (this.cur.type !== 'rbracket' && this.cur.type !== 'comma') args.push(this.parseExpression());
    else args.push(null);
    if (this.curType() === 'colon') {
      this.next();
      if (this.curType() !== 'rbracket' && this.curType() !== 'comma') args.push(this.parseExpression());
      else args.push(null);
    } else args.push(null);
    return { kind: 'Slice', pos, start: args[0], stop: args[1], step: args[2] };
  }

  private parseCallArgs(): Pick<Node, 'args' | 'kwargs' | 'dynArgs' | 'dynKwargs'> {
    const t = this.expect('lparen');
    const args: Node[] = [];
    const kwargs: Array<[string, Node]> = [];
    let dynArgs: Node | null = null;
    let dynKwargs: Node | null = null;
    let requireComma = false;
    const ensure = (ok: boolean) => {
      if (!ok) this.fail('invalid syntax for function call expression', t.pos);
    };
    while (this.cur.type !== 'rparen') {
      if (requireComma) {
        this.expect('comma');
        if (this.cur.type === 'rparen') break;
      }
      if (this.cur.type === 'mul') {
        ensure(dynArgs === null && dynKwargs === null);
        this.next();
        dynArgs = this.parseExpression();
      } else if (this.cur.type === 'pow') {
        ensure(dynKwargs === null);
        this.next();
        dynKwargs = this.parseExpression();
      } else if (this.cur.type === 'name' && this.look().type === 'assign') {
        ensure(dynKwargs === null);
        const key = this.cur.value as string;
        this.next();
        this.next();
        kwargs.push([key, this.parseExpression()]);
      } else {
        ensure(dynArgs === null && dynKwargs === null && !kwargs.length);
        args.push(this.parseExpression());
      }
      requireComma = true;
    }
    this.expect('rparen');
    return { args, kwargs, dynArgs, dynKwargs };
  }

  private parseCall(node: Node): Node {
    const pos = this.cur.pos;
    return { kind: 'Call', pos, node, ...this.parseCallArgs() };
  }

  private parseFilter(node: Node | null, startInline = false): Node | null {
    while (this.cur.type === 'pipe' || startInline) {
      if (!startInline) this.next();
      const t = this.expect('name');
      let name = t.value as string;
      while (this.cur.type === 'dot') {
        this.next();
        name += '.' + (this.expect('name').value as string);
      }
      const call =
        this.cur.type === 'lparen' ? this.parseCallArgs() : { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
      node = { kind: 'Filter', pos: t.pos, node, name, ...call };
      startInline = false;
    }
    return node;
  }

  private parseTest(node: Node): Node {
    const t = this.next();
    let negated = false;
    if (this.test(this.cur, 'name:not')) {
      this.next();
      negated = true;
    }
    let name = this.expect('name').value as string;
    while (this.cur.type === 'dot') {
      this.next();
      name += '.' + (this.expect('name').value as string);
    }
    let call: Pick<Node, 'args' | 'kwargs' | 'dynArgs' | 'dynKwargs'> = { args: [], kwargs: [], dynArgs: null, dynKwargs: null };
    if (this.cur.type === 'lparen') {
      call = this.parseCallArgs();
    } else if (
      ['name', 'string', 'integer', 'float', 'lparen', 'lbracket', 'lbrace'].includes(this.cur.type) &&
      !this.testAny(this.cur, ['name:else', 'name:or', 'name:and'])
    ) {
      if (this.test(this.cur, 'name:is')) this.fail('You cannot chain multiple tests with is');
      let arg = this.parsePrimary();
      arg = this.parsePostfix(arg);
      call = { args: [arg], kwargs: [], dynArgs: null, dynKwargs: null };
    }
    let result: Node = { kind: 'Test', pos: t.pos, node, name, ...call };
    if (negated) result = { kind: 'Not', pos: t.pos, node: result };
    return result;
  }
}

function setCtx(n: Node, ctx: 'load' | 'store' | 'param'): void {
  if (n.kind === 'Name') n.ctx = ctx;
  else if (n.kind === 'Tuple') {
    n.ctx = ctx;
    for (const i of n.items as Node[]) setCtx(i, ctx);
  }
}

function canAssign(n: Node): boolean {
  if (n.kind === 'Name') return !CONST_NAMES.has(n.name as string);
  if (n.kind === 'NSRef') return true;
  if (n.kind === 'Tuple') return (n.items as Node[]).every(canAssign);
  return false;
}

// ---------------------------------------------------------------------------
// Scoping: a port of jinja2/idtracking.py plus the frame handling of
// jinja2/compiler.py, run as a pass that annotates the AST with the Python
// local each name compiles to and the loads done when a frame is entered.

type Load = ['param', null] | ['resolve', string] | ['alias', string] | ['undefined', null];

class Symbols {
  readonly level: number;
  refs = new Map<string, string>();
  loads = new Map<string, Load>();
  stores = new Set<string>();
  constructor(
    readonly parent: Symbols | null = null,
    level?: number,
  ) {
    this.level = level ?? (parent ? parent.level + 1 : 0);
  }
  private defineRef(name: string, load?: Load): string {
    const ident = `l_${this.level}_${name}`;
    this.refs.set(name, ident);
    if (load) this.loads.set(ident, load);
    return ident;
  }
  findRef(name: string): string | null {
    return this.refs.get(name) ?? (this.parent ? this.parent.findRef(name) : null);
  }
  ref(name: string): string {
    const r = this.findRef(name);
    if (r === null) throw new Error(`Tried to resolve a name to a reference that was unknown to the frame (${name})`);
    return r;
  }
  copy(): Symbols {
    const rv = new Symbols(this.parent, this.level);
    rv.refs = new Map(this.refs);
    rv.loads = new Map(this.loads);
    rv.stores = new Set(this.stores);
    return rv;
  }
  store(name: string): void {
    this.stores.add(name);
    if (!this.refs.has(name)) {
      if (this.parent) {
        const outer = this.parent.findRef(name);
        if (outer !== null) {
          this.defineRef(name, ['alias', outer]);
          return;
        }
      }
      this.defineRef(name, ['undefined', null]);
    }
  }
  declareParameter(name: string): string {
    this.stores.add(name);
    return this.defineRef(name, ['param', null]);
  }
  load(name: string): void {
    if (this.findRef(name) === null) this.defineRef(name, ['resolve', name]);
  }
  branchUpdate(branches: Symbols[]): void {
    const stores = new Map<string, number>();
    for (const b of branches) {
      for (const t of b.stores) {
        if (this.stores.has(t)) continue;
        stores.set(t, (stores.get(t) ?? 0) + 1);
      }
    }
    for (const b of branches) {
      for (const [k, v] of b.refs) this.refs.set(k, v);
      for (const [k, v] of b.loads) this.loads.set(k, v);
      for (const s of b.stores) this.stores.add(s);
    }
    for (const [name, count] of stores) {
      if (count === branches.length) continue;
      const target = this.findRef(name) as string;
      if (this.parent) {
        const outer = this.parent.findRef(name);
        if (outer !== null) {
          this.loads.set(target, ['alias', outer]);
          continue;
        }
      }
      this.loads.set(target, ['resolve', name]);
    }
  }
}

function exprChildren(n: Node): Node[] {
  switch (n.kind) {
    case 'Tuple':
    case 'List':
      return n.items as Node[];
    case 'Dict':
      return (n.pairs as Array<[Node, Node]>).flat();
    case 'CondExpr':
      return [n.test as Node, n.expr1 as Node, ...(n.expr2 ? [n.expr2] : [])];
    case 'And':
    case 'Or':
    case 'BinOp':
      return [n.left as Node, n.right as Node];
    case 'Not':
    case 'Neg':
    case 'Pos':
    case 'Getattr':
      return [n.node as Node];
    case 'Concat':
      return n.nodes as Node[];
    case 'Compare':
      return [n.node as Node, ...(n.ops as Array<{ expr: Node }>).map((o) => o.expr)];
    case 'Getitem':
      return [n.node as Node, n.arg as Node];
    case 'Slice':
      return [n.start, n.stop, n.step].filter((x): x is Node => !!x);
    case 'Call':
    case 'Filter':
    case 'Test':
      return [
        ...(n.node ? [n.node] : []),
        ...(n.args as Node[]),
        ...(n.kwargs as Array<[string, Node]>).map((k) => k[1]),
        ...(n.dynArgs ? [n.dynArgs] : []),
        ...(n.dynKwargs ? [n.dynKwargs] : []),
      ];
    default:
      return [];
  }
}

/** FrameSymbolVisitor */
function symVisit(sym: { s: Symbols }, n: Node, storeAsParam = false): void {
  switch (n.kind) {
    case 'Name':
      if (storeAsParam || n.ctx === 'param') sym.s.declareParameter(n.name as string);
      else if (n.ctx === 'store') sym.s.store(n.name as string);
      else sym.s.load(n.name as string);
      return;
    case 'NSRef':
      sym.s.load(n.name as string);
      return;
    case 'If': {
      symVisit(sym, n.test as Node);
      const original = sym.s;
      const inner = (nodes: Node[]): Symbols => {
        const rv = original.copy();
        sym.s = rv;
        for (const x of nodes) symVisit(sym, x);
        sym.s = original;
        return rv;
      };
      const b = inner(n.body as Node[]);
      const e = inner(n.elifs as Node[]);
      const el = inner(n.else_ as Node[]);
      sym.s.branchUpdate([b, e, el]);
      return;
    }
    case 'Assign':
      symVisit(sym, n.node as Node);
      symVisit(sym, n.target as Node);
      return;
    case 'For':
      symVisit(sym, n.iter as Node);
      return;
    case 'AssignBlock':
      symVisit(sym, n.target as Node);
      return;
    case 'With':
      for (const v of n.values as Node[]) symVisit(sym, v);
      return;
    case 'FilterBlock':
      symVisit(sym, n.filter as Node);
      return;
    case 'Output':
      for (const x of n.nodes as Node[]) symVisit(sym, x);
      return;
    case 'ExprStmt':
    case 'LoadTemplate':
      symVisit(sym, n.node as Node);
      return;
    case 'Unsupported':
    case 'TemplateData':
    case 'Const':
      return;
    default:
      for (const c of exprChildren(n)) symVisit(sym, c, storeAsParam);
  }
}

/** RootVisitor */
function analyze(symbols: Symbols, n: Node | Node[], forBranch?: 'body' | 'else' | 'test'): void {
  const sym = { s: symbols };
  if (Array.isArray(n)) {
    for (const c of n) symVisit(sym, c);
    return;
  }
  switch (n.kind) {
    case 'For':
      if (forBranch === 'test') {
        symVisit(sym, n.target as Node, true);
        if (n.test) symVisit(sym, n.test);
        return;
      }
      if (forBranch === 'else') {
        for (const c of n.else_ as Node[]) symVisit(sym, c);
        return;
      }
      symVisit(sym, n.target as Node, true);
      for (const c of n.body as Node[]) symVisit(sym, c);
      return;
    case 'AssignBlock':
      for (const c of n.body as Node[]) symVisit(sym, c);
      return;
    case 'With':
      for (const t of n.targets as Node[]) symVisit(sym, t);
      for (const c of n.body as Node[]) symVisit(sym, c);
      return;
    case 'FilterBlock':
      for (const c of n.body as Node[]) symVisit(sym, c);
      symVisit(sym, n.filter as Node);
      return;
    default:
      throw new Error(`Cannot find symbols for ${n.kind}`);
  }
}

class Frame {
  symbols: Symbols;
  toplevel = false;
  rootlevel = false;
  loopFrame = false;
  blockFrame = false;
  softFrame = false;
  constructor(parent: Frame | null) {
    this.symbols = new Symbols(parent ? parent.symbols : null);
  }
  inner(): Frame {
    return new Frame(this);
  }
  soft(): Frame {
    const rv = Object.create(Frame.prototype) as Frame;
    Object.assign(rv, this);
    rv.symbols = this.symbols.copy();
    rv.rootlevel = false;
    rv.softFrame = true;
    return rv;
  }
}

/** UndeclaredNameVisitor for a single name. */
function findUndeclared(nodes: Node[], name: string): boolean {
  let names = new Set([name]);
  let found = false;
  const visit = (n: Node): boolean => {
    if (n.kind === 'Name') {
      if (n.ctx === 'load' && names.has(n.name as string)) {
        found = true;
        return true;
      }
      names.delete(n.name as string);
      if (!names.size) names = new Set();
      return false;
    }
    for (const c of stmtOrExprChildren(n)) if (visit(c)) return true;
    return false;
  };
  for (const n of nodes) if (visit(n)) break;
  return found;
}

/** All child nodes in Jinja's field order (generic NodeVisitor traversal). */
function stmtOrExprChildren(n: Node): Node[] {
  switch (n.kind) {
    case 'Output':
      return n.nodes as Node[];
    case 'If':
      return [n.test as Node, ...(n.body as Node[]), ...(n.elifs as Node[]), ...(n.else_ as Node[])];
    case 'For':
      return [n.target as Node, n.iter as Node, ...(n.body as Node[]), ...(n.else_ as Node[]), ...(n.test ? [n.test] : [])];
    case 'Assign':
      return [n.target as Node, n.node as Node];
    case 'AssignBlock':
      return [n.target as Node, ...(n.filter ? [n.filter] : []), ...(n.body as Node[])];
    case 'With':
      return [...(n.targets as Node[]), ...(n.values as Node[]), ...(n.body as Node[])];
    case 'FilterBlock':
      return [...(n.body as Node[]), n.filter as Node];
    case 'ExprStmt':
    case 'LoadTemplate':
      return [n.node as Node];
    default:
      return exprChildren(n);
  }
}

const KNOWN_FILTERS = new Set([
  'abs', 'attr', 'batch', 'capitalize', 'center', 'count', 'd', 'default', 'dictsort', 'e', 'escape',
  'filesizeformat', 'first', 'float', 'forceescape', 'format', 'groupby', 'indent', 'int', 'join', 'last',
  'length', 'list', 'lower', 'items', 'map', 'min', 'max', 'pprint', 'random', 'reject', 'rejectattr',
  'replace', 'reverse', 'round', 'safe', 'select', 'selectattr', 'slice', 'sort', 'string', 'striptags', 'sum',
  'title', 'trim', 'truncate', 'unique', 'upper', 'urlencode', 'urlize', 'wordcount', 'wordwrap', 'xmlattr',
  'tojson',
]);
const KNOWN_TESTS = new Set([
  'odd', 'even', 'divisibleby', 'defined', 'undefined', 'filter', 'test', 'none', 'boolean', 'false', 'true',
  'integer', 'float', 'lower', 'upper', 'string', 'mapping', 'number', 'sequence', 'iterable', 'callable',
  'sameas', 'escaped', 'in', '==', 'eq', 'equalto', '!=', 'ne', '>', 'gt', 'greaterthan', 'ge', '>=', '<', 'lt',
  'lessthan', '<=', 'le',
]);

/** The compile pass: scoping annotations and Jinja's compile-time checks. */
class Compiler {
  /** Jinja's optimizer folds constant subtrees before code generation: what folds away is never checked. */
  constructor(private readonly folder: Renderer | null = null) {}
  /** CodeGenerator.has_known_extends */
  private knownExtends = false;

  compileTemplate(body: Node[]): Array<[string, Load]> {
    for (const n of body) this.checkSupported(n, 0);
    const frame = new Frame(null);
    analyze(frame.symbols, body);
    frame.toplevel = frame.rootlevel = true;
    const loads = [...frame.symbols.loads];
    this.block(body, frame);
    return loads;
  }

  private checkSupported(n: Node, depth: number): void {
    if (depth > LIMITS.maxExprDepth + LIMITS.maxBlockDepth) {
      throw unsupported(`nesting deeper than ${LIMITS.maxExprDepth + LIMITS.maxBlockDepth} (limit)`, n.pos);
    }
    if (n.kind === 'Unsupported') throw unsupported(n.name as string, n.pos);
    if (n.kind === 'For' && n.recursive) throw unsupported('recursive for loop', n.pos);
    for (const c of stmtOrExprChildren(n)) this.checkSupported(c, depth + 1);
  }

  private exprDepth(n: Node): number {
    let d = 0;
    for (const c of exprChildren(n)) d = Math.max(d, this.exprDepth(c));
    return d + 1;
  }

  private block(nodes: Node[], frame: Frame): void {
    for (const n of nodes) this.stmt(n, frame);
  }

  private stmt(n: Node, frame: Frame): void {
    switch (n.kind) {
      case 'Output':
        // After an unconditional top-level extends, Jinja generates no code for output at all.
        if (this.knownExtends) return;
        for (const c of n.nodes as Node[]) this.expr(c, frame);
        return;
      case 'If': {
        const f = frame.soft();
        this.expr(n.test as Node, f);
        this.block(n.body as Node[], f);
        for (const e of n.elifs as Node[]) {
          this.expr(e.test as Node, f);
          this.block(e.body as Node[], f);
        }
        this.block(n.else_ as Node[], f);
        return;
      }
      case 'For': {
        const loopFrame = frame.inner();
        loopFrame.loopFrame = true;
        const testFrame = frame.inner();
        const elseFrame = frame.inner();
        n.extended = findUndeclared(n.body as Node[], 'loop');
        if (n.extended) n.loopRef = loopFrame.symbols.declareParameter('loop');
        analyze(loopFrame.symbols, n, 'body');
        if ((n.else_ as Node[]).length) analyze(elseFrame.symbols, n, 'else');
        if (n.test) {
          analyze(testFrame.symbols, n, 'test');
          n.testLoads = [...testFrame.symbols.loads];
          n.testLocals = new Set([...testFrame.symbols.loads.keys()]);
          this.target(n.target as Node, loopFrame);
          this.expr(n.test, testFrame);
        }
        const checkLoop = (x: Node): void => {
          if (x.kind === 'Name' && x.ctx === 'store' && x.name === 'loop') {
            throw new TemplateSyntaxError(
              "Can't assign to special loop variable in for-loop target",
              x.pos,
              'TemplateAssertionError',
            );
          }
          for (const c of stmtOrExprChildren(x)) checkLoop(c);
        };
        checkLoop(n);
        this.target(n.target as Node, loopFrame);
        this.expr(n.iter as Node, frame);
        n.loads = [...loopFrame.symbols.loads];
        this.block(n.body as Node[], loopFrame);
        if ((n.else_ as Node[]).length) {
          n.elseLoads = [...elseFrame.symbols.loads];
          this.block(n.else_ as Node[], elseFrame);
        }
        return;
      }
      case 'Assign':
        n.toplevel = frame.toplevel && !frame.loopFrame && !frame.blockFrame;
        this.target(n.target as Node, frame);
        this.expr(n.node as Node, frame);
        return;
      case 'AssignBlock': {
        const blockFrame = frame.inner();
        analyze(blockFrame.symbols, n);
        n.loads = [...blockFrame.symbols.loads];
        this.block(n.body as Node[], blockFrame);
        n.toplevel = frame.toplevel && !frame.loopFrame && !frame.blockFrame;
        this.target(n.target as Node, frame);
        if (n.filter) this.expr(n.filter, blockFrame);
        return;
      }
      case 'With': {
        const withFrame = frame.inner();
        analyze(withFrame.symbols, n);
        n.loads = [...withFrame.symbols.loads];
        const targets = n.targets as Node[];
        const values = n.values as Node[];
        for (let i = 0; i < targets.length; i++) {
          this.target(targets[i], withFrame);
          this.expr(values[i], frame);
        }
        this.block(n.body as Node[], withFrame);
        return;
      }
      case 'FilterBlock': {
        const filterFrame = frame.inner();
        analyze(filterFrame.symbols, n);
        n.loads = [...filterFrame.symbols.loads];
        this.block(n.body as Node[], filterFrame);
        this.expr(n.filter as Node, filterFrame);
        return;
      }
      case 'LoadTemplate':
        if (n.name === 'extends' && !frame.toplevel) throw new TemplateSyntaxError('cannot use extend from a non top-level scope', n.pos, 'TemplateAssertionError');
        this.expr(n.node as Node, frame);
        if (n.name === 'extends' && frame.rootlevel) this.knownExtends = true;
        return;
      case 'ExprStmt':
        this.expr(n.node as Node, frame);
        return;
      default:
        throw unsupported(`statement ${n.kind}`, n.pos);
    }
  }

  private target(n: Node, frame: Frame): void {
    if (n.kind === 'Name') n.ref = frame.symbols.ref(n.name as string);
    else if (n.kind === 'NSRef') n.ref = frame.symbols.ref(n.name as string);
    else for (const c of n.items as Node[]) this.target(c, frame);
  }

  private expr(n: Node, frame: Frame, depth = 0): void {
    if (depth === 0 && this.exprDepth(n) > LIMITS.maxExprDepth) {
      throw unsupported(`expression nesting deeper than ${LIMITS.maxExprDepth} (limit)`, n.pos);
    }
    if (this.folder && FOLDED_KINDS.has(n.kind) && n.kind !== 'Filter' && n.kind !== 'Test') {
      let v: JValue | typeof IMPOSSIBLE = IMPOSSIBLE;
      try {
        v = this.folder.constEval(n);
      } catch {
        v = IMPOSSIBLE;
      }
      if (v !== IMPOSSIBLE && hasSafeRepr(v)) return;
    }
    switch (n.kind) {
      case 'Name':
        n.ref = frame.symbols.ref(n.name as string);
        return;
      case 'Filter':
      case 'Test': {
        const known = n.kind === 'Filter' ? KNOWN_FILTERS : KNOWN_TESTS;
        n.soft = frame.softFrame;
        if (!known.has(n.name as string) && !frame.softFrame) {
          throw new TemplateSyntaxError(
            `No ${n.kind === 'Filter' ? 'filter' : 'test'} named ${pyStrRepr(n.name as string)}.`,
            n.pos,
            'TemplateAssertionError',
          );
        }
        break;
      }
      case 'CondExpr':
        frame = frame.soft();
        break;
    }
    for (const c of exprChildren(n)) this.expr(c, frame, depth + 1);
  }
}

// ---------------------------------------------------------------------------
// Rendering

class Scope {
  constructor(
    readonly locals: Map<string, Slot>,
    readonly localNames: Set<string> | null = null,
    readonly outer: Scope | null = null,
  ) {}
  get(ref: string): Slot {
    if (!this.outer || (this.localNames as Set<string>).has(ref)) return this.locals.has(ref) ? (this.locals.get(ref) as Slot) : MISSING;
    return this.outer.get(ref);
  }
  set(ref: string, v: Slot): void {
    if (!this.outer || (this.localNames as Set<string>).has(ref)) this.locals.set(ref, v);
    else this.outer.set(ref, v);
  }
}

const FAIL: unique symbol = Symbol('fail');

function sliceIndex(v: JValue | undefined): bigint | null {
  if (v === undefined || v === null) return null;
  if (isInt(v)) return toBig(v);
  if (v instanceof JUndef) throw typeError('slice indices must be integers or None or have an __index__ method');
  throw typeError('slice indices must be integers or None or have an __index__ method');
}

/** PySlice_Unpack + PySlice_AdjustIndices: the selected indices. */
function sliceIndices(length: bigint, start: bigint | null, stop: bigint | null, step: bigint | null): bigint[] | { start: bigint; step: bigint; count: bigint } {
  const st = step ?? 1n;
  if (st === 0n) throw new PyError('ValueError', 'slice step cannot be zero');
  const adjust = (x: bigint | null, dflt: bigint, isStart: boolean): bigint => {
    if (x === null) return dflt;
    if (x < 0n) {
      x += length;
      if (x < 0n) x = st < 0n ? -1n : 0n;
    } else if (x >= length) {
      x = st < 0n ? length - 1n : length;
    }
    void isStart;
    return x;
  };
  const a = adjust(start, st < 0n ? length - 1n : 0n, true);
  const b = adjust(stop, st < 0n ? -1n : length, false);
  let count: bigint;
  if (st < 0n) count = b < a ? (a - b - 1n) / -st + 1n : 0n;
  else count = a < b ? (b - a - 1n) / st + 1n : 0n;
  return { start: a, step: st, count };
}

function sliceValue(obj: JValue, start: JValue | undefined, stop: JValue | undefined, step: JValue | undefined): JValue {
  if (obj instanceof JUndef) throw obj.fail();
  if (obj instanceof JDict) throw typeError("unhashable type: 'slice'");
  if (obj instanceof JMarkup) {
    // Markup.__getitem__ wraps str's result.
    const v = sliceValue(obj.s, start, stop, step);
    return typeof v === 'string' ? new JMarkup(v) : v;
  }
  if (obj instanceof JBytes) throw unsupported(`slicing a ${typeName(obj)}`);
  let seq: JValue[] | string[] | null = null;
  let length: bigint;
  if (typeof obj === 'string') {
    seq = cps(obj);
    length = BigInt(seq.length);
  } else if (Array.isArray(obj)) {
    seq = obj;
    length = BigInt(obj.length);
  } else if (obj instanceof JTuple) {
    seq = obj.items;
    length = BigInt(obj.items.length);
  } else if (obj instanceof JRange) {
    length = obj.length;
  } else {
    throw typeError(`'${typeName(obj)}' object is not subscriptable`);
  }
  const r = sliceIndices(length, sliceIndex(start), sliceIndex(stop), sliceIndex(step)) as { start: bigint; step: bigint; count: bigint };
  if (obj instanceof JRange) {
    const s0 = obj.start + r.start * obj.step;
    const st = obj.step * r.step;
    return new JRange(s0, s0 + r.count * st, st);
  }
  const out: Array<JValue | string> = [];
  for (let i = 0n; i < r.count; i++) out.push((seq as Array<JValue | string>)[Number(r.start + i * r.step)]);
  if (typeof obj === 'string') return (out as string[]).join('');
  if (obj instanceof JTuple) return new JTuple(out as JValue[]);
  return out as JValue[];
}

/** obj[key] with the exceptions environment.getitem swallows turned into FAIL. */
function trySubscript(obj: JValue, key: JValue): JValue | typeof FAIL {
  if (obj instanceof JDict) {
    let id: string;
    try {
      id = hashKey(key);
    } catch (e) {
      if (e instanceof PyError) return FAIL;
      throw e;
    }
    const e = obj.map.get(id);
    return e ? e.v : FAIL;
  }
  if (obj instanceof JMarkup) {
    const v = trySubscript(obj.s, key);
    return typeof v === 'string' ? new JMarkup(v) : v;
  }
  if (obj instanceof JBytes) throw unsupported(`subscripting a ${typeName(obj)}`);
  if (typeof obj === 'string' || Array.isArray(obj) || obj instanceof JTuple || obj instanceof JRange) {
    if (!isInt(key)) return FAIL;
    let i = toBig(key);
    if (obj instanceof JRange) {
      const n = obj.length;
      if (i < 0n) i += n;
      if (i < 0n || i >= n) return FAIL;
      return obj.at(i);
    }
    const seq = typeof obj === 'string' ? cps(obj) : Array.isArray(obj) ? obj : obj.items;
    const n = BigInt(seq.length);
    if (i < 0n) i += n;
    if (i < 0n || i >= n) return FAIL;
    return seq[Number(i)];
  }
  return FAIL;
}

const IMPOSSIBLE: unique symbol = Symbol('impossible');
const IMPOSSIBLE_SIGNAL = { impossible: true };

/** Node types whose compilation goes through Jinja's optimizer (constant folding). */
const FOLDED_KINDS = new Set<NodeKind>(['BinOp', 'Neg', 'Pos', 'Not', 'And', 'Or', 'Concat', 'Compare', 'Getattr', 'Getitem', 'Filter', 'Test', 'CondExpr']);
/** Filters taking the context (as_const refuses them). */
const CONTEXT_FILTERS = new Set(['map', 'select', 'reject', 'selectattr', 'rejectattr', 'random']);

/** compiler.has_safe_repr */
function hasSafeRepr(v: JValue): boolean {
  if (v === null || typeof v !== 'object') return true;
  if (v instanceof JMarkup || v instanceof JRange) return true;
  if (Array.isArray(v)) return v.every(hasSafeRepr);
  if (v instanceof JTuple) return v.items.every(hasSafeRepr);
  if (v instanceof JDict) return v.entries().every(([k, x]) => hasSafeRepr(k) && hasSafeRepr(x));
  return false;
}

class Renderer {
  steps = 0;
  /** Things the rendered text cannot show faithfully (e.g. random choices). */
  readonly notes: string[] = [];
  outLen = 0;
  private bufs: string[][] = [[]];
  /** A non-str item yielded at top level: "".join fails only once the whole template has run. */
  private deferred: PyError | null = null;
  private ctxVars = new Map<string, JValue>();
  private readonly globals: Map<string, JValue>;

  constructor(
    readonly params: JDict,
    private readonly lineOf: (pos: number) => number,
    /** Current cloud-init renders in Jinja2's SandboxedEnvironment; 22.4 in a plain Environment. */
    readonly sandbox = false,
  ) {
    this.globals = makeGlobals(sandbox);
  }

  step(n = 1): void {
    this.steps += n;
    if (this.steps > LIMITS.maxSteps) throw unsupported(`more than ${LIMITS.maxSteps} loop iterations / produced items (limit)`);
  }

  private write(s: string): void {
    this.outLen += s.length;
    if (this.outLen > LIMITS.maxOutput) throw unsupported(`output larger than ${LIMITS.maxOutput} characters (limit)`);
    this.bufs[this.bufs.length - 1].push(s);
  }

  private writeYielded(v: JValue): void {
    if (typeof v === 'string') this.write(v);
    else if (v instanceof JMarkup) this.write(v.s);
    else {
      const buf = this.bufs[this.bufs.length - 1];
      const err = typeError(`sequence item ${buf.length}: expected str instance, ${typeName(v)} found`);
      if (this.bufs.length > 1) throw err;
      this.deferred ??= err;
      buf.push('');
    }
  }

  render(body: Node[], rootLoads: Array<[string, Load]>): string {
    const sc = new Scope(new Map());
    this.enterLoads(rootLoads, sc);
    this.execBlock(body, sc);
    if (this.deferred) throw this.deferred;
    return this.bufs[0].join('');
  }

  private resolve(name: string): Slot {
    if (this.ctxVars.has(name)) return this.ctxVars.get(name) as JValue;
    const p = this.params.map.get('s' + name);
    if (p) return p.v;
    if (this.globals.has(name)) return this.globals.get(name) as JValue;
    return MISSING;
  }

  private enterLoads(loads: Array<[string, Load]> | undefined, sc: Scope): void {
    for (const [ref, load] of loads ?? []) {
      if (load[0] === 'resolve') sc.set(ref, this.resolve(load[1]));
      else if (load[0] === 'alias') sc.set(ref, sc.get(load[1]));
      else if (load[0] === 'undefined') sc.set(ref, MISSING);
    }
  }

  private leaveLoads(loads: Array<[string, Load]> | undefined, sc: Scope): void {
    for (const [ref] of loads ?? []) sc.set(ref, MISSING);
  }

  private execBlock(nodes: Node[], sc: Scope): void {
    for (const n of nodes) this.exec(n, sc);
  }

  private exec(n: Node, sc: Scope): void {
    try {
      this.execInner(n, sc);
    } catch (e) {
      if ((e instanceof PyError && e.pos === undefined) || (e instanceof JinjaUnsupportedError && e.offset === undefined)) {
        if (e instanceof PyError) e.pos = n.pos;
        else (e as JinjaUnsupportedError).offset = n.pos;
      }
      throw e;
    }
  }

  private execInner(n: Node, sc: Scope): void {
    switch (n.kind) {
      case 'Output': {
        let group: string[] | null = null;
        for (const c of n.nodes as Node[]) {
          let folded: string | null = null;
          if (c.kind === 'TemplateData') folded = c.value as string;
          else if (c.kind !== 'Name' && c.kind !== 'Call' && c.outputKonst !== false) {
            // as_const only sees constants, so whether it succeeds never changes: remember failures
            try {
              const v = this.constEval(c);
              if (v !== IMPOSSIBLE) folded = pyStr(v);
            } catch (e) {
              if (!(e instanceof PyError)) throw e;
            }
            if (folded === null) c.outputKonst = false;
          }
          if (folded !== null) {
            (group ??= []).push(folded);
            continue;
          }
          if (group) {
            this.write(group.join(''));
            group = null;
          }
          this.write(pyStr(this.eval(c, sc)));
        }
        if (group) this.write(group.join(''));
        return;
      }
      case 'If': {
        if (truthy(this.eval(n.test as Node, sc))) return this.execBlock(n.body as Node[], sc);
        for (const e of n.elifs as Node[]) {
          if (truthy(this.eval(e.test as Node, sc))) return this.execBlock(e.body as Node[], sc);
        }
        return this.execBlock(n.else_ as Node[], sc);
      }
      case 'For':
        return this.execFor(n, sc);
      case 'Assign': {
        const target = n.target as Node;
        if (target.kind === 'NSRef') {
          const ns = sc.get(target.ref as string);
          if (!(ns instanceof JNamespace)) throw new PyError('TemplateRuntimeError', 'cannot assign attribute on non-namespace object');
          ns.attrs.set(target.attr as string, this.eval(n.node as Node, sc));
          return;
        }
        const v = this.eval(n.node as Node, sc);
        this.assign(target, v, sc);
        if (n.toplevel) this.exportTarget(target, sc);
        return;
      }
      case 'AssignBlock': {
        this.enterLoads(n.loads, sc);
        this.bufs.push([]);
        let text: string;
        try {
          this.execBlock(n.body as Node[], sc);
        } finally {
          text = (this.bufs.pop() as string[]).join('');
        }
        const target = n.target as Node;
        let ns: Slot = null;
        if (target.kind === 'NSRef') {
          ns = sc.get(target.ref as string);
          if (!(ns instanceof JNamespace)) throw new PyError('TemplateRuntimeError', 'cannot assign attribute on non-namespace object');
        }
        const v = n.filter ? this.applyFilter(n.filter, text, sc) : text;
        if (ns instanceof JNamespace) ns.attrs.set(target.attr as string, v);
        else {
          this.assign(target, v, sc);
          if (n.toplevel) this.exportTarget(target, sc);
        }
        this.leaveLoads(n.loads, sc);
        return;
      }
      case 'With': {
        this.enterLoads(n.loads, sc);
        const targets = n.targets as Node[];
        const values = n.values as Node[];
        for (let i = 0; i < targets.length; i++) this.assign(targets[i], this.eval(values[i], sc), sc);
        this.execBlock(n.body as Node[], sc);
        this.leaveLoads(n.loads, sc);
        return;
      }
      case 'FilterBlock': {
        this.enterLoads(n.loads, sc);
        this.bufs.push([]);
        let text: string;
        try {
          this.execBlock(n.body as Node[], sc);
        } finally {
          text = (this.bufs.pop() as string[]).join('');
        }
        this.writeYielded(this.applyFilter(n.filter as Node, text, sc));
        this.leaveLoads(n.loads, sc);
        return;
      }
      case 'ExprStmt':
        this.eval(n.node as Node, sc);
        return;
      case 'LoadTemplate':
        // include/import/from/extends: cloud-init's environment has no loader.
        this.eval(n.node as Node, sc);
        throw typeError('no loader for this environment specified');
      default:
        throw unsupported(`statement ${n.kind}`, n.pos);
    }
  }

  private exportTarget(target: Node, sc: Scope): void {
    if (target.kind === 'Name') {
      const v = sc.get(target.ref as string);
      if (v !== MISSING) this.ctxVars.set(target.name as string, v);
    } else if (target.kind === 'Tuple') for (const t of target.items as Node[]) this.exportTarget(t, sc);
  }

  private execFor(n: Node, sc: Scope): void {
    const iterable = this.eval(n.iter as Node, sc);
    let source: JValue = iterable;
    if (n.test) source = this.loopFilter(n, iterable, sc);
    let untouched = true;
    const body = n.body as Node[];
    if (n.extended) {
      const loop = new JLoop(source, this);
      for (;;) {
        const x = loop.next();
        if (x.done) break;
        this.step();
        this.assign(n.target as Node, x.value, sc);
        sc.set(n.loopRef as string, loop);
        this.enterLoads(n.loads, sc);
        this.execBlock(body, sc);
        untouched = false;
      }
    } else {
      const it = this.iter(source);
      for (let x = it.next(); !x.done; x = it.next()) {
        this.assign(n.target as Node, x.value, sc);
        this.enterLoads(n.loads, sc);
        this.execBlock(body, sc);
        untouched = false;
      }
    }
    this.leaveLoads(n.loads, sc);
    if ((n.else_ as Node[]).length && untouched) {
      this.enterLoads(n.elseLoads, sc);
      this.execBlock(n.else_ as Node[], sc);
      this.leaveLoads(n.elseLoads, sc);
    }
  }

  private loopFilter(n: Node, iterable: JValue, sc: Scope): JGen {
    const self = this;
    function* gen(): Generator<JValue> {
      const fsc = new Scope(new Map(), n.testLocals as Set<string>, sc);
      self.enterLoads(n.testLoads, fsc);
      const it = self.iter(iterable);
      for (let x = it.next(); !x.done; x = it.next()) {
        self.assign(n.target as Node, x.value, fsc);
        if (truthy(self.eval(n.test as Node, fsc))) yield self.targetValue(n.target as Node, fsc);
      }
    }
    return new JGen(gen());
  }

  private targetValue(t: Node, sc: Scope): JValue {
    if (t.kind === 'Name') {
      const v = sc.get(t.ref as string);
      return v === MISSING ? ciUndef(t.name as string) : v;
    }
    return new JTuple((t.items as Node[]).map((x) => this.targetValue(x, sc)));
  }

  private assign(t: Node, v: JValue, sc: Scope): void {
    if (t.kind === 'Name') {
      sc.set(t.ref as string, v);
      return;
    }
    const targets = t.items as Node[];
    const values = this.unpack(v, targets.length);
    for (let i = 0; i < targets.length; i++) this.assign(targets[i], values[i], sc);
  }

  unpack(v: JValue, count: number): JValue[] {
    if (Array.isArray(v) || v instanceof JTuple) {
      const items = Array.isArray(v) ? v : v.items;
      if (items.length > count) throw new PyError('ValueError', `too many values to unpack (expected ${count})`);
      if (items.length < count) throw new PyError('ValueError', `not enough values to unpack (expected ${count}, got ${items.length})`);
      return [...items];
    }
    if (!isIterable(v)) throw typeError(`cannot unpack non-iterable ${typeName(v)} object`);
    const it = this.iter(v);
    const out: JValue[] = [];
    for (let i = 0; i <= count; i++) {
      const x = it.next();
      if (x.done) break;
      if (i === count) throw new PyError('ValueError', `too many values to unpack (expected ${count})`);
      out.push(x.value);
    }
    if (out.length < count) throw new PyError('ValueError', `not enough values to unpack (expected ${count}, got ${out.length})`);
    return out;
  }

  /** Python iter(v), counting produced items against the step limit. */
  iter(v: JValue): Iterator<JValue> {
    const self = this;
    if (v instanceof JGen) return v.it;
    if (v instanceof JLoop) throw unsupported('iterating a loop object');
    if (v instanceof JMarkup) v = v.s;
    if (typeof v === 'string') return countIt(cps(v)[Symbol.iterator]());
    if (Array.isArray(v)) {
      const list = v;
      return (function* () {
        for (let i = 0; i < list.length; i++) {
          self.step();
          yield list[i];
        }
      })();
    }
    if (v instanceof JTuple) return countIt(v.items[Symbol.iterator]());
    if (v instanceof JDict || v instanceof JDictView) {
      const d = v instanceof JDict ? v : v.dict;
      const kind = v instanceof JDict ? 'keys' : v.kind;
      return (function* () {
        const size = d.size;
        const entries = [...d.map.values()];
        for (const e of entries) {
          if (d.size !== size) throw new PyError('RuntimeError', 'dictionary changed size during iteration');
          self.step();
          yield kind === 'keys' ? e.k : kind === 'values' ? e.v : new JTuple([e.k, e.v]);
        }
        if (d.size !== size) throw new PyError('RuntimeError', 'dictionary changed size during iteration');
      })();
    }
    if (v instanceof JRange) {
      const r = v;
      return (function* () {
        const n = r.length;
        for (let i = 0n; i < n; i++) {
          self.step();
          yield r.at(i);
        }
      })();
    }
    if (v instanceof JUndef) return [][Symbol.iterator]();
    if (v instanceof JBytes) return countIt([...v.bytes].map((b) => BigInt(b))[Symbol.iterator]());
    throw typeError(`'${typeName(v)}' object is not iterable`);
    function countIt(it: Iterator<JValue>): Iterator<JValue> {
      return (function* () {
        for (let x = it.next(); !x.done; x = it.next()) {
          self.step();
          yield x.value;
        }
      })();
    }
  }

  /** list(iter(v)) */
  list(v: JValue): JValue[] {
    const out: JValue[] = [];
    const it = this.iter(v);
    for (let x = it.next(); !x.done; x = it.next()) out.push(x.value);
    return out;
  }

  eval(n: Node, sc: Scope): JValue {
    if (n.konst !== false && FOLDED_KINDS.has(n.kind)) {
      let v: JValue | typeof IMPOSSIBLE = IMPOSSIBLE;
      try {
        v = this.constEval(n);
      } catch (e) {
        if (!(e instanceof PyError)) throw e;
      }
      if (v !== IMPOSSIBLE && hasSafeRepr(v)) return v;
      n.konst = false;
    }
    try {
      return this.evalInner(n, sc);
    } catch (e) {
      if (e instanceof PyError && e.pos === undefined) e.pos = n.pos;
      else if (e instanceof JinjaUnsupportedError && e.offset === undefined) e.offset = n.pos;
      throw e;
    }
  }

  private evalInner(n: Node, sc: Scope): JValue {
    switch (n.kind) {
      case 'Const':
      case 'TemplateData':
        return n.value as JValue;
      case 'Name': {
        const v = sc.get(n.ref as string);
        return v === MISSING ? ciUndef(n.name as string) : v;
      }
      case 'Tuple':
        return new JTuple((n.items as Node[]).map((x) => this.eval(x, sc)));
      case 'List':
        return (n.items as Node[]).map((x) => this.eval(x, sc));
      case 'Dict': {
        const d = new JDict();
        for (const [k, v] of n.pairs as Array<[Node, Node]>) {
          const kv = this.eval(k, sc);
          const vv = this.eval(v, sc);
          d.set(kv, vv);
        }
        return d;
      }
      case 'CondExpr':
        if (truthy(this.eval(n.test as Node, sc))) return this.eval(n.expr1 as Node, sc);
        if (n.expr2) return this.eval(n.expr2, sc);
        return new JUndef(
          'plain',
          null,
          MISSING,
          `the inline if-expression on line ${this.lineOf(n.pos)} evaluated to false and no else section was defined.`,
        );
      case 'And': {
        const a = this.eval(n.left as Node, sc);
        return truthy(a) ? this.eval(n.right as Node, sc) : a;
      }
      case 'Or': {
        const a = this.eval(n.left as Node, sc);
        return truthy(a) ? a : this.eval(n.right as Node, sc);
      }
      case 'Not':
        return !truthy(this.eval(n.node as Node, sc));
      case 'Neg':
      case 'Pos':
        return unaryop(n.kind === 'Neg' ? 'neg' : 'pos', this.eval(n.node as Node, sc));
      case 'BinOp': {
        const a = this.eval(n.left as Node, sc);
        const b = this.eval(n.right as Node, sc);
        return binop(n.op as BinOp, a, b, this);
      }
      case 'Concat': {
        const vals = (n.nodes as Node[]).map((x) => this.eval(x, sc));
        const s = vals.map((v) => pyStr(v)).join('');
        if (s.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
        return s;
      }
      case 'Compare': {
        let a = this.eval(n.node as Node, sc);
        for (const { op, expr } of n.ops as Array<{ op: string; expr: Node }>) {
          const b = this.eval(expr, sc);
          if (!this.compare(op, a, b)) return false;
          a = b;
        }
        return true;
      }
      case 'Getattr':
        return this.getattr(this.eval(n.node as Node, sc), n.attr as string);
      case 'Getitem': {
        const obj = this.eval(n.node as Node, sc);
        const arg = n.arg as Node;
        if (arg.kind === 'Slice') {
          const ev = (x: Node | null | undefined) => (x ? this.eval(x, sc) : undefined);
          const start = ev(arg.start);
          const stop = ev(arg.stop);
          const step = ev(arg.step);
          return sliceValue(obj, start, stop, step);
        }
        return this.getitem(obj, this.eval(arg, sc));
      }
      case 'Call': {
        const callee = this.eval(n.node as Node, sc);
        return this.call(callee, this.evalArgs(n, sc));
      }
      case 'Filter':
        return this.applyFilter(n, this.eval(n.node as Node, sc), sc);
      case 'Test':
        return this.applyTest(n, sc);
      case 'Slice':
        throw typeError('slice outside subscript');
      default:
        throw unsupported(`expression ${n.kind}`, n.pos);
    }
  }

  /** nodes.Node.as_const: Jinja's compile-time evaluation of constant expressions. */
  constEval(n: Node): JValue | typeof IMPOSSIBLE {
    const sub = (x: Node): JValue => {
      const v = this.constEval(x);
      if (v === IMPOSSIBLE) throw IMPOSSIBLE_SIGNAL;
      return v;
    };
    const guarded = (f: () => JValue): JValue | typeof IMPOSSIBLE => {
      try {
        return f();
      } catch (e) {
        if (e === IMPOSSIBLE_SIGNAL || e instanceof PyError) return IMPOSSIBLE;
        throw e;
      }
    };
    try {
      switch (n.kind) {
        case 'Const':
        case 'TemplateData':
          return n.value as JValue;
        case 'Tuple':
          return new JTuple((n.items as Node[]).map(sub));
        case 'List':
          return (n.items as Node[]).map(sub);
        case 'Dict': {
          const d = new JDict();
          for (const [k, v] of n.pairs as Array<[Node, Node]>) {
            const kv = sub(k);
            d.set(kv, sub(v));
          }
          return d;
        }
        case 'CondExpr':
          if (truthy(sub(n.test as Node))) return sub(n.expr1 as Node);
          if (!n.expr2) return IMPOSSIBLE;
          return sub(n.expr2);
        case 'And': {
          const a = sub(n.left as Node);
          return truthy(a) ? sub(n.right as Node) : a;
        }
        case 'Or': {
          const a = sub(n.left as Node);
          return truthy(a) ? a : sub(n.right as Node);
        }
        case 'Not':
          return guarded(() => !truthy(sub(n.node as Node)));
        case 'Neg':
        case 'Pos':
          return guarded(() => unaryop(n.kind === 'Neg' ? 'neg' : 'pos', sub(n.node as Node)));
        case 'BinOp':
          return guarded(() => binop(n.op as BinOp, sub(n.left as Node), sub(n.right as Node), this));
        case 'Concat':
          return (n.nodes as Node[]).map((x) => pyStr(sub(x))).join('');
        case 'Compare':
          return guarded(() => {
            let a = sub(n.node as Node);
            for (const { op, expr } of n.ops as Array<{ op: string; expr: Node }>) {
              const b = sub(expr);
              if (!this.compare(op, a, b)) return false;
              a = b;
            }
            return true;
          });
        case 'Getattr':
          return guarded(() => this.getattr(sub(n.node as Node), n.attr as string));
        case 'Getitem':
          return guarded(() => {
            const obj = sub(n.node as Node);
            const arg = n.arg as Node;
            if (arg.kind !== 'Slice') return this.getitem(obj, sub(arg));
            const part = (x: Node | null | undefined): JValue => (x ? sub(x) : null);
            const start = part(arg.start);
            const stop = part(arg.stop);
            const step = part(arg.step);
            if (obj instanceof JUndef) throw obj.fail();
            try {
              return sliceValue(obj, start ?? undefined, stop ?? undefined, step ?? undefined);
            } catch (e) {
              if (e instanceof PyError && e.pyType === 'TypeError') return ciUndef(new JSlice(start, stop, step), obj);
              throw e;
            }
          });
        case 'Filter':
        case 'Test':
          if (!n.node) return IMPOSSIBLE;
          if (n.kind === 'Filter' ? !KNOWN_FILTERS.has(n.name as string) || CONTEXT_FILTERS.has(n.name as string) : !KNOWN_TESTS.has(n.name as string)) {
            return IMPOSSIBLE;
          }
          return guarded(() => {
            const value = sub(n.node as Node);
            const args = (n.args as Node[]).map(sub);
            const kwargs = (n.kwargs as Array<[string, Node]>).map(([k, x]) => [k, sub(x)] as [string, JValue]);
            // args_as_const: *args and **kwargs fold too, or the node is not constant.
            if (n.dynArgs) {
              const v = sub(n.dynArgs);
              if (!isIterable(v) || v instanceof JUndef) throw IMPOSSIBLE_SIGNAL;
              pushAll(args, this.list(v));
            }
            if (n.dynKwargs) {
              const v = sub(n.dynKwargs);
              if (!(v instanceof JDict)) throw IMPOSSIBLE_SIGNAL;
              for (const [k, x] of v.entries()) {
                if (typeof k !== 'string' || kwargs.some(([k2]) => k2 === k)) throw IMPOSSIBLE_SIGNAL;
                kwargs.push([k, x]);
              }
            }
            const a = { args, kwargs };
            return n.kind === 'Filter' ? this.callFilter(n.name as string, value, a) : this.callTest(n.name as string, value, a);
          });
        default:
          return IMPOSSIBLE;
      }
    } catch (e) {
      if (e === IMPOSSIBLE_SIGNAL) return IMPOSSIBLE;
      throw e;
    }
  }

  compare(op: string, a: JValue, b: JValue): boolean {
    switch (op) {
      case 'eq':
        return pyEq(a, b);
      case 'ne':
        return !pyEq(a, b);
      case 'in':
        return this.contains(b, a);
      case 'notin':
        return !this.contains(b, a);
      default:
        return pyOrder(op as CmpOp, a, b);
    }
  }

  /** Python `item in container`. */
  contains(container: JValue, item: JValue): boolean {
    if (container instanceof JUndef) return false;
    if (typeof container === 'string' || container instanceof JMarkup) {
      const s = typeof container === 'string' ? container : container.s;
      const sub = typeof item === 'string' ? item : item instanceof JMarkup ? item.s : null;
      if (sub === null) throw typeError(`'in <string>' requires string as left operand, not ${typeName(item)}`);
      return s.includes(sub);
    }
    if (Array.isArray(container) || container instanceof JTuple) {
      const items = Array.isArray(container) ? container : container.items;
      return items.some((x) => x === item || pyEq(x, item));
    }
    if (container instanceof JDict) return container.map.has(hashKey(item));
    if (container instanceof JDictView) {
      if (container.kind === 'keys') return container.dict.map.has(hashKey(item));
      if (container.kind === 'values') return container.dict.values().some((x) => x === item || pyEq(x, item));
      if (!(item instanceof JTuple) || item.items.length !== 2) return false;
      const e = container.dict.map.get(hashKey(item.items[0]));
      return !!e && (e.v === item.items[1] || pyEq(e.v, item.items[1]));
    }
    if (container instanceof JRange) {
      if (!isNumber(item)) return false;
      let x: bigint;
      if (typeof item === 'number') {
        if (!Number.isInteger(item)) return false;
        x = BigInt(item);
      } else x = toBig(item);
      const r = container;
      if (r.step > 0n ? x < r.start || x >= r.stop : x > r.start || x <= r.stop) return false;
      return (x - r.start) % r.step === 0n;
    }
    if (container instanceof JGen) {
      for (let x = container.it.next(); !x.done; x = container.it.next()) {
        this.step();
        if (x.value === item || pyEq(x.value, item)) return true;
      }
      return false;
    }
    if (container instanceof JLoop || container instanceof JBytes) throw unsupported(`'in' on a ${typeName(container)}`);
    throw typeError(`argument of type '${typeName(container)}' is not iterable`);
  }

  /**
   * environment.getattr (sandboxed in current cloud-init): Python's getattr
   * first, then the item; an underscore name is an ordinary name, except
   * that a real Python attribute of that name is an object this tool cannot
   * show (22.4) or an unsafe undefined (the sandbox).
   */
  getattr(obj: JValue, attr: string): JValue {
    const priv = this.privateAttr(obj, attr);
    if (priv !== MISSING) return priv;
    if (obj instanceof JUndef) throw obj.fail();
    const a = attr.startsWith('_') ? (obj instanceof JNamespace ? pyGetattr(obj, attr, this) : MISSING) : this.safe(obj, attr, pyGetattr(obj, attr, this));
    if (a !== MISSING) return a;
    const r = trySubscript(obj, attr);
    if (r !== FAIL) return r;
    return ciUndef(attr, obj);
  }

  /** environment.getitem (sandboxed in current cloud-init) */
  getitem(obj: JValue, key: JValue): JValue {
    // obj[key] comes first, and an undefined's __getitem__ raises.
    if (obj instanceof JUndef) throw obj.fail();
    const r = trySubscript(obj, key);
    if (r !== FAIL) return r;
    if (typeof key === 'string') {
      const priv = this.privateAttr(obj, key);
      if (priv !== MISSING) return priv;
      const a = key.startsWith('_') ? (obj instanceof JNamespace ? pyGetattr(obj, key, this) : MISSING) : this.safe(obj, key, pyGetattr(obj, key, this));
      if (a !== MISSING) return a;
    }
    return ciUndef(key, obj);
  }

  /**
   * An underscore attribute the Python value really has: the sandbox's unsafe
   * undefined, or (plain Environment, 22.4) a Python object this tool cannot
   * reproduce. MISSING when the value has no such attribute.
   */
  privateAttr(obj: JValue, attr: string): JValue | typeof MISSING {
    if (!attr.startsWith('_')) return MISSING;
    if (obj instanceof JNamespace) {
      if (attr !== '__class__') return MISSING;
    } else if (!hasPrivateAttr(typeName(obj), attr)) return MISSING;
    if (this.sandbox) return unsafeUndef(obj, attr);
    throw unsupported(`the Python attribute ${pyStrRepr(attr)} of a ${typeName(obj)} value (Python object internals)`);
  }

  /** Python's getattr alone (the attr filter), with the sandbox's check. */
  getattrOnly(obj: JValue, attr: string): JValue | typeof MISSING {
    return this.safe(obj, attr, pyGetattr(obj, attr, this));
  }

  /** SandboxedEnvironment.is_safe_attribute for the non-underscore names it refuses. */
  private safe(obj: JValue, attr: string, v: JValue | typeof MISSING): JValue | typeof MISSING {
    if (!this.sandbox || v === MISSING) return v;
    if ((obj instanceof JGen && (attr === 'gi_frame' || attr === 'gi_code')) || (obj instanceof JFunc && obj.typeName === 'type' && attr === 'mro')) {
      return unsafeUndef(obj, attr);
    }
    return v;
  }

  /** context.call */
  call(callee: JValue, a: CallArgs): JValue {
    if (callee instanceof JUndef) throw callee.fail();
    if (callee instanceof JFunc) {
      if (!callee.call) throw unsupported(`calling ${callee.name}`);
      return callee.call(a, this);
    }
    if (callee instanceof JJoiner) {
      if (a.args.length || a.kwargs.length) throw unsupported('joiner called with arguments');
      if (!callee.used) {
        callee.used = true;
        return '';
      }
      return callee.sep;
    }
    if (callee instanceof JLoop) throw typeError("The loop must have the 'recursive' marker to be called recursively.");
    throw typeError(`'${typeName(callee)}' object is not callable`);
  }

  /** A call's arguments, with `*args` and `**kwargs` spread as Python spreads them. */
  evalArgs(n: Node, sc: Scope): CallArgs {
    const args = (n.args as Node[]).map((x) => this.eval(x, sc));
    const kwargs = (n.kwargs as Array<[string, Node]>).map(([k, x]) => [k, this.eval(x, sc)] as [string, JValue]);
    if (n.dynArgs) {
      const v = this.eval(n.dynArgs, sc);
      if (!isIterable(v) || v instanceof JUndef) throw unsupported('*args of a value that is not a sequence (Python words the TypeError after the callee)', n.dynArgs.pos);
      pushAll(args, this.list(v));
    }
    if (n.dynKwargs) {
      const v = this.eval(n.dynKwargs, sc);
      if (!(v instanceof JDict)) throw unsupported('**kwargs of a value that is not a dict (Python words the TypeError after the callee)', n.dynKwargs.pos);
      for (const [k, x] of v.entries()) {
        if (typeof k !== 'string') throw unsupported('**kwargs with a key that is not a string', n.dynKwargs.pos);
        if (kwargs.some(([k2]) => k2 === k)) throw unsupported('**kwargs repeating a keyword argument', n.dynKwargs.pos);
        kwargs.push([k, x]);
      }
    }
    return { args, kwargs };
  }

  applyFilter(n: Node, value: JValue, sc: Scope): JValue {
    const { args, kwargs } = this.evalArgs(n, sc);
    const name = n.name as string;
    if (!KNOWN_FILTERS.has(name)) throw new PyError('TemplateRuntimeError', `No filter named ${pyStrRepr(name)} found.`);
    return this.callFilter(name, value, { args, kwargs });
  }

  callFilter(name: string, value: JValue, a: CallArgs): JValue {
    const f = FILTERS[name];
    if (!f) {
      if (KNOWN_FILTERS.has(name)) throw unsupported(`the ${pyStrRepr(name)} filter`);
      throw new PyError('TemplateRuntimeError', `No filter named ${pyStrRepr(name)}.`);
    }
    return callBuiltin(f, [value, ...a.args], a.kwargs, this);
  }

  private applyTest(n: Node, sc: Scope): JValue {
    const value = this.eval(n.node as Node, sc);
    const { args, kwargs } = this.evalArgs(n, sc);
    const name = n.name as string;
    if (!KNOWN_TESTS.has(name)) throw new PyError('TemplateRuntimeError', `No test named ${pyStrRepr(name)} found.`);
    return this.callTest(name, value, { args, kwargs });
  }

  callTest(name: string, value: JValue, a: CallArgs): JValue {
    const t = TESTS[name];
    if (!t) {
      if (KNOWN_TESTS.has(name)) throw unsupported(`the ${pyStrRepr(name)} test`);
      throw new PyError('TemplateRuntimeError', `No test named ${pyStrRepr(name)}.`);
    }
    return callBuiltin(t, [value, ...a.args], a.kwargs, this);
  }
}

function isIterable(v: JValue): boolean {
  return (
    typeof v === 'string' ||
    Array.isArray(v) ||
    v instanceof JTuple ||
    v instanceof JDict ||
    v instanceof JDictView ||
    v instanceof JRange ||
    v instanceof JGen ||
    v instanceof JUndef ||
    v instanceof JMarkup ||
    v instanceof JBytes ||
    v instanceof JLoop
  );
}

// ---------------------------------------------------------------------------
// Builtin callables: argument binding with Python's rules and messages

const UNSET: unique symbol = Symbol('unset');

interface Builtin {
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

function callBuiltin(b: Builtin, args: JValue[], kwargs: Array<[string, JValue]>, r: Renderer): JValue {
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
  const vals: Array<JValue | typeof UNSET> = new Array(np).fill(UNSET);
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
function methodArgs(a: CallArgs, fname: string, names: string[], required: number, kwNames: string[] = [], clinic: string | null = null): Array<JValue | undefined> {
  const out: Array<JValue | undefined> = new Array(names.length).fill(undefined);
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

function indexArg(v: JValue): bigint {
  if (isInt(v)) return toBig(v);
  throw typeError(`'${typeName(v)}' object cannot be interpreted as an integer`);
}

function strArg(v: JValue, what: string): string {
  if (typeof v === 'string') return v;
  if (v instanceof JMarkup) return v.s;
  throw typeError(`${what}, not ${typeName(v)}`);
}

// ---------------------------------------------------------------------------
// Number parsing (int(str, base), float(str))

function pyParseFloat(s: string): number | null {
  const t = pyStrip(s, null, true, true);
  if (/[^\x00-\x7f]/.test(t)) throw unsupported('float() of a string with non-ASCII characters');
  const m = /^([+-]?)(?:(inf|infinity)|(nan))$/i.exec(t);
  if (m) return m[3] ? NaN : m[1] === '-' ? -Infinity : Infinity;
  const dig = '\\d(?:_?\\d)*';
  const re = new RegExp(`^[+-]?(?:${dig}(?:\\.(?:${dig})?)?|\\.${dig})(?:[eE][+-]?${dig})?$`);
  if (!re.test(t)) return null;
  return Number(t.replace(/_/g, ''));
}

function pyParseInt(s: string, base: number): bigint | null {
  let t = pyStrip(s, null, true, true);
  if (/[^\x00-\x7f]/.test(t)) throw unsupported('int() of a string with non-ASCII characters');
  let sign = 1n;
  if (t.startsWith('+') || t.startsWith('-')) {
    if (t[0] === '-') sign = -1n;
    t = t.slice(1);
  }
  const lower = t.toLowerCase();
  let b = base;
  if (b === 0) {
    if (lower.startsWith('0x')) b = 16;
    else if (lower.startsWith('0o')) b = 8;
    else if (lower.startsWith('0b')) b = 2;
    else {
      b = 10;
      if (/^0+(_?0)*$/.test(t)) return 0n;
      if (t.startsWith('0')) return null;
    }
  }
  const prefix = b === 16 ? '0x' : b === 8 ? '0o' : b === 2 ? '0b' : null;
  let hadPrefix = false;
  if (prefix && lower.startsWith(prefix)) {
    t = t.slice(2);
    hadPrefix = true;
  }
  if (hadPrefix && t.startsWith('_')) t = t.slice(1);
  if (!t || t.startsWith('_') || t.endsWith('_') || t.includes('__')) return null;
  const digits = t.replace(/_/g, '').toLowerCase();
  let v = 0n;
  const bb = BigInt(b);
  for (const ch of digits) {
    const d = parseInt(ch, 36);
    if (Number.isNaN(d) || d >= b) return null;
    v = v * bb + BigInt(d);
  }
  if (b === 10 && digits.length > INT_MAX_STR_DIGITS) {
    throw new PyError('ValueError', `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${digits.length} digits; use sys.set_int_max_str_digits() to increase the limit`);
  }
  return sign * v;
}

/** Python int(x) for a non-str x. */
function pyIntOf(v: JValue): bigint {
  if (v instanceof JUndef) throw v.fail();
  if (isInt(v)) return toBig(v);
  if (typeof v === 'number') {
    if (Number.isNaN(v)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(v)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
    return BigInt(Math.trunc(v));
  }
  throw typeError(`int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`);
}

/** Python float(x). */
function pyFloatOf(v: JValue): number {
  if (v instanceof JUndef) throw v.fail();
  if (typeof v === 'string' || v instanceof JMarkup) {
    const s = typeof v === 'string' ? v : v.s;
    const f = pyParseFloat(s);
    if (f === null) throw new PyError('ValueError', `could not convert string to float: ${pyStrRepr(s)}`);
    return f;
  }
  if (isNumber(v)) return toFloat(v);
  throw typeError(`float() argument must be a string or a real number, not '${typeName(v)}'`);
}

// ---------------------------------------------------------------------------
// printf-style formatting (str % args)

function pyAscii(s: string): string {
  let out = '';
  for (const ch of pyStrRepr(s)) {
    const cp = ch.codePointAt(0) as number;
    if (cp < 0x80) out += ch;
    else if (cp < 0x100) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return out;
}

function pyPercentFormat(fmt: string, v: JValue, r: Renderer): string {
  void r;
  let args: JValue[];
  let mapping: JDict | null = null;
  let isMapping = false;
  if (v instanceof JTuple) args = v.items;
  else {
    args = [v];
    if (v instanceof JDict) mapping = v;
    isMapping = v instanceof JDict || Array.isArray(v) || v instanceof JRange || v instanceof JUndef || v instanceof JBytes;
  }
  let argi = 0;
  let usedMapping = false;
  const nextArg = (): JValue => {
    if (argi >= args.length) throw typeError('not enough arguments for format string');
    return args[argi++];
  };
  let out = '';
  let i = 0;
  while (i < fmt.length) {
    const c = fmt[i];
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    const start = i;
    i++;
    if (i >= fmt.length) throw new PyError('ValueError', 'incomplete format');
    let key: string | null = null;
    if (fmt[i] === '(') {
      let depth = 1;
      let j = i + 1;
      while (j < fmt.length && depth) {
        if (fmt[j] === '(') depth++;
        else if (fmt[j] === ')') depth--;
        j++;
      }
      if (depth) throw new PyError('ValueError', 'incomplete format key');
      key = fmt.slice(i + 1, j - 1);
      i = j;
    }
    let flags = '';
    while (i < fmt.length && '-+ #0'.includes(fmt[i])) flags += fmt[i++];
    let width = -1;
    if (fmt[i] === '*') throw unsupported('* width in % formatting');
    let w = '';
    while (i < fmt.length && fmt[i] >= '0' && fmt[i] <= '9') w += fmt[i++];
    if (w) width = Number(w);
    let prec = -1;
    if (fmt[i] === '.') {
      i++;
      if (fmt[i] === '*') throw unsupported('* precision in % formatting');
      let p = '';
      while (i < fmt.length && fmt[i] >= '0' && fmt[i] <= '9') p += fmt[i++];
      prec = p ? Number(p) : 0;
    }
    while (i < fmt.length && 'hlL'.includes(fmt[i])) i++;
    if (i >= fmt.length) throw new PyError('ValueError', 'incomplete format');
    const conv = fmt[i++];
    if (conv === '%') {
      out += '%';
      continue;
    }
    let arg: JValue;
    if (key !== null) {
      if (!mapping) {
        if (isMapping) throw unsupported('%(key) formatting with a non-dict argument');
        throw typeError('format requires a mapping');
      }
      usedMapping = true;
      const e = mapping.map.get(hashKey(key));
      if (!e) throw new PyError('KeyError', pyStrRepr(key));
      arg = e.v;
    } else arg = nextArg();
    let body: string;
    let sign = '';
    let numeric = false;
    switch (conv) {
      case 's':
      case 'r':
      case 'a':
        body = conv === 's' ? pyStr(arg) : conv === 'r' ? pyRepr(arg) : typeof arg === 'string' ? pyAscii(arg) : pyRepr(arg);
        if (prec >= 0) body = cps(body).slice(0, prec).join('');
        break;
      case 'd':
      case 'i':
      case 'u':
      case 'x':
      case 'X':
      case 'o': {
        if (arg instanceof JUndef) throw arg.fail();
        if (!isNumber(arg)) {
          throw typeError(
            conv === 'x' || conv === 'X' || conv === 'o'
              ? `%${conv} format: an integer is required, not ${typeName(arg)}`
              : `%${conv} format: a real number is required, not ${typeName(arg)}`,
          );
        }
        if (typeof arg === 'number' && (conv === 'x' || conv === 'X' || conv === 'o')) {
          throw typeError(`%${conv} format: an integer is required, not float`);
        }
        numeric = true;
        let n = pyIntOf(arg);
        if (n < 0n) {
          sign = '-';
          n = -n;
        } else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        body = conv === 'x' || conv === 'X' ? n.toString(16) : conv === 'o' ? n.toString(8) : intStr(n);
        if (conv === 'X') body = body.toUpperCase();
        if (prec >= 0 && body.length < prec) body = body.padStart(prec, '0');
        if (flags.includes('#') && conv !== 'd' && conv !== 'i' && conv !== 'u') {
          sign += conv === 'x' ? '0x' : conv === 'X' ? '0X' : '0o';
        }
        break;
      }
      case 'f':
      case 'F': {
        if (arg instanceof JUndef) throw arg.fail();
        if (!isNumber(arg)) throw typeError(`must be real number, not ${typeName(arg)}`);
        numeric = true;
        const x = toFloat(arg);
        let s = formatFixed(x, prec < 0 ? 6 : prec);
        if (flags.includes('#') && prec === 0 && Number.isFinite(x)) s += '.';
        if (conv === 'F') s = s.toUpperCase();
        if (s.startsWith('-')) {
          sign = '-';
          s = s.slice(1);
        } else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        body = s;
        break;
      }
      case 'e':
      case 'E':
      case 'g':
      case 'G': {
        if (arg instanceof JUndef) throw arg.fail();
        if (!isNumber(arg)) throw typeError(`must be real number, not ${typeName(arg)}`);
        const x = toFloat(arg);
        numeric = true;
        if (x < 0 || Object.is(x, -0)) sign = '-';
        else if (flags.includes('+')) sign = '+';
        else if (flags.includes(' ')) sign = ' ';
        if (Number.isNaN(x)) sign = flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
        body = floatFormatBody(x, conv, prec < 0 ? 6 : prec, flags.includes('#'));
        break;
      }
      case 'c': {
        // Neither an int nor a str (an undefined included): no conversion method is tried.
        if (typeof arg === 'string' || arg instanceof JMarkup) {
          const t = typeof arg === 'string' ? arg : arg.s;
          if (pyLen(t) !== 1) throw typeError('%c requires int or char');
          body = t;
        } else if (isInt(arg)) {
          const n = toBig(arg);
          if (n < 0n || n > 0x10ffffn) throw new PyError('OverflowError', '%c arg not in range(0x110000)');
          body = String.fromCodePoint(Number(n));
        } else throw typeError('%c requires int or char');
        break;
      }
      default:
        throw new PyError(
          'ValueError',
          `unsupported format character ${pyStrRepr(conv)} (0x${(conv.codePointAt(0) as number).toString(16)}) at index ${i - 1}`,
        );
    }
    void start;
    const total = pyLen(sign + body);
    if (width > total) {
      if (flags.includes('-')) body = sign + body + ' '.repeat(width - total);
      else if (flags.includes('0') && numeric) body = sign + '0'.repeat(width - total) + body;
      else body = ' '.repeat(width - total) + sign + body;
    } else body = sign + body;
    out += body;
  }
  if (argi < args.length && !isMapping) throw typeError('not all arguments converted during string formatting');
  void usedMapping;
  return out;
}

// ---------------------------------------------------------------------------
// json.dumps(obj, sort_keys=True, indent=...) as |tojson uses it

function jsonStr(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (cp >= 0x20 && cp <= 0x7e) out += ch;
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else {
      const v = cp - 0x10000;
      out += '\\u' + (0xd800 + (v >> 10)).toString(16) + '\\u' + (0xdc00 + (v & 0x3ff)).toString(16);
    }
  }
  return out + '"';
}

function jsonFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

function jsonDumps(v: JValue, indent: string | null): string {
  const stack = new Set<object>();
  const enc = (x: JValue, level: number): string => {
    if (x === null) return 'null';
    if (x === true) return 'true';
    if (x === false) return 'false';
    if (typeof x === 'bigint') return intStr(x);
    if (typeof x === 'number') return jsonFloat(x);
    if (typeof x === 'string') return jsonStr(x);
    if (x instanceof JMarkup) return jsonStr(x.s);
    const nl = indent === null ? '' : '\n' + indent.repeat(level + 1);
    const nlEnd = indent === null ? '' : '\n' + indent.repeat(level);
    const sep = indent === null ? ', ' : ',' + nl;
    if (Array.isArray(x) || x instanceof JTuple) {
      const items = Array.isArray(x) ? x : x.items;
      if (!items.length) return '[]';
      if (stack.has(x)) throw new PyError('ValueError', 'Circular reference detected');
      stack.add(x);
      const s = '[' + nl + items.map((i) => enc(i, level + 1)).join(sep) + nlEnd + ']';
      stack.delete(x);
      return s;
    }
    if (x instanceof JDict) {
      if (!x.size) return '{}';
      if (stack.has(x)) throw new PyError('ValueError', 'Circular reference detected');
      stack.add(x);
      const entries = timsort(x.entries(), (a, b) => pyLt(a[0], b[0]));
      const parts = entries.map(([k, val]) => {
        let ks: string;
        if (typeof k === 'string') ks = k;
        else if (k instanceof JMarkup) ks = k.s;
        else if (typeof k === 'number') ks = jsonFloat(k);
        else if (k === true) ks = 'true';
        else if (k === false) ks = 'false';
        else if (k === null) ks = 'null';
        else if (typeof k === 'bigint') ks = intStr(k);
        else throw typeError(`keys must be str, int, float, bool or None, not ${typeName(k)}`);
        return jsonStr(ks) + ': ' + enc(val, level + 1);
      });
      stack.delete(x);
      return '{' + nl + parts.join(sep) + nlEnd + '}';
    }
    throw typeError(`Object of type ${x instanceof JFunc ? x.typeName : typeName(x)} is not JSON serializable`);
  };
  return enc(v, 0);
}

/**
 * Python's `sorted(items, key=key, reverse=reverse)`: CPython's timsort (../py/sort), so that NaN and
 * other inconsistent orders come out as in Python; `reverse` reverses before and after sorting, as
 * CPython does to keep the sort stable.
 */
function pySorted(items: JValue[], key: (x: JValue) => JValue, reverse: boolean): JValue[] {
  const keyed = items.map((x) => ({ x, k: key(x) }));
  if (reverse) keyed.reverse();
  const sorted = timsort(keyed, (a, b) => pyLt(a.k, b.k));
  if (reverse) sorted.reverse();
  return sorted.map((e) => e.x);
}

function urlQuote(v: JValue, forQs: boolean): string {
  const s = typeof v === 'string' ? v : pyStr(v);
  if (RE_SURROGATE.test(s) && /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s)) {
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

function softStr(v: JValue): JValue {
  return v instanceof JMarkup ? v : pyStr(v);
}

/** Apply a str -> str function to soft_str(v), keeping Markup-ness. */
function mapStr(v: JValue, f: (s: string) => string): JValue {
  if (v instanceof JMarkup) return new JMarkup(f(v.s));
  return f(pyStr(v));
}

function ignoreCase(v: JValue): JValue {
  if (typeof v === 'string') return v.toLowerCase();
  if (v instanceof JMarkup) return new JMarkup(v.s.toLowerCase());
  return v;
}

function prepareAttributeParts(attr: JValue): JValue[] {
  if (attr === null) return [];
  if (typeof attr === 'string') return attr.split('.').map((x) => (/^[0-9]+$/.test(x) ? BigInt(x) : x));
  if (attr instanceof JMarkup) return prepareAttributeParts(attr.s);
  return [attr];
}

function makeAttrgetter(r: Renderer, attribute: JValue, postprocess: ((v: JValue) => JValue) | null, dflt: JValue = null): (x: JValue) => JValue {
  const parts = prepareAttributeParts(attribute);
  return (item: JValue) => {
    for (const part of parts) {
      item = r.getitem(item, part);
      if (dflt !== null && item instanceof JUndef) item = dflt;
    }
    return postprocess ? postprocess(item) : item;
  };
}

function makeMultiAttrgetter(r: Renderer, attribute: JValue, postprocess: ((v: JValue) => JValue) | null): (x: JValue) => JValue {
  const split: JValue[] = typeof attribute === 'string' ? attribute.split(',') : [attribute];
  const parts = split.map(prepareAttributeParts);
  return (item: JValue) =>
    parts.map((ps) => {
      let x = item;
      for (const p of ps) x = r.getitem(x, p);
      return postprocess ? postprocess(x) : x;
    });
}

function gen(r: Renderer, body: () => Generator<JValue>): JGen {
  void r;
  return new JGen(body());
}

function reversedOf(v: JValue, r: Renderer): JGen | null {
  if (typeof v === 'string' || v instanceof JMarkup) {
    const chars = cps(typeof v === 'string' ? v : v.s).reverse();
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

function f(
  fn: string,
  params: string[],
  impl: Builtin['impl'],
  o: Partial<Pick<Builtin, 'hidden' | 'defaults' | 'varargs' | 'varkw' | 'cOne'>> = {},
): Builtin {
  return { fn, params, impl, ...o };
}

function doLen(v: JValue): JValue {
  return pyLenOf(v);
}

function selectOrReject(r: Renderer, value: JValue, args: JValue[], kw: Array<[string, JValue]>, negate: boolean, lookupAttr: boolean): JGen {
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

function callTestByName(r: Renderer, name: JValue, item: JValue, args: JValue[], kw: Array<[string, JValue]>): JValue {
  if (typeof name !== 'string') {
    if (name instanceof JUndef) throw new PyError('TemplateRuntimeError', `No test named ${pyRepr(name)}. (${name.message()}; did you forget to quote the callable name?)`);
    hashKey(name);
    throw new PyError('TemplateRuntimeError', `No test named ${pyRepr(name)}.`);
  }
  return r.callTest(name, item, { args, kwargs: kw });
}

function callFilterByName(r: Renderer, name: JValue, item: JValue, args: JValue[], kw: Array<[string, JValue]>): JValue {
  if (typeof name !== 'string') {
    if (name instanceof JUndef) throw new PyError('TemplateRuntimeError', `No filter named ${pyRepr(name)}. (${name.message()}; did you forget to quote the callable name?)`);
    hashKey(name);
    throw new PyError('TemplateRuntimeError', `No filter named ${pyRepr(name)}.`);
  }
  return r.callFilter(name, item, { args, kwargs: kw });
}

function minMax(r: Renderer, value: JValue, caseSensitive: JValue, attribute: JValue, isMax: boolean): JValue {
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

const FILTERS: Record<string, Builtin> = {
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
    if (bytes < base) return `${intStr(pyIntOf(bytes))} Bytes`;
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
    if (truthy(blank)) rv = pySplitlines(text).join('\n' + indention);
    else {
      const lines = pySplitlines(text);
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
        const v = pyParseInt(s, Number(b));
        if (v === null) throw new PyError('ValueError', `invalid literal for int() with base ${b}: ${pyStrRepr(s)}`);
        return v;
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
    if (typeof value === 'string') return cps(value).reverse().join('');
    if (value instanceof JMarkup) return new JMarkup(cps(value.s).reverse().join(''));
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
        .split(new RegExp(`([-${PY_WS}({\\[<]+)`))
        .filter((item) => item)
        .map((item) => {
          const c = cps(item);
          return c[0].toUpperCase() + c.slice(1).join('').toLowerCase();
        })
        .join(''),
    )),
  trim: f('do_trim', ['value', 'chars'], ([value, chars]) => {
    if (chars !== null && typeof chars !== 'string' && !(chars instanceof JMarkup)) throw typeError('strip arg must be None or str');
    const c = chars === null ? null : typeof chars === 'string' ? chars : chars.s;
    return mapStr(value, (s) => pyStrip(s, c === null ? null : c, true, true));
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

// ---------------------------------------------------------------------------
// Tests (jinja2/tests.py)

function opTest(name: string, op: (a: JValue, b: JValue) => boolean): Builtin {
  return {
    fn: name,
    params: ['a', 'b'],
    impl: ([a, b]) => op(a, b),
    cTwo: true,
  };
}

const TESTS: Record<string, Builtin> = {
  odd: f('test_odd', ['value'], ([v], r) => pyEq(binop('mod', v, 2n, r), 1n)),
  even: f('test_even', ['value'], ([v], r) => pyEq(binop('mod', v, 2n, r), 0n)),
  divisibleby: f('test_divisibleby', ['value', 'num'], ([v, n], r) => pyEq(binop('mod', v, n, r), 0n)),
  defined: f('test_defined', ['value'], ([v]) => !(v instanceof JUndef)),
  undefined: f('test_undefined', ['value'], ([v]) => v instanceof JUndef),
  filter: f('test_filter', ['env', 'value'], ([v]) => {
    hashKey(v);
    return typeof v === 'string' && KNOWN_FILTERS.has(v);
  }, { hidden: 1 }),
  test: f('test_test', ['env', 'value'], ([v]) => {
    hashKey(v);
    return typeof v === 'string' && KNOWN_TESTS.has(v);
  }, { hidden: 1 }),
  none: f('test_none', ['value'], ([v]) => v === null),
  boolean: f('test_boolean', ['value'], ([v]) => typeof v === 'boolean'),
  false: f('test_false', ['value'], ([v]) => v === false),
  true: f('test_true', ['value'], ([v]) => v === true),
  integer: f('test_integer', ['value'], ([v]) => typeof v === 'bigint'),
  float: f('test_float', ['value'], ([v]) => typeof v === 'number'),
  lower: f('test_lower', ['value'], ([v]) => pyIsLower(pyStr(v))),
  upper: f('test_upper', ['value'], ([v]) => pyIsUpper(pyStr(v))),
  string: f('test_string', ['value'], ([v]) => typeof v === 'string' || v instanceof JMarkup),
  mapping: f('test_mapping', ['value'], ([v]) => v instanceof JDict),
  number: f('test_number', ['value'], ([v]) => isNumber(v)),
  sequence: f('test_sequence', ['value'], ([v]) =>
    typeof v === 'string' ||
    Array.isArray(v) ||
    v instanceof JTuple ||
    v instanceof JDict ||
    v instanceof JRange ||
    v instanceof JUndef ||
    v instanceof JMarkup ||
    v instanceof JBytes),
  iterable: f('test_iterable', ['value'], ([v]) => isIterable(v)),
  callable: f('callable', ['obj'], ([v]) => v instanceof JFunc || v instanceof JJoiner || v instanceof JLoop || v instanceof JUndef, {
    cOne: true,
  }),
  sameas: f('test_sameas', ['value', 'other'], ([a, b]) => {
    if (a === null || typeof a === 'boolean' || b === null || typeof b === 'boolean') return a === b;
    if (typeof a === 'bigint' && typeof b === 'bigint' && a >= -5n && a <= 256n) return a === b;
    if (typeof a === 'object' && typeof b === 'object') return a === b;
    if (typeof a !== typeof b) return false;
    throw unsupported('sameas (object identity) on strings or numbers');
  }),
  escaped: f('test_escaped', ['value'], ([v]) => v instanceof JMarkup),
  in: f('test_in', ['value', 'seq'], ([v, seq], r) => r.contains(seq, v)),
  '==': opTest('eq', pyEq),
  eq: opTest('eq', pyEq),
  equalto: opTest('eq', pyEq),
  '!=': opTest('ne', (a, b) => !pyEq(a, b)),
  ne: opTest('ne', (a, b) => !pyEq(a, b)),
  '>': opTest('gt', (a, b) => pyOrder('gt', a, b)),
  gt: opTest('gt', (a, b) => pyOrder('gt', a, b)),
  greaterthan: opTest('gt', (a, b) => pyOrder('gt', a, b)),
  ge: opTest('ge', (a, b) => pyOrder('gteq', a, b)),
  '>=': opTest('ge', (a, b) => pyOrder('gteq', a, b)),
  '<': opTest('lt', (a, b) => pyOrder('lt', a, b)),
  lt: opTest('lt', (a, b) => pyOrder('lt', a, b)),
  lessthan: opTest('lt', (a, b) => pyOrder('lt', a, b)),
  '<=': opTest('le', (a, b) => pyOrder('lteq', a, b)),
  le: opTest('le', (a, b) => pyOrder('lteq', a, b)),
};

// ---------------------------------------------------------------------------
// Attributes and methods of the Python types

const STR_ATTRS = new Set([
  'capitalize', 'casefold', 'center', 'count', 'encode', 'endswith', 'expandtabs', 'find', 'format', 'format_map',
  'index', 'isalnum', 'isalpha', 'isascii', 'isdecimal', 'isdigit', 'isidentifier', 'islower', 'isnumeric',
  'isprintable', 'isspace', 'istitle', 'isupper', 'join', 'ljust', 'lower', 'lstrip', 'maketrans', 'partition',
  'removeprefix', 'removesuffix', 'replace', 'rfind', 'rindex', 'rjust', 'rpartition', 'rsplit', 'rstrip', 'split',
  'splitlines', 'startswith', 'strip', 'swapcase', 'title', 'translate', 'upper', 'zfill',
]);
const INT_ATTRS = new Set([
  'as_integer_ratio', 'bit_count', 'bit_length', 'conjugate', 'denominator', 'from_bytes', 'imag', 'numerator', 'real',
  'to_bytes',
]);
const FLOAT_ATTRS = new Set(['as_integer_ratio', 'conjugate', 'fromhex', 'hex', 'imag', 'is_integer', 'real']);
const LIST_ATTRS = new Set(['append', 'clear', 'copy', 'count', 'extend', 'index', 'insert', 'pop', 'remove', 'reverse', 'sort']);
const TUPLE_ATTRS = new Set(['count', 'index']);
const DICT_ATTRS = new Set(['clear', 'copy', 'fromkeys', 'get', 'items', 'keys', 'pop', 'popitem', 'setdefault', 'update', 'values']);
const RANGE_ATTRS = new Set(['count', 'index', 'start', 'step', 'stop']);

type Method = (a: CallArgs, r: Renderer) => JValue;

function bound(owner: string, name: string, m: Method | undefined, typeName = 'builtin_function_or_method'): JFunc {
  return new JFunc(`${owner}.${name}`, m ?? null, null, typeName);
}

function strPredicate(s: string, re: RegExp): boolean {
  return s.length > 0 && Array.from(s).every((c) => re.test(c));
}

function padTo(s: string, width: JValue, fill: JValue | undefined, where: 'l' | 'r' | 'c'): string {
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

function affixArg(v: JValue, fname: string): string[] {
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
function subscriptError(v: JValue, key: string | bigint): PyError {
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
function formatHost(r: Renderer): FormatHost<JValue> {
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
      const a = name.startsWith('_') && !(v instanceof JNamespace) ? MISSING : pyGetattr(v, name, r);
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

function strFormat(s: string, r: Renderer, args: JValue[], kw: (name: string) => JValue | undefined, mapOnly = false): string {
  const out = pyFormat(formatHost(r), s, { args, kw, mapOnly }, 2);
  if (out.length > LIMITS.maxValueSize) throw unsupported(`value larger than ${LIMITS.maxValueSize} (limit)`);
  return out;
}

/** Python's Unicode tables are not JavaScript's: some methods are emulated for ASCII text only. */
function asciiOnly(s: string, method: string): void {
  if (/[^\x00-\x7f]/.test(s)) throw unsupported(`str.${method} of non-ASCII text`);
}

function strMethods(s: string): Record<string, Method> {
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
    strip: (a) => pyStrip(s, sepArg(methodArgs(a, 'strip', ['chars'], 0, [], 'str')[0]), true, true),
    lstrip: (a) => pyStrip(s, sepArg(methodArgs(a, 'lstrip', ['chars'], 0, [], 'str')[0]), true, false),
    rstrip: (a) => pyStrip(s, sepArg(methodArgs(a, 'rstrip', ['chars'], 0, [], 'str')[0]), false, true),
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
      return pySplitlines(s, keep !== undefined && truthy(keep));
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
      const chars = cps(s);
      if (name === 'utf-8' || name === 'utf8') {
        const bad = chars.findIndex((c) => RE_SURROGATE.test(c));
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
      const xs = cps(strArg(x as JValue, 'maketrans() argument 1 must be str'));
      const ys = cps(strArg(y, 'maketrans() argument 2 must be str'));
      if (xs.length !== ys.length) throw new PyError('ValueError', 'the first two maketrans arguments must have equal length');
      xs.forEach((c, i) => d.set(BigInt(c.codePointAt(0) as number), BigInt(ys[i].codePointAt(0) as number)));
      if (z !== undefined) for (const c of cps(strArg(z, 'maketrans() argument 3 must be str'))) d.set(BigInt(c.codePointAt(0) as number), null);
      return d;
    },
    isdigit: (a) => (methodArgs(a, 'str.isdigit', [], 0), strPredicate(s, /^[0-9]$/)),
    isdecimal: (a) => (methodArgs(a, 'str.isdecimal', [], 0), strPredicate(s, /^[0-9]$/)),
    isalpha: (a) => (methodArgs(a, 'str.isalpha', [], 0), strPredicate(s, /^\p{L}$/u)),
    isalnum: (a) => (methodArgs(a, 'str.isalnum', [], 0), strPredicate(s, /^[\p{L}\p{N}]$/u)),
    isspace: (a) => (methodArgs(a, 'str.isspace', [], 0), s.length > 0 && pyIsSpace(s)),
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
function dictUpdate(d: JDict, a: CallArgs, r: Renderer, fname: string): void {
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
function dictFromkeys(a: CallArgs, r: Renderer): JValue {
  const [it, v] = methodArgs(a, 'fromkeys', ['iterable', 'value'], 1, [], 'dict');
  const d = new JDict();
  for (const k of r.list(it as JValue)) {
    r.step();
    d.set(k, v === undefined ? null : v);
  }
  return d;
}

function dictMethods(d: JDict): Record<string, Method> {
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

function listMethods(l: JValue[]): Record<string, Method> {
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

/** getattr(obj, name), or MISSING when Python raises AttributeError. */
function pyGetattr(obj: JValue, name: string, r: Renderer): JValue | typeof MISSING {
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
const MARKUP_WRAPPED = new Set(['capitalize', 'title', 'lower', 'upper', 'replace', 'ljust', 'rjust', 'lstrip', 'rstrip', 'center', 'strip', 'translate', 'expandtabs', 'swapcase', 'zfill']);
/** split/rsplit/splitlines: arguments as given, items Markup; partition/rpartition escape the separator. */
const MARKUP_SPLITS = new Set(['split', 'rsplit', 'splitlines']);

function escapeArg(v: JValue): JValue {
  return typeof v === 'string' ? new JMarkup(htmlEscape(v)) : v;
}

function toMarkup(v: JValue): JValue {
  if (typeof v === 'string') return new JMarkup(v);
  if (Array.isArray(v)) return v.map(toMarkup);
  if (v instanceof JTuple) return new JTuple(v.items.map(toMarkup));
  return v;
}

/** Attributes of a markupsafe.Markup (a str subclass). */
function markupAttr(m: JMarkup, name: string): JValue | typeof MISSING {
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

function loopAttr(l: JLoop, name: string): JValue | typeof MISSING {
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
      return l.before as JValue;
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

/** The sandbox's safe_range refuses ranges longer than this (jinja2.sandbox.MAX_RANGE). */
const SANDBOX_MAX_RANGE = 100_000n;

function makeGlobals(sandbox: boolean): Map<string, JValue> {
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

// ---------------------------------------------------------------------------
// Instance data: Python's json.loads, cloud-init's convert_jinja_instance_data

class JsonError extends Error {}

/** json.loads with Python's result types (int vs float, NaN/Infinity, duplicate keys). */
function parsePythonJson(text: string): JValue {
  if (text.startsWith('\ufeff')) throw new JsonError('Unexpected UTF-8 BOM (decode using utf-8-sig)');
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (msg: string): never => {
    throw new JsonError(`${msg}: char ${i}`);
  };
  const str = (): string => {
    i++;
    let out = '';
    for (;;) {
      if (i >= text.length) fail('Unterminated string starting at');
      const c = text[i++];
      if (c === '"') return out;
      if (c === '\\') {
        const e = text[i++];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (e in simple) out += simple[e];
        else if (e === 'u') {
          const h = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(h)) fail('Invalid \\uXXXX escape');
          out += String.fromCharCode(parseInt(h, 16));
          i += 4;
        } else fail('Invalid \\escape');
      } else if (c.charCodeAt(0) < 0x20) fail('Invalid control character at');
      else out += c;
    }
  };
  const value = (depth: number): JValue => {
    if (depth > 500) throw unsupported('instance data nested deeper than 500 levels');
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const d = new JDict();
      ws();
      if (text[i] === '}') {
        i++;
        return d;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail('Expecting property name enclosed in double quotes');
        const k = str();
        ws();
        if (text[i] !== ':') fail("Expecting ':' delimiter");
        i++;
        d.set(k, value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return d;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === '[') {
      i++;
      const l: JValue[] = [];
      ws();
      if (text[i] === ']') {
        i++;
        return l;
      }
      for (;;) {
        l.push(value(depth + 1));
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return l;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === '"') return str();
    for (const [lit, v] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', NaN],
      ['Infinity', Infinity],
      ['-Infinity', -Infinity],
    ] as Array<[string, JValue]>) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return v;
      }
    }
    const m = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
    m.lastIndex = i;
    const nm = m.exec(text);
    if (nm) {
      i += nm[0].length;
      if (nm[1] || nm[2]) return Number(nm[0]);
      const digits = nm[0].replace('-', '');
      if (digits.length > INT_MAX_STR_DIGITS) throw new JsonError('integer string too long');
      return BigInt(nm[0]);
    }
    return fail('Expecting value');
  };
  const v = value(0);
  ws();
  if (i < text.length) fail('Extra data');
  return v;
}

/** A plain JS value (e.g. from JSON.parse) as a Python value. */
function fromPlain(v: unknown, depth = 0): JValue {
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

function toPlain(v: JValue): unknown {
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

function deepCopy(v: JValue, memo = new Map<object, JValue>()): JValue {
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
function b64d(v: JValue): JValue {
  let s: string;
  if (typeof v === 'string') {
    if (/[^\x00-\x7f]/.test(v)) throw new PyError('ValueError', 'string argument should contain only ASCII characters');
    s = v;
  } else if (v instanceof JBytes) s = Buffer.from(v.bytes).toString('latin1');
  else throw typeError(`argument should be a bytes-like object or ASCII string, not '${typeName(v)}'`);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const out: number[] = [];
  let quad = 0;
  let pads = 0;
  let left = 0;
  let dataChars = 0;
  let done = false;
  for (const ch of s) {
    if (ch === '=') {
      if (quad >= 2 && quad + ++pads >= 4) {
        done = true;
        break;
      }
      continue;
    }
    const d = alphabet.indexOf(ch);
    if (d < 0) continue;
    dataChars++;
    pads = 0;
    switch (quad) {
      case 0:
        left = d;
        quad = 1;
        break;
      case 1:
        out.push((left << 2) | (d >> 4));
        left = d & 0x0f;
        quad = 2;
        break;
      case 2:
        out.push((left << 4) | (d >> 2));
        left = d & 0x03;
        quad = 3;
        break;
      case 3:
        out.push((left << 6) | d);
        quad = 0;
        break;
    }
  }
  if (!done && quad !== 0) {
    if (quad === 1) {
      throw new PyError(
        'Error',
        `Invalid base64-encoded string: number of data characters (${dataChars}) cannot be 1 more than a multiple of 4`,
      );
    }
    throw new PyError('Error', 'Incorrect padding');
  }
  const bytes = Uint8Array.from(out);
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return new JBytes(bytes);
  }
}

const OPERATOR_RE = /\/\/|\*\*|==|!=|>=|<=|[+\-/*%~[\](){}><=.:|,;]/g;

function convertJinja(data: JDict, prefix: string, decodePaths: JValue): JDict {
  const paths: string[] = [];
  const rawPaths: JValue[] =
    typeof decodePaths === 'string'
      ? cps(decodePaths)
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

function loadInstanceData(instanceData: unknown): JDict {
  let data: JValue;
  if (typeof instanceData === 'string') data = parsePythonJson(instanceData);
  else if (instanceData instanceof Uint8Array) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(instanceData);
    } catch {
      throw new JsonError('invalid utf-8');
    }
    data = parsePythonJson(text);
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

// ---------------------------------------------------------------------------
// Entry points

const TYPE_MATCHER = new RegExp(`^##${PY_WS_CLASS}*template:([^\\n]*)`, 'i');

/** templater.detect_template: 'jinja', 'basic', or the ValueError for another type. */
export function detectTemplate(payload: string): { type: 'jinja' | 'basic'; rest: string } | { error: string } {
  const nl = payload.indexOf('\n');
  const ident = nl >= 0 ? payload.slice(0, nl) : payload;
  const rest = nl >= 0 ? payload.slice(nl + 1) : '';
  const m = TYPE_MATCHER.exec(ident);
  if (!m) return { type: 'basic', rest: payload };
  const t = pyStrip(m[1].toLowerCase(), null, true, true);
  if (t !== 'jinja' && t !== 'basic') return { error: `Unknown template rendering type ${pyStrRepr(t)} requested` };
  return { type: t, rest };
}

/** detect_template's header test: does cloud-init render this payload with Jinja? */
export function isJinjaTemplate(payload: string): boolean {
  const d = detectTemplate(payload);
  return 'type' in d && d.type === 'jinja';
}

const MISSING_RE = new RegExp(`CI_MISSING_JINJA_VAR/[^${PY_WS}]+`, 'g');

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
  // Jinja's lexer: every newline becomes "\n", one trailing newline dropped.
  const lines = content.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  const src = lines.join('\n');
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
    const body = new Parser(tokenize(src)).parse();
    const lineOf = (pos: number) => src.slice(0, pos).split('\n').length;
    const sandbox = (options.version ?? '22.4') !== '22.4';
    const rootLoads = new Compiler(new Renderer(new JDict(), lineOf, sandbox)).compileTemplate(body);
    const renderer = new Renderer(params, lineOf, sandbox);
    const text = renderer.render(body, rootLoads) + (content.endsWith('\n') ? '\n' : '');
    const missingVariables = (text.match(MISSING_RE) ?? []).map((m) => m.split('CI_MISSING_JINJA_VAR/').join(''));
    return renderer.notes.length ? { ok: true, text, missingVariables, notes: renderer.notes } : { ok: true, text, missingVariables };
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
