/**
 * Appends every item of `from` to `to`. `to.push(...from)` passes each item as an argument, and
 * V8 throws RangeError (a stack overflow) for a few hundred thousand of them: hostile input makes
 * such lists (findings, Jinja lists, MIME defects).
 */
export function pushAll<T>(to: T[], from: Iterable<T>): T[] {
  for (const item of from) to.push(item);
  return to;
}
