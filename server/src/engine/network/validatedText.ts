/**
 * One validation of a network-config text per check (issue 43). `--check` validates a network-config FILE
 * for its verdict (outcome/check.ts's checkNetworkFile) and analyses the same text as the editor does
 * (lint/networkLint.ts): two loads of a 26 MB file took 2 × 12 s. The last answer is remembered for the
 * same text and the same validation, so the second asks nothing again.
 *
 * The answer is held by a WeakRef: kept while a synchronous check runs (a WeakRef's target lives at least
 * to the end of the job that made it), never kept alive by this memo afterwards (the language server's
 * documents are analysed once per version by its own cache). The answer is read-only for every caller.
 */
import { DEFAULT_LIMITS } from '../limits';
import type { CloudInitVersion } from '../version/versions';
import type { NetplanHost, NetplanVersion } from '../version/target';
import { validateNetworkConfigText, type NetworkSchemaResult } from './validate';

interface Remembered {
  text: string;
  key: string;
  /** The result, or what validating threw (a limit). */
  answer: WeakRef<{ result?: NetworkSchemaResult; thrown?: unknown }>;
}

let last: Remembered | undefined;

/** `validateNetworkConfigText`, answered once for the same text, file name, version, host, netplan and limit. */
export function validateNetworkConfigTextOnce(text: string, version: CloudInitVersion, host: NetplanHost, file: string, netplanVersion?: NetplanVersion, maxNodes: number = DEFAULT_LIMITS.maxExpandedNodes): NetworkSchemaResult {
  const key = JSON.stringify([version, host, file, netplanVersion ?? null, maxNodes]);
  const known = last !== undefined && last.key === key && last.text === text ? last.answer.deref() : undefined;
  if (known) {
    if (known.result) return known.result;
    throw known.thrown;
  }
  let answer: { result?: NetworkSchemaResult; thrown?: unknown };
  try {
    answer = { result: validateNetworkConfigText(text, version, host, file, netplanVersion, maxNodes) };
  } catch (err) {
    answer = { thrown: err };
  }
  last = { text, key, answer: new WeakRef(answer) };
  if (answer.result) return answer.result;
  throw answer.thrown;
}
