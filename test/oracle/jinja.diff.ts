/**
 * Differential test of server/src/engine/userdata/jinja.ts against the real
 * thing: cloud-init 22.4.2's templater + Jinja2 3.1 under /usr/bin/python3.
 *
 * Generates random `## template: jinja` payloads from the supported subset
 * (seeded PRNG) plus random instance data, renders each with both, and
 * compares ok/error class, rendered text and the missing-variable list (and
 * the message of UndefinedError/TypeError, which cloud-init logs). Templates
 * our side reports as `unsupported` are counted, not compared.
 *
 *   node out/test/oracle/jinja.diff.js [--count N] [--seed S] [--verbose]
 *
 * Exits 1 on the first mismatch, after shrinking it to a minimal reproducer.
 */

import { existsSync } from 'node:fs';
import { CLOUDINIT_TREES, installed, type CloudInitVersion } from './cloudinitTrees';
import { FULL_VERSIONS, selectedVersions } from './perVersion';
import { startJinjaOracle } from './jinjaOracle';
import { renderCloudInitJinja, type JinjaRenderResult } from '../../server/src/engine/userdata/jinja';


const HANDLE = String.raw`
def handle(req):
    payload = req["payload"]
    try:
        kind = detect_template(payload)[0]
    except ValueError as e:
        return {"ok": False, "reason": "not-jinja", "exception": "ValueError", "message": str(e)}
    if kind != "jinja":
        return {"ok": False, "reason": "not-jinja", "exception": "NotJinjaError", "message": "Payload is not a jinja template"}
    try:
        data = json.loads(req["data"])
        if not isinstance(data, dict):
            raise TypeError("root")
    except Exception:
        return {"ok": False, "reason": "no-instance-data", "exception": "JinjaLoadError", "message": "Loading Jinja instance data failed"}
    try:
        variables = convert_jinja_instance_data(data, decode_paths=data.get("base64-encoded-keys", []), include_key_aliases=True)
    except Exception as e:
        return {"ok": False, "reason": "runtime", "exception": type(e).__name__, "message": str(e)}
    try:
        text = render_string(payload, variables)
    except UndefinedError as e:
        return {"ok": False, "reason": "undefined", "exception": "UndefinedError", "message": str(e)}
    except TypeError as e:
        return {"ok": False, "reason": "type", "exception": "TypeError", "message": str(e)}
    except SecurityError as e:
        return {"ok": False, "reason": "security", "exception": "SecurityError", "message": str(e)}
    except TemplateSyntaxError as e:
        return {"ok": False, "reason": "syntax", "exception": "TemplateAssertionError" if "TemplateAssertionError" in [c.__name__ for c in type(e).__mro__] else "TemplateSyntaxError", "message": e.message}
    except RecursionError as e:
        return {"ok": False, "reason": "runtime", "exception": "RecursionError", "message": str(e)}
    except Exception as e:
        return {"ok": False, "reason": "runtime", "exception": type(e).__name__, "message": str(e)}
    return {"ok": True, "text": text, "missingVariables": missing_variables(text)}
`;
import { Rng } from './generate';
import { LineOracle } from './lineOracle';

type Result = JinjaRenderResult | { ok: false; reason: 'oracle-crash'; message: string };

class Oracle {
  private readonly py: LineOracle;
  constructor(version: CloudInitVersion = '22.4') {
    const env = { ...process.env };
    delete env.PYTHONPATH;
    this.py = startJinjaOracle(version, HANDLE, env);
  }
  render(payload: string, data: string): Promise<Result> {
    return this.py.ask<Result>({ payload, data });
  }
  close(): void {
    this.py.close();
  }
}

// ---------------------------------------------------------------------------
// Seeded generation


const KEYS = ['a', 'b', 'name', 'region', 'x-y', 'v.w', 'items', 'keys', 'count', 'n', 'list', 'local-hostname', 'z', 'Upper', '_y', '_doc', '__class__'];
const WORDS = ['', 'a', 'abc', 'Hello World', 'x y  z', ' pad ', 'ab,cd', 'CamelCase', 'é', '1', '42', '3.5', '-7', 'tab\there', 'a-b_c', 'None', 'true', '<b>x</b>', 'a & "b"', "it's", '{}-{}', '{0}{a}', '<!-- c --> d'];

