/**
 * Resource limits: cloud-init itself has none, but an editor must never hang
 * or run out of memory on hostile input. Hitting a limit is always reported,
 * naming the limit, never silently truncated.
 */
export interface Limits {
  /** Largest input file, in bytes. */
  maxFileBytes: number;
  /** Largest result of decompressing one gzip blob or part. */
  maxDecompressedBytes: number;
  /** Most parts one user-data can yield. */
  maxParts: number;
  /** Deepest chain of `#include`s (cloud-init recurses until Python's recursion limit). */
  maxIncludeDepth: number;
  /** Deepest YAML nesting. */
  maxDepth: number;
  /** Most nodes that alias expansion may produce when a value must be copied or converted to JSON. */
  maxExpandedNodes: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxFileBytes: 64 * 1024 * 1024,
  maxDecompressedBytes: 64 * 1024 * 1024,
  maxParts: 10000,
  maxIncludeDepth: 50,
  maxDepth: 5000,
  maxExpandedNodes: 5_000_000,
};

/** Thrown when a limit is hit; the message names the limit and its value. */
export class LimitExceededError extends Error {
  constructor(
    readonly limit: keyof Limits,
    readonly value: number,
    what: string,
  ) {
    super(`${what} exceeds the limit ${limit} = ${value}`);
  }
}
