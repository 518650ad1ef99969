/**
 * Differential test of server/src/engine/py/json.ts and
 * server/src/engine/userdata/jsonpatch.ts against CPython 3.11's json,
 * python3-jsonpatch 1.32 / python3-jsonpointer 2.3 and the oracle's own
 * `to_jsonable` + `dump_json` (imported from /work/shared/oracle/oracle.py).
 *
 *   node out/test/oracle/jsonpatch.diff.js [--cases N] [--seed S] [--python /usr/bin/python3]
 *        [--oracle PATH] [--only loads|patch|dump|deep] [--verbose]
 *
 * One long-lived Python child answers JSON lines. Values travel in a typed
 * encoding (ints as decimal strings, floats as repr, bytes as base64, dicts as
 * pair lists with typed keys, sets, tuples, dates; lists and dicts carry ids
 * so that shared references arrive shared and come back with the same
 * sharing pattern).
 *
 * Suites (each case from a seeded PRNG):
 *  - loads: random JSON texts, half of them damaged (truncation, deleted or
 *    inserted characters, bad escapes, control characters, odd whitespace,
 *    BOM, ints over 4300 digits), through `json.loads` and `parsePythonJson`:
 *    same value, or same exception class and message.
 *  - dump: random values (non-string keys of every hashable type, key
 *    collisions, sets, tuples, bytes, dates, non-finite floats, astral and
 *    lone-surrogate strings, shared references, ints over 4300 digits)
 *    through the oracle's to_jsonable + dump_json (compact and indent=2) and
 *    `toCanonicalJson`: same texts and notes, or the same exception.
 *  - patch: random documents (string and non-string keys, every value type,
 *    shared references) and random patches (every op, pointers taken from the
 *    document then mutated: `-`, `-/x`, out of range, `01`, `0_1`, `0__1`,
 *    `1\n`, `0\u3000`, Arabic-Indic digits, 2^63, 4301 digits, bad escapes;
 *    `from` equal to or a parent of `path`; missing / duplicated / mistyped
 *    members; non-list patches; malformed JSON), through
 *    `JsonPatch.from_string(p).apply(doc, in_place=False)` (called as
 *    cloud-init's _merge_patch does) and `applyJsonPatch`: same result with
 *    the same sharing, or same exception class and message. With --verbose,
 *    prints how often each kind of error message was produced.
 *  - deep: the Python child's recursion limit is calibrated so that its
 *    jsonp call sees the stack cloud-init 22.4.2 sees under the oracle (a
 *    patch value of 981 nested arrays parses, 982 do not; 978 objects parse,
 *    979 do not, with jsonpatch freshly imported as in a new process); then
 *    exact thresholds (the deepest document that still deep-copies, for 19
 *    bottom values x list/dict/tuple nesting; the deepest patch value for
 *    add, add+copy, add+move, add+test) and random deep cases are compared.
 *
 * Accepted residual differences (the generators avoid them):
 *  - a set inside an error message prints in hash order in Python: messages
 *    that differ only by the order of their characters are accepted when the
 *    document holds a set; notes are compared sorted when the value holds one;
 *  - NaN: Python's list == takes the identical NaN object as equal and
 *    json.loads returns one shared NaN, so a NaN the patch itself put into
 *    the document equals a tested NaN; the value model cannot tell NaNs apart.
 *    NaN appears only in `test` values, and the document's NaNs are one
 *    shared object distinct from json's, as PyYAML's are;
 *  - NaN as a dict key (each Python NaN object is its own key);
 *  - a lone high surrogate followed by a lone low surrogate in one Python
 *    string (JavaScript sees one astral character);
 *  - RecursionError from deep `==` or `repr()` (not modelled), and values
 *    nested ~1000 deep in the dump suite (the oracle's to_jsonable recurses).
 *
 * On a mismatch the case is shrunk while it still mismatches and printed;
 * exit status 1.
 */

import * as json from '../../server/src/engine/py/json';
import { applyJsonPatch } from '../../server/src/engine/userdata/jsonpatch';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/values';
import { pyFloatRepr } from '../../server/src/engine/py/repr';

// ---------------------------------------------------------------------------
// command line

const args = process.argv.slice(2);
function opt(name: string, def: string): string {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
}
const CASES = Number(opt('--cases', '3000'));
const SEED = Number(opt('--seed', '20240601'));
const PYTHON = opt('--python', '/usr/bin/python3');
const ORACLE = opt('--oracle', '/work/shared/oracle/oracle.py');
const ONLY = opt('--only', '');
const VERBOSE = args.includes('--verbose');

// ---------------------------------------------------------------------------
// Python side