function genScalarJson(r: Rng): string {
  switch (r.int(9)) {
    case 0:
      return String(r.int(200) - 50);
    case 1:
      return r.pick(['1.0', '2.5', '-0.5', '1e3', '0.1', '3.0', '1e20', '1.5e-7']);
    case 2:
      return r.pick(['true', 'false', 'null']);
    case 3:
      return String(2 ** 53 + r.int(5));
    default:
      return JSON.stringify(r.pick(WORDS));
  }
}

function genJson(r: Rng, depth: number): string {
  if (depth <= 0 || r.chance(0.45)) return genScalarJson(r);
  if (r.chance(0.4)) {
    const n = r.int(4);
    return '[' + Array.from({ length: n }, () => genJson(r, depth - 1)).join(', ') + ']';
  }
  const n = r.int(4);
  const keys = new Set<string>();
  for (let i = 0; i < n; i++) keys.add(r.pick(KEYS));
  return '{' + [...keys].map((k) => `${JSON.stringify(k)}: ${genJson(r, depth - 1)}`).join(', ') + '}';
}

function genInstanceData(r: Rng): string {
  const v1 = `{"instance_id": "i-${r.int(1000)}", "local-hostname": ${JSON.stringify(r.pick(['host1', 'Web-01', 'db']))}, "region": ${JSON.stringify(r.pick(['us-east-1', 'eu']))}, "cloud_name": "aws", "count": ${r.int(5)}, "ratio": ${r.pick(['0.5', '1.0', '2'])}, "tags": ${genJson(r, 2)}}`;
  const ds = `{"meta_data": ${genJson(r, 3)}, "user-data": ${genJson(r, 1)}}`;
  const extra: string[] = [];
  for (let i = 0; i < r.int(3); i++) extra.push(`${JSON.stringify(r.pick(KEYS))}: ${genJson(r, 2)}`);
  const b64 = r.chance(0.1) ? `, "enc": ${JSON.stringify(r.pick(['aGVsbG8=', 'aGk', '/w==', 'YQ==YQ', 'x']))}, "base64-encoded-keys": ["enc"]` : '';
  return `{"v1": ${v1}, "ds": ${ds}${extra.length ? ', ' + extra.join(', ') : ''}, "base64_encoded_keys": []${b64}}`;
}

