/**
 * Differential test of server/src/engine/yaml/dump.ts against PyYAML 6.0.
 *
 *   node out/test/oracle/yaml-dump.diff.js [--cases N] [--seed S] [--python /usr/bin/python3]
 *
 * Generates random Python values from a seeded PRNG, sends each (as a typed
 * JSON line that rebuilds ints, floats, bytes, timestamps, tuples, sets and
 * shared references) to one long-lived Python child that dumps it exactly as
 * cloud-init does, and compares the text byte for byte. The line of every
 * mapping key and sequence item reported by dumpPyYamlWithLines is compared
 * with the line PyYAML's emitter was on when it wrote that key/item, and
 * every reported path is checked to lead to a value. On the first mismatch
 * the value is shrunk and a minimal reproducer is printed; exit status 1.
 */

import * as dump from '../../server/src/engine/yaml/dump';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';

type DumpOptions = dump.DumpOptions;

// ---------------------------------------------------------------------------
// Python side

const PYTHON_ORACLE = String.raw`
import sys, json, base64, datetime, io
import yaml
from yaml.emitter import Emitter

def decode(x, objs):
    if x is None or isinstance(x, (bool, str)):
        return x
    t = x['t']
    if t == 'i': return int(x['v'])
    if t == 'f': return float(x['v'])
    if t == 'b': return base64.b64decode(x['v'])
    if t == 'r': return objs[x['id']]
    if t == 'd':
        y, m, d = x['v']
        o = datetime.date(y, m, d)
    elif t == 'dt':
        y, m, d, hh, mm, ss, us, off = x['v']
        tz = None if off is None else datetime.timezone(datetime.timedelta(minutes=off))
        o = datetime.datetime(y, m, d, hh, mm, ss, us, tzinfo=tz)
    elif t == 'l':
        o = []
        objs[x['id']] = o
        for item in x['v']:
            o.append(decode(item, objs))
        return o
    elif t == 'm':
        o = {}
        objs[x['id']] = o
        for k, v in x['v']:
            k = decode(k, objs)
            o[k] = decode(v, objs)
        return o
    elif t == 'tu':
        o = tuple(decode(item, objs) for item in x['v'])
    elif t == 'set':
        o = set(decode(item, objs) for item in x['v'])
    else:
        raise ValueError('bad type ' + t)
    objs[x['id']] = o
    return o

def with_lines(base):
    class D(base):
        def __init__(self, *a, **k):
            super().__init__(*a, **k)
            self.rec = []
            self.pending = False
        def expect_block_sequence_item(self, first=False):
            if first or not isinstance(self.event, yaml.SequenceEndEvent):
                self.pending = True
            return super().expect_block_sequence_item(first)
        def expect_block_mapping_key(self, first=False):
            if first or not isinstance(self.event, yaml.MappingEndEvent):
                self.pending = True
            return super().expect_block_mapping_key(first)
        def write_indent(self):
            super().write_indent()
            if self.pending:
                self.pending = False
                in_key = any(getattr(s, '__func__', None) is Emitter.expect_block_mapping_value for s in self.states)
                if not in_key:
                    self.rec.append(self.line)
    return D

class NoAliasDumper(yaml.dumper.SafeDumper):
    def ignore_aliases(self, data):
        return True

for line in sys.stdin:
    req = json.loads(line)
    opts = req['opts']
    base = NoAliasDumper if opts.get('noAlias') else yaml.dumper.SafeDumper
    kw = dict(line_break="\n", indent=opts.get('indent', 4), width=opts.get('width'),
              explicit_start=opts.get('explicitStart', True), explicit_end=opts.get('explicitEnd', True),
              default_flow_style=False)
    try:
        obj = decode(req['value'], {})
        text = yaml.dump(obj, Dumper=base, **kw)
        stream = io.StringIO()
        dumper = with_lines(base)(stream, default_style=None, default_flow_style=False, canonical=None,
            indent=kw['indent'], width=kw['width'], allow_unicode=None, line_break="\n", encoding=None,
            version=None, tags=None, explicit_start=kw['explicit_start'], explicit_end=kw['explicit_end'],
            sort_keys=True)
        try:
            dumper.open()
            dumper.represent(obj)
            dumper.close()
        finally:
            dumper.dispose()
        assert stream.getvalue() == text
        out = {'text': text, 'lines': dumper.rec}
    except RecursionError:
        out = {'error': 'RecursionError'}
    except Exception as e:
        out = {'error': type(e).__name__ + ': ' + str(e)}
    sys.stdout.write(json.dumps(out) + '\n')
    sys.stdout.flush()
`;
import { Rng } from './generate';
import { LineOracle } from './lineOracle';

