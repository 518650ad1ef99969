/**
 * `#cloud-config-jsonp` parts: cloud-init 22.4.2 runs
 *
 *     patch = jsonpatch.JsonPatch.from_string(payload)
 *     cloud_buf = patch.apply(cloud_buf, in_place=False)
 *
 * with python3-jsonpatch 1.32 and python3-jsonpointer 2.3. This module
 * reproduces that behaviour on the Python value model, including the
 * libraries' quirks:
 *
 * - the patch is loaded with jsonpatch's `multidict` hook: a key given twice
 *   in one JSON object gets the list of its values (`{"op":"add","op":"x"}`
 *   has `op == ["add", "x"]`);
 * - the patch document is iterated whatever its type: an object iterates its
 *   keys, a string its characters (`""` and `{}` are valid empty patches);
 * - `op` and `path` are checked when the patch is built, `value` and `from`
 *   only when the operation runs (after earlier operations were applied);
 * - `apply(in_place=False)` deep-copies the document first. Like
 *   `copy.deepcopy`, the copy keeps references that were shared inside the
 *   document shared (a YAML alias patched through one path changes the other);
 *   `copy` deep-copies its value (with a fresh memo);
 * - pointers: `~0`/`~1` unescaping, any str/list/tuple/bytes counts as a
 *   sequence (`/s/0` on a string is its first character), `0...` passes the
 *   index check and goes to Python's `int()` (`/0_1` is index 1, `/0x` raises
 *   ValueError), `1\n` is index 1, `-` is the end of a list, keys are looked
 *   up as strings (an int key 1 is NOT found by `/1`);
 * - `test` compares with Python `==` (1 == 1.0 == True);
 * - `add` with path "" on a mapping replaces the document, on a list raises
 *   TypeError; `replace` with path "" always replaces it.
 *
 * Exception classes (the `pyType` of a failure) and their bases:
 *
 *     JSONDecodeError       ValueError          (malformed patch JSON)
 *     ValueError            ValueError          (int(): bad index, >4300 digits)
 *     InvalidJsonPatch      JsonPatchException -> Exception
 *     JsonPatchConflict     JsonPatchException -> Exception
 *     JsonPatchTestFailed   JsonPatchException, AssertionError -> Exception
 *     JsonPointerException  Exception
 *     TypeError             Exception
 *     RecursionError        RuntimeError -> Exception
 *
 * cloud-init's handler catches ValueError separately (a warning with the
 * message; listed among the parts with schema errors since 23.3) from every
 * other exception (logged with a traceback): use `isValueErrorType`.
 *
 * Failures come back as `{ ok: false, pyType, message }` with Python's class
 * name and `str(exception)`. Only resource guards throw: a message that would
 * quote more than `maxMessageChars` of the document (shared references
 * expanded) throws LimitExceededError.
 *
 * Residual differences (see test/oracle/jsonpatch.diff.ts):
 * - RecursionError thresholds are modelled on cloud-init's stack under the
 *   oracle (a patch value nested 981 arrays or 978 objects deep still parses;
 *   `copy.deepcopy` frame budget 988, i.e. a document 493 containers deep).
 *   A real boot's stack may differ by a few frames, and a later jsonp part in
 *   the same boot (CPython has specialised jsonpatch's hook by then) accepts
 *   objects one level deeper. Deep `==` and `repr()` in messages are not
 *   limited (where CPython would raise RecursionError instead of the
 *   JsonPatch* exception, cloud-init handles both the same way).
 * - NaN: PyYAML returns one shared NaN object, json.loads another, and
 *   Python's container comparison takes `x is y` as equal. So in cloud-init
 *   `[NaN] == [NaN]` holds in a `test` when the document's NaN came from JSON
 *   (an earlier jsonp operation), not when it came from YAML; here NaN never
 *   equals NaN (the YAML case).
 * - Sets print in insertion order here, in hash order in Python (messages).
 */
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, PyValue, getListOrigins, pyClassName, setListOrigins } from '../py/values';
import { pyEq } from '../py/compare';
import { PyError } from '../py/errors';
import { pyFloatRepr, pyRepr, pyStrRepr } from '../py/repr';
import { isPySpace } from '../py/str';
import { DEFAULT_JSON_MAX_DEPTH, parsePythonJson, pyClassOfError } from '../py/json';
import { PY_INT_MAX_STR_DIGITS, intDigitLimitError } from '../py/int';
import { DEFAULT_LIMITS, LimitExceededError } from '../limits';

