/**
 * Differential test of server/src/engine/yaml/load.ts against PyYAML 6.0
 * (the loader cloud-init 22.4.2 uses: SafeLoader + !!python/unicode).
 *
 *   node out/test/oracle/yaml-load.diff.js [--cases N] [--seed S] [--python /usr/bin/python3] [--verbose]
 *
 * Generates random YAML texts from a seeded PRNG (scalars of every resolver
 * family, quoted and block styles, nesting in block and flow style, anchors,
 * aliases and merge keys, tags, duplicate keys, cloud-config shaped
 * documents), a third of them damaged by random mutations (tabs, stray
 * indicators, re-indented or swapped lines, document markers, control and
 * line-separator characters, CRLF, truncation). Each text goes to one
 * long-lived Python child (JSON lines) and to loadYaml; the results are
 * compared as canonical JSON with type tags ({"int": "5"} vs {"float": "5.0"}).
 *
 * Compared: ok/error agreement; the value; for errors the Python exception
 * class (loadYaml reports it as pyException), the position of PyYAML's
 * problem mark for reader/scanner/parser/composer errors, and the message
 * (PyYAML's context and problem lines, or str(exception)).
 *
 * Accepted residual differences (not counted as mismatches), see the header
 * of load.ts:
 *  - a recursive value (PyYAML) vs an error of kind 'recursive' (loadYaml);
 *  - positions of constructor errors (loadYaml points at the `*alias` where
 *    an aliased node is used, PyYAML at the anchored node).
 * Not generated: nesting deep enough for Python's RecursionError (a few
 * hundred levels), NaN keys made by float() (`!!float nan`).
 *
 * On the first mismatch the text is shrunk (lines, then characters) while it
 * still mismatches, and a minimal reproducer is printed; exit status 1.
 */

import { loadYaml } from '../../server/src/engine/yaml/load';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';
import { pyFloatRepr } from '../../server/src/engine/py/repr';

// ---------------------------------------------------------------------------
// Python side

const PYTHON_ORACLE = String.raw`
import sys, json, base64, datetime
import yaml

class Loader(yaml.SafeLoader):
    def construct_python_unicode(self, node):
        return super().construct_scalar(node)

Loader.add_constructor("tag:yaml.org,2002:python/unicode", Loader.construct_python_unicode)

class Recursive(Exception):
    pass

def canon(v, path):
    if v is None:
        return None
    if isinstance(v, bool):
        return {"bool": v}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, str):
        return {"str": v}
    if isinstance(v, bytes):
        return {"bytes": base64.b64encode(v).decode()}
    if isinstance(v, datetime.datetime):
        return {"datetime": v.isoformat()}
    if isinstance(v, datetime.date):
        return {"date": v.isoformat()}
    if id(v) in path:
        raise Recursive()
    path = path | {id(v)}
    if isinstance(v, list):
        return {"list": [canon(x, path) for x in v]}
    if isinstance(v, tuple):
        return {"tuple": [canon(x, path) for x in v]}
    if isinstance(v, dict):
        return {"dict": [[canon(k, path), canon(x, path)] for k, x in v.items()]}
    if isinstance(v, set):
        return {"set": [canon(x, path) for x in v]}
    return {"other": repr(v)}

def run(text):
    try:
        value = yaml.load(text, Loader=Loader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        message = "\n".join(x for x in (e.context, e.problem) if x is not None)
        return {"error": type(e).__name__, "message": message, "pos": mark.index if mark else None}
    except yaml.reader.ReaderError as e:
        return {"error": "ReaderError", "message": str(e).split("\n")[0], "pos": e.position}
    except RecursionError as e:
        return {"error": "RecursionError", "message": str(e)}
    except Exception as e:
        return {"error": type(e).__name__, "message": str(e)}
    try:
        return {"ok": canon(value, frozenset())}
    except Recursive:
        return {"recursive": True}

for line in sys.stdin:
    text = json.loads(line)
    try:
        out = run(text)
    except BaseException as e:
        out = {"error": "oracle:" + type(e).__name__, "message": str(e)}
    sys.stdout.write(json.dumps(out) + "\n")
    sys.stdout.flush()
`;
import { LineOracle } from './lineOracle';

interface PyResult {
  ok?: unknown;
  recursive?: boolean;
  error?: string;
  message?: string;
  pos?: number | null;
}

class Oracle {
  private readonly py: LineOracle;

  constructor(python: string) {
    this.py = new LineOracle(python, ['-c', PYTHON_ORACLE]);
  }

  run(text: string): Promise<PyResult> {
    return this.py.ask<PyResult>(text);
  }

  close(): void {
    this.py.close();
  }
}

// ---------------------------------------------------------------------------
// Our side

