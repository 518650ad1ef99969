// `npm run bench -- --only X --write` keeps docs/benchmarks.md whole: the sections and Targets rows it
// measured replace the old ones, the rest stays, and the head says what was measured again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { spliceSections } = require(path.join(ROOT, 'scripts', 'bench', 'splice.cjs')) as {
  spliceSections: (existing: string, fresh: string, command: string, when: Date) => string;
};

const doc = (head: string, rows: string[], gaps: string[], sections: string[]) =>
  [
    `# Benchmarks\n\n${head}\n`,
    ['## Targets', '', '| Area | Target | Measured | Verdict |', '| :-- | :-- | :-- | :-- |', ...rows, '', ...(gaps.length ? ['### Gaps explained', '', ...gaps, ''] : [])].join('\n'),
    ...sections,
  ].join('\n');

const OLD = doc(
  'Generated on day 1.',
  ['| Engine | ratio ≤ 1.5× | 2.7× | **not met** |', '| Loader | load ≤ 1.5× js-yaml | 2.6× | **not met** |', '| Extension | .vsix < 1 MB | 433 KB | met |'],
  ['- **ratio ≤ 1.5×** — rendering dominates.', '- **load ≤ 1.5× js-yaml** — the scanner dominates.'],
  ['## 1. Engine\n\nold engine table\n', '## 1b. Loader\n\nold loader table\n', '## 2. Against cloud-init\n\nold cloud-init table\n'],
);

test('a re-measured section and its Targets row and gap replace the old ones; the others stay', () => {
  const fresh = doc('Generated on day 2.', ['| Loader | load ≤ 1.5× js-yaml | 1.4× | met |'], [], ['## 1b. Loader\n\nnew loader table\n']);
  const out = spliceSections(OLD, fresh, 'npm run bench -- --only loader --write', new Date('2026-11-25T03:00:00Z'));
  assert.match(out, /\| Loader \| load ≤ 1\.5× js-yaml \| 1\.4× \| met \|/);
  assert.doesNotMatch(out, /2\.6×/);
  assert.doesNotMatch(out, /the scanner dominates/, 'a met target loses its old gap note');
  assert.match(out, /- \*\*ratio ≤ 1\.5×\*\* — rendering dominates\./);
  assert.match(out, /\| Engine \| ratio ≤ 1\.5× \| 2\.7× \| \*\*not met\*\* \|/);
  assert.match(out, /new loader table/);
  assert.doesNotMatch(out, /old loader table/);
  assert.match(out, /old engine table/);
  assert.match(out, /old cloud-init table/);
  assert.match(out, /Generated on day 1\./);
  assert.match(out, /> Section 1b was measured again on 2026-11-25T03:00:00Z \(`npm run bench -- --only loader --write`\), with their lines in the Targets table/);
});

test('a target the file did not have is added after the last row, its gap after the last gap', () => {
  const fresh = doc('x', ['| Preview | p95 < 100 ms | 180 ms | **not met** |'], ['- **p95 < 100 ms** — GC.'], ['## 4. Preview\n\nnew preview\n']);
  const out = spliceSections(OLD, fresh, 'npm run bench -- --only preview --write', new Date('2026-11-25T03:00:00Z'));
  const lines = out.split('\n');
  assert.equal(lines.indexOf('| Preview | p95 < 100 ms | 180 ms | **not met** |'), lines.indexOf('| Extension | .vsix < 1 MB | 433 KB | met |') + 1);
  assert.equal(lines.indexOf('- **p95 < 100 ms** — GC.'), lines.indexOf('- **load ≤ 1.5× js-yaml** — the scanner dominates.') + 1);
  assert.ok(out.indexOf('## 4. Preview') > out.indexOf('## 2. Against cloud-init'), 'a new numbered section goes in number order');
});

test('a second partial run replaces the first note instead of stacking notes', () => {
  const fresh = doc('x', ['| Loader | load ≤ 1.5× js-yaml | 1.4× | met |'], [], ['## 1b. Loader\n\nnew\n']);
  const once = spliceSections(OLD, fresh, 'npm run bench -- --only loader --write', new Date('2026-11-25T03:00:00Z'));
  const twice = spliceSections(once, fresh, 'npm run bench -- --only loader --write', new Date('2026-11-25T04:00:00Z'));
  assert.equal(twice.match(/measured again/g)?.length, 1);
  assert.match(twice, /04:00:00Z/);
});

test('a partial run of other sections keeps the earlier note for the sections it did not measure again', () => {
  const loader = doc('x', ['| Loader | load ≤ 1.5× js-yaml | 1.4× | met |'], [], ['## 1b. Loader\n\nnew\n']);
  const cloudinit = doc('x', [], [], ['## 2. Against cloud-init\n\nnew cloud-init\n']);
  const first = spliceSections(OLD, loader, 'npm run bench -- --only loader --write', new Date('2026-11-25T03:00:00Z'));
  const second = spliceSections(first, cloudinit, 'npm run bench -- --only cloudinit --write', new Date('2026-11-25T04:00:00Z'));
  assert.match(second, /> Section 1b was measured again on 2026-11-25T03:00:00Z \(`npm run bench -- --only loader --write`\)/);
  assert.match(second, /> Section 2 was measured again on 2026-11-25T04:00:00Z \(`npm run bench -- --only cloudinit --write`\)/);
  const third = spliceSections(second, loader, 'npm run bench -- --only loader --write', new Date('2026-11-25T05:00:00Z'));
  assert.equal(third.match(/measured again/g)?.length, 2);
  assert.doesNotMatch(third, /03:00:00Z/);
  assert.match(third, /> Section 2 was measured again on 2026-11-25T04:00:00Z/);
});

test('a target a stricter one replaced loses its row and gap note', () => {
  const retired = 'preview refresh p95 < 100 ms for 100 parts (after a one-character edit of one part)';
  const old = doc('x', [`| Extension | ${retired} | 82 ms | **met** |`, '| Extension | .vsix < 1 MB | 433 KB | met |'], [`- **${retired}** — GC.`], ['## 4. Extension\n\nold\n']);
  const fresh = doc('x', ['| Extension | preview refresh p95 < 50 ms at 100 parts | 40 ms | **met** |'], [], ['## 4. Extension\n\nnew\n']);
  const out = spliceSections(old, fresh, 'npm run bench -- --only preview --write', new Date('2026-12-02T03:00:00Z'));
  assert.doesNotMatch(out, /< 100 ms for 100 parts/);
  assert.match(out, /\| Extension \| preview refresh p95 < 50 ms at 100 parts \| 40 ms \| \*\*met\*\* \|/);
  assert.match(out, /\| Extension \| \.vsix < 1 MB \| 433 KB \| met \|/);
});
