/** Python built-ins the mergers rely on, with Python's exceptions. */
import { PyBytes, PyDict, PySet, PyTuple, PyValue, pyClassName } from '../py/values';
import { pyEq } from '../py/compare';
import { PyError } from '../py/errors';
import { pyStrRepr } from '../py/repr';

/** `needle in container`, as the mergers test their options. */
export function pyContains(container: PyValue, needle: string): boolean {
  if (typeof container === 'string') return container.includes(needle);
  if (Array.isArray(container)) return container.some((x) => pyEq(x, needle));
  if (container instanceof PyTuple) return container.items.some((x) => pyEq(x, needle));
  if (container instanceof PyDict || container instanceof PySet) return container.has(needle);
  if (container instanceof PyBytes) throw new PyError('TypeError', "a bytes-like object is required, not 'str'");
  throw new PyError('TypeError', `argument of type ${pyStrRepr(pyClassName(container))} is not iterable`);
}

/** `list(value)`: what `list.extend(value)` adds. */
export function pyIterItems(value: PyValue): PyValue[] {
  if (Array.isArray(value)) return value;
  if (value instanceof PyTuple) return value.items;
  if (typeof value === 'string') return [...value];
  if (value instanceof PyDict) return value.keys();
  if (value instanceof PySet) return value.values();
  if (value instanceof PyBytes) return [...value.bytes].map((b) => BigInt(b));
  throw new PyError('TypeError', `${pyStrRepr(pyClassName(value))} object is not iterable`);
}

/** `len(value)`. */
export function pyLen(value: PyValue): number {
  if (Array.isArray(value)) return value.length;
  if (value instanceof PyTuple) return value.items.length;
  if (typeof value === 'string') return [...value].length;
  if (value instanceof PyDict || value instanceof PySet) return value.size;
  if (value instanceof PyBytes) return value.bytes.length;
  throw new PyError('TypeError', `object of type ${pyStrRepr(pyClassName(value))} has no len()`);
}

/** `value[i]` for a non-negative int index. */
export function pyGetIndex(value: PyValue, i: number): PyValue {
  if (Array.isArray(value)) return value[i];
  if (value instanceof PyTuple) return value.items[i];
  if (typeof value === 'string') return [...value][i];
  if (value instanceof PyBytes) return BigInt(value.bytes[i]);
  if (value instanceof PyDict) {
    const key = BigInt(i);
    if (!value.has(key)) throw new PyError('KeyError', String(i));
    return value.get(key) as PyValue;
  }
  throw new PyError('TypeError', `${pyStrRepr(pyClassName(value))} object is not subscriptable`);
}

export function isListLike(v: PyValue): v is PyValue[] | PyTuple {
  return Array.isArray(v) || v instanceof PyTuple;
}