function canon(v: PyValue): unknown {
  if (v === null) return null;
  switch (typeof v) {
    case 'boolean':
      return { bool: v };
    case 'bigint':
      return { int: v.toString() };
    case 'number':
      return { float: pyFloatRepr(v) };
    case 'string':
      return { str: v };
  }
  if (Array.isArray(v)) return { list: v.map(canon) };
  if (v instanceof PyTuple) return { tuple: v.items.map(canon) };
  if (v instanceof PyDict) return { dict: v.entries().map(([k, x]) => [canon(k), canon(x)]) };
  if (v instanceof PySet) return { set: v.values().map(canon) };
  if (v instanceof PyBytes) return { bytes: Buffer.from(v.bytes).toString('base64') };
  if (v instanceof PyTimestamp) return v.kind === 'date' ? { date: v.isoformat() } : { datetime: v.isoformat() };
  return { other: String(v) };
}

/** Sets compare regardless of order. */
function normalize(c: unknown): unknown {
  if (c === null || typeof c !== 'object') return c;
  if (Array.isArray(c)) return c.map(normalize);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c as Record<string, unknown>)) {
    if (k === 'set') {
      out[k] = (v as unknown[]).map(normalize).sort((a, b) => {
        const x = JSON.stringify(a);
        const y = JSON.stringify(b);
        return x < y ? -1 : x > y ? 1 : 0;
      });
    } else {
      out[k] = normalize(v);
    }
  }
  return out;
}

function codePoints(text: string, utf16: number): number {
  let n = 0;
  for (let i = 0; i < utf16; i++) {
    const c = text.charCodeAt(i);
    if (!(c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff)) n++;
  }
  return n;
}

const POSITIONED = new Set(['ReaderError', 'ScannerError', 'ParserError', 'ComposerError']);
/** Exceptions whose str() loadYaml reproduces. */
const MESSAGE_CHECKED = new Set(['ReaderError', 'ScannerError', 'ParserError', 'ComposerError', 'ConstructorError', 'KeyError', 'IndexError', 'AttributeError', 'ValueError', 'TypeError', 'RecursionError']);

/** Why the two results differ, or null. */
function compare(text: string, py: PyResult): string | null {
  const mine = loadYaml(text);
  if (py.error?.startsWith('oracle:')) return `oracle failed: ${py.error} ${py.message}`;
  if (py.ok !== undefined) {
    if (!mine.ok) return `PyYAML loads it, loadYaml fails: ${mine.error.kind}: ${mine.error.message}`;
    const a = JSON.stringify(normalize(py.ok));
    const b = JSON.stringify(normalize(canon(mine.value)));
    return a === b ? null : `values differ:\n    python:   ${a}\n    loadYaml: ${b}`;
  }
  if (py.recursive) {
    return !mine.ok && mine.error.kind === 'recursive' ? null : `PyYAML builds a recursive value, loadYaml: ${mine.ok ? 'ok' : mine.error.kind}`;
  }
  if (mine.ok) return `PyYAML fails (${py.error}: ${py.message}), loadYaml loads ${JSON.stringify(normalize(canon(mine.value)))}`;
  const err = mine.error;
  const pyError = py.error ?? '';
  if (err.pyException !== pyError) return `exception differs: python ${py.error}: ${py.message}\n    loadYaml ${err.pyException} (${err.kind}): ${err.message}`;
  if (POSITIONED.has(pyError) && py.pos !== null && py.pos !== undefined) {
    const at = codePoints(text, err.span.start);
    if (at !== py.pos) return `error position differs: python ${py.pos}, loadYaml ${at} (${py.error}: ${py.message})`;
  }
  if (MESSAGE_CHECKED.has(pyError) && py.message !== err.message) {
    return `message differs:\n    python:   ${JSON.stringify(py.message)}\n    loadYaml: ${JSON.stringify(err.message)}`;
  }
  return null;
}

// ---------------------------------------------------------------------------
// Generator

class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0 || 1;
  }
  next(): number {
    // mulberry32
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
}

