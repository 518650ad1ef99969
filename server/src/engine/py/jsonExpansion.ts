/**
 * How much writing out a value's shared references expands it (py/json.ts toJsonable counts the same nodes
 * against maxExpandedNodes): counted before writing, so that an alias bomb fails at once.
 */
import { PyDict, PySet, PyTuple, type PyValue } from './values';

/** The children toJsonable enters for a container (a dict's values, a list's or tuple's or set's items); null for a scalar. */
function childrenOf(v: PyValue): readonly PyValue[] | null {
  if (v instanceof PyDict) return v.values();
  if (Array.isArray(v)) return v;
  if (v instanceof PyTuple) return v.items;
  if (v instanceof PySet) return v.values();
  return null;
}

/**
 * How many nodes toJsonable counts against maxNodes for `value` without writing it: every node of each shared
 * container written out again (each reference after the first, fully expanded). Linear in the distinct
 * containers. 0 where the value contains itself (toJsonable says so). Stops counting above `cap`.
 */
export function repeatedNodes(value: PyValue, cap: number): number {
  const refs = new Map<object, number>();
  const order: object[] = [];
  const pending: PyValue[] = [value];
  const seen = new Set<object>();
  while (pending.length) {
    const v = pending.pop()!;
    const children = childrenOf(v);
    if (children === null || seen.has(v as object)) continue;
    seen.add(v as object);
    order.push(v as object);
    for (const c of children) {
      if (childrenOf(c) === null) continue;
      refs.set(c as object, (refs.get(c as object) ?? 0) + 1);
      pending.push(c);
    }
  }
  // Expanded sizes, children before parents: a container whose child is not yet sized is taken again later.
  const size = new Map<object, number>();
  const work: object[] = [value as object];
  const inProgress = new Set<object>();
  while (work.length) {
    const v = work[work.length - 1];
    if (size.has(v)) {
      work.pop();
      continue;
    }
    let total = 1;
    let ready = true;
    inProgress.add(v);
    for (const c of childrenOf(v as PyValue)!) {
      if (childrenOf(c) === null) total += 1;
      else if (size.has(c as object)) total += size.get(c as object)!;
      else if (inProgress.has(c as object)) return 0;
      else {
        ready = false;
        work.push(c as object);
      }
    }
    if (!ready) continue;
    inProgress.delete(v);
    size.set(v, Math.min(total, Number.MAX_SAFE_INTEGER));
    work.pop();
  }
  let counted = 0;
  for (const c of order) {
    const extra = (refs.get(c) ?? 0) - (c === value ? 0 : 1);
    if (extra > 0) counted += extra * size.get(c)!;
    if (counted > cap) return counted;
  }
  return counted;
}