const PYTHON_SIDE = String.raw`
import sys, json, base64, datetime, importlib.util
import jsonpatch

spec = importlib.util.spec_from_file_location("ccm_oracle", sys.argv[1])
oracle = importlib.util.module_from_spec(spec)
spec.loader.exec_module(oracle)

# Values travel with ints of any size; the code under test runs with CPython's default limit.
sys.set_int_max_str_digits(0)

class real_int_limit:
    def __enter__(self):
        sys.set_int_max_str_digits(4300)
    def __exit__(self, *exc):
        sys.set_int_max_str_digits(0)

HIGH = 200000
YAML_NAN = float('nan')  # PyYAML returns one shared NaN object for .nan
sys.setrecursionlimit(HIGH)
PATCH_LIMIT = [1000]

def dec(t, refs):
    tag = t[0]
    if tag == 'n': return None
    if tag == 'b': return bool(t[1])
    if tag == 'i': return int(t[1])
    if tag == 'f': return YAML_NAN if t[1] == 'nan' else float(t[1])
    if tag == 's': return t[1]
    if tag == 'y': return base64.b64decode(t[1])
    if tag == 'r': return refs[t[1]]
    if tag == 'l':
        x = []
        refs[t[2]] = x
        for i in t[1]: x.append(dec(i, refs))
        return x
    if tag == 'd':
        x = {}
        refs[t[2]] = x
        for k, v in t[1]: x[dec(k, refs)] = dec(v, refs)
        return x
    if tag == 't': return tuple(dec(i, refs) for i in t[1])
    if tag == 'S': return set(dec(i, refs) for i in t[1])
    if tag == 'D': return datetime.date(t[1], t[2], t[3])
    if tag == 'T':
        off = t[8]
        tz = None
        if off is not None:
            # PyYAML: timezone.utc for Z and +00:00, a new timezone object otherwise
            tz = datetime.timezone.utc if off == 0 else datetime.timezone(datetime.timedelta(minutes=off))
        return datetime.datetime(t[1], t[2], t[3], t[4], t[5], t[6], t[7], tzinfo=tz)
    raise ValueError('bad tag %r' % (tag,))

def enc(x, ids):
    if x is None: return ['n']
    if x is True or x is False: return ['b', x]
    if isinstance(x, int): return ['i', str(x)]
    if isinstance(x, float): return ['f', repr(x)]
    if isinstance(x, str): return ['s', x]
    if isinstance(x, bytes): return ['y', base64.b64encode(x).decode()]
    if isinstance(x, (list, dict)):
        if id(x) in ids: return ['r', ids[id(x)][0]]
        n = len(ids)
        ids[id(x)] = (n, x)
        if isinstance(x, list): return ['l', [enc(i, ids) for i in x], n]
        return ['d', [[enc(k, ids), enc(v, ids)] for k, v in x.items()], n]
    if isinstance(x, tuple): return ['t', [enc(i, ids) for i in x]]
    if isinstance(x, (set, frozenset)): return ['S', [enc(i, ids) for i in x]]
    if isinstance(x, datetime.datetime):
        off = None
        if x.tzinfo is not None:
            off = int(x.utcoffset().total_seconds() // 60)
        return ['T', x.year, x.month, x.day, x.hour, x.minute, x.second, x.microsecond, off]
    if isinstance(x, datetime.date): return ['D', x.year, x.month, x.day]
    return ['?', repr(x)]

def err(e):
    return {'err': [type(e).__name__, str(e)]}

def merge_patch(buf, payload):
    # as cloudinit.handlers.cloud_config.CloudConfigPartHandler._merge_patch
    patch = jsonpatch.JsonPatch.from_string(payload)
    return patch.apply(buf, in_place=False)

def run_patch(buf, payload, cold):
    if cold:
        # a fresh process (cloud-init's first jsonp part): jsonpatch's code not yet specialised
        importlib.reload(jsonpatch)
    sys.setrecursionlimit(PATCH_LIMIT[0])
    try:
        with real_int_limit():
            return merge_patch(buf, payload), None
    except BaseException as e:
        return None, e
    finally:
        sys.setrecursionlimit(HIGH)

def handle(req):
    kind = req['kind']
    if kind == 'setlimit':
        PATCH_LIMIT[0] = req['limit']
        return {'ok': True}
    if kind == 'loads':
        try:
            with real_int_limit():
                value = json.loads(req['text'])
            return {'ok': enc(value, {})}
        except Exception as e:
            return err(e)
    if kind == 'patch':
        doc = dec(req['doc'], {})
        res, e = run_patch(doc, req['text'], req.get('cold'))
        if e is not None:
            return err(e)
        return {'ok': enc(res, {})}
    if kind == 'dump':
        value = dec(req['value'], {})
        try:
            notes = []
            with real_int_limit():
                obj = oracle.to_jsonable(value, notes)
                texts = [oracle.dump_json(obj, False), oracle.dump_json(obj, True)]
            return {'ok': texts, 'notes': notes}
        except Exception as e:
            return err(e)
    raise ValueError(kind)

for line in sys.stdin:
    req = json.loads(line)
    try:
        out = handle(req)
    except BaseException as e:
        out = {'crash': '%s: %s' % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(out) + '\n')
    sys.stdout.flush()
`;
import { Rng } from './generate';
import { LineOracle } from './lineOracle';

interface PyResult {
  ok?: unknown;
  notes?: string[];
  err?: [string, string];
  crash?: string;
}

class Oracle {
  private readonly py = new LineOracle(PYTHON, ['-c', PYTHON_SIDE, ORACLE]);

  ask(req: object): Promise<PyResult> {
    return this.py.ask<PyResult>(req);
  }

  close(): void {
    this.py.close();
  }
}

// ---------------------------------------------------------------------------
// typed encoding (TypeScript side)

type Enc = unknown[];

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return pyFloatRepr(x);
}

function encode(v: PyValue, ids = new Map<object, number>()): Enc {
  if (v === null) return ['n'];
  switch (typeof v) {
    case 'boolean':
      return ['b', v];
    case 'bigint':
      return ['i', v.toString()];
    case 'number':
      return ['f', floatText(v)];
    case 'string':
      return ['s', v];
  }
  if (v instanceof PyBytes) return ['y', Buffer.from(v.bytes).toString('base64')];
  if (Array.isArray(v) || v instanceof PyDict) {
    const seen = ids.get(v);
    if (seen !== undefined) return ['r', seen];
    const n = ids.size;
    ids.set(v, n);
    if (Array.isArray(v)) return ['l', v.map((x) => encode(x, ids)), n];
    return ['d', v.entries().map(([k, x]) => [encode(k, ids), encode(x, ids)]), n];
  }
  if (v instanceof PyTuple) return ['t', v.items.map((x) => encode(x, ids))];
  if (v instanceof PySet) return ['S', v.values().map((x) => encode(x, ids))];
  if (v instanceof PyTimestamp) {
    if (v.kind === 'date') return ['D', v.year, v.month, v.day];
    return ['T', v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond, v.offsetMinutes];
  }
  throw new Error('cannot encode');
}

function decode(t: Enc, refs = new Map<number, PyValue>()): PyValue {
  const tag = t[0] as string;
  switch (tag) {
    case 'n':
      return null;
    case 'b':
      return t[1] as boolean;
    case 'i':
      return BigInt(t[1] as string);
    case 'f': {
      const s = t[1] as string;
      return s === 'nan' ? NaN : s === 'inf' ? Infinity : s === '-inf' ? -Infinity : Number(s);
    }
    case 's':
      return t[1] as string;
    case 'y':
      return new PyBytes(new Uint8Array(Buffer.from(t[1] as string, 'base64')));
    case 'r':
      return refs.get(t[1] as number) as PyValue;
    case 'l': {
      const x: PyValue[] = [];
      refs.set(t[2] as number, x);
      for (const i of t[1] as Enc[]) x.push(decode(i, refs));
      return x;
    }
    case 'd': {
      const x = new PyDict();
      refs.set(t[2] as number, x);
      for (const [k, v] of t[1] as Array<[Enc, Enc]>) x.set(decode(k, refs), decode(v, refs));
      return x;
    }
    case 't':
      return new PyTuple((t[1] as Enc[]).map((i) => decode(i, refs)));
    case 'S':
      return new PySet((t[1] as Enc[]).map((i) => decode(i, refs)));
    case 'D':
      return new PyTimestamp('date', t[1] as number, t[2] as number, t[3] as number);
    case 'T':
      return new PyTimestamp('datetime', ...(t.slice(1, 8) as [number, number, number, number, number, number, number]), t[8] as number | null);
  }
  throw new Error(`unknown tag ${tag}`);
}

/** Encoding for comparison: set items sorted (Python iterates sets in hash order). */
function canonEnc(t: Enc): string {
  const norm = (x: Enc): unknown => {
    switch (x[0]) {
      case 'l':
        return ['l', (x[1] as Enc[]).map(norm), x[2]];
      case 'd':
        return ['d', (x[1] as Array<[Enc, Enc]>).map(([k, v]) => [norm(k), norm(v)]), x[2]];
      case 't':
        return ['t', (x[1] as Enc[]).map(norm)];
      case 'S':
        return ['S', (x[1] as Enc[]).map((i) => JSON.stringify(norm(i))).sort()];
      default:
        return x;
    }
  };
  return JSON.stringify(norm(t));
}