const NAMES = ['v1', 'ds', 'instance_id', 'local_hostname', 'region', 'cloud_name', 'count', 'ratio', 'tags', 'a', 'b', 'n', 'x_y', 'v_w', 'items', 'list', 'z', 'missing', 'undefined_thing', 'loop'];
const ATTRS = ['_y', '_doc', '_z', '__class__', '__len__', '__doc__', '__name__', 'instance_id', 'local_hostname', 'region', 'meta_data', 'a', 'b', 'name', 'x_y', 'items', 'keys', 'count', 'n', 'list', 'nope', 'upper', 'lower', 'get', 'real', 'index', 'length', 'first', 'last', 'revindex', 'previtem', 'nextitem'];
const FILTERS: Array<[string, (r: Rng, g: Gen) => string]> = [
  ['default', (r, g) => (r.chance(0.5) ? `(${g.expr(1)})` : `(${g.expr(1)}, true)`)],
  ['d', (r, g) => `(${g.expr(1)})`],
  ['lower', () => ''],
  ['upper', () => ''],
  ['capitalize', () => ''],
  ['title', () => ''],
  ['trim', (r) => (r.chance(0.3) ? `('a ')` : '')],
  ['replace', (r) => `(${JSON.stringify(r.pick(['a', '-', '', ' ']))}, ${JSON.stringify(r.pick(['_', 'XY', '']))}${r.chance(0.3) ? ', ' + r.int(3) : ''})`],
  ['join', (r) => (r.chance(0.6) ? `(${JSON.stringify(r.pick([',', ', ', '-', '']))})` : '')],
  ['length', () => ''],
  ['count', () => ''],
  ['int', (r) => (r.chance(0.3) ? `(${r.int(5)})` : r.chance(0.2) ? '(base=16)' : '')],
  ['float', () => ''],
  ['string', () => ''],
  ['first', () => ''],
  ['last', () => ''],
  ['list', () => ''],
  ['sort', (r) => (r.chance(0.3) ? '(reverse=true)' : '')],
  ['unique', () => '|list'],
  ['reverse', () => '|list'],
  ['tojson', (r) => (r.chance(0.2) ? '(indent=2)' : '')],
  ['abs', () => ''],
  ['round', (r) => (r.chance(0.5) ? `(${r.int(3)})` : r.chance(0.5) ? `(1, 'floor')` : '')],
  ['center', (r) => `(${r.int(12)})`],
  ['indent', (r) => (r.chance(0.5) ? `(${r.int(4)}, true)` : '')],
  ['min', () => ''],
  ['max', () => ''],
  ['sum', () => ''],
  ['dictsort', () => ''],
  ['items', () => '|list'],
  ['map', (r) => (r.chance(0.5) ? `('upper')|list` : `(attribute='a')|list`)],
  ['select', (r) => (r.chance(0.5) ? '|list' : `('odd')|list`)],
  ['reject', () => `('none')|list`],
  ['selectattr', () => `('a')|list`],
  ['batch', (r) => `(${1 + r.int(3)})|list`],
  ['slice', (r) => `(${1 + r.int(3)})|list`],
  ['wordcount', () => ''],
  ['truncate', (r) => `(${3 + r.int(10)})`],
  ['format', (r, g) => `(${g.expr(1)})`],
  ['urlencode', () => ''],
  ['filesizeformat', () => ''],
  ['attr', (r) => `(${JSON.stringify(r.pick(['real', '_y', '__class__', 'a', 'upper', '_doc']))})`],
  ['escape', () => ''],
  ['e', () => ''],
  ['forceescape', () => ''],
  ['safe', () => ''],
  ['striptags', () => ''],
  ['xmlattr', (r) => (r.chance(0.3) ? '(false)' : '')],
  ['format', (r, g) => `(${g.expr(1)}, ${g.expr(1)})`],
  ['groupby', (r) => `(${JSON.stringify(r.pick(['a', 'b', 'name', '0', 'x.y']))}${r.chance(0.3) ? ", default='d'" : ''}${r.chance(0.3) ? ', case_sensitive=true' : ''})${r.chance(0.5) ? '|list' : ''}`],
  ['pprint', () => ''],
  ['rejectattr', () => `('a')|list`],
  ['selectattr', (r) => `('a', ${JSON.stringify(r.pick(['defined', 'none', 'odd', 'equalto', 'string']))}${r.chance(0.3) ? ', 1' : ''})|list`],
  ['map', (r) => `(${JSON.stringify(r.pick(['e', 'string', 'int', 'length', 'format']))})|list`],
  ['join', (r) => `(${JSON.stringify(r.pick([',', '']))}, attribute=${JSON.stringify(r.pick(['a', '0']))})`],
  ['unique', () => `(attribute='a')|list`],
  ['max', () => `(attribute='a')`],
  ['sum', () => `(attribute='a')`],
  ['truncate', (r) => `(${3 + r.int(10)}, true, '..', 0)`],
  ['wordcount', () => ''],
  ['items', () => ''],
  ['dictsort', (r) => `(${r.chance(0.5) ? 'true' : 'false'}, 'value')`],
  ['filesizeformat', () => '(true)'],
  ['indent', (r) => `(${JSON.stringify(r.pick(['> ', '\t']))}, first=true, blank=true)`],
  ['tojson', () => ''],
  ['round', (r) => `(${r.int(3)}, ${JSON.stringify(r.pick(['ceil', 'floor', 'common']))})`],
];
const TESTS = ['escaped', 'filter', 'test', 'equalto 1', 'greaterthan 0', 'lessthan 3', 'ne 2', 'ge 1', 'lt 1', '== 0', "in 'abc'", 'sameas true', 'divisibleby(2)', 'defined', 'undefined', 'none', 'string', 'number', 'integer', 'float', 'mapping', 'sequence', 'iterable', 'odd', 'even', 'divisibleby 3', 'eq 1', 'in [1, 2]', 'lower', 'upper', 'boolean', 'true', 'false', 'callable', 'sameas none', 'gt 2', 'le 1'];
const SPECS = ['', ':>5', ':<4', ':^7', ':*^6', ':d', ':5d', ':05d', ':+d', ':x', ':#x', ':#o', ':b', ':X', ':,', ':_', ':c', ':f', ':.2f', ':e', ':.3e', ':g', ':.3g', ':%', ':.1%', ':10', ':.2', ':G', ':,.2f', ':s', ':.3', '!r', '!s', '!a', '!r:>8', ':=+8', ':08.3f', ':#g', ':.0f', ':.0e', ':q'];
const FIELDS = ['', '0', '1', 'a', 'b', '0.a', '0[a]', '0[0]', '0._y', '0.__class__', 'a.upper', '0.real'];
function formatCall(r: Rng, g: Gen): string {
  const n = 1 + r.int(3);
  let fmt = '';
  for (let i = 0; i < n; i++) fmt += r.pick(['', 'x', '-', '{{', '}}', ' ']) + '{' + r.pick(FIELDS) + r.pick(SPECS) + '}';
  if (r.chance(0.05)) fmt += r.pick(['{', '}', '{0', '{!}']);
  const args = Array.from({ length: r.int(3) }, () => g.expr(1));
  if (r.chance(0.3)) return `${JSON.stringify(fmt)}.format_map(${r.chance(0.7) ? `{'a': ${g.expr(1)}, 'b': ${g.expr(1)}}` : g.expr(1)})`;
  const kw = r.chance(0.4) ? [`a=${g.expr(1)}`] : [];
  return `${JSON.stringify(fmt)}.format(${[...args, ...kw].join(', ')})`;
}
const METHODS = ["format(1, 2)", "format_map({'a': 1})", 'center(7, "*")', 'ljust(4)', 'rjust(4, "0")', 'lstrip()', "rstrip('c')", 'casefold()', 'swapcase()', 'isalpha()', 'isalnum()', 'isspace()', 'istitle()', "find('b')", "rfind('b')", "index('a')", "rindex('a')", "rsplit(',', 1)", 'splitlines()', "removeprefix('a')", "removesuffix('c')", 'expandtabs(4)', "rpartition(',')", "encode()", 'capitalize()', "setdefault('k', 1)", "pop('a', 0)", 'popitem()', "update({'q': 1})", "insert(0, 9)", 'reverse()', 'sort()', 'pop()', "remove(1)", "index(1)", 'clear()', 'upper()', 'lower()', 'strip()', 'split()', "split(',')", "startswith('a')", "endswith('c')", "replace('a', 'b')", 'items()', 'keys()', 'values()', "get('a')", "get('zz', 5)", 'count(1)', 'title()', 'isdigit()', "join(['x', 'y'])", 'append(1)', 'copy()', 'zfill(4)', "partition('b')"];
const BINOPS = ['+', '-', '*', '/', '//', '%', '**', '~', '==', '!=', '<', '>=', 'in', 'not in', 'and', 'or'];