const PLAIN_FAMILIES: ReadonlyArray<readonly string[]> = [
  // ints
  ['0', '5', '-7', '+12', '1_000', '0b1010', '-0b1_1', '0b', '0b_', '017', '0_7', '08', '09', '0x1F', '-0xff', '0x_a', '0x', '0o17', '1:30', '-1:30:05', '1:60', '1:5:9', '00', '007', '12345678901234567890123', '_1'],
  // floats
  ['1.5', '1.', '.5', '-.5', '+.5', '._5', '1e5', '1.0e+5', '1.5E-3', '1.5e3', '6.8523015e+5', '685.230_15e+03', '190:20:30.15', '.inf', '-.Inf', '+.INF', '.NaN', '.nan', '-.nan', '1.10', '0.', '1__2.3_', '.e5', '1.e-5'],
  // bools
  ['yes', 'Yes', 'YES', 'no', 'No', 'NO', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'on', 'On', 'ON', 'off', 'Off', 'OFF', 'y', 'Y', 'n', 'N', 'yEs', 'tRue', 'nO'],
  // nulls
  ['~', 'null', 'Null', 'NULL', 'nulL', 'none', 'None'],
  // timestamps
  ['2001-12-14', '2001-12-14t21:59:43.10-05:00', '2001-12-14 21:59:43.10 -5', '2001-12-15T02:59:43.1Z', '2002-12-14', '2001-1-1', '2001-01-01 1:02:03', '2001-02-30', '2001-13-01', '0000-01-01', '2001-01-01T25:00:00', '2001-01-01 01:02:03.1234567 +05:99', '2001-01-01 01:02:03 +24', '2001-01-01T01:02:60', '2001-01-01  01:02:03Z', '2001-01-01T01:02:03.'],
  // special
  ['<<', '=', '<', '==', '-', '--', '---x', 'a-b', '-a', '?a', ':a', 'a:b', 'a#b', 'a #b', 'http://x/y?z=1&w', 'a,b', 'a[b]', 'a{b}', '@x', '`x', '%x', 'a b  c', 'é', 'ünïcödé', '😀', 'x\u2028y', '!x', 'a\u00a0b'],
  // words
  ['a', 'b', 'key', 'value', 'packages', 'runcmd', 'write_files', 'content', 'users', 'name', 'merge_how', 'list', 'dict', 'str', 'append', 'path', 'ls -l /', 'echo hi'],
];

const TAGS = [
  '!!str', '!!int', '!!float', '!!bool', '!!null', '!!binary', '!!timestamp', '!!set', '!!omap', '!!pairs', '!!seq', '!!map',
  '!', '!foo', '!!python/unicode', '!<tag:yaml.org,2002:str>', '!!merge', '!!value', '!e!x', '!!str,', '!!int\t',
];

const GOOD_TAGS = ['!!str', '!!int', '!!float', '!!bool', '!!null', '!', '!!python/unicode', '!<tag:yaml.org,2002:str>'];

const KEYWORDS = ['a', 'b', 'c', 'key', 'x', 'y', 'name', 'packages', 'runcmd', 'write_files', 'merge_how', '1', '1.0', 'true', 'yes', 'null', '~', '"a"', "'b'", '2001-01-01', '0x1', '=', '<<'];

class Gen {
  private anchors: Array<{ name: string; kind: 'scalar' | 'map' | 'seq' }> = [];
  private anchorCount = 0;

  constructor(private readonly rng: Rng) {}

  plain(): string {
    return this.rng.pick(this.rng.pick(PLAIN_FAMILIES));
  }

  singleQuoted(): string {
    const parts = ['', 'a', "it''s", ' spaced ', 'x\ny', 'x\n\n  y', '#', ': ', '\t', 'é', 'a  \n  b'];
    return "'" + this.rng.pick(parts) + this.rng.pick(parts) + "'";
  }

  doubleQuoted(): string {
    const good = ['', 'a', '\\n', '\\t', '\\x41', '\\u00e9', '\\U0001F600', '\\/', '\\N', '\\_', '\\L', '\\P', '\\e', '\\0', '\\ ', '\\\t', '\\"', '\\\\', '\\uD800', "'", 'x\ny', 'x\n\ny', 'a\\\n  b', ' \t', '#', '5', 'yes', '1:30', '2001-01-01\\n', 'x\n  \n y', 'a \n b'];
    const bad = ['\\q', '\\x4', '\\U00110000', 'x\n---\ny', 'x\n... y'];
    const parts = this.rng.chance(0.9) ? good : bad;
    let s = '"';
    for (let i = this.rng.int(3); i >= 0; i--) s += this.rng.pick(parts);
    return s + '"';
  }

  scalar(): string {
    const r = this.rng.next();
    if (r < 0.62) return this.plain();
    if (r < 0.78) return this.doubleQuoted();
    if (r < 0.9) return this.singleQuoted();
    return this.plain() + ' ' + this.plain();
  }

  props(kind: 'scalar' | 'map' | 'seq'): string {
    let out = '';
    if (this.rng.chance(0.08)) {
      const name = this.rng.chance(0.05) ? 'dup' : `a${this.anchorCount++}`;
      this.anchors.push({ name, kind });
      out += `&${name} `;
    }
    if (this.rng.chance(0.08)) {
      const tag =
        kind === 'scalar'
          ? this.rng.pick(this.rng.chance(0.7) ? GOOD_TAGS : TAGS)
          : this.rng.pick(this.rng.chance(0.7) ? (kind === 'map' ? ['!!map', '!!set', '!'] : ['!!seq', '!!omap', '!!pairs', '!']) : ['!!set', '!!omap', '!!pairs', '!!seq', '!!map', '!', '!!str', '!foo']);
      out = this.rng.chance(0.5) ? `${tag} ${out}` : `${out}${tag} `;
    }
    return out;
  }

