/**
 * Files the preview read from disk, kept between refreshes: a refresh after an edit of one part
 * would otherwise open, stat, read and close every other part again (a hundred round trips through
 * the thread pool, during which the server's other timers run). A kept file is used again only while
 * a stat of its path says it is the same file, unchanged (device, inode, size, modification and
 * change times, in nanoseconds).
 *
 * Timestamps are coarse (a clock tick on Linux, whole seconds on some file systems, two on FAT), so a
 * file changed twice within one tick without changing its size would look unchanged: as git does with
 * "racily clean" entries, a file modified shortly before it was read is never kept. Shortly is 100 ms
 * when its time has a fraction of a second (the file system keeps fine times), else 2 s.
 */
import { statSync, type BigIntStats } from 'node:fs';

const RACY_MS_FINE = 100;
const RACY_MS_COARSE = 2000;
/** Bytes kept at most (the least recently used files go first). */
const MAX_KEPT_BYTES = 16 * 1024 * 1024;

interface Kept {
  bytes: Uint8Array;
  stat: BigIntStats;
}

export class DiskCache {
  private readonly kept = new Map<string, Kept>();
  private keptBytes = 0;

  /** The bytes read earlier, when the file is unchanged since and within `maxBytes`; never waits. */
  unchanged(file: string, maxBytes: number): Uint8Array | undefined {
    const kept = this.kept.get(file);
    if (!kept) return undefined;
    const now = statOf(file);
    if (!now || !sameFile(now, kept.stat) || kept.bytes.length > maxBytes) {
      this.forget(file);
      return undefined;
    }
    // Most recently used last, so that eviction takes the others first.
    this.kept.delete(file);
    this.kept.set(file, kept);
    return kept.bytes;
  }

  /** Reads with `read` (the bounded reader) and keeps the bytes when the file was not just modified. */
  async read(file: string, read: () => Promise<Uint8Array>): Promise<Uint8Array> {
    // Stat first: a change during the read then shows as a different stat next time.
    const before = statOf(file);
    const startedAt = Date.now();
    const bytes = await read();
    this.keep(file, bytes, before, startedAt);
    return bytes;
  }

  /** readSync's twin for callers that cannot wait (the set analysis): the same rules for keeping. */
  readSync(file: string, read: () => Uint8Array): Uint8Array {
    const before = statOf(file);
    const startedAt = Date.now();
    const bytes = read();
    this.keep(file, bytes, before, startedAt);
    return bytes;
  }

  private keep(file: string, bytes: Uint8Array, before: BigIntStats | undefined, startedAt: number): void {
    this.forget(file);
    if (before?.isFile() && before.size === BigInt(bytes.length) && !racy(before, startedAt) && bytes.length <= MAX_KEPT_BYTES) {
      this.kept.set(file, { bytes, stat: before });
      this.keptBytes += bytes.length;
      for (const [oldest, entry] of this.kept) {
        if (this.keptBytes <= MAX_KEPT_BYTES) break;
        this.kept.delete(oldest);
        this.keptBytes -= entry.bytes.length;
      }
    }
  }

  private forget(file: string): void {
    const kept = this.kept.get(file);
    if (!kept) return;
    this.kept.delete(file);
    this.keptBytes -= kept.bytes.length;
  }
}

function statOf(file: string): BigIntStats | undefined {
  try {
    return statSync(file, { bigint: true, throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Whether the file was modified so shortly before `readAt` that another change could share its time. */
function racy(stat: BigIntStats, readAt: number): boolean {
  const window = stat.mtimeNs % 1_000_000_000n === 0n ? RACY_MS_COARSE : RACY_MS_FINE;
  return Number(stat.mtimeMs) >= readAt - window;
}

function sameFile(a: BigIntStats, b: BigIntStats): boolean {
  return a.isFile() && a.dev === b.dev && a.ino === b.ino && a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}
