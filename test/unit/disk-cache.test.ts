// The preview keeps the files it read from disk between refreshes (issue 15), and uses them again only
// while a stat says they are unchanged; a file modified just before it was read is never kept.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, utimesSync, renameSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DiskCache } from '../../server/src/sets/diskCache';

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ccm-disk-cache-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

/** A file last modified an hour ago (as the parts of a preview usually are). */
function oldFile(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  const anHourAgo = new Date(Date.now() - 3600_000);
  utimesSync(file, anHourAgo, anHourAgo);
  return file;
}

/** Reads through the cache, counting the reads that reached the disk. */
async function readCounting(cache: DiskCache, file: string, reads: { n: number }): Promise<string> {
  const kept = cache.unchanged(file, 1 << 20);
  if (kept) return Buffer.from(kept).toString();
  const bytes = await cache.read(file, async () => {
    reads.n++;
    return new Uint8Array(readFileSync(file));
  });
  return Buffer.from(bytes).toString();
}

describe('files kept between previews', () => {
  test('an unchanged file is read once; any change of it (same size, even an older time) is read again', async () => {
    const cache = new DiskCache();
    const reads = { n: 0 };
    const file = oldFile('a.yaml', 'runcmd: [one]\n');
    assert.equal(await readCounting(cache, file, reads), 'runcmd: [one]\n');
    assert.equal(await readCounting(cache, file, reads), 'runcmd: [one]\n');
    assert.equal(reads.n, 1, 'the second refresh used the kept bytes');

    // Same size, and the time set back to an hour ago: the change time still tells.
    writeFileSync(file, 'runcmd: [two]\n');
    const anHourAgo = new Date(Date.now() - 3600_000);
    utimesSync(file, anHourAgo, anHourAgo);
    assert.equal(await readCounting(cache, file, reads), 'runcmd: [two]\n');
    assert.equal(reads.n, 2);

    // Replaced by another file (a rename over it, as editors save).
    const other = oldFile('b.yaml', 'runcmd: [tre]\n');
    renameSync(other, file);
    assert.equal(await readCounting(cache, file, reads), 'runcmd: [tre]\n');
    assert.equal(reads.n, 3);
  });

  test('a file modified just before it was read is read again every time; a deleted one is not served', async () => {
    const cache = new DiskCache();
    const reads = { n: 0 };
    const file = path.join(dir, 'fresh.yaml');
    writeFileSync(file, 'a: 1\n');
    // Modified "now" (a time later than the read, as another writer's clock may give it).
    const soon = new Date(Date.now() + 60_000);
    utimesSync(file, soon, soon);
    await readCounting(cache, file, reads);
    await readCounting(cache, file, reads);
    assert.equal(reads.n, 2, 'a file modified within the last moments may change again within one clock tick');

    // A whole-second time a second ago: the file system may keep only seconds, and that second is not over for long.
    const coarse = path.join(dir, 'coarse.yaml');
    writeFileSync(coarse, 'a: 1\n');
    const secondAgo = Math.floor(Date.now() / 1000) - 1;
    utimesSync(coarse, secondAgo, secondAgo);
    await readCounting(cache, coarse, reads);
    await readCounting(cache, coarse, reads);
    assert.equal(reads.n, 4, 'not kept within 2 s of a whole-second time');
    // The same second with a fraction: fine times, kept 100 ms after.
    utimesSync(coarse, secondAgo + 0.25, secondAgo - 0.75);
    const fine = await readCounting(cache, coarse, reads);
    assert.equal(await readCounting(cache, coarse, reads), fine);
    assert.equal(reads.n, 5, 'kept');

    const gone = oldFile('gone.yaml', 'b: 2\n');
    await readCounting(cache, gone, reads);
    assert.ok(cache.unchanged(gone, 1 << 20), 'kept while it is there');
    rmSync(gone);
    assert.equal(cache.unchanged(gone, 1 << 20), undefined);
  });

  test('a kept file over a lowered size limit is not served (the reader then says why)', async () => {
    const cache = new DiskCache();
    const reads = { n: 0 };
    const file = oldFile('big.yaml', 'x'.repeat(100));
    await readCounting(cache, file, reads);
    assert.ok(cache.unchanged(file, 100));
    assert.equal(cache.unchanged(file, 99), undefined);
  });
});