  alias(kind?: 'map'): string | null {
    const pool = kind ? this.anchors.filter((a) => a.kind === kind) : this.anchors;
    if (pool.length === 0) return this.rng.chance(0.03) ? '*nope' : null;
    return '*' + this.rng.pick(pool).name;
  }

  key(): string {
    const r = this.rng.next();
    if (r < 0.7) return this.rng.pick(KEYWORDS);
    if (r < 0.8) return this.scalar();
    if (r < 0.85) return this.alias() ?? 'k';
    if (r < 0.9) return this.flow(1, true);
    if (r < 0.95) return this.props('scalar') + this.rng.pick(KEYWORDS);
    return this.plain();
  }

  flow(depth: number, oneLine = false): string {
    const sp = () => (oneLine ? this.rng.pick(['', ' ', ' ', '  ']) : this.rng.pick(['', ' ', ' ', ' ', '  ', '', '\n', '\n  ', '\n    ', ' # c\n ']));
    if (depth > 2 || this.rng.chance(0.3)) {
      const a = this.rng.chance(0.1) ? this.alias() : null;
      return a ?? this.props('scalar') + this.scalar();
    }
    const n = this.rng.int(4);
    const items: string[] = [];
    if (this.rng.chance(0.5)) {
      for (let i = 0; i < n; i++) {
        const item = this.rng.chance(0.15)
          ? `${this.key()}:${sp()}${this.flow(depth + 1, oneLine)}`
          : this.rng.chance(0.05)
            ? `? ${this.flow(depth + 1, oneLine)}`
            : this.flow(depth + 1, oneLine);
        items.push(item);
      }
      return this.props('seq') + '[' + sp() + items.join(',' + sp()) + (this.rng.chance(0.1) ? ',' : '') + sp() + ']';
    }
    for (let i = 0; i < n; i++) {
      const r = this.rng.next();
      if (r < 0.1) items.push(this.key());
      else if (r < 0.15) items.push(`<<: ${this.alias('map') ?? '{z: 1}'}`);
      else if (r < 0.2) items.push(`? ${this.key()}`);
      else items.push(`${this.key()}:${this.rng.chance(0.8) ? ' ' : ''}${this.flow(depth + 1, oneLine)}`);
    }
    return this.props('map') + '{' + sp() + items.join(',' + sp()) + (this.rng.chance(0.1) ? ',' : '') + sp() + '}';
  }

  blockScalar(indent: number): string {
    const header = this.rng.chance(0.85)
      ? this.rng.pick(['|', '>', '|-', '>+', '|2', '>-1', '|+', '>2-', '| # c', '>1'])
      : this.rng.pick(['|0', '|x', '>\t', '|#', '|-+', '|10']);
    const ind = ' '.repeat(Math.max(0, indent + this.rng.pick([1, 2, 2, 2, 3, 0])));
    const lines: string[] = [];
    const n = 1 + this.rng.int(4);
    for (let i = 0; i < n; i++) {
      const r = this.rng.next();
      if (r < 0.15) lines.push('');
      else if (r < 0.25) lines.push(ind + '  more indented');
      else if (r < 0.3) lines.push(ind.slice(1) + ' ');
      else if (r < 0.35) lines.push(ind + '\tx');
      else if (r < 0.4) lines.push(ind + '   ');
      else lines.push(ind + this.rng.pick(['text', 'a b', '# not a comment', 'key: value', '- item', '"q"']));
    }
    if (this.rng.chance(0.3)) lines.push('');
    return header + '\n' + lines.join('\n');
  }

  /** A value after `key:` or `-` at the given indentation: inline text or '\n' + nested lines. */
  value(indent: number, depth: number): string {
    const r = this.rng.next();
    if (depth > 3 || r < 0.4) {
      if (this.rng.chance(0.1)) return '';
      if (this.rng.chance(0.07)) return ' ' + (this.alias() ?? 'x');
      if (this.rng.chance(0.1)) return ' ' + this.plain() + '\n' + ' '.repeat(indent + 1 + this.rng.int(3)) + this.plain();
      return ' ' + this.props('scalar') + this.scalar();
    }
    if (r < 0.5) return ' ' + this.flow(0);
    if (r < 0.58) return ' ' + this.props('scalar') + this.blockScalar(indent);
    const step = this.rng.pick([2, 2, 2, 4, 1, 0]);
    if (r < 0.8) {
      const props = this.props('map');
      return (props ? ' ' + props.trimEnd() : '') + '\n' + this.mapping(indent + Math.max(step, 1), depth + 1);
    }
    const props = this.props('seq');
    return (props ? ' ' + props.trimEnd() : '') + '\n' + this.sequence(indent + step, depth + 1);
  }