export type JsonPatchResult = { ok: true; value: PyValue } | { ok: false; pyType: string; message: string };

export interface JsonPatchOptions {
  /** Deepest JSON nesting of the patch text (see `parsePythonJson`). */
  jsonMaxDepth?: number;
  /** Python frames `copy.deepcopy` may use (cloud-init under the oracle: 988). */
  deepcopyFrames?: number;
  /** Most characters a message may quote from the document (aliases expand). */
  maxMessageChars?: number;
}

export const DEFAULT_DEEPCOPY_FRAMES = 988;

/** True for the classes that cloud-init's `except ValueError` catches. */
export function isValueErrorType(pyType: string): boolean {
  return VALUE_ERROR_CLASSES.has(pyType);
}

const VALUE_ERROR_CLASSES = new Set(['ValueError', 'JSONDecodeError', 'UnicodeDecodeError', 'UnicodeError']);

/** A Python exception raised while building or applying the patch. */
class Raise {
  constructor(
    readonly pyType: string,
    readonly message: string,
  ) {}
}

/** jsonpointer's EndOfList: what `/-` on a sequence walks to. */
class EndOfList {
  constructor(readonly seq: PyValue) {}
}

type Walked = PyValue | EndOfList;
/** A pointer part after `get_part`: a key, a list index, '-', or None for the root. */
type Part = string | bigint | null;

const OPS = new Set(['remove', 'add', 'replace', 'move', 'test', 'copy']);
const PY_SSIZE_MAX = (1n << 63n) - 1n;

/** Apply a `#cloud-config-jsonp` payload (prefix already stripped) to the document. */
export function applyJsonPatch(document: PyValue, patchText: string, options: JsonPatchOptions = {}): JsonPatchResult {
  const ctx = new Context(options);
  try {
    let patch: PyValue;
    try {
      patch = parsePythonJson(patchText, { objects: 'multidict', maxDepth: options.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH });
    } catch (e) {
      if (e instanceof PyError) throw new Raise(pyClassOfError(e), e.message);
      throw e;
    }
    const ops = buildOperations(patch);
    let obj = ctx.deepcopy(document, 1);
    for (const op of ops) obj = applyOperation(op, obj, ctx);
    return { ok: true, value: obj };
  } catch (e) {
    if (e instanceof Raise) return { ok: false, pyType: e.pyType, message: e.message };
    throw e;
  }
}

// ---------------------------------------------------------------------------
// building the patch (JsonPatch.__init__ / _get_operation / PatchOperation.__init__)
// ---------------------------------------------------------------------------

interface Operation {
  op: string;
  operation: PyDict;
  location: string;
  pointer: Pointer;
}

function pyIter(v: PyValue): PyValue[] {
  if (Array.isArray(v)) return v;
  if (v instanceof PyDict) return v.keys();
  if (typeof v === 'string') return Array.from(v);
  throw new Raise('TypeError', `'${pyClassName(v)}' object is not iterable`);
}

function buildOperations(patch: PyValue): Operation[] {
  return pyIter(patch).map(getOperation);
}

function getOperation(operation: PyValue): Operation {
  let hasOp: boolean;
  if (operation instanceof PyDict) hasOp = operation.has('op');
  else if (Array.isArray(operation)) hasOp = operation.some((x) => x === 'op');
  else if (typeof operation === 'string') hasOp = operation.includes('op');
  else throw new Raise('TypeError', `argument of type '${pyClassName(operation)}' is not iterable`);
  if (!hasOp) throw new Raise('InvalidJsonPatch', "Operation does not contain 'op' member");
  if (Array.isArray(operation)) throw new Raise('TypeError', 'list indices must be integers or slices, not str');
  if (typeof operation === 'string') throw new Raise('TypeError', "string indices must be integers, not 'str'");
  const dict = operation;
  const op = dict.get('op') as PyValue;
  if (typeof op !== 'string') throw new Raise('InvalidJsonPatch', 'Operation must be a string');
  if (!OPS.has(op)) throw new Raise('InvalidJsonPatch', `Unknown operation ${pyStrRepr(op)}`);
  return makeOperation(op, dict);
}

function makeOperation(op: string, operation: PyDict): Operation {
  if (!operation.has('path')) throw new Raise('InvalidJsonPatch', "Operation must have a 'path' member");
  const location = operation.get('path') as PyValue;
  if (typeof location !== 'string') throw new Raise('InvalidJsonPatch', "Invalid 'path'");
  return { op, operation, location, pointer: new Pointer(location) };
}