/** A copy keeping shared references shared (for shrinking). */
function clone(v: PyValue, memo = new Map<object, PyValue>()): PyValue {
  if (v === null || typeof v !== 'object' || v instanceof PyBytes || v instanceof PyTimestamp) return v;
  const hit = memo.get(v);
  if (hit !== undefined) return hit;
  if (Array.isArray(v)) {
    const y: PyValue[] = [];
    memo.set(v, y);
    for (const x of v) y.push(clone(x, memo));
    return y;
  }
  if (v instanceof PyDict) {
    const y = new PyDict();
    memo.set(v, y);
    for (const [k, x] of v.entries()) y.set(k, clone(x, memo));
    return y;
  }
  if (v instanceof PyTuple) return new PyTuple(v.items.map((x) => clone(x, memo)));
  if (v instanceof PySet) return new PySet(v.values());
  return v;
}

// ---------------------------------------------------------------------------
// random generation


const KEYS = ['a', 'b', 'c', 'x', '0', '1', '2', '10', '-', '', '~', '/', 'a/b', 'm~n', '~0', '~1', '01', 'é', '😀', '\uffff', '\ue000', '\ud83d', ' ', 'op', 'path', 'value'];
const STRINGS = ['', 'a', 'hello', 'ab😀c', 'é', '\n', 'tab\there', '"q"', 'back\\slash', '\u2028', '\x7f', '\x01', 'runcmd', '0', '1', '1.0', 'true', 'null', '\ud800x', 'x\udfff', '\uffff', '\ue000', '𝟘'];
const FLOATS = [0.5, -0.0, 0.0, 1.0, 1e16, 1.5e-7, -2.25, NaN, Infinity, -Infinity, 1e300, 5e-324, 0.1, 123456789.125, 2 ** 53];
const INTS = [0n, 1n, -1n, 2n, 10n, 255n, 2n ** 63n, -(2n ** 64n), 12345678901234567890123n];

interface GenOptions {
  nonStringKeys: boolean;
  exotic: boolean;
  shared: boolean;
  maxDepth: number;
}

function genScalar(r: Rng, o: GenOptions): PyValue {
  switch (r.int(o.exotic ? 9 : 6)) {
    case 0:
      return null;
    case 1:
      return r.chance(0.5);
    case 2:
      return r.chance(0.7) ? BigInt(r.int(5)) : r.pick(INTS);
    case 3:
      return r.pick(FLOATS);
    case 4:
    case 5:
      return r.chance(0.8) ? r.pick(STRINGS) : randomText(r, 4);
    case 6:
      return new PyBytes(new Uint8Array(Array.from({ length: r.int(4) }, () => r.int(256))));
    case 7:
      return genTimestamp(r);
    default:
      return new PyTuple(Array.from({ length: r.int(3) }, () => genKey(r, o)));
  }
}

function genTimestamp(r: Rng): PyTimestamp {
  if (r.chance(0.4)) return new PyTimestamp('date', 2000 + r.int(30), 1 + r.int(12), 1 + r.int(28));
  const offset = r.chance(0.4) ? null : r.pick([0, 0, 60, -90, 330]);
  return new PyTimestamp('datetime', 2000 + r.int(30), 1 + r.int(12), 1 + r.int(28), r.int(24), r.int(60), r.int(60), r.chance(0.5) ? 0 : r.int(1000000), offset);
}

function genKey(r: Rng, o: GenOptions): PyValue {
  if (!o.nonStringKeys || r.chance(0.75)) return r.chance(0.9) ? r.pick(KEYS) : randomText(r, 3);
  switch (r.int(7)) {
    case 0:
      return BigInt(r.int(3));
    case 1:
      return r.chance(0.5);
    case 2:
      return null;
    case 3:
      return r.pick([1.5, 0.0, -0.0, 2.0, 1e16, Infinity]);
    case 4:
      return new PyTuple([BigInt(r.int(3)), r.pick(KEYS)]);
    case 5:
      return genTimestamp(r);
    default:
      return new PyBytes(new Uint8Array([97 + r.int(3)]));
  }
}

function randomText(r: Rng, n: number): string {
  const pool = ['a', 'b', '~', '/', '0', '1', ' ', '\n', '"', '\\', 'é', '😀', '\u0663', '\x00', '\x1f', '\ud83d', '\ude00', '_', 'x', '-'];
  let s = '';
  const len = r.int(n + 1);
  for (let i = 0; i < len; i++) s += r.pick(pool);
  return s;
}

function genValue(r: Rng, o: GenOptions, depth: number, pool: PyValue[]): PyValue {
  if (o.shared && pool.length && r.chance(0.06)) return r.pick(pool);
  if (depth >= o.maxDepth || r.chance(0.35)) return genScalar(r, o);
  const kind = r.int(o.exotic ? 10 : 8);
  if (kind < 4) {
    const d = new PyDict();
    const n = r.int(4);
    for (let i = 0; i < n; i++) d.set(genKey(r, o), genValue(r, o, depth + 1, pool));
    pool.push(d);
    return d;
  }
  if (kind < 8) {
    const l = Array.from({ length: r.int(4) }, () => genValue(r, o, depth + 1, pool));
    pool.push(l);
    return l;
  }
  if (kind === 8) return new PyTuple(Array.from({ length: r.int(3) }, () => genValue(r, o, depth + 1, pool)));
  return new PySet(Array.from({ length: r.int(4) }, () => genKey(r, o)));
}

// --- JSON texts ------------------------------------------------------------

/** A JSON syntax tree that can hold duplicate keys and any number spelling. */
type JNode = { k: 'raw'; text: string } | { k: 'arr'; items: JNode[] } | { k: 'obj'; entries: Array<[string, JNode]> };

const raw = (text: string): JNode => ({ k: 'raw', text });

function jsonStringLiteral(s: string, r: Rng | null): string {
  if (!r) return JSON.stringify(s);
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (cp < 0x20) out += r.chance(0.5) && ch === '\n' ? '\\n' : '\\u' + cp.toString(16).padStart(4, r.chance(0.5) ? '0' : '0');
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\\u' + cp.toString(16);
    else if (r.chance(0.1)) {
      // escape it, astral characters as a surrogate pair
      for (let i = 0; i < ch.length; i++) out += '\\u' + (r.chance(0.5) ? ch.charCodeAt(i).toString(16).toUpperCase() : ch.charCodeAt(i).toString(16)).padStart(4, '0');
    } else if (ch === '/' && r.chance(0.3)) out += '\\/';
    else out += ch;
  }
  return out + '"';
}

