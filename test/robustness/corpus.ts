/**
 * The hostile-input corpus: every input is generated in memory (nothing big
 * is committed), with what the CLI must answer (exit code and messages) and
 * what the in-process entry points must report. What cloud-init itself does
 * with each input, and where the limits are, is in README.md.
 *
 * Exit codes: 0 (with warnings) where cloud-init gets through, 2 where the
 * input is unreadable or over one of our limits (the message names the
 * limit), 3 where cloud-init itself would fail.
 */
import { HostileCase } from './corpusKit';
import { YAML_CASES } from './corpus-yaml';
import { PART_CASES } from './corpus-parts';

export * from './corpusKit';

/** Every case, in the order of the sections of corpus-yaml.ts and corpus-parts.ts. */
export const CORPUS: HostileCase[] = [...YAML_CASES, ...PART_CASES];

/** The case list by name (for the fuzzer's seeds and for tests that pick one). */
export function corpusCase(name: string): HostileCase {
  const c = CORPUS.find((x) => x.name === name);
  if (!c) throw new Error(`no corpus case ${name}`);
  return c;
}
