/**
 * The server features' reading of workspace files: the one bounded reader (node/readFile.ts, checked on
 * the descriptor that is read), limited by `limits.maxFileBytes`, with the preview's words for failures.
 */
import { BoundedReadError, ReadFailureWords, describeReadFailure, readBounded, readBoundedSync } from '../../node/readFile';
import type { ServerSettings } from './settings';

export function readRegularFile(file: string, settings: ServerSettings): Promise<Uint8Array> {
  return readBounded(file, { maxBytes: settings.limits.maxFileBytes });
}

export function readRegularFileSync(file: string, settings: ServerSettings): Uint8Array {
  return readBoundedSync(file, { maxBytes: settings.limits.maxFileBytes });
}

/** A text of `size` bytes (null: more than `max`) against the setting `limits.maxFileBytes` = `max`. */
export function overFileLimit(size: number | null, max: number): string {
  return `${size ?? `more than ${max}`} bytes, over the limit maxFileBytes = ${max} (setting cloudConfigMerge.limits.maxFileBytes)`;
}

/** Anything but a regular file is one case; the limit is the setting. */
const READ_FAILURE_WORDS: ReadFailureWords = {
  directory: 'not a regular file',
  notRegular: 'not a regular file',
  overLimit: overFileLimit,
};

export function readError(e: unknown): string {
  if (e instanceof BoundedReadError) return describeReadFailure(e.failure, READ_FAILURE_WORDS);
  return e instanceof Error ? e.message : String(e);
}