// ---------------------------------------------------------------------------
// jsonpointer
// ---------------------------------------------------------------------------

class Pointer {
  readonly parts: string[];

  constructor(pointer: string) {
    const bad = findInvalidEscape(pointer);
    if (bad !== null) throw new Raise('JsonPointerException', `Found invalid escape ${bad}`);
    const parts = pointer.split('/');
    if (parts.shift() !== '') throw new Raise('JsonPointerException', 'Location must start with /');
    this.parts = parts.map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  }

  /** `JsonPointer(value)` for a `from` member: re.search raises TypeError on non-strings. */
  static of(value: PyValue): Pointer {
    if (typeof value !== 'string') throw new Raise('TypeError', `expected string or bytes-like object, got '${pyClassName(value)}'`);
    return new Pointer(value);
  }

  /** `to_last(doc)`: the parent of the target and the converted last part. */
  toLast(doc: PyValue, ctx: Context): [Walked, Part] {
    if (this.parts.length === 0) return [doc, null];
    let cur: Walked = doc;
    for (let i = 0; i < this.parts.length - 1; i++) cur = walk(cur, this.parts[i], ctx);
    return [cur, getPart(cur, this.parts[this.parts.length - 1])];
  }

  equals(other: Pointer): boolean {
    return this.parts.length === other.parts.length && this.parts.every((p, i) => p === other.parts[i]);
  }

  /** `self.parts[:len(ptr.parts)] == ptr.parts` */
  contains(other: Pointer): boolean {
    return other.parts.length <= this.parts.length && other.parts.every((p, i) => p === this.parts[i]);
  }
}

/** `re.search('(~[^01]|~$)', pointer).group()`, or null. */
function findInvalidEscape(pointer: string): string | null {
  for (let i = pointer.indexOf('~'); i !== -1; i = pointer.indexOf('~', i + 1)) {
    if (i + 1 === pointer.length) return '~';
    const next = String.fromCodePoint(pointer.codePointAt(i + 1) as number);
    if (next !== '0' && next !== '1') return '~' + next;
  }
  return null;
}

function isMapping(v: Walked): v is PyDict {
  return v instanceof PyDict;
}

function isSequence(v: Walked): v is PyValue[] | PyTuple | PyBytes | string {
  return Array.isArray(v) || v instanceof PyTuple || v instanceof PyBytes || typeof v === 'string';
}

/** `"<class 'X'>"` as `str(type(v))` prints it. */
function typeStr(v: Walked): string {
  if (v instanceof EndOfList) return "<class 'jsonpointer.EndOfList'>";
  return `<class '${pyClassName(v)}'>`;
}

/** `JsonPointer.get_part(doc, part)` */
function getPart(doc: Walked, part: string): Part {
  if (isMapping(doc)) return part;
  if (isSequence(doc)) {
    if (part === '-') return part;
    if (!isArrayIndexLike(part)) throw new Raise('JsonPointerException', `'${part}' is not a valid sequence index`);
    return pyIntOfIndex(part);
  }
  throw new Raise('JsonPointerException', `Document '${typeStr(doc)}' does not support indexing, must be mapping/sequence or support __getitem__`);
}

/** `re.match('0|[1-9][0-9]*$', part)`: anything starting with 0, or digits with an optional final newline. */
function isArrayIndexLike(part: string): boolean {
  return part.startsWith('0') || /^[1-9][0-9]*\n?$/.test(part);
}

const UNICODE_DIGIT = /^\p{Nd}$/u;