class Gen {
  vars: string[] = [];
  constructor(private r: Rng) {}

  literal(): string {
    const r = this.r;
    switch (r.int(10)) {
      case 0:
        return String(r.int(20) - 5);
      case 1:
        return r.pick(['0.5', '1.0', '2.25', '1e3', '3.', '1_000', '0x1f', '0b101', '0o17', '1.5e-7', '100000000000000000.0']);
      case 2:
        return r.pick(['true', 'false', 'none', 'True', 'None']);
      case 3:
        return `'${r.pick(["a'b", 'x\\ny', '\\t', 'q"', '\\x41', '\\u00e9', 'é', '%s-%d', '%(a)s'])}'`;
      default:
        return JSON.stringify(r.pick(WORDS));
    }
  }

  name(): string {
    const r = this.r;
    if (this.vars.length && r.chance(0.4)) return r.pick(this.vars);
    return r.pick(NAMES);
  }

  expr(depth: number): string {
    const r = this.r;
    if (depth <= 0) return r.chance(0.5) ? this.literal() : this.name();
    switch (r.int(16)) {
      case 0:
      case 1:
        return this.name();
      case 2:
        return this.literal();
      case 3:
        return `${this.expr(depth - 1)}.${r.pick(ATTRS)}`;
      case 4:
        return `${this.expr(depth - 1)}[${r.chance(0.5) ? JSON.stringify(r.pick(KEYS)) : String(r.int(5) - 2)}]`;
      case 5:
        return `${this.expr(depth - 1)} ${r.pick(BINOPS)} ${this.expr(depth - 1)}`;
      case 6: {
        const [fname, args] = r.pick(FILTERS);
        return `${this.expr(depth - 1)}|${fname}${args(r, this)}`;
      }
      case 7:
        return `${this.expr(depth - 1)} is ${r.chance(0.2) ? 'not ' : ''}${r.pick(TESTS)}`;
      case 8:
        return `(${this.expr(depth - 1)})`;
      case 9:
        return `[${Array.from({ length: r.int(4) }, () => this.expr(depth - 1)).join(', ')}]`;
      case 10:
        return `{${Array.from({ length: r.int(3) }, () => `${this.literal()}: ${this.expr(depth - 1)}`).join(', ')}}`;
      case 11:
        return `${this.expr(depth - 1)} if ${this.expr(depth - 1)}${r.chance(0.7) ? ' else ' + this.expr(depth - 1) : ''}`;
      case 12:
        return `not ${this.expr(depth - 1)}`;
      case 13:
        if (r.chance(0.35)) return formatCall(r, this);
        if (r.chance(0.2)) return `(${this.expr(depth - 1)}|e).${r.pick(METHODS)}`;
        return `${this.expr(depth - 1)}.${r.pick(METHODS)}`;
      case 14:
        return r.pick([`range(*[1, ${r.int(6)}])`, `dict(**{'a': ${this.expr(depth - 1)}})`, `'%${r.pick(['e', '.2g', 'G', '10.3E', 'c', '-8g', '#g', '010e'])}' % ${this.expr(depth - 1)}`, `range(${r.int(6)})`, `range(1, ${r.int(8)}, ${1 + r.int(3)})`, `dict(a=${this.expr(depth - 1)})`, `namespace(a=1)`, `(${this.expr(depth - 1)}, ${this.expr(depth - 1)})`, `-${this.expr(depth - 1)}`]);
      default:
        return `${this.expr(depth - 1)}[${r.pick(['1:', ':2', '::-1', '-2:', '1:3'])}]`;
    }
  }