  mapping(indent: number, depth: number): string {
    const pad = ' '.repeat(indent);
    const lines: string[] = [];
    const used: string[] = [];
    const n = 1 + this.rng.int(4);
    for (let i = 0; i < n; i++) {
      const r = this.rng.next();
      if (r < 0.06) {
        const a = this.alias('map');
        lines.push(`${pad}<<: ${a ?? '{m: 1}'}`);
      } else if (r < 0.09) {
        const items = [this.alias('map') ?? '{m: 1}', this.alias('map') ?? '{n: 2}'];
        lines.push(`${pad}<<: [${items.join(', ')}]`);
      } else if (r < 0.11) {
        lines.push(`${pad}<<:\n${this.mapping(indent + 2, depth + 1)}`);
      } else if (r < 0.14) {
        lines.push(`${pad}? ${this.key()}\n${pad}:${this.value(indent, depth + 1)}`);
      } else if (r < 0.2 && used.length) {
        lines.push(`${pad}${this.rng.pick(used)}:${this.value(indent, depth + 1)}`);
      } else if (r < 0.23) {
        lines.push(`${pad}# comment`);
      } else {
        const key = this.key();
        used.push(key);
        lines.push(`${pad}${key}:${this.value(indent, depth + 1)}${this.rng.chance(0.05) ? ' # trailing' : ''}`);
      }
    }
    return lines.join('\n');
  }

  sequence(indent: number, depth: number): string {
    const pad = ' '.repeat(indent);
    const lines: string[] = [];
    const n = 1 + this.rng.int(4);
    for (let i = 0; i < n; i++) {
      const r = this.rng.next();
      if (r < 0.15 && depth < 4) {
        // compact mapping in a sequence entry
        const inner = this.mapping(indent + 2, depth + 1).slice(indent + 2);
        lines.push(`${pad}- ${inner}`);
      } else if (r < 0.2 && depth < 4) {
        lines.push(`${pad}- - ${this.scalar()}\n${pad}  - ${this.scalar()}`);
      } else {
        lines.push(`${pad}-${this.value(indent, depth + 1)}`);
      }
    }
    return lines.join('\n');
  }

  cloudConfig(): string {
    const parts = ['#cloud-config'];
    const pick = this.rng.int(8);
    if (pick & 1) parts.push('packages:\n  - git\n  - [curl, wget]\n  - "nginx=1.2"');
    if (pick & 2) parts.push('runcmd:\n  - [ sh, -c, "echo hello\n    world" ]\n  - echo $HOME > /tmp/x\n  - [url?x=1]');
    if (pick & 4) parts.push('write_files:\n- path: /etc/x\n  content: |\n    line 1\n\n    line 3\n  permissions: 0644\n  owner: root:root');
    parts.push(this.rng.pick(['merge_how:\n - name: list\n   settings: [append]\n - name: dict\n   settings: [no_replace, recurse_list]', 'merge_how: "list(append)+dict(recurse_array)+str()"', 'users:\n  - default\n  - name: bob\n    sudo: ALL=(ALL) NOPASSWD:ALL\n    ssh_authorized_keys: ["ssh-rsa AAAA...",\n"ssh-rsa BBBB..."]', 'bootcmd: [[ cloud-init-per, once, x ]]']));
    return parts.join('\n');
  }

