/**
 * The one bounded reader of workspace files for the server's features: regular files only, at most
 * `limits.maxFileBytes`, checked on the descriptor that is read.
 */
import { closeSync, constants as fsConstants, fstatSync, openSync, promises as fs, readFileSync } from 'node:fs';
import type { ServerSettings } from './settings';

function overFileLimit(size: number, settings: ServerSettings): string {
  return `${size} bytes, over the limit maxFileBytes = ${settings.limits.maxFileBytes} (setting cloudConfigMerge.limits.maxFileBytes)`;
}

/**
 * The bytes of a regular file, checked on the descriptor that is read: a file replaced meanwhile by
 * a FIFO or a device (which report size 0 and never end) is refused, never read. O_NONBLOCK keeps
 * opening a FIFO from waiting for a writer; it changes nothing for regular files.
 */
export async function readRegularFile(file: string, settings: ServerSettings): Promise<Uint8Array> {
  const handle = await fs.open(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    checkRegular(await handle.stat(), settings);
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

export function readRegularFileSync(file: string, settings: ServerSettings): Uint8Array {
  const fd = openSync(file, fsConstants.O_RDONLY | (fsConstants.O_NONBLOCK ?? 0));
  try {
    checkRegular(fstatSync(fd), settings);
    return new Uint8Array(readFileSync(fd));
  } finally {
    closeSync(fd);
  }
}

/** Only regular files are read: a device or FIFO reports size 0 and never ends. */
function checkRegular(stat: { isFile(): boolean; size: number }, settings: ServerSettings): void {
  if (!stat.isFile()) throw new Error('not a regular file');
  if (stat.size > settings.limits.maxFileBytes) throw new Error(overFileLimit(stat.size, settings));
}

export function readError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'ENOENT') return 'no such file';
  if (err?.code === 'EACCES') return 'permission denied';
  if (err?.code === 'EISDIR') return 'a directory';
  return err?.message ?? String(e);
}