  ws(): string {
    return this.r.pick(['', '', '', '-']);
  }

  text(): string {
    const r = this.r;
    return r.pick(['', 'x', ' ', '\n', 'a b\n', '  \n  ', 'text: ', '#cloud-config\n', '- item\n', '\r\n', 'k: v', '{', '}', '%', '#']);
  }

  block(depth: number, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += this.stmt(depth);
    return out;
  }

  stmt(depth: number): string {
    const r = this.r;
    const o = () => `{%${this.ws()} `;
    const c = () => ` ${this.ws()}%}${r.chance(0.3) ? '\n' : ''}`;
    if (depth <= 0) return r.chance(0.5) ? this.text() : `{{${this.ws()} ${this.expr(2)} ${this.ws()}}}`;
    switch (r.int(14)) {
      case 0:
      case 1:
      case 2:
        return this.text();
      case 3:
      case 4:
        return `{{${this.ws()} ${this.expr(3)} ${this.ws()}}}`;
      case 5: {
        let s = `${o()}if ${this.expr(2)}${c()}${this.block(depth - 1, 2)}`;
        if (r.chance(0.3)) s += `${o()}elif ${this.expr(2)}${c()}${this.block(depth - 1, 1)}`;
        if (r.chance(0.4)) s += `${o()}else${c()}${this.block(depth - 1, 1)}`;
        return s + `${o()}endif${c()}`;
      }
      case 6: {
        const v = r.pick(['x', 'item', 'k', 'a']);
        const target = r.chance(0.2) ? `${v}, y` : v;
        const iter = r.pick([this.expr(2), `range(${r.int(4)})`, '[1, 2, 3]', "{'a': 1, 'b': 2}.items()", "'ab'", 'ds.meta_data', 'v1.tags']);
        this.vars.push(v);
        let s = `${o()}for ${target} in ${iter}${r.chance(0.2) ? ' if ' + this.expr(1) : ''}${c()}${this.block(depth - 1, 2)}`;
        if (r.chance(0.2)) s += `${o()}else${c()}${this.block(depth - 1, 1)}`;
        return s + `${o()}endfor${c()}`;
      }
      case 7: {
        const v = r.pick(['x', 'total', 'a', 'ns', 'v1']);
        this.vars.push(v);
        if (r.chance(0.2)) return `${o()}set ${v}${c()}${this.block(depth - 1, 1)}${o()}endset${c()}`;
        return `${o()}set ${v} = ${this.expr(2)}${c()}`;
      }
      case 8:
        return `${o()}do ${this.expr(2)}${c()}`;
      case 9:
        return r.pick([`{# ${this.text()} #}`, `{#- c -#}`, `{% raw %}{{ x }}{% endraw %}`, `{%- raw -%} {% if %} {%- endraw %}`]);
      case 10:
        return `${o()}with w = ${this.expr(2)}${c()}{{ w }}${this.block(depth - 1, 1)}${o()}endwith${c()}`;
      case 11:
        return r.pick([
          `${o()}set ns = namespace(t=0)${c()}${o()}for i in range(3)${c()}${o()}set ns.t = ns.t + i${c()}${o()}endfor${c()}{{ ns.t }}`,
          `${o()}for i in ${r.pick(['[3, 1, 2]', "'xyz'", 'range(4)', 'v1.tags', '[1, 2]|select'])}${c()}{{ loop.${r.pick(['index', 'index0', 'revindex', 'first', 'last', 'length', 'previtem', 'nextitem', "cycle('a', 'b')", 'changed(i)', 'depth'])} }}${o()}endfor${c()}`,
          `${o()}set t = 1${c()}${o()}for i in [1, 2]${c()}{{ t }}${o()}set t = t + i${c()}{{ t }}${o()}endfor${c()}{{ t }}`,
          `${o()}for i in [1]${c()}{{ q }}${o()}endfor${c()}${o()}set q = 5${c()}{{ q }}`,
          `${o()}if ${this.expr(1)}${c()}${o()}set s = 1${c()}${o()}endif${c()}{{ s }}`,
          `{%+ if true +%}\n x {%+ endif -%}\n y`,
          `${o()}filter ${r.pick(['upper', 'trim', 'replace("a", "b")', 'length'])}${c()}${this.block(depth - 1, 1)}${o()}endfilter${c()}`,
          `${o()}print ${this.expr(2)}, ${this.expr(1)}${c()}`,
          `${o()}${r.pick(['include', 'import', 'extends'])} ${r.pick(["'x'", 'nope', '1/0'])}${r.chance(0.5) ? ' as m' : ''}${c()}`,
          `${o()}set c = cycler('a', 'b')${c()}{{ c.next() }}{{ c.next() }}{{ c.current }}${o()}set j = joiner('|')${c()}{{ j() }}x{{ j() }}y`,
        ]);
      default:
        return `{{ ${this.expr(2)} }}\n`;
    }
  }