  /** Short documents aimed at one feature each. */
  snippet(): string {
    const rng = this.rng;
    const w = () => rng.pick(KEYWORDS);
    const v = () => this.scalar();
    const long = (n: number, ch = 'k') => ch.repeat(n);
    const templates: Array<() => string> = [
      () => `${long(1018 + rng.int(12))}: ${v()}`,
      () => `${long(500 + rng.int(20), '😀')}: ${v()}`,
      () => `[${long(1015 + rng.int(15))}: x]`,
      () => `? ${long(1030)}\n: x`,
      () => `- ${long(1015 + rng.int(15))}: 1\n  b: 2`,
      () => `${rng.pick(['%YAML 1.1', '%YAML 1.2', '%YAML 2.0', '%YAML 1.1\n%YAML 1.1', '%FOO bar baz', '%YAML  1.1 # c', '%YAML 1', '%YAML 1.1x', '%TAG !a! tag:a,2000:\n%TAG !a! tag:b,2000:', '%TAG !! tag:x,2000:', '%TAG ! !local-', '%TAG !a tag:x', '%'])}\n--- ${rng.pick(['!a!x y', '!!str z', '!x y', 'v', '!!int 5'])}`,
      () =>
        rng.pick([
          '%TAG !y! tag:yaml.org,2002:\n--- !y!int "5"',
          '%TAG ! tag:yaml.org,2002:\n--- !int 5',
          '%TAG ! tag:yaml.org,2002:\n--- [!str 5, !!int "6", !seq [], !map {}]',
          '%TAG !! tag:example.com,2000:\n--- !!int 5',
          '%TAG !y! tag:yaml.org,2002:\n---\na: !y!omap [x: 1]\nb: !y!%73et {z}',
          '--- x\n... # c\n',
          '--- x\n... y\n',
          '---\n...\n...\n',
          '... \n--- x',
          '%YAML 1.1\n...\n',
          '{? [a]: b}',
          '{? a: b, [c]: d}',
          '[? [a]: b]',
          '- !!str\n- !!int\n- !!null',
          '- &a\n- *a\n- &b !!str\n- *b',
        ]),
      () => `${rng.pick(['!e!%41', '!<%F0%9F%98%80> x', '!%FF x', '!%4 x', '!<tag:yaml.org,2002:int> "7"', '!<!> x', '!<> x', '!<tag:yaml.org,2002:str x', '!!%73tr 5', '!a!b!c x', '!!', '! !', '!!str!x y', '!a%20b x'])}`,
      () => `${rng.pick(['&a.b x', '*a: b', '&a x: *a', '&a [*a]', '&a {k: *a}', '&a {<<: *a}', 'a: &x {b: *x}', '&a !!str {=: *a}', '&a !!set {? *a}', '- &a [*a, 1]\n- *a', '&a {x: &b [*b]}', '&a {<<: [*a]}', 'a: &a {b: 1}\nc: {<<: *a, <<: {b: 2}}', '&ä x', '&a\n- *a', '[&a, *a]', '{&a a: *a}', '&a &b x', '*a', '- &a\n- *a', '&a {*a: 1}', '!!set &a {*a}', '&a: x', '*a\n'])}`,
      () => `${w()}:\r${rng.pick(['  x', '- y', 'z: 1'])}\r${w()}: 2`,
      () => `${w()}: a${rng.pick(['\u2028', '\u2029', '\x85', '\r'])}${rng.pick(['  ', ' ', ''])}${rng.pick(['b', 'c: d', '- e'])}`,
      () => `${rng.pick(['"a\u2028 b"', "'a\x85 b'", '"a\r\n  b"', '"a\u2029\u2029b"', '|\n a\u2028 b\n', '>\n a\x85 b\n c'])}`,
      () => `a: 1\n\ufeff${rng.pick(['b: 2', '  b: 2', '- x'])}`,
      () => `\ufeff\ufeff${w()}: 1`,
      () => `${w()}: ${rng.pick(['[a:b]', '{a:b}', '[:a]', '{:a}', '[? a]', '{? a}', '[a: ]', '[? : x]', '{a: b, ?: c}', '[a, - b]', '[-a, -]', '[a]b', '{a}: b', '[a?b]', '{a:[b]}', '[a:[b]]', '{"a":b}', '["a":b]', "{'a':b}", '[a, b, ]', '[, a]', '{a, b: }', '[a #c\n]', '[a#c]', '["a"#c\n]', '{a: b}#c', '[a]#c'])}`,
      () => `${rng.pick(['- a\n - b', '- a\n-  b', 'a:\n- b\n- c', 'a:\n  - b\n - c', 'a:\n - b\nc: d', '? a\n? b\n: c', '? - a\n  - b\n: c', '?\n: x', ': x', '- ? a\n  : b', '- : x', 'a: b: c', 'a:\n  b\n  c: d', 'a: - b', '- - - x', '-\n -\n  - x', 'a:\n  ? b\n  : c', '? |\n  x\n: y', 'a: |\n  x\n b: 2', 'a:\n\t- x', 'a:\n  - x\n\t- y'])}`,
      () => `${rng.pick(['|', '>', '|-', '|+', '>2', '|1'])}\n${rng.pick(['', ' ', '  ', '\t', ' \t'])}${rng.pick(['x', ''])}\n${rng.pick(['  y', ' z', 'w', '\ty', '   ', ''])}\n${rng.pick(['', '  ', ' q'])}`,
      () => `k: ${rng.pick(['|', '>', '|2', '>-'])}\n${rng.pick([' ', '  ', '   ', '    '])}a\n${rng.pick([' ', '  ', '   ', '    ', ''])}b\n${rng.pick(['', ' ', 'k2: v'])}`,
      () => `${rng.pick(['1', '1.0', 'true', 'yes', '0x1', '01', '1:0', '"1"', '! 1', '!!float 1', '.inf', '.nan', '2001-01-01', '2001-01-01 00:00:00Z', '2001-01-01T05:00:00+05', '~', 'null', '', '!!binary aGk=', '!!binary "aGk="'])}: a\n${rng.pick(['1', '1.0', 'true', 'on', '0b1', '+1', '1_0', '.Inf', '.NaN', '2001-01-01', '2001-01-01 00:00:00', '2001-01-01T00:00:00Z', '~', 'Null', '!!null x', '!!binary aGk'])}: b`,
      () => `${rng.pick(['!!int', '!!float', '!!bool', '!!null', '!!timestamp', '!!binary', '!!str', '!!python/unicode'])} ${rng.pick(['"0x1F"', '"0o17"', '"1_0"', '"-0b11"', '" 5 "', '"1:30"', '"1:-30"', '"+-5"', '"--5"', '"5e3"', '"1e500"', '"inf"', '"-Infinity"', '"nan"', '".5."', '""', '"-"', '"0x"', '"y"', '"Y"', '"on"', '"2001-1-1"', '"2001-01-01 1:2:3"', '"aGVsbG8"', '"aGVsbA=="', '"a G V s b G 8 ="', '"aGVs\\nbG8="', '"=aGk="', '"aG=k="', '"é"', '"éé"', '"😀"', '"1"', '"١٢"', '"1' + '0'.repeat(4400) + '"', '{=: "7"}', '{=: [1]}', '{x: 1}', '[1]', '&z x', '!!str x'])}`,
      () => `${rng.pick(['a', '- x', '[a', '{a: [b', '"a', "'a", 'a: "b\n', 'a: |\n  x\n---\ny', 'a: >\n x\n...\n'])}`,
      () => `base: &b {x: 1, y: 2}\n${rng.pick(['c: {<<: *b, x: 3}', 'c: {x: 3, <<: *b}', 'c:\n  <<: [*b, {y: 9, z: 8}]\n  y: 0', 'c: {<<: [{z: 8}, *b]}', 'c: {<<: *b, <<: {x: 7}}', 'c: {<<: 1}', 'c: {<<: [1]}', 'c: {<<: [*b, [1]]}', 'c: {<<: ~}', 'c: !!merge {x: 1}', 'c: {!!merge q: *b}', 'c: {"<<": *b}', 'c: {<<: *b}\nd: *b', 'c: !!set {<<: *b}', 'c: !!omap [<<: *b]', 'c: {<<: !!set {q}}', 'c: {<<: !!omap [a: 1]}', 'c: [<<]', 'c: {=: 1, <<: *b}', 'c: {<<: {<<: *b, w: 1}}', 'c: {<<: &n {<<: *b}}\nd: {<<: *n}'])}`,
      () => `${rng.pick(['- ', 'k: ', '', '[', '{k: '])}${rng.pick(['!!omap', '!!pairs', '!!set', '!!seq', '!!map', '!'])} ${rng.pick(['[a: 1, b: 2]', '[a: 1, a: 2]', '[{a: 1, b: 2}]', '[a]', '{a: 1}', '{a, b, a}', '[[a]]', '[{}]', '[]', '{}', 'x', '[? a]', '[a: [1]]'])}${rng.pick(['', ']', '}'])}`,
      () => `${rng.pick(['a: 1\na: 2', 'a: 1\nb: 2\na: 3', '{a: 1, a: 2}', '1: a\n1.0: b\ntrue: c', '? [a]\n: 1', '? {a: 1}\n: 2', '[a, b]: c', '{a: b}: c', '!!set {a: 1}', '? !!set {a}\n: x', '? !!binary aGk=\n: x', '? !!omap []\n: x'])}`,
    ];
    return rng.pick(templates)();
  }