function ws(r: Rng): string {
  if (!r.chance(0.3)) return '';
  return Array.from({ length: 1 + r.int(2) }, () => r.pick([' ', ' ', '\n', '\t', '\r'])).join('');
}

function serialize(n: JNode, r: Rng): string {
  switch (n.k) {
    case 'raw':
      return n.text;
    case 'arr':
      return '[' + ws(r) + n.items.map((i) => serialize(i, r)).join(ws(r) + ',' + ws(r)) + ws(r) + ']';
    case 'obj':
      return '{' + ws(r) + n.entries.map(([k, v]) => jsonStringLiteral(k, r) + ws(r) + ':' + ws(r) + serialize(v, r)).join(ws(r) + ',' + ws(r)) + ws(r) + '}';
  }
}

const NUMBER_TEXTS = ['9'.repeat(4300), '-' + '9'.repeat(4301), '1'.repeat(4301) + '.5', '0', '-0', '1', '-1', '12', '1.5', '-0.0', '1e5', '1E+2', '2e-3', '1.0', '1e400', '-1e400', '123456789012345678901234567890', '0.1', '1.7976931348623157e308', '5e-324', '1e16', '10000000000000000.0', '4.35', '-12.5e-1'];
const BAD_NUMBER_TEXTS = ['01', '1.', '.5', '-', '+1', '1e', '1e+', '0x10', '1.e5', '--1', '1_0', '١'];

function jsonOfValue(v: PyValue, r: Rng): JNode | null {
  if (v === null) return raw('null');
  if (typeof v === 'boolean') return raw(v ? 'true' : 'false');
  if (typeof v === 'bigint') return raw(v.toString());
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return allowNaN ? raw('NaN') : raw('1.5');
    if (v === Infinity) return raw('Infinity');
    if (v === -Infinity) return raw('-Infinity');
    return raw(pyFloatRepr(v));
  }
  if (typeof v === 'string') return raw(jsonStringLiteral(v, r));
  if (Array.isArray(v)) {
    const items: JNode[] = [];
    for (const x of v) {
      const j = jsonOfValue(x, r);
      if (!j) return null;
      items.push(j);
    }
    return { k: 'arr', items };
  }
  if (v instanceof PyDict) {
    const entries: Array<[string, JNode]> = [];
    for (const [k, x] of v.entries()) {
      const j = jsonOfValue(x, r);
      if (typeof k !== 'string' || !j) return null;
      entries.push([k, j]);
    }
    return { k: 'obj', entries };
  }
  return null;
}

/**
 * Whether generated JSON may hold NaN. json.loads returns one shared NaN
 * object and Python's container == takes identical items as equal, so a NaN
 * the patch itself put into the document compares equal to a tested NaN in a
 * list; the value model cannot tell NaNs apart (a residual difference). The
 * patch suite therefore uses NaN only in `test` values, against documents
 * whose NaNs come from YAML (one shared object distinct from json's).
 */
let allowNaN = true;

function genJson(r: Rng, depth: number): JNode {
  if (depth > 3 || r.chance(0.4)) {
    switch (r.int(5)) {
      case 0:
        return raw(r.pick(['null', 'true', 'false', allowNaN ? 'NaN' : 'null', 'Infinity', '-Infinity']));
      case 1:
      case 2:
        return raw(r.pick(NUMBER_TEXTS));
      default:
        return raw(jsonStringLiteral(r.chance(0.7) ? r.pick(STRINGS) : randomText(r, 5), r));
    }
  }
  if (r.chance(0.5)) return { k: 'arr', items: Array.from({ length: r.int(4) }, () => genJson(r, depth + 1)) };
  const entries: Array<[string, JNode]> = [];
  const n = r.int(4);
  for (let i = 0; i < n; i++) entries.push([r.chance(0.2) && entries.length ? r.pick(entries)[0] : r.pick(KEYS), genJson(r, depth + 1)]);
  return { k: 'obj', entries };
}

const DAMAGE = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\x0b', '\x0c', '\u00a0', '\x00', '\x1f', 'n', 'N', 'I', '-', '0', '1', '.', 'e', '\\u', '\\ud800', '\\udc00', '\\x', 'tru', 'nul', 'Infinit', '\ufeff', '😀', '\u2028'];

function damage(text: string, r: Rng): string {
  const chars = Array.from(text);
  const edits = 1 + r.int(3);
  for (let e = 0; e < edits; e++) {
    const at = r.int(chars.length + 1);
    switch (r.int(4)) {
      case 0:
        chars.splice(at, 1);
        break;
      case 1:
        chars.splice(at, 0, r.pick(DAMAGE));
        break;
      case 2:
        chars.length = Math.min(chars.length, at);
        break;
      default:
        chars.splice(at, 0, r.pick(BAD_NUMBER_TEXTS));
    }
  }
  return chars.join('');
}

function genLoadsText(r: Rng): string {
  let text = serialize(genJson(r, 0), r);
  if (r.chance(0.3)) text = ws(r) + text + ws(r);
  if (r.chance(0.5)) text = damage(text, r);
  if (r.chance(0.03)) text = '\ufeff' + text;
  if (r.chance(0.03)) text = text + ' ' + serialize(genJson(r, 2), r);
  if (r.chance(0.02)) text = r.pick(['', ' ', '\n', '"abc', '"\\u12', '"\\u123"', '"\\ud800\\u00"', '"\\ud800\\udc0"', '[1,]', '{"a":1,}', '{"a" 1}', '{1:2}', '[1 2]']);
  return text;
}

// --- patches ---------------------------------------------------------------