interface OracleReply {
  text?: string;
  lines?: number[];
  error?: string;
}

class Oracle {
  private readonly py: LineOracle;

  constructor(python: string) {
    this.py = new LineOracle(python, ['-c', PYTHON_ORACLE]);
  }

  async ask(value: PyValue, opts: DumpOptions): Promise<OracleReply> {
    return JSON.parse(await this.py.askLine(asciiJson({ value: encode(value), opts }))) as OracleReply;
  }

  close(): void {
    this.py.close();
  }
}

function asciiJson(x: unknown): string {
  return JSON.stringify(x).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

// ---------------------------------------------------------------------------
// Typed encoding (keeps identity: objects seen before become references)

type Enc = null | boolean | string | { t: string; v?: unknown; id?: number };

function encode(root: PyValue): Enc {
  const ids = new Map<object, number>();
  const enc = (v: PyValue): Enc => {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'bigint') return { t: 'i', v: v.toString() };
    if (typeof v === 'number') return { t: 'f', v: Object.is(v, -0) ? '-0.0' : String(v) };
    if (v instanceof PyBytes) return { t: 'b', v: Buffer.from(v.bytes).toString('base64') };
    const seen = ids.get(v);
    if (seen !== undefined) return { t: 'r', id: seen };
    const id = ids.size;
    ids.set(v, id);
    if (v instanceof PyTimestamp) {
      if (v.kind === 'date') return { t: 'd', id, v: [v.year, v.month, v.day] };
      return {
        t: 'dt',
        id,
        v: [v.year, v.month, v.day, v.hour, v.minute, v.second, v.microsecond, v.offsetMinutes],
      };
    }
    if (Array.isArray(v)) return { t: 'l', id, v: v.map(enc) };
    if (v instanceof PyTuple) return { t: 'tu', id, v: v.items.map(enc) };
    if (v instanceof PyDict) return { t: 'm', id, v: v.entries().map(([k, x]) => [enc(k), enc(x)]) };
    if (v instanceof PySet) return { t: 'set', id, v: v.values().map(enc) };
    throw new Error('cannot encode');
  };
  return enc(root);
}

// ---------------------------------------------------------------------------
// Random values


const TOKENS = [
  ' ', ' ', ' ', '  ', ':', ': ', ' :', '#', ' #', '-', '- ', '?', '? ', "'", '"', '\n', '\n\n', ' \n', '\n ',
  '\t', '\r', '\0', '\x07', '\x08', '\x0b', '\x0c', '\x1b', '\x7f', '\x85', '\xa0', '\u2028', '\u2029', '\ufeff',
  '\\', '[', ']', '{', '}', ',', '&', '*', '!', '|', '>', '%', '@', '`', '~', '=', '<<', '.', '...', '---',
  'é', 'ß', '中文', '😀', '\u{10ffff}', '\ud800', '\udfff', '\ue000', '\uffff', 'a', 'b', 'x', 'key', 'value',
  'hello', 'world', 'packages', 'runcmd', 'yes', 'no', 'true', 'False', 'null', 'NULL', 'on', 'Off', '~',
  '0', '1', '12', '007', '0x1F', '0o17', '0b101', '1_000', '1e5', '1.5', '.5', '-1', '+1', '1:30', '2001-12-14',
  '12:30:45', 'inf', '.inf', '-.Inf', '.NaN', 'nan',
];

const WHOLE_STRINGS = [
  '', ' ', 'yes', 'Yes', 'NO', 'on', 'OFF', 'y', 'n', 'true', 'False', 'null', 'Null', '~', '123', '-17', '+5',
  '0x1F', '0o17', '017', '0b101', '1_000', '1e5', '1.0e+5', '1e+5', '.5', '5.', '1:30', '190:20:30.15', '-.inf',
  '.NaN', '2001-12-14', '2001-12-14 21:59:43.10 -5', '2001-12-14t21:59:43.10-05:00', '2001-1-1 1:00:00',
  '---', '...', '--- x', '... x', '<<', '=', '!', '&', '*', '- x', '-x', '? x', '?x', ': x', ':x', 'a: b',
  'a:b', 'a #b', 'a#b', '#x', ' x', 'x ', 'x\n', '\nx', 'a\nb', 'a\n\nb', 'a \nb', 'a\n b', '@x', '`x', '%x',
  'a,b', '[a]', '{a}', 'a]', "it's", '"q"', 'a\\b', 'true\n', '123\n', 'x'.repeat(130), 'y'.repeat(122),
  'z'.repeat(123),
];