  document(): string {
    this.anchors = [];
    this.anchorCount = 0;
    const r = this.rng.next();
    let body: string;
    if (r < 0.5) body = this.mapping(0, 0);
    else if (r < 0.65) body = this.sequence(0, 0);
    else if (r < 0.75) body = this.flow(0);
    else if (r < 0.85) body = this.props('scalar') + this.scalar();
    else if (r < 0.9) body = this.blockScalar(-1);
    else body = this.cloudConfig();
    const inline = r >= 0.65 && r < 0.85;
    const prefix = this.rng.pick(['', '', '', '', '', '', '---\n', inline ? '--- ' : '---\n', '%YAML 1.1\n---\n', '%TAG !e! tag:example.com,2000:\n---\n', '# head\n', '\ufeff']);
    const suffix = this.rng.chance(0.9) ? this.rng.pick(['', '', '\n', '\n', '\n...\n', '\n# end\n']) : this.rng.pick(['\n---\n', '\n...\n---\nx', '\n--- x']);
    return prefix + body + suffix;
  }
}

const INSERTS = ['\t', ':', '-', '#', '"', "'", '[', ']', '{', '}', ',', '?', '&', '*', '!', '|', '>', '%', '@', '`', ' ', '\n', ': ', '- ', '\x01', '\x85', '\u2028', '\ufeff', '\r', '\\', '=', '<<'];

