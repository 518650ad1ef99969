/**
 * Appends every item of `from` to `to`. `to.push(...from)` passes each item as an argument, and
 * V8 throws RangeError (a stack overflow) for a few hundred thousand of them: hostile input makes
 * such lists (findings, Jinja lists, MIME defects).
 */
export function pushAll<T>(to: T[], from: Iterable<T>): T[] {
  for (const item of from) to.push(item);
  return to;
}

/**
 * An empty array that already holds object elements. A `[]` starts as an array of small integers and
 * changes its map at the first object pushed, which makes code V8 optimized before that bail out and
 * compile again (the loader's queues, filled anew for every document).
 */
export function objectArray<T>(): T[] {
  const a = [undefined] as unknown as T[];
  a.pop();
  return a;
}