function randomString(rng: Rng): string {
  const mode = rng.int(10);
  if (mode === 0) return rng.pick(WHOLE_STRINGS);
  if (mode === 1) {
    // long, with spaces: folding at the width
    const words: string[] = [];
    const n = 5 + rng.int(40);
    for (let i = 0; i < n; i++) {
      words.push(rng.chance(0.1) ? rng.pick(TOKENS) : 'w'.repeat(1 + rng.int(12)));
    }
    return words.join(rng.chance(0.8) ? ' ' : rng.pick([' ', '  ', '\n', ' \n ']));
  }
  if (mode === 2) {
    // long without spaces
    return rng.pick(['a', 'bc', 'é', '-', 'x:y']).repeat(20 + rng.int(100));
  }
  const n = rng.int(mode < 6 ? 4 : 14);
  let s = '';
  for (let i = 0; i < n; i++) s += rng.pick(TOKENS);
  return s;
}

function randomInt(rng: Rng): bigint {
  switch (rng.int(5)) {
    case 0:
      return BigInt(rng.int(10));
    case 1:
      return BigInt(rng.int(2000) - 1000);
    case 2:
      return BigInt(Math.floor((rng.next() - 0.5) * 2 ** 53));
    case 3:
      return BigInt('1' + '0'.repeat(rng.int(40))) * (rng.chance(0.5) ? -1n : 1n);
    default:
      return 2n ** 64n + BigInt(rng.int(100));
  }
}

function randomFloat(rng: Rng): number {
  switch (rng.int(8)) {
    case 0:
      return rng.pick([0, -0, 1, -1, 0.5, 1.5, 3, 100, 1e16, 1e17, 1e-5, 1e-4, 1e15, 123456789012345680, 1e300]);
    case 1:
      return rng.pick([NaN, Infinity, -Infinity]);
    case 2:
      return (rng.next() - 0.5) * 10 ** (rng.int(40) - 20);
    case 3:
      return rng.int(100) / 4;
    case 4:
      return new Float64Array(new Uint32Array([rng.int(2 ** 32), rng.int(2 ** 32)]).buffer)[0];
    default:
      return (rng.next() - 0.5) * 1000;
  }
}

function randomTimestamp(rng: Rng): PyTimestamp {
  const year = rng.chance(0.1) ? 1 + rng.int(9999) : 1970 + rng.int(80);
  const month = 1 + rng.int(12);
  const day = 1 + rng.int(28);
  if (rng.chance(0.4)) return new PyTimestamp('date', year, month, day);
  const us = rng.chance(0.5) ? 0 : rng.int(1000000);
  const off = rng.chance(0.4) ? null : rng.pick([0, 60, -300, 330, 45, -720, 840]);
  return new PyTimestamp(
    'datetime',
    Math.max(year, 100),
    month,
    day,
    rng.int(24),
    rng.int(60),
    rng.int(60),
    us,
    off,
  );
}

function randomBytes(rng: Rng): PyBytes {
  const n = rng.pick([0, 1, 2, 3, 10, 57, 58, 100, 200]);
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = rng.int(256);
  return new PyBytes(b);
}

function randomScalar(rng: Rng): PyValue {
  switch (rng.int(14)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
    case 3:
      return randomInt(rng);
    case 4:
      return randomFloat(rng);
    case 5:
      return randomBytes(rng);
    case 6:
      return randomTimestamp(rng);
    default:
      return randomString(rng);
  }
}

/** A hashable key; `kind` keeps a dict's keys mutually comparable or mixes them. */
function randomKey(rng: Rng, kind: number): PyValue {
  switch (kind) {
    case 0:
      return randomString(rng);
    case 1:
      return rng.chance(0.8) ? randomInt(rng) : rng.chance(0.5) ? randomFloat(rng) : rng.chance(0.5);
    case 2:
      return rng.chance(0.5) ? randomTimestamp(rng) : randomBytes(rng);
    case 3:
      return new PyTuple(Array.from({ length: rng.int(3) }, () => randomKey(rng, rng.pick([0, 1, 1, 4]))));
    default:
      return rng.pick<() => PyValue>([
        () => null,
        () => randomString(rng),
        () => randomInt(rng),
        () => randomFloat(rng),
        () => rng.chance(0.5),
        () => randomTimestamp(rng),
        () => randomBytes(rng),
        () => new PyTuple([randomInt(rng), randomString(rng)]),
      ])();
  }
}