function escapeToken(s: string): string {
  return s.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Pointers into a document (string keys and list indexes). */
function pointersOf(doc: PyValue, limit = 60): Array<{ ptr: string; value: PyValue }> {
  const out: Array<{ ptr: string; value: PyValue }> = [];
  const seen = new Set<object>();
  const rec = (v: PyValue, ptr: string, depth: number) => {
    if (out.length >= limit || depth > 8) return;
    out.push({ ptr, value: v });
    if (v !== null && typeof v === 'object') {
      if (seen.has(v)) return;
      seen.add(v);
    }
    if (Array.isArray(v)) v.forEach((x, i) => rec(x, `${ptr}/${i}`, depth + 1));
    else if (v instanceof PyDict) for (const [k, x] of v.entries()) rec(x, `${ptr}/${typeof k === 'string' ? escapeToken(k) : String(k)}`, depth + 1);
    else if (v instanceof PyTuple) v.items.forEach((x, i) => rec(x, `${ptr}/${i}`, depth + 1));
    else if (typeof v === 'string' && v.length) out.push({ ptr: `${ptr}/0`, value: v });
  };
  rec(doc, '', 0);
  return out;
}

function mutatePointer(ptr: string, r: Rng): string {
  switch (r.int(16)) {
    case 0:
      return ptr + '/-';
    case 1:
      return ptr + '/' + escapeToken(r.pick(KEYS));
    case 2:
      return ptr + '/' + r.pick(['0', '1', '2', '3', '5', '99', '01', '00', '0_1', '0__1', '0_', '1\n', '0\n', '0 ', '0\u3000', '0\x1c', '1 ', '0x', '-1', '+1', '١', '0١', '1_0', '9223372036854775807', '9223372036854775808', '0' + '1'.repeat(4301), '1'.repeat(4301), '0' + '1'.repeat(4301) + 'x', '0' + 'x'.repeat(300)]);
    case 3:
      return ptr + r.pick(['/~2', '/~', '/a~', '~', '/~\n', '/~01', '/~10']);
    case 4:
      return ptr.replace(/^\//, '');
    case 5:
      return '';
    case 6:
      return ptr + '/';
    case 7:
      return ptr + '/' + escapeToken(r.pick(KEYS)) + '/' + escapeToken(r.pick(KEYS));
    case 8:
      return ptr + r.pick(['/-/a', '/-/0', '/-/-']);
    default:
      return ptr;
  }
}

function genPatch(doc: PyValue, r: Rng): JNode {
  allowNaN = false;
  const ptrs = pointersOf(doc);
  const pickPtr = () => {
    if (!ptrs.length || r.chance(0.15)) return mutatePointer('/' + escapeToken(r.pick(KEYS)), r);
    const p = r.pick(ptrs);
    if (Array.isArray(p.value) && r.chance(0.3)) return `${p.ptr}/${p.value.length + r.int(2)}`;
    return mutatePointer(p.ptr, r);
  };
  const ptrNode = (p: string): JNode => {
    if (r.chance(0.015)) return raw(r.pick(['1', 'null', '[]', '{}', 'true', '["/a"]', '1.5']));
    return raw(jsonStringLiteral(p, r.chance(0.2) ? r : null));
  };
  const valueNode = (path: string, op: string): JNode => {
    allowNaN = op === 'test';
    try {
      return valueNodeInner(path);
    } finally {
      allowNaN = false;
    }
  };
  const valueNodeInner = (path: string): JNode => {
    if (r.chance(0.4)) {
      const hit = ptrs.find((p) => p.ptr === path) ?? (ptrs.length ? r.pick(ptrs) : undefined);
      if (hit) {
        const j = jsonOfValue(hit.value, r);
        if (j) return j;
      }
    }
    return genJson(r, 1);
  };
  const ops: JNode[] = [];
  const n = r.int(5);
  for (let i = 0; i < n; i++) {
    if (r.chance(0.015)) {
      ops.push(r.pick([raw('1'), raw('null'), raw('"op"'), raw('"x"'), raw('["op"]'), raw('[1]'), raw('{}'), raw('true'), raw('1.5')]));
      continue;
    }
    const op = r.chance(0.98) ? r.pick(['add', 'add', 'remove', 'replace', 'move', 'move', 'copy', 'copy', 'test', 'test']) : r.pick(['foo', 'ADD', '', 'add ']);
    const entries: Array<[string, JNode]> = [];
    const path = pickPtr();
    if (!r.chance(0.01)) entries.push(['op', r.chance(0.01) ? raw(r.pick(['1', 'null', '["add"]'])) : raw(JSON.stringify(op))]);
    if (!r.chance(0.01)) entries.push(['path', ptrNode(path)]);
    if (op === 'move' || op === 'copy' || r.chance(0.05)) {
      // sometimes the same place, or a parent of the path (moving into its own children)
      const from = r.chance(0.1) ? path : r.chance(0.1) ? path.replace(/\/[^/]*$/, '') : pickPtr();
      if (!r.chance(0.03)) entries.push(['from', ptrNode(from)]);
    }
    if (op === 'add' || op === 'replace' || op === 'test' || r.chance(0.05)) {
      if (!r.chance(0.05)) entries.push(['value', valueNode(path, op)]);
    }
    if (r.chance(0.02) && entries.length) entries.push([r.pick(entries)[0], genJson(r, 2)]);
    if (r.chance(0.05)) entries.push([r.pick(['extra', 'x', 'op ']), genJson(r, 2)]);
    for (let j = entries.length - 1; j > 0 && r.chance(0.2); j--) {
      const k = r.int(j + 1);
      [entries[j], entries[k]] = [entries[k], entries[j]];
    }
    ops.push({ k: 'obj', entries });
  }
  allowNaN = true;
  if (r.chance(0.03)) return r.pick<JNode>([raw('{}'), raw('""'), raw('"abc"'), raw('1'), raw('null'), raw('{"op":"add"}'), raw('{"x":1}'), { k: 'obj', entries: [['path', raw('"/a"')]] }]);
  return { k: 'arr', items: ops };
}

// ---------------------------------------------------------------------------
// comparison

type Outcome = { ok: string } | { err: [string, string] };

function sameOutcome(a: Outcome, b: Outcome, setOrderMayDiffer = false): boolean {
  if (JSON.stringify(a) === JSON.stringify(b)) return true;
  // A set in a message prints in hash order in Python: accept the same characters in another order.
  if (!setOrderMayDiffer || !('err' in a) || !('err' in b) || a.err[0] !== b.err[0]) return false;
  const letters = (s: string) => Array.from(s).sort().join('');
  return letters(a.err[1]) === letters(b.err[1]);
}

function pyOutcome(res: PyResult): Outcome {
  if (res.crash) throw new Error('python side crashed: ' + res.crash);
  if (res.err) return { err: res.err };
  return { ok: canonEnc(encode(decode(res.ok as Enc))) };
}

async function runLoads(oracle: Oracle, text: string): Promise<[Outcome, Outcome]> {
  const py = pyOutcome(await oracle.ask({ kind: 'loads', text }));
  let ts: Outcome;
  try {
    ts = { ok: canonEnc(encode(json.parsePythonJson(text, { maxDepth: 10000 }))) };
  } catch (e) {
    if (!(e instanceof Error && 'pyType' in e)) throw e;
    ts = { err: [json.pyClassOfError(e as json.JsonDecodeError), e.message] };
  }
  return [py, ts];
}

async function runPatch(oracle: Oracle, doc: PyValue, text: string): Promise<[Outcome, Outcome]> {
  const py = pyOutcome(await oracle.ask({ kind: 'patch', doc: encode(doc), text }));
  const res = applyJsonPatch(doc, text);
  const ts: Outcome = res.ok ? { ok: canonEnc(encode(res.value)) } : { err: [res.pyType, res.message] };
  return [py, ts];
}

function holdsSet(v: PyValue, seen = new Set<object>()): boolean {
  if (v instanceof PySet) return true;
  if (v === null || typeof v !== 'object' || seen.has(v)) return false;
  seen.add(v);
  if (Array.isArray(v)) return v.some((x) => holdsSet(x, seen));
  if (v instanceof PyTuple) return v.items.some((x) => holdsSet(x, seen));
  if (v instanceof PyDict) return v.entries().some(([k, x]) => holdsSet(k, seen) || holdsSet(x, seen));
  return false;
}

async function runDump(oracle: Oracle, value: PyValue): Promise<[Outcome, Outcome]> {
  const res = await oracle.ask({ kind: 'dump', value: encode(value) });
  const sortNotes = holdsSet(value);
  const fmt = (texts: string[], notes: string[]) => JSON.stringify([texts, sortNotes ? [...notes].sort() : notes]);
  let py: Outcome;
  if (res.crash) throw new Error('python side crashed: ' + res.crash);
  if (res.err) py = { err: res.err };
  else py = { ok: fmt(res.ok as string[], res.notes ?? []) };
  let ts: Outcome;
  try {
    const a = json.toCanonicalJson(value);
    const b = json.toCanonicalJson(value, { pretty: true });
    ts = { ok: fmt([a.text, b.text], a.conversions) };
  } catch (e) {
    if (!(e instanceof Error && 'pyType' in e)) throw e;
    ts = { err: [json.pyClassOfError(e as json.JsonDecodeError), e.message] };
  }
  return [py, ts];
}

// ---------------------------------------------------------------------------
// shrinking

/** Attempts left for the current shrink (each costs a Python round trip). */
let shrinkBudget = 0;

async function shrinkText(text: string, fails: (t: string) => Promise<boolean>): Promise<string> {
  let cur = text;
  for (let chunk = Math.max(1, cur.length >> 1); chunk >= 1; chunk >>= 1) {
    let changed = true;
    while (changed && shrinkBudget > 0) {
      changed = false;
      for (let i = 0; i + chunk <= cur.length && shrinkBudget-- > 0; i += chunk) {
        const cand = cur.slice(0, i) + cur.slice(i + chunk);
        if (await fails(cand)) {
          cur = cand;
          changed = true;
          break;
        }
      }
    }
  }
  return cur;
}

/** Smaller documents: each dict entry or list item removed, or a container replaced by null. */
function docCandidates(doc: PyValue): PyValue[] {
  const out: PyValue[] = [];
  const paths: Array<Array<number>> = [];
  const rec = (v: PyValue, path: number[], seen: Set<object>) => {
    if (v === null || typeof v !== 'object' || seen.has(v)) return;
    seen.add(v);
    const kids = Array.isArray(v) ? v : v instanceof PyDict ? v.values() : [];
    kids.forEach((k, i) => {
      paths.push([...path, i]);
      rec(k, [...path, i], seen);
    });
  };
  rec(doc, [], new Set());
  for (const path of paths) {
    for (const mode of ['delete', 'null'] as const) {
      const copy = clone(doc);
      let parent = copy;
      for (const i of path.slice(0, -1)) parent = Array.isArray(parent) ? parent[i] : (parent as PyDict).values()[i];
      const last = path[path.length - 1];
      const current = Array.isArray(parent) ? parent[last] : parent instanceof PyDict ? parent.values()[last] : undefined;
      if (mode === 'null' && (current === null || current === undefined)) continue; // no progress
      if (Array.isArray(parent)) {
        if (mode === 'delete') parent.splice(last, 1);
        else parent[last] = null;
      } else if (parent instanceof PyDict) {
        const key = parent.keys()[last];
        if (mode === 'delete') parent.delete(key);
        else parent.set(key, null);
      }
      out.push(copy);
    }
  }
  return out;
}

async function shrinkPatch(doc: PyValue, patch: JNode, r: Rng, fails: (d: PyValue, t: string) => Promise<boolean>): Promise<[PyValue, string]> {
  let text = serialize(patch, r);
  // drop whole operations
  if (patch.k === 'arr') {
    let items = patch.items;
    for (let i = items.length - 1; i >= 0; i--) {
      const cand = items.filter((_, j) => j !== i);
      const t = serialize({ k: 'arr', items: cand }, new Rng(1));
      if (await fails(doc, t)) {
        items = cand;
        text = t;
      }
    }
  }
  let curDoc = doc;
  let progress = true;
  while (progress && shrinkBudget > 0) {
    progress = false;
    for (const cand of docCandidates(curDoc)) {
      if (shrinkBudget-- <= 0) break;
      if (await fails(cand, text)) {
        curDoc = cand;
        progress = true;
        break;
      }
    }
  }
  text = await shrinkText(text, (t) => fails(curDoc, t));
  return [curDoc, text];
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? x.toString() : x));
}

