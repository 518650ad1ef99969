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
  /**
   * Deepest YAML nesting where cloud-init's own boundary does not apply: the editor's
   * analysis and Chef files (cloud-init parts, archives and system files stop where
   * PyYAML does, PYTHON_RECURSION, near 485).
   */
  maxDepth: number;
  /** Most nodes that alias expansion may produce when a value must be copied or converted to JSON. */
  maxExpandedNodes: number;
  /** Most files one set of cloud-config-merge.yaml may merge (its files and drop-ins, globs expanded). */
  maxSetFiles: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxFileBytes: 64 * 1024 * 1024,
  maxDecompressedBytes: 64 * 1024 * 1024,
  maxParts: 10000,
  maxIncludeDepth: 50,
  maxDepth: 1000,
  maxExpandedNodes: 5_000_000,
  maxSetFiles: 1000,
};

/**
 * Where cloud-init ITSELF stops: CPython's recursion limit (1000 frames).
 * These are not our limits but cloud-init's behaviour, reproduced so that a
 * deep input fails here exactly where it fails at boot (as the JSON and MIME
 * parsers already do). Each number was measured with the oracle (cloud-init
 * 22.4.2 under CPython 3.11, shared/oracle/oracle.py) by bisection; a real
 * boot has a few more frames on the stack (and DEBUG logging adds a few at the
 * deepest call), so there the boundary can be a level or two lower. See
 * test/robustness/README.md for the measurements.
 */
export const PYTHON_RECURSION = {
  /**
   * Most nested collections (the root counts) PyYAML's composer can load in a
   * cloud-config part (2 frames a level); deeper raises RecursionError, which
   * is not a ValueError: the part is skipped ("Failed at merging") and, since
   * 23.3, not listed as SCHEMA_ERROR. Flow sequences get one level more.
   */
  yamlPartDepth: 485,
  /** The same for a `#cloud-config-archive` (where RecursionError aborts all user-data). */
  yamlArchiveDepth: 488,
  /** The same for a system config file (`read_conf`: the error aborts the stage). */
  yamlConfDepth: 489,
  /**
   * Deepest level (the root mapping is 1) of any node, scalar or collection,
   * that `yaml.dump` can write into cloud-config.txt: 327 nested collections
   * with scalars inside, 328 if the innermost is empty (the representer takes
   * 3 frames a level). Deeper raises RecursionError and the file is not
   * written ("Failed calling handler ... (__end__, ...)").
   */
  yamlDumpLevels: 328,
  /**
   * Python frames the mergers may use (a dict level costs 5, a list level 4,
   * a tuple 5, a str merge 3) in the cloud-config part handler, in
   * `util.mergemanydict` as system config uses it, and in `read_conf_d`.
   */
  mergeFramesPart: 987,
  mergeFramesMany: 995,
  mergeFramesConfD: 993,
} as const;

/** Thrown when a limit is hit; the message names the limit and its value. */
export class LimitExceededError extends Error {
  constructor(
    readonly limit: keyof Limits,
    readonly value: number,
    what: string,
    /** A whole message instead of "<what> exceeds the limit ..." (it must name the limit). */
    message?: string,
  ) {
    super(message ?? `${what} exceeds the limit ${limit} = ${value}`);
  }
}

/** The names of our limits, in the order they are documented. */
export const LIMIT_NAMES: ReadonlyArray<keyof Limits> = ['maxFileBytes', 'maxDecompressedBytes', 'maxParts', 'maxIncludeDepth', 'maxDepth', 'maxExpandedNodes', 'maxSetFiles'];

export function isLimitName(name: string): name is keyof Limits {
  return (LIMIT_NAMES as readonly string[]).includes(name);
}

/**
 * The limits with some of them changed (a CLI flag, an editor setting). Only
 * positive safe integers are taken: anything else keeps the default, so a
 * typo in a setting can never switch a limit off.
 */
export function withLimits(overrides: Partial<Record<string, unknown>> = {}, base: Limits = DEFAULT_LIMITS): Limits {
  const out: Limits = { ...base };
  for (const name of LIMIT_NAMES) {
    const value = overrides[name];
    if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) out[name] = value;
  }
  return out;
}