class ValueGenerator {
  private pool: PyValue[] = [];
  constructor(private readonly rng: Rng) {}

  value(depth: number): PyValue {
    const rng = this.rng;
    if (this.pool.length && rng.chance(0.08)) return rng.pick(this.pool);
    if (depth <= 0 || rng.chance(0.35)) {
      const s = randomScalar(rng);
      if (s instanceof PyTimestamp && rng.chance(0.5)) this.pool.push(s);
      return s;
    }
    let v: PyValue;
    switch (rng.int(9)) {
      case 0:
      case 1:
      case 2: {
        const list: PyValue[] = [];
        const n = rng.chance(0.1) ? 0 : 1 + rng.int(5);
        for (let i = 0; i < n; i++) list.push(this.value(depth - 1));
        if (rng.chance(0.03)) list.push(list); // a cycle
        v = list;
        break;
      }
      case 3:
        v = new PyTuple(Array.from({ length: rng.int(4) }, () => this.value(depth - 1)));
        break;
      case 4:
        v = this.set();
        break;
      default:
        v = this.dict(depth);
    }
    if (rng.chance(0.3)) this.pool.push(v);
    return v;
  }

  dict(depth: number): PyDict {
    const rng = this.rng;
    if (rng.chance(0.03)) return this.sortStress();
    const d = new PyDict();
    const big = rng.chance(0.04);
    const n = rng.chance(0.08) ? 0 : big ? 60 + rng.int(200) : 1 + rng.int(6);
    const kind = big ? rng.pick([0, 1, 1, 4]) : rng.chance(0.7) ? 0 : rng.int(5);
    for (let i = 0; i < n; i++) {
      let key = randomKey(rng, rng.chance(0.9) ? kind : rng.int(5));
      if (key instanceof PyTuple && this.pool.length && rng.chance(0.2)) {
        const shared = this.pool.find((p) => p instanceof PyTuple && isHashable(p));
        if (shared !== undefined) key = shared;
      }
      if (big && kind === 1 && rng.chance(0.02)) key = NaN;
      d.set(key, big ? randomScalar(rng) : this.value(depth - 1));
    }
    return d;
  }

  /**
   * Keys (x, i) with x from ascending/descending runs, sometimes NaN: NaN
   * makes Python's comparisons inconsistent, so the resulting order depends
   * on every comparison CPython's timsort makes (runs, galloping, merges).
   */
  sortStress(): PyDict {
    const rng = this.rng;
    const d = new PyDict();
    const n = rng.pick([5, 63, 64, 65, 100, 128, 300, 1000, 2000]);
    const nanRate = rng.pick([0, 0.01, 0.1, 0.5]);
    let x = 0;
    let dir = 1;
    for (let i = 0; i < n; i++) {
      if (rng.chance(0.05)) dir = rng.pick([1, -1, 0]);
      x += dir * rng.int(3);
      const first = rng.chance(nanRate) ? NaN : rng.chance(0.5) ? BigInt(x) : x + 0.5;
      d.set(new PyTuple([first, BigInt(rng.chance(0.9) ? i : n - i)]), BigInt(i));
    }
    return d;
  }

  set(): PySet {
    // Only mutually comparable, NaN-free elements: otherwise Python's order
    // depends on hashing (a documented residual difference).
    const rng = this.rng;
    const n = rng.int(6);
    const kind = rng.int(4);
    const s = new PySet();
    for (let i = 0; i < n; i++) {
      if (kind === 0) s.add(randomString(rng));
      else if (kind === 1) s.add(randomInt(rng));
      else if (kind === 2) s.add(new PyTimestamp('date', 2000 + rng.int(30), 1 + rng.int(12), 1 + rng.int(28)));
      else s.add(randomBytes(rng));
    }
    return s;
  }
}

function isHashable(v: PyValue): boolean {
  if (Array.isArray(v) || v instanceof PyDict || v instanceof PySet) return false;
  if (v instanceof PyTuple) return v.items.every(isHashable);
  return true;
}

// ---------------------------------------------------------------------------
// Comparison

interface Outcome {
  ok: boolean;
  expected: string;
  actual: string;
}