// ---------------------------------------------------------------------------
// suites

let mismatches = 0;

async function suiteLoads(oracle: Oracle, r: Rng, n: number): Promise<void> {
  let errors = 0;
  for (let i = 0; i < n; i++) {
    const text = genLoadsText(r);
    const [py, ts] = await runLoads(oracle, text);
    if ('err' in py) errors++;
    if (!sameOutcome(py, ts)) {
      shrinkBudget = 3000;
      const small = await shrinkText(text, async (t) => {
        const [a, b] = await runLoads(oracle, t);
        return !sameOutcome(a, b);
      });
      const [a, b] = await runLoads(oracle, small);
      console.log(`MISMATCH loads: text ${JSON.stringify(small)}\n  python: ${show(a)}\n  ours:   ${show(b)}`);
      mismatches++;
      return;
    }
  }
  console.log(`loads: ${n} texts, ${errors} raised in Python, all agree`);
}

/** An error message with its variable parts blanked, to count which paths were exercised. */
function messageShape(m: string): string {
  return m
    .replace(/^.* \(<class '[^']*'>\) is not equal to tested value .*$/s, '<val> (<type>) is not equal to tested value <val> (<type>)')
    .replace(/ not found in .*$/s, ' not found in <doc>')
    .replace(/'[^']*'|"[^"]*"/g, "'_'")
    .replace(/\d+/g, 'N')
    .replace(/json pointer .*, part .*/s, 'json pointer <ptr>, part <part>')
    .replace(/invalid escape .*/s, 'invalid escape <esc>')
    .slice(0, 90);
}

async function suitePatch(oracle: Oracle, r: Rng, n: number): Promise<void> {
  const tally = new Map<string, number>();
  const shapes = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const o: GenOptions = { nonStringKeys: r.chance(0.3), exotic: r.chance(0.3), shared: r.chance(0.4), maxDepth: 4 };
    const pool: PyValue[] = [];
    let doc: PyValue;
    if (r.chance(0.85)) {
      const d = new PyDict();
      const m = r.int(5);
      for (let j = 0; j < m; j++) d.set(genKey(r, o), genValue(r, o, 1, pool));
      doc = d;
    } else doc = genValue(r, o, 0, pool);
    const patch = genPatch(doc, r);
    let text = serialize(patch, r);
    if (r.chance(0.03)) text = damage(text, r);
    if (r.chance(0.02)) text = ws(r) + text + ws(r);
    const [py, ts] = await runPatch(oracle, doc, text);
    const key = 'ok' in py ? 'ok' : py.err[0];
    tally.set(key, (tally.get(key) ?? 0) + 1);
    if ('err' in py) {
      const shape = `${py.err[0]}: ${messageShape(py.err[1])}`;
      shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
    }
    if (args.includes('--trace')) console.log(text, show(py));
    if (!sameOutcome(py, ts, holdsSet(doc))) {
      const fails = async (d: PyValue, t: string) => {
        const [a, b] = await runPatch(oracle, d, t);
        return !sameOutcome(a, b, holdsSet(d));
      };
      shrinkBudget = 3000;
      const [d2, t2] = (await fails(doc, text)) ? await shrinkPatch(doc, patch, r, fails) : [doc, text];
      const [a, b] = await runPatch(oracle, d2, t2);
      console.log(`MISMATCH patch:\n  document (typed encoding): ${show(encode(d2))}\n  patch: ${JSON.stringify(t2)}\n  python: ${show(a)}\n  ours:   ${show(b)}`);
      mismatches++;
      return;
    }
  }
  console.log(`patch: ${n} cases, all agree; outcomes ${show(Object.fromEntries([...tally].sort((x, y) => y[1] - x[1])))}`);
  if (VERBOSE) for (const [shape, count] of [...shapes].sort()) console.log(`  ${String(count).padStart(6)}  ${shape}`);
}