  template(): string {
    const header = this.r.chance(0.03)
      ? this.r.pick(['## template: basic\n', '#cloud-config\n', '## template: jinja2\n', ' ## template: jinja\n', '## Template:  Jinja\t\n'])
      : this.r.pick(['## template: jinja\n', '## template: jinja\n', '##template:JINJA \n', '## template: jinja\r\n']);
    return header + this.block(3, 1 + this.r.int(4)) + (this.r.chance(0.5) ? '\n' : '');
  }
}

// ---------------------------------------------------------------------------
// Comparison

function differs(ours: Result, theirs: Result): string | null {
  if (!theirs.ok && theirs.reason === 'oracle-crash') return `oracle crashed: ${theirs.message}`;
  if (!ours.ok && ours.reason === 'unsupported') return null;
  if (ours.ok !== theirs.ok) return `ok: ours=${ours.ok} python=${theirs.ok}`;
  if (ours.ok && theirs.ok) {
    if (ours.text !== theirs.text) return `text differs`;
    if (JSON.stringify(ours.missingVariables) !== JSON.stringify(theirs.missingVariables)) return 'missing variables differ';
    return null;
  }
  if (!ours.ok && !theirs.ok) {
    if (ours.reason !== theirs.reason) return `reason: ours=${ours.reason} python=${theirs.reason}`;
    if (ours.reason === 'runtime' && ours.exception !== (theirs as { exception?: string }).exception) return `exception: ours=${ours.exception} python=${(theirs as { exception?: string }).exception}`;
    if ((ours.reason === 'undefined' || ours.reason === 'type' || ours.reason === 'security') && ours.message !== theirs.message) return `message differs`;
  }
  return null;
}