async function check(oracle: Oracle, value: PyValue, opts: DumpOptions): Promise<Outcome> {
  const reply = await oracle.ask(value, opts);
  let actual: string;
  let lines: dump.DumpLine[] = [];
  try {
    const r = dump.dumpPyYamlWithLines(value, opts);
    actual = r.text;
    lines = r.lines;
    const plain = dump.dumpPyYaml(value, opts);
    if (plain !== actual) actual = `dumpPyYaml and dumpPyYamlWithLines differ:\n${plain}\n${actual}`;
  } catch (e) {
    actual = `error: ${(e as Error).message}`;
  }
  if (reply.error !== undefined) {
    const expected = `error: ${reply.error}`;
    // Both failing is agreement (messages differ in wording).
    return { ok: actual.startsWith('error: '), expected, actual };
  }
  const expected = reply.text as string;
  if (actual !== expected) return { ok: false, expected, actual };
  const got = lines.map((l) => l.line);
  const want = reply.lines as number[];
  if (got.join(',') !== want.join(',')) {
    return { ok: false, expected: `${expected}\nlines ${want.join(',')}`, actual: `${actual}\nlines ${got.join(',')}` };
  }
  for (const { path } of lines) {
    if (!resolvePath(value, path)) {
      return { ok: false, expected, actual: `${actual}\npath does not resolve: ${JSON.stringify(path)}` };
    }
  }
  return { ok: true, expected, actual };
}

/** Whether some value is reachable along `path` (display forms may be ambiguous: False / 'False'). */
function resolvePath(cur: PyValue, path: dump.YamlPath, from = 0): boolean {
  if (from === path.length) return true;
  const seg = path[from];
  if (typeof seg === 'number') {
    const items = Array.isArray(cur) ? cur : cur instanceof PyTuple ? cur.items : null;
    return !!items && seg < items.length && resolvePath(items[seg], path, from + 1);
  }
  if (cur instanceof PyDict) {
    return cur.entries().some(([k, x]) => dump.pyKeyDisplay(k) === seg && resolvePath(x, path, from + 1));
  }
  if (cur instanceof PySet) {
    return cur.values().some((k) => dump.pyKeyDisplay(k) === seg) && from + 1 === path.length;
  }
  return false;
}

// ---------------------------------------------------------------------------
// Shrinking (in place, with undo)

type Edit = { apply(): void; undo(): void };

function* edits(root: PyValue): Generator<Edit> {
  const seen = new Set<object>();
  const stack: PyValue[] = [root];
  const containers: PyValue[] = [];
  while (stack.length) {
    const v = stack.pop() as PyValue;
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    containers.push(v);
    if (Array.isArray(v)) stack.push(...v);
    else if (v instanceof PyTuple) stack.push(...v.items);
    else if (v instanceof PyDict) for (const [k, x] of v.entries()) stack.push(k, x);
  }
  for (const c of containers) {
    // Tuples are left alone: they may be dict keys, and Python's are immutable.
    if (Array.isArray(c)) {
      const arr = c;
      for (const [from, count] of chunks(arr.length)) {
        let removed: PyValue[] = [];
        yield {
          apply: () => void (removed = arr.splice(from, count)),
          undo: () => void arr.splice(from, 0, ...removed),
        };
      }
      for (let i = 0; i < arr.length; i++) {
        for (const repl of simpler(arr[i])) {
          const old = arr[i];
          yield { apply: () => void (arr[i] = repl), undo: () => void (arr[i] = old) };
        }
      }
    } else if (c instanceof PyDict) {
      const entries = c.entries();
      const rebuild = (list: Array<[PyValue, PyValue]>): void => {
        for (const [k] of c.entries()) c.delete(k);
        for (const [k, x] of list) c.set(k, x);
      };
      for (const [from, count] of chunks(entries.length)) {
        yield {
          apply: () => rebuild(entries.filter((_, j) => j < from || j >= from + count)),
          undo: () => rebuild(entries),
        };
      }
      for (let i = 0; i < entries.length; i++) {
        for (const repl of simpler(entries[i][1])) {
          yield {
            apply: () => rebuild(entries.map((e, j): [PyValue, PyValue] => (j === i ? [e[0], repl] : e))),
            undo: () => rebuild(entries),
          };
        }
        for (const repl of simpler(entries[i][0])) {
          if (!isHashable(repl) || c.has(repl)) continue;
          yield {
            apply: () => rebuild(entries.map((e, j): [PyValue, PyValue] => (j === i ? [repl, e[1]] : e))),
            undo: () => rebuild(entries),
          };
        }
      }
    }
  }
}