async function suiteDump(oracle: Oracle, r: Rng, n: number): Promise<void> {
  let errors = 0;
  for (let i = 0; i < n; i++) {
    const o: GenOptions = { nonStringKeys: r.chance(0.6), exotic: r.chance(0.6), shared: r.chance(0.3), maxDepth: 4 };
    let value = genValue(r, o, r.chance(0.7) ? 0 : 3, []);
    // ints over 4300 digits cannot be written (ValueError); YAML and JSON never produce them
    if (r.chance(0.01)) value = [value, r.chance(0.5) ? 10n ** 4299n : -(10n ** 4300n)];
    if (r.chance(0.01)) value = PyDict.from([[10n ** 4300n, 1n]]);
    const [py, ts] = await runDump(oracle, value);
    if ('err' in py) errors++;
    if (!sameOutcome(py, ts)) {
      let cur = value;
      let progress = true;
      shrinkBudget = 3000;
      while (progress && shrinkBudget > 0) {
        progress = false;
        for (const cand of docCandidates(cur)) {
          if (shrinkBudget-- <= 0) break;
          const [a, b] = await runDump(oracle, cand);
          if (!sameOutcome(a, b)) {
            cur = cand;
            progress = true;
            break;
          }
        }
      }
      const [a, b] = await runDump(oracle, cur);
      console.log(`MISMATCH dump:\n  value (typed encoding): ${show(encode(cur))}\n  python: ${show(a)}\n  ours:   ${show(b)}`);
      mismatches++;
      return;
    }
  }
  console.log(`dump: ${n} values, ${errors} raised in Python, all agree`);
}

function nestedArrays(n: number, inner = ''): string {
  return '['.repeat(n) + inner + ']'.repeat(n);
}

function nestedObjects(n: number): string {
  return '{"k":'.repeat(n) + '1' + '}'.repeat(n);
}

/** Deep structure: `depth` containers (random kinds) around a bottom value. */
function deepValue(r: Rng, depth: number, bottom: PyValue, shared: PyValue[]): PyValue {
  let v = bottom;
  for (let i = 0; i < depth; i++) {
    const kind = r.int(10);
    if (kind < 5) v = [v];
    else if (kind < 9) v = PyDict.from([[r.pick(['k', 'a']), v]]);
    else v = new PyTuple([v]);
    if (r.chance(0.05)) shared.push(v);
    if (shared.length && r.chance(0.03)) v = [r.pick(shared), v];
  }
  return v;
}

