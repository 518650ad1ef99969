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
import { ValueGenerator, isHashable, randomScalar } from '../support/randomPyValues';
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
