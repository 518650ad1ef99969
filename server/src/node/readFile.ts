/**
 * The one bounded file reader of the CLI and the language server. Everything is checked on the
 * descriptor that is read, never on the path beforehand: a file replaced meanwhile by a FIFO or a
 * device (which report size 0 and never end) cannot slip through between a check and the read.
 * A regular file over `maxBytes` is refused before reading; a pipe or device is refused too, unless
 * the caller allows streams (the CLI's own arguments: `<(...)`, /dev/stdin), which are then read up
 * to `maxBytes` and refused past it. Callers word the failures (`ReadFailure`) their own way.
 */
import { constants as fsConstants, closeSync, fstatSync, openSync, readFileSync, readSync, promises as fs } from 'node:fs';

export type ReadFailure =
  | { kind: 'no-such-file' }
  | { kind: 'permission-denied' }
  | { kind: 'directory' }
  | { kind: 'not-regular' }
  /** `size` null: a stream longer than the limit. */
  | { kind: 'over-limit'; size: number | null; max: number }
  | { kind: 'other'; message: string };

export class BoundedReadError extends Error {
  constructor(readonly failure: ReadFailure) {
    super(failure.kind === 'other' ? failure.message : failure.kind);
  }
}

export interface BoundedReadOptions {
  maxBytes: number;
  /** Read a pipe or device up to `maxBytes` instead of refusing it. */
  allowStreams?: boolean;
}

/**
 * O_NONBLOCK keeps opening a FIFO nobody writes to from waiting forever (it changes nothing for regular
 * files); streams the caller allows are opened blocking, so that a pipe is read as it fills.
 */
function openFlags(options: BoundedReadOptions): number {
  return fsConstants.O_RDONLY | (options.allowStreams ? 0 : (fsConstants.O_NONBLOCK ?? 0));
}

export function readBoundedSync(path: string, options: BoundedReadOptions): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, openFlags(options));
  } catch (e) {
    throw asReadError(e);
  }
  try {
    return checkStat(fstatSync(fd), options) ? new Uint8Array(readFileSync(fd)) : readStream(fd, options.maxBytes);
  } catch (e) {
    throw asReadError(e);
  } finally {
    closeSync(fd);
  }
}

export async function readBounded(path: string, options: BoundedReadOptions): Promise<Uint8Array> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, openFlags(options));
  } catch (e) {
    throw asReadError(e);
  }
  try {
    return checkStat(await handle.stat(), options) ? new Uint8Array(await handle.readFile()) : readStream(handle.fd, options.maxBytes);
  } catch (e) {
    throw asReadError(e);
  } finally {
    await handle.close();
  }
}

/** Whether the file is regular; throws when it may not be read. */
function checkStat(stat: { isFile(): boolean; isDirectory(): boolean; size: number }, options: BoundedReadOptions): boolean {
  if (stat.isDirectory()) throw new BoundedReadError({ kind: 'directory' });
  if (!stat.isFile()) {
    if (!options.allowStreams) throw new BoundedReadError({ kind: 'not-regular' });
    return false;
  }
  if (stat.size > options.maxBytes) throw new BoundedReadError({ kind: 'over-limit', size: stat.size, max: options.maxBytes });
  return true;
}

/** Reads a pipe or device to its end, refusing it past `max` bytes. */
function readStream(fd: number, max: number): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(1 << 20, max + 1 - total));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > max) throw new BoundedReadError({ kind: 'over-limit', size: null, max });
  }
  return Buffer.concat(chunks, total);
}

/** How a caller words the failures it says its own way. */
export interface ReadFailureWords {
  directory: string;
  notRegular: string;
  overLimit(size: number | null, max: number): string;
}

export function describeReadFailure(f: ReadFailure, words: ReadFailureWords): string {
  switch (f.kind) {
    case 'no-such-file':
      return 'no such file';
    case 'permission-denied':
      return 'permission denied';
    case 'directory':
      return words.directory;
    case 'not-regular':
      return words.notRegular;
    case 'over-limit':
      return words.overLimit(f.size, f.max);
    case 'other':
      return f.message;
  }
}

function asReadError(e: unknown): BoundedReadError {
  if (e instanceof BoundedReadError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return new BoundedReadError({ kind: 'no-such-file' });
  if (err?.code === 'EACCES') return new BoundedReadError({ kind: 'permission-denied' });
  if (err?.code === 'EISDIR') return new BoundedReadError({ kind: 'directory' });
  return new BoundedReadError({ kind: 'other', message: err?.message ?? String(e) });
}