/** Python's `int(part)` (base 10) for a part that passed the index check. */
function pyIntOfIndex(part: string): bigint {
  // _PyUnicode_TransformDecimalAndSpaceToASCII
  let ascii = '';
  if (/^[\x00-\x7f]*$/.test(part)) ascii = part;
  else {
    for (const ch of part) {
      const cp = ch.codePointAt(0) as number;
      if (cp < 127) ascii += ch;
      else if (isPySpace(ch)) ascii += ' ';
      else if (UNICODE_DIGIT.test(ch)) ascii += String(unicodeDigitValue(cp));
      else {
        ascii += '?';
        break;
      }
    }
  }
  // PyLong_FromString(ascii, base=10); the part starts with a digit.
  const invalid = () => new Raise('ValueError', `invalid literal for int() with base 10: ${Array.from(pyStrRepr(part)).slice(0, 200).join('')}`);
  let i = 0;
  let digits = 0;
  let prev = '';
  let text = '';
  for (; i < ascii.length; i++) {
    const c = ascii[i];
    if (c >= '0' && c <= '9') {
      digits++;
      text += c;
    } else if (c === '_') {
      if (prev === '_') throw invalid(); // only one underscore in a row
    } else break;
    prev = c;
  }
  if (prev === '_') throw invalid(); // no trailing underscore
  if (digits > PY_INT_MAX_STR_DIGITS) {
    throw new Raise('ValueError', intDigitLimitError(digits).message);
  }
  while (i < ascii.length && ' \t\n\v\f\r'.includes(ascii[i])) i++;
  if (i !== ascii.length || digits === 0) throw invalid();
  return BigInt(text);
}