/** Ranges to try removing: halves, quarters, ... down to single elements (last first). */
function* chunks(n: number): Generator<[number, number]> {
  for (let size = n >> 1 || 1; size >= 1; size = size === 1 ? 0 : size >> 1) {
    for (let from = n - size; from >= 0; from -= size) yield [from, size];
    if (size === 1) break;
  }
}

function simpler(v: PyValue): PyValue[] {
  if (typeof v === 'string') {
    const chars = Array.from(v);
    const out: string[] = [];
    if (chars.length > 1) {
      const h = chars.length >> 1;
      out.push(chars.slice(0, h).join(''), chars.slice(h).join(''));
    }
    for (let i = 0; i < chars.length && i < 40; i++) out.push(chars.filter((_, j) => j !== i).join(''));
    return out;
  }
  if (Array.isArray(v)) return v.filter((x) => x !== v).slice(0, 3);
  if (v instanceof PyDict) return v.values().slice(0, 3);
  return [];
}

async function shrink(oracle: Oracle, value: PyValue, opts: DumpOptions): Promise<void> {
  let budget = 3000;
  let progress = true;
  while (progress && budget > 0) {
    progress = false;
    for (const edit of edits(value)) {
      if (--budget <= 0) break;
      edit.apply();
      let failing: boolean;
      try {
        failing = !(await check(oracle, value, opts)).ok;
      } catch {
        failing = false;
      }
      if (failing) {
        progress = true;
        break; // restart from the new, smaller value
      }
      edit.undo();
    }
  }
}

// ---------------------------------------------------------------------------

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}

async function main(): Promise<void> {
  const cases = Number(arg('--cases', '5000'));
  const seed = Number(arg('--seed', '20240611'));
  const oracle = new Oracle(arg('--python', '/usr/bin/python3'));
  const rng = new Rng(seed);
  const started = Date.now();
  const stats = new Map<string, number>();
  const features: Array<[string, RegExp]> = [
    ['anchor', /&id\d/],
    ['alias', /\*id\d/],
    ['complex key', /^\s*\? /m],
    ['double-quoted', /"/],
    ['double-quoted continuation', /\\\n/],
    ['escaped non-ASCII', /\\[xuU][0-9A-F]/],
    ['single-quoted multi-line', /'[^'\n]*\n/],
    ['folded plain line', /^ +[^ -?:'"\n][^:\n]*$/m],
    ['!!binary', /!!binary/],
    ['!!set', /!!set/],
    ['empty flow', /(\[\]|\{\})/],
    ['timestamp', /\d{4}-\d\d-\d\d/],
  ];
  for (let n = 0; n < cases; n++) {
    const gen = new ValueGenerator(rng);
    const value = rng.chance(0.1) ? randomScalar(rng) : rng.chance(0.7) ? gen.dict(4) : gen.value(5);
    const opts: DumpOptions = {};
    if (rng.chance(0.1)) {
      opts.explicitStart = rng.chance(0.5);
      opts.explicitEnd = rng.chance(0.5);
      opts.indent = rng.pick([1, 2, 3, 4, 8, 10]);
      opts.width = rng.pick([10, 20, 40, 80, 120]);
      opts.noAlias = rng.chance(0.3);
    }
    const outcome = await check(oracle, value, opts);
    if (outcome.expected.startsWith('error: ')) stats.set('python error', (stats.get('python error') ?? 0) + 1);
    for (const [name, re] of features) if (re.test(outcome.expected)) stats.set(name, (stats.get(name) ?? 0) + 1);
    if (!outcome.ok) {
      console.error(`MISMATCH at case ${n} (seed ${seed}); shrinking...`);
      await shrink(oracle, value, opts);
      const final = await check(oracle, value, opts);
      console.error('options:', JSON.stringify(opts));
      console.error('value (typed JSON, as sent to Python):');
      console.error(asciiJson(encode(value)));
      console.error('expected (PyYAML):');
      console.error(JSON.stringify(final.expected));
      console.error('actual (dump.ts):');
      console.error(JSON.stringify(final.actual));
      oracle.close();
      process.exit(1);
    }
  }
  oracle.close();
  console.log(`${cases} cases identical to PyYAML (seed ${seed}, ${Date.now() - started} ms)`);
  if (process.argv.includes('--stats')) {
    for (const [name, count] of stats) console.log(`  ${name}: ${count}`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(2);
});
