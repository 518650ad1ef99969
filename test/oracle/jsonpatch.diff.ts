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
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';

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
import { GenOptions, genTimestamp, genKey, genValue, JNode, ws, serialize, damage, genLoadsText, genPatch } from './jsonpatch.generate';
import { Enc, encode, decode, canonEnc, clone } from './jsonpatch.encoding';

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
      if (r.chance(0.3)) doc.set('b', r.chance(0.5) && shared.length ? r.pick(shared) : deepValue(r, 460 + r.int(30), bottoms(), shared));
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