/** Decimal value of a Unicode Nd character: Nd characters come in aligned runs of ten. */
function unicodeDigitValue(cp: number): number {
  let start = cp;
  while (start > 0 && UNICODE_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}

function seqLength(seq: PyValue[] | PyTuple | PyBytes | string): number {
  if (Array.isArray(seq)) return seq.length;
  if (seq instanceof PyTuple) return seq.items.length;
  if (seq instanceof PyBytes) return seq.bytes.length;
  let n = 0;
  for (let i = 0; i < seq.length; i++) {
    const c = seq.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < seq.length) {
      const d = seq.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** `seq[i]` for 0 <= i < len(seq). */
function seqItem(seq: PyValue[] | PyTuple | PyBytes | string, i: number): PyValue {
  if (Array.isArray(seq)) return seq[i];
  if (seq instanceof PyTuple) return seq.items[i];
  if (seq instanceof PyBytes) return BigInt(seq.bytes[i]);
  if (!/[\ud800-\udfff]/.test(seq)) return seq[i];
  return Array.from(seq)[i];
}

/** `JsonPointer.walk(doc, part)` */
function walk(doc: Walked, partText: string, ctx: Context): Walked {
  const part = getPart(doc, partText);
  if (isSequence(doc)) {
    if (part === '-') return new EndOfList(doc);
    const i = part as bigint;
    if (i >= BigInt(seqLength(doc))) throw new Raise('JsonPointerException', `index '${i}' is out of bounds`);
    return seqItem(doc, Number(i));
  }
  const dict = doc as PyDict;
  const value = dict.get(part);
  if (value === undefined) throw new Raise('JsonPointerException', `member '${part}' not found in ${ctx.str(dict)}`);
  return value;
}

// ---------------------------------------------------------------------------
// item access as Python's subscript / del do it
// ---------------------------------------------------------------------------

function seqNames(seq: PyValue[] | PyTuple | PyBytes | string): { indices: string; range: string } {
  if (Array.isArray(seq)) return { indices: 'list indices must be integers or slices, not ', range: 'list index out of range' };
  if (seq instanceof PyTuple) return { indices: 'tuple indices must be integers or slices, not ', range: 'tuple index out of range' };
  if (seq instanceof PyBytes) return { indices: 'byte indices must be integers or slices, not ', range: 'index out of range' };
  return { indices: 'string indices must be integers, not ', range: 'string index out of range' };
}

function partTypeName(part: Part): string {
  return part === null ? 'NoneType' : typeof part === 'string' ? 'str' : 'int';
}

/**
 * `subobj[part]` in move/copy: KeyError and IndexError become
 * JsonPatchConflict(str(error)), TypeError propagates.
 */
function getItem(subobj: Walked, part: Part): PyValue {
  if (subobj instanceof EndOfList) throw new Raise('TypeError', "'EndOfList' object is not subscriptable");
  if (isMapping(subobj)) {
    // part is None for the root pointer "": a mapping may really have a None key.
    const v = subobj.get(part);
    if (v === undefined) throw new Raise('JsonPatchConflict', part === null ? 'None' : typeof part === 'string' ? pyStrRepr(part) : String(part));
    return v;
  }
  if (isSequence(subobj)) {
    const names = seqNames(subobj);
    if (typeof part !== 'bigint') {
      const tn = partTypeName(part);
      throw new Raise('TypeError', names.indices + (typeof subobj === 'string' ? `'${tn}'` : tn));
    }
    if (part > PY_SSIZE_MAX) throw new Raise('JsonPatchConflict', "cannot fit 'int' into an index-sized integer");
    if (part >= BigInt(seqLength(subobj))) throw new Raise('JsonPatchConflict', names.range);
    return seqItem(subobj, Number(part));
  }
  throw new Raise('TypeError', `'${pyClassName(subobj)}' object is not subscriptable`);
}

// ---------------------------------------------------------------------------
// the operations
// ---------------------------------------------------------------------------

function requireValue(operation: PyDict): PyValue {
  const value = operation.get('value');
  if (value === undefined) throw new Raise('InvalidJsonPatch', "The operation does not contain a 'value' member");
  return value;
}

function requireFrom(operation: PyDict): PyValue {
  const from = operation.get('from');
  if (from === undefined) throw new Raise('InvalidJsonPatch', "The operation does not contain a 'from' member");
  return from;
}

function partStr(part: Part): string {
  return part === null ? 'None' : String(part);
}

function applyOperation(op: Operation, obj: PyValue, ctx: Context): PyValue {
  switch (op.op) {
    case 'remove':
      return applyRemove(op.pointer, obj, ctx);
    case 'add':
      return applyAdd(op.pointer, op.location, requireValue(op.operation), obj, ctx);
    case 'replace':
      return applyReplace(op, obj, ctx);
    case 'move':
      return applyMove(op, obj, ctx);
    case 'copy':
      return applyCopy(op, obj, ctx);
    case 'test':
      return applyTest(op, obj, ctx);
  }
  throw new Error(`unreachable op ${op.op}`);
}

function applyRemove(pointer: Pointer, obj: PyValue, ctx: Context): PyValue {
  const [subobj, part] = pointer.toLast(obj, ctx);
  const conflict = () => new Raise('JsonPatchConflict', `can't remove a non-existent object '${partStr(part)}'`);
  if (isMapping(subobj)) {
    // `del d[None]` for the root pointer "": succeeds if the mapping has a None key.
    if (!subobj.delete(part)) throw conflict();
    return obj;
  }
  if (Array.isArray(subobj)) {
    if (typeof part !== 'bigint') throw new Raise('TypeError', `list indices must be integers or slices, not ${partTypeName(part)}`);
    if (part >= BigInt(subobj.length)) throw conflict();
    listDelete(subobj, Number(part));
    return obj;
  }
  if (isSequence(subobj) && typeof part === 'bigint') {
    if (part > PY_SSIZE_MAX) throw conflict();
    throw new Raise('TypeError', `'${pyClassName(subobj)}' object doesn't support item deletion`);
  }
  throw new Raise('TypeError', `'${subobj instanceof EndOfList ? 'EndOfList' : pyClassName(subobj)}' object does not support item deletion`);
}

function applyAdd(pointer: Pointer, location: string, value: PyValue, obj: PyValue, ctx: Context): PyValue {
  const [subobj, part] = pointer.toLast(obj, ctx);
  if (Array.isArray(subobj)) {
    if (part === '-') listInsert(subobj, subobj.length, value);
    else if (typeof part !== 'bigint') throw new Raise('TypeError', `'>' not supported between instances of '${partTypeName(part)}' and 'int'`);
    else if (part > BigInt(subobj.length)) throw new Raise('JsonPatchConflict', "can't insert outside of list");
    else listInsert(subobj, Number(part), value);
    return obj;
  }
  if (isMapping(subobj)) {
    if (part === null) return value;
    subobj.set(part, value);
    return obj;
  }
  if (part === null) throw new Raise('TypeError', `invalid document type ${typeStr(subobj)}`);
  throw new Raise('JsonPatchConflict', `unable to fully resolve json pointer ${location}, part ${partStr(part)}`);
}

function applyReplace(op: Operation, obj: PyValue, ctx: Context): PyValue {
  const value = requireValue(op.operation);
  const [subobj, part] = op.pointer.toLast(obj, ctx);
  if (part === null) return value;
  if (part === '-') throw new Raise('InvalidJsonPatch', "'path' with '-' can't be applied to 'replace' operation");
  if (Array.isArray(subobj)) {
    if ((part as bigint) >= BigInt(subobj.length)) throw new Raise('JsonPatchConflict', "can't replace outside of list");
    listSet(subobj, Number(part), value);
    return obj;
  }
  if (isMapping(subobj)) {
    if (!subobj.has(part)) throw new Raise('JsonPatchConflict', `can't replace a non-existent object '${partStr(part)}'`);
    subobj.set(part, value);
    return obj;
  }
  throw new Raise('JsonPatchConflict', `unable to fully resolve json pointer ${op.location}, part ${partStr(part)}`);
}

function applyMove(op: Operation, obj: PyValue, ctx: Context): PyValue {
  const fromValue = requireFrom(op.operation);
  const from = Pointer.of(fromValue);
  const [subobj, part] = from.toLast(obj, ctx);
  const value = getItem(subobj, part);
  if (op.pointer.equals(from)) return obj;
  if (isMapping(subobj) && op.pointer.contains(from)) throw new Raise('JsonPatchConflict', 'Cannot move values into their own children');
  obj = applyRemove(new Pointer(fromValue as string), obj, ctx);
  return applyAdd(new Pointer(op.location), op.location, value, obj, ctx);
}

function applyCopy(op: Operation, obj: PyValue, ctx: Context): PyValue {
  const from = Pointer.of(requireFrom(op.operation));
  const [subobj, part] = from.toLast(obj, ctx);
  const value = ctx.deepcopy(getItem(subobj, part), 2);
  return applyAdd(new Pointer(op.location), op.location, value, obj, ctx);
}

function applyTest(op: Operation, obj: PyValue, ctx: Context): PyValue {
  let val: Walked;
  try {
    const [subobj, part] = op.pointer.toLast(obj, ctx);
    val = part === null ? subobj : walk(subobj, op.pointer.parts[op.pointer.parts.length - 1], ctx);
  } catch (e) {
    if (e instanceof Raise && e.pyType === 'JsonPointerException') throw new Raise('JsonPatchTestFailed', e.message);
    throw e;
  }
  const value = requireValue(op.operation);
  if (val instanceof EndOfList || !ctx.equals(val, value)) {
    throw new Raise('JsonPatchTestFailed', `${ctx.str(val)} (${typeStr(val)}) is not equal to tested value ${ctx.str(value)} (${typeStr(value)})`);
  }
  return obj;
}

// ---------------------------------------------------------------------------
// list mutation keeping the provenance side table aligned
// ---------------------------------------------------------------------------

function listInsert(list: PyValue[], i: number, value: PyValue): void {
  list.splice(i, 0, value);
  getListOrigins(list)?.splice(i, 0, undefined);
}

function listDelete(list: PyValue[], i: number): void {
  list.splice(i, 1);
  getListOrigins(list)?.splice(i, 1);
}

function listSet(list: PyValue[], i: number, value: PyValue): void {
  list[i] = value;
  const origins = getListOrigins(list);
  if (origins) origins[i] = undefined;
}

// ---------------------------------------------------------------------------
// copy.deepcopy, ==, str() with Python's limits
// ---------------------------------------------------------------------------

const COMPARE_DEPTH_LIMIT = 1000;

class Context {
  private readonly frames: number;
  private readonly maxMessageChars: number;

  constructor(options: JsonPatchOptions) {
    this.frames = options.deepcopyFrames ?? DEFAULT_DEEPCOPY_FRAMES;
    this.maxMessageChars = options.maxMessageChars ?? DEFAULT_LIMITS.maxExpandedNodes;
  }

  /**
   * `copy.deepcopy(value)` called at Python stack frame `frame` (relative to
   * the patch's apply(); 1 there, 2 inside CopyOperation.apply). References
   * shared inside the value stay shared in the copy. Raises RecursionError
   * when CPython would run out of frames: a value whose deepcopy() runs at
   * frame f needs f+1 for its copier (list/dict children at f+2, tuple items
   * at f+3 through a list comprehension, set items at f+5 through
   * __reduce_ex__/_reconstruct, dates f+4, aware datetimes f+10, or f+7 for
   * UTC after the first), and a C call from a copier costs one more.
   */
  deepcopy(value: PyValue, frame: number): PyValue {
    const memo = new Map<object, PyValue>();
    let utcSeen = false;
    const need = (n: number) => {
      if (n > this.frames) throw new Raise('RecursionError', 'maximum recursion depth exceeded while calling a Python object');
    };
    const dc = (x: PyValue, f: number): PyValue => {
      need(f + 1);
      if (x === null || typeof x !== 'object' || x instanceof PyBytes) return x;
      const hit = memo.get(x);
      if (hit !== undefined) return hit;
      if (Array.isArray(x)) {
        need(f + 2);
        const y: PyValue[] = [];
        memo.set(x, y);
        for (const item of x) y.push(dc(item, f + 2));
        const origins = getListOrigins(x);
        if (origins) setListOrigins(y, [...origins]);
        return y;
      }
      if (x instanceof PyDict) {
        need(f + 2);
        const y = new PyDict();
        memo.set(x, y);
        for (const { key, value: v, origin } of x.items()) {
          const k = dc(key, f + 2);
          y.set(k, dc(v, f + 2), origin);
        }
        return y;
      }
      if (x instanceof PyTuple) {
        need(f + 2);
        const items = x.items.map((item) => dc(item, f + 3));
        const cyc = memo.get(x);
        if (cyc !== undefined) return cyc;
        if (items.every((item, i) => item === x.items[i])) return x;
        const y = new PyTuple(items);
        memo.set(x, y);
        return y;
      }
      if (x instanceof PySet) {
        need(f + 5);
        const y = new PySet(x.values().map((item) => dc(item, f + 5)));
        memo.set(x, y);
        return y;
      }
      if (x instanceof PyTimestamp) {
        need(f + 4);
        if (x.offsetMinutes !== null) {
          if (x.offsetMinutes === 0 && utcSeen) need(f + 7);
          else need(f + 10);
          if (x.offsetMinutes === 0) utcSeen = true;
        }
        memo.set(x, x);
        return x;
      }
      return x;
    };
    return dc(value, frame);
  }

  /** Python `==` (as `pyEq`), with a depth guard for recursive structures. */
  equals(a: PyValue, b: PyValue, depth = 0): boolean {
    if (depth > COMPARE_DEPTH_LIMIT) throw new Raise('RecursionError', 'maximum recursion depth exceeded in comparison');
    // Containers compare their items with `x is y or x == y`.
    const same = (x: PyValue, y: PyValue) => x === y || this.equals(x, y, depth + 1);
    if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
    if (a instanceof PyTuple) return b instanceof PyTuple && a.items.length === b.items.length && a.items.every((x, i) => same(x, b.items[i]));
    if (a instanceof PyDict) {
      if (!(b instanceof PyDict) || a.size !== b.size) return false;
      for (const { key, value } of a.items()) {
        const other = b.get(key);
        if (other === undefined || !same(value, other)) return false;
      }
      return true;
    }
    return pyEq(a, b);
  }

  /** `str(v)` for messages: strings as they are, the rest as repr (recursion shown as `[...]`). */
  str(v: Walked): string {
    if (typeof v === 'string') return v;
    if (v instanceof PyTimestamp) return v.isoformat(' ');
    return this.repr(v);
  }

  repr(v: Walked): string {
    const out: string[] = [];
    let size = 0;
    const active = new Set<object>();
    const put = (s: string) => {
      size += s.length;
      if (size > this.maxMessageChars) throw new LimitExceededError('maxExpandedNodes', this.maxMessageChars, 'A message quoting the document');
      out.push(s);
    };
    const rec = (x: Walked): void => {
      if (x instanceof EndOfList) {
        put('EndOfList(');
        rec(x.seq);
        put(')');
        return;
      }
      if (Array.isArray(x) || x instanceof PyDict || x instanceof PyTuple || x instanceof PySet) {
        if (active.has(x)) {
          put(Array.isArray(x) ? '[...]' : x instanceof PyDict ? '{...}' : x instanceof PyTuple ? '(...)' : 'set(...)');
          return;
        }
        active.add(x);
        if (Array.isArray(x) || x instanceof PyTuple) {
          const items = Array.isArray(x) ? x : x.items;
          put(Array.isArray(x) ? '[' : '(');
          items.forEach((item, i) => {
            if (i) put(', ');
            rec(item);
          });
          put(Array.isArray(x) ? ']' : items.length === 1 ? ',)' : ')');
        } else if (x instanceof PyDict) {
          put('{');
          let first = true;
          for (const { key, value } of x.items()) {
            if (!first) put(', ');
            first = false;
            rec(key);
            put(': ');
            rec(value);
          }
          put('}');
        } else {
          const items = x.values();
          if (items.length === 0) put('set()');
          else {
            put('{');
            items.forEach((item, i) => {
              if (i) put(', ');
              rec(item);
            });
            put('}');
          }
        }
        active.delete(x);
        return;
      }
      put(typeof x === 'number' ? pyFloatRepr(x) : pyRepr(x));
    };
    rec(v);
    return out.join('');
  }
}
