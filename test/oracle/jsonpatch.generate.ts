/** Random inputs for test/oracle/jsonpatch.diff.ts: Python values, JSON texts (damaged ones too) and patches. */
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';
import { pyFloatRepr } from '../../server/src/engine/py/repr';
import { Rng } from './generate';

// ---------------------------------------------------------------------------
// random generation


export const KEYS = ['a', 'b', 'c', 'x', '0', '1', '2', '10', '-', '', '~', '/', 'a/b', 'm~n', '~0', '~1', '01', 'é', '😀', '\uffff', '\ue000', '\ud83d', ' ', 'op', 'path', 'value'];
export const STRINGS = ['', 'a', 'hello', 'ab😀c', 'é', '\n', 'tab\there', '"q"', 'back\\slash', '\u2028', '\x7f', '\x01', 'runcmd', '0', '1', '1.0', 'true', 'null', '\ud800x', 'x\udfff', '\uffff', '\ue000', '𝟘'];
export const FLOATS = [0.5, -0.0, 0.0, 1.0, 1e16, 1.5e-7, -2.25, NaN, Infinity, -Infinity, 1e300, 5e-324, 0.1, 123456789.125, 2 ** 53];
export const INTS = [0n, 1n, -1n, 2n, 10n, 255n, 2n ** 63n, -(2n ** 64n), 12345678901234567890123n];

export interface GenOptions {
  nonStringKeys: boolean;
  exotic: boolean;
  shared: boolean;
  maxDepth: number;
}

export function genScalar(r: Rng, o: GenOptions): PyValue {
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

export function genTimestamp(r: Rng): PyTimestamp {
  if (r.chance(0.4)) return new PyTimestamp('date', 2000 + r.int(30), 1 + r.int(12), 1 + r.int(28));
  const offset = r.chance(0.4) ? null : r.pick([0, 0, 60, -90, 330]);
  return new PyTimestamp('datetime', 2000 + r.int(30), 1 + r.int(12), 1 + r.int(28), r.int(24), r.int(60), r.int(60), r.chance(0.5) ? 0 : r.int(1000000), offset);
}

export function genKey(r: Rng, o: GenOptions): PyValue {
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

export function randomText(r: Rng, n: number): string {
  const pool = ['a', 'b', '~', '/', '0', '1', ' ', '\n', '"', '\\', 'é', '😀', '\u0663', '\x00', '\x1f', '\ud83d', '\ude00', '_', 'x', '-'];
  let s = '';
  const len = r.int(n + 1);
  for (let i = 0; i < len; i++) s += r.pick(pool);
  return s;
}

export function genValue(r: Rng, o: GenOptions, depth: number, pool: PyValue[]): PyValue {
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
export type JNode = { k: 'raw'; text: string } | { k: 'arr'; items: JNode[] } | { k: 'obj'; entries: Array<[string, JNode]> };

export const raw = (text: string): JNode => ({ k: 'raw', text });

export function jsonStringLiteral(s: string, r: Rng | null): string {
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

export function ws(r: Rng): string {
  if (!r.chance(0.3)) return '';
  return Array.from({ length: 1 + r.int(2) }, () => r.pick([' ', ' ', '\n', '\t', '\r'])).join('');
}

export function serialize(n: JNode, r: Rng): string {
  switch (n.k) {
    case 'raw':
      return n.text;
    case 'arr':
      return '[' + ws(r) + n.items.map((i) => serialize(i, r)).join(ws(r) + ',' + ws(r)) + ws(r) + ']';
    case 'obj':
      return '{' + ws(r) + n.entries.map(([k, v]) => jsonStringLiteral(k, r) + ws(r) + ':' + ws(r) + serialize(v, r)).join(ws(r) + ',' + ws(r)) + ws(r) + '}';
  }
}

export const NUMBER_TEXTS = ['9'.repeat(4300), '-' + '9'.repeat(4301), '1'.repeat(4301) + '.5', '0', '-0', '1', '-1', '12', '1.5', '-0.0', '1e5', '1E+2', '2e-3', '1.0', '1e400', '-1e400', '123456789012345678901234567890', '0.1', '1.7976931348623157e308', '5e-324', '1e16', '10000000000000000.0', '4.35', '-12.5e-1'];
export const BAD_NUMBER_TEXTS = ['01', '1.', '.5', '-', '+1', '1e', '1e+', '0x10', '1.e5', '--1', '1_0', '١'];

export function jsonOfValue(v: PyValue, r: Rng): JNode | null {
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

export function genJson(r: Rng, depth: number): JNode {
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

export const DAMAGE = ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '\x0b', '\x0c', '\u00a0', '\x00', '\x1f', 'n', 'N', 'I', '-', '0', '1', '.', 'e', '\\u', '\\ud800', '\\udc00', '\\x', 'tru', 'nul', 'Infinit', '\ufeff', '😀', '\u2028'];

export function damage(text: string, r: Rng): string {
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

export function genLoadsText(r: Rng): string {
  let text = serialize(genJson(r, 0), r);
  if (r.chance(0.3)) text = ws(r) + text + ws(r);
  if (r.chance(0.5)) text = damage(text, r);
  if (r.chance(0.03)) text = '\ufeff' + text;
  if (r.chance(0.03)) text = text + ' ' + serialize(genJson(r, 2), r);
  if (r.chance(0.02)) text = r.pick(['', ' ', '\n', '"abc', '"\\u12', '"\\u123"', '"\\ud800\\u00"', '"\\ud800\\udc0"', '[1,]', '{"a":1,}', '{"a" 1}', '{1:2}', '[1 2]']);
  return text;
}

// --- patches ---------------------------------------------------------------

export function escapeToken(s: string): string {
  return s.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** Pointers into a document (string keys and list indexes). */
export function pointersOf(doc: PyValue, limit = 60): Array<{ ptr: string; value: PyValue }> {
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

export function mutatePointer(ptr: string, r: Rng): string {
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

export function genPatch(doc: PyValue, r: Rng): JNode {
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