function mutate(text: string, rng: Rng): string {
  let t = text;
  for (let k = 1 + rng.int(3); k > 0; k--) {
    const at = rng.int(t.length + 1);
    const lines = t.split('\n');
    const li = rng.int(lines.length);
    switch (rng.int(11)) {
      case 0:
      case 1:
        t = t.slice(0, at) + rng.pick(INSERTS) + t.slice(at);
        break;
      case 2:
        t = t.slice(0, at) + t.slice(at + 1);
        break;
      case 3: {
        const sp = t.indexOf(' ', at);
        if (sp >= 0) t = t.slice(0, sp) + '\t' + t.slice(sp + 1);
        break;
      }
      case 4:
        lines[li] = rng.chance(0.5) ? ' '.repeat(1 + rng.int(2)) + lines[li] : lines[li].replace(/^ {1,2}/, '');
        t = lines.join('\n');
        break;
      case 5:
        if (li + 1 < lines.length) {
          [lines[li], lines[li + 1]] = [lines[li + 1], lines[li]];
          t = lines.join('\n');
        }
        break;
      case 6:
        lines.splice(li, 0, rng.pick(['---', '...', '--- x', '%YAML 1.1', '%TAG ! !x', '# c', '', '  ', '\t', '&a', '*a', '? x', ': y']));
        t = lines.join('\n');
        break;
      case 7:
        t = t.replace(/\n/g, '\r\n');
        break;
      case 8:
        t = t.slice(0, at);
        break;
      case 9:
        lines.splice(li, 0, lines[li]);
        t = lines.join('\n');
        break;
      default:
        t = t.slice(0, at) + rng.pick(['\u2029', '\x85', '\x7f', '\ud800', '\u00a0', '\uffff']) + t.slice(at);
    }
  }
  return t;
}

// ---------------------------------------------------------------------------
// Shrinking and driver

async function shrink(text: string, oracle: Oracle): Promise<string> {
  const fails = async (t: string) => compare(t, await oracle.run(t)) !== null;
  let best = text;
  let changed = true;
  while (changed) {
    changed = false;
    const lines = best.split('\n');
    for (let i = 0; i < lines.length && lines.length > 1; i++) {
      const candidate = [...lines.slice(0, i), ...lines.slice(i + 1)].join('\n');
      if (await fails(candidate)) {
        best = candidate;
        changed = true;
        break;
      }
    }
    if (changed) continue;
    for (let i = 0; i < best.length; i++) {
      const candidate = best.slice(0, i) + best.slice(i + 1);
      if (await fails(candidate)) {
        best = candidate;
        changed = true;
        break;
      }
    }
  }
  return best;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: string) => {
    const i = args.indexOf(name);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
  };
  const cases = Number(opt('--cases', '5000'));
  const seed = Number(opt('--seed', '20221122'));
  const python = opt('--python', '/usr/bin/python3');
  const verbose = args.includes('--verbose');

  const oracle = new Oracle(python);
  const rng = new Rng(seed);
  const gen = new Gen(rng);
  const texts: string[] = [];
  for (let i = 0; i < cases; i++) {
    const doc = rng.chance(0.3) ? gen.snippet() : gen.document();
    texts.push(rng.chance(0.25) ? mutate(doc, rng) : doc);
  }
  const results = await Promise.all(texts.map((t) => oracle.run(t)));
  const stats = { ok: 0, error: 0, recursive: 0 };
  for (let i = 0; i < texts.length; i++) {
    const py = results[i];
    if (py.ok !== undefined) stats.ok++;
    else if (py.recursive) stats.recursive++;
    else stats.error++;
    const why = compare(texts[i], py);
    if (verbose) console.log(JSON.stringify(texts[i]), '=>', why ?? 'same', JSON.stringify(py).slice(0, 200));
    if (why !== null) {
      console.log(`MISMATCH in case ${i} (seed ${seed}):\n  ${why}\n  text: ${JSON.stringify(texts[i])}`);
      const small = await shrink(texts[i], oracle);
      const py2 = await oracle.run(small);
      console.log(`minimal reproducer: ${JSON.stringify(small)}\n  ${compare(small, py2)}\n  python: ${JSON.stringify(py2)}`);
      oracle.close();
      process.exit(1);
    }
  }
  oracle.close();
  console.log(`yaml-load: ${cases} cases agree with PyYAML (seed ${seed}; python ok ${stats.ok}, error ${stats.error}, recursive ${stats.recursive})`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(2);
});
