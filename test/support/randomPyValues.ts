/**
 * Random Python values as PyYAML loads and dumps them (every scalar type, keys of every kind, shared
 * objects, cycles, strings made of the tokens that decide a scalar's style), for the dump's differential
 * test against PyYAML (test/oracle/yaml-dump.diff.ts) and the read-back test (test/unit/read-back.test.ts).
 */
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';
import { Rng } from '../oracle/generate';

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

export function randomString(rng: Rng): string {
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

export function randomInt(rng: Rng): bigint {
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

export function randomFloat(rng: Rng): number {
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

export function randomTimestamp(rng: Rng): PyTimestamp {
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

export function randomBytes(rng: Rng): PyBytes {
  const n = rng.pick([0, 1, 2, 3, 10, 57, 58, 100, 200]);
  const b = new Uint8Array(n);
  for (let i = 0; i < n; i++) b[i] = rng.int(256);
  return new PyBytes(b);
}

export function randomScalar(rng: Rng): PyValue {
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
export function randomKey(rng: Rng, kind: number): PyValue {
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

export class ValueGenerator {
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

export function isHashable(v: PyValue): boolean {
  if (Array.isArray(v) || v instanceof PyDict || v instanceof PySet) return false;
  if (v instanceof PyTuple) return v.items.every(isHashable);
  return true;
}