async function suiteDeep(oracle: Oracle, r: Rng, n: number): Promise<void> {
  // Calibrate the child's recursion limit on the oracle's cloud-init figures.
  const addArrays = (d: number) => `[{"op":"add","path":"/a","value":${nestedArrays(d)}}]`;
  const okAt = async (text: string) => 'ok' in (await oracle.ask({ kind: 'patch', doc: encode(new PyDict()), text, cold: true }));
  let limit = 0;
  for (let l = 950; l < 1100; l++) {
    await oracle.ask({ kind: 'setlimit', limit: l });
    if ((await okAt(addArrays(981))) && !(await okAt(addArrays(982)))) {
      limit = l;
      break;
    }
  }
  if (!limit) {
    console.log('MISMATCH deep: no recursion limit makes Python parse 981 nested arrays and fail at 982');
    mismatches++;
    return;
  }
  const checks: Array<[string, boolean]> = [
    [addArrays(981), true],
    [addArrays(982), false],
    [`[{"op":"add","path":"/a","value":${nestedObjects(978)}}]`, true],
    [`[{"op":"add","path":"/a","value":${nestedObjects(979)}}]`, false],
  ];
  for (const [text, expect] of checks) {
    if ((await okAt(text)) !== expect) {
      console.log(`MISMATCH deep: calibration at limit ${limit}: ${text.slice(0, 60)}... should ${expect ? 'parse' : 'fail'} in Python`);
      mismatches++;
      return;
    }
  }
  // Exact thresholds: the deepest document that still deep-copies, per bottom value and wrapper.
  const edgeBottoms: Array<[string, () => PyValue]> = [
    ['str', () => 'leaf'],
    ['[]', () => []],
    ['{}', () => new PyDict()],
    ['[1]', () => [1n]],
    ['{k:1}', () => PyDict.from([['k', 1n]])],
    ['()', () => new PyTuple([])],
    ['(1,)', () => new PyTuple([1n])],
    ['((1,),)', () => new PyTuple([new PyTuple([1n])])],
    ['([],)', () => new PyTuple([[]])],
    ['set()', () => new PySet()],
    ['{1}', () => new PySet([1n])],
    ['{(1,)}', () => new PySet([new PyTuple([1n])])],
    ['date', () => new PyTimestamp('date', 2020, 1, 2)],
    ['naive', () => new PyTimestamp('datetime', 2020, 1, 2, 3, 4, 5)],
    ['+01:30', () => new PyTimestamp('datetime', 2020, 1, 2, 3, 4, 5, 0, 90)],
    ['utc', () => new PyTimestamp('datetime', 2020, 1, 2, 3, 4, 5, 0, 0)],
    ['[utc,utc]', () => [new PyTimestamp('datetime', 2020, 1, 2, 3, 4, 5, 0, 0), new PyTimestamp('datetime', 2021, 1, 2, 3, 4, 5, 0, 0)]],
    ['bytes', () => new PyBytes(new Uint8Array([1]))],
    ['[x,x]', () => {
      const x = [1n];
      return [x, [[x]]];
    }],
  ];
  const wrappers: Array<[string, (v: PyValue) => PyValue]> = [
    ['list', (v) => [v]],
    ['dict', (v) => PyDict.from([['k', v]])],
    ['tuple', (v) => new PyTuple([v])],
  ];
  const maxOk = async (ok: (n: number) => Promise<boolean>, lo: number, hi: number): Promise<number> => {
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (await ok(mid)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  let edges = 0;
  for (const [bname, bottom] of edgeBottoms) {
    for (const [wname, wrap] of wrappers) {
      const docAt = (n: number) => {
        let v = bottom();
        for (let i = 0; i < n; i++) v = wrap(v);
        return PyDict.from([['a', v]]);
      };
      const pyOk = async (n: number) => 'ok' in (await oracle.ask({ kind: 'patch', doc: encode(docAt(n)), text: '[]', cold: true }));
      const tsOk = async (n: number) => applyJsonPatch(docAt(n), '[]').ok;
      const [a, b] = [await maxOk(pyOk, 250, 520), await maxOk(tsOk, 250, 520)];
      edges++;
      if (a !== b) {
        console.log(`MISMATCH deep: a document {"a": ${wname}^n(${bname})} deep-copies up to n = ${a} in Python, ${b} here`);
        mismatches++;
        return;
      }
    }
  }
  for (const [name, valueAt] of [
    ['arrays', (n: number) => nestedArrays(n)],
    ['objects', (n: number) => nestedObjects(n)],
    ['arrays in objects', (n: number) => '{"k":'.repeat(n >> 1) + nestedArrays(n - (n >> 1)) + '}'.repeat(n >> 1)],
  ] as Array<[string, (n: number) => string]>) {
    for (const then of ['', ',{"op":"copy","from":"/a","path":"/b"}', ',{"op":"move","from":"/a","path":"/b"}', ',{"op":"test","path":"/a","value":1}']) {
      const textAt = (n: number) => `[{"op":"add","path":"/a","value":${valueAt(n)}}${then}]`;
      const pyOk = async (n: number) => 'ok' in (await oracle.ask({ kind: 'patch', doc: encode(new PyDict()), text: textAt(n), cold: true }));
      const tsOk = async (n: number) => applyJsonPatch(new PyDict(), textAt(n)).ok;
      const [a, b] = [await maxOk(pyOk, 1, 1100), await maxOk(tsOk, 1, 1100)];
      edges++;
      if (a !== b) {
        console.log(`MISMATCH deep: patch ${textAt(3)} with the value nested n deep (${name}) works up to n = ${a} in Python, ${b} here`);
        mismatches++;
        return;
      }
    }
  }
  let recursion = 0;
  const bottoms = (): PyValue => {
    switch (r.int(9)) {
      case 0:
        return [];
      case 1:
        return new PyDict();
      case 2:
        return new PySet([1n, new PyTuple(['a', 2n])]);
      case 3:
        return new PySet();
      case 4:
        return genTimestamp(r);
      case 5:
        return new PyTimestamp('datetime', 2020, 1, 1, 0, 0, 0, 0, 0);
      case 6:
        return new PyTuple([]);
      case 7:
        return new PyTuple([new PyTuple([1n])]);
      default:
        return 'leaf';
    }
  };
  for (let i = 0; i < n; i++) {
    let doc: PyValue;
    let text: string;
    const shared: PyValue[] = [];
    if (r.chance(0.6)) {
      const bottom = r.chance(0.3) ? [bottoms(), new PyTimestamp('datetime', 2021, 2, 3, 4, 5, 6, 0, 0), genTimestamp(r)] : bottoms();
      doc = PyDict.from([['a', deepValue(r, 470 + r.int(40), bottom, shared)]]);
      if (r.chance(0.3)) (doc as PyDict).set('b', r.chance(0.5) && shared.length ? r.pick(shared) : deepValue(r, 460 + r.int(30), bottoms(), shared));
      const ops = ['[]', '[{"op":"copy","from":"/a","path":"/c"}]', '[{"op":"copy","from":"/a/0","path":"/c"}]', '[{"op":"copy","from":"/b","path":"/c"}]', '[{"op":"move","from":"/a","path":"/c"}]'];
      text = r.pick(ops);
    } else {
      doc = new PyDict();
      const d = 960 + r.int(30);
      const value = r.chance(0.5) ? nestedArrays(d) : r.chance(0.5) ? nestedObjects(d - r.int(5)) : '['.repeat(d - 20) + nestedObjects(20) + ']'.repeat(d - 20);
      text = `[{"op":"add","path":"/a","value":${value}}` + (r.chance(0.5) ? `,{"op":"copy","from":"/a${'/0'.repeat(r.int(500))}","path":"/b"}` : '') + ']';
    }
    const py = pyOutcome(await oracle.ask({ kind: 'patch', doc: encode(doc), text, cold: true }));
    const res = applyJsonPatch(doc, text);
    const ts: Outcome = res.ok ? { ok: canonEnc(encode(res.value)) } : { err: [res.pyType, res.message] };
    const kind = (o: Outcome) => ('ok' in o ? 'ok' : o.err[0]);
    if ('err' in py && py.err[0] === 'RecursionError') recursion++;
    if (kind(py) !== kind(ts) || ('ok' in py && !sameOutcome(py, ts))) {
      console.log(`MISMATCH deep (limit ${limit}): patch ${text.length > 200 ? text.slice(0, 100) + '...' + text.slice(-100) : text}\n  document: ${show(encode(doc)).slice(0, 400)}...\n  python: ${show(py).slice(0, 300)}\n  ours:   ${show(ts).slice(0, 300)}`);
      mismatches++;
      return;
    }
  }
  console.log(`deep: recursion limit ${limit} calibrated; ${edges} thresholds and ${n} random cases (${recursion} RecursionError) agree`);
}

async function main(): Promise<void> {
  const oracle = new Oracle();
  const r = new Rng(SEED);
  try {
    if (!ONLY || ONLY === 'loads') await suiteLoads(oracle, new Rng(r.int(2 ** 31)), CASES);
    if (!ONLY || ONLY === 'dump') await suiteDump(oracle, new Rng(r.int(2 ** 31) + 1), CASES);
    if (!ONLY || ONLY === 'patch') await suitePatch(oracle, new Rng(r.int(2 ** 31) + 2), CASES);
    if (!ONLY || ONLY === 'deep') await suiteDeep(oracle, new Rng(r.int(2 ** 31) + 3), Math.max(20, Math.floor(CASES / 20)));
  } finally {
    oracle.close();
  }
  if (mismatches) {
    console.log(`${mismatches} suite(s) found a mismatch (seed ${SEED})`);
    process.exit(1);
  }
  console.log(`all suites agree (seed ${SEED})`);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
