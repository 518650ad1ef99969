/** The typed encoding that test/oracle/jsonpatch.diff.ts exchanges with Python (values with their types, shared references kept). */
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';
import { pyFloatRepr } from '../../server/src/engine/py/repr';

// ---------------------------------------------------------------------------
// typed encoding (TypeScript side)

export type Enc = unknown[];

export function floatText(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return pyFloatRepr(x);
}

export function encode(v: PyValue, ids = new Map<object, number>()): Enc {
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

export function decode(t: Enc, refs = new Map<number, PyValue>()): PyValue {
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
export function canonEnc(t: Enc): string {
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
export function clone(v: PyValue, memo = new Map<object, PyValue>()): PyValue {
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