async function shrink(oracle: Oracle, payload: string, data: string, kind: string, version: CloudInitVersion): Promise<string> {
  const header = payload.slice(0, payload.indexOf('\n') + 1);
  let body = payload.slice(header.length);
  const still = async (b: string): Promise<boolean> => {
    const p = header + b;
    const d = differs(renderCloudInitJinja(p, data, { version }), await oracle.render(p, data));
    return d !== null && d.split(':')[0] === kind.split(':')[0];
  };
  for (let size = Math.max(1, body.length >> 1); size >= 1; size = size === 1 ? 0 : Math.max(1, size >> 1)) {
    for (let i = 0; i + size <= body.length; ) {
      const cand = body.slice(0, i) + body.slice(i + size);
      if (await still(cand)) body = cand;
      else i += size;
    }
  }
  return header + body;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : dflt;
  };
  const count = opt('--count', 3000);
  const seed = opt('--seed', 20240611);
  const verbose = args.includes('--verbose');
  if (!existsSync('/usr/bin/python3') || !existsSync(CLOUDINIT_TREES['22.4'])) {
    console.error('jinja oracle: /usr/bin/python3 or the cloud-init tree is missing; skipping');
    process.exit(0);
  }
  // 22.4 and current see every template; 23.4, 24.4 and 25.1 every --sample-every'th (default 4th).
  const versions = selectedVersions(args.includes('--version') ? args[args.indexOf('--version') + 1] : '');
  const sampleEvery = Math.max(1, opt('--sample-every', 4));
  const missing = versions.filter((v) => !installed(v));
  if (missing.length) {
    console.error(`jinja oracle: cloud-init ${missing.join(', ')} not installed (bash ../shared/oracle/setup.sh --version V)`);
    process.exit(1);
  }
  const oracles = new Map(versions.map((v) => [v, new Oracle(v)] as const));
  const r = new Rng(seed);
  const stats: Record<string, Record<string, number>> = {};
  const unsupportedWhy: Record<string, number> = {};
  try {
    for (let i = 0; i < count; i++) {
      const data = genInstanceData(r);
      const payload = new Gen(r).template();
      for (const version of versions) {
        if (!FULL_VERSIONS.includes(version) && i % sampleEvery) continue;
        const oracle = oracles.get(version)!;
        const ours = renderCloudInitJinja(payload, data, { version });
        const theirs = await oracle.render(payload, data);
        const st = (stats[version] ??= {});
        const kind = !ours.ok && ours.reason === 'unsupported' ? 'unsupported' : ours.ok ? 'ok' : ours.reason;
        st[kind] = (st[kind] ?? 0) + 1;
        if (!ours.ok && ours.reason === 'unsupported') {
          const why = `${version}: ` + ours.message.replace(/ \(at offset \d+\)/, '').replace(/^this tool cannot reproduce /, '').replace(/; cloud-init would render it$/, '');
          unsupportedWhy[why] = (unsupportedWhy[why] ?? 0) + 1;
        }
        const d = differs(ours, theirs);
        if (d) {
          console.error(`MISMATCH #${i} (seed ${seed}, cloud-init ${version}): ${d}`);
          const small = await shrink(oracle, payload, data, d, version);
          const o2 = renderCloudInitJinja(small, data, { version });
          const t2 = await oracle.render(small, data);
          console.error('minimal payload: ' + JSON.stringify(small));
          console.error('instance data:   ' + data);
          console.error('ours:   ' + JSON.stringify(o2));
          console.error('python: ' + JSON.stringify(t2));
          process.exitCode = 1;
          return;
        }
        if (verbose) console.log(version, JSON.stringify(payload), JSON.stringify(ours));
      }
    }
    console.log(`jinja oracle: ${count} templates x cloud-init ${versions.join(', ')} (every ${sampleEvery}th on ${versions.filter((v) => !FULL_VERSIONS.includes(v)).join(', ') || 'none'}), seed ${seed}, all agree`, stats);
    const top = Object.entries(unsupportedWhy).sort((a, b) => b[1] - a[1]).slice(0, 12);
    if (top.length) console.log('not reproducible here (not compared; see "What this tool cannot reproduce" in README.md, Jinja templates):', top);
  } finally {
    for (const o of oracles.values()) o.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
