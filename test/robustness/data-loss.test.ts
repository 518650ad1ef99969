// Never silently lost: where cloud-init drops content without a word (a multipart it cannot
// split), we say so; every part that is not merged is reported with its reason.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runUserData } from '../../server/src/engine/userdata/run';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { main } from '../../server/src/cli/main';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { tempDir } from './harness';

const CC = '#cloud-config\n';
const NO_BOUNDARY = `Content-Type: multipart/mixed\nMIME-Version: 1.0\n\n--BB\nContent-Type: text/cloud-config\n\n${CC}a: 1\n--BB--\n`;
const UNUSED_BOUNDARY = NO_BOUNDARY.replace('multipart/mixed', 'multipart/mixed; boundary="XYZ"');

describe('content cloud-init drops without a word is reported', () => {
  for (const [name, text] of [['no boundary parameter', NO_BOUNDARY], ['a boundary that never appears', UNUSED_BOUNDARY]]) {
    test(`a multipart with ${name}`, () => {
      const run = runUserData([{ name: 'ud', bytes: Buffer.from(text) }]);
      assert.equal(run.reports.length, 0, 'cloud-init finds no part in it');
      const note = run.messages.find((m) => m.code === 'mime-unsplittable');
      assert.ok(note, JSON.stringify(run.messages));
      assert.match(note.message, /no usable boundary .*cloud-init cannot split it and silently drops everything in it/);
      assert.ok(note.span && note.span.end > note.span.start, 'points at the lost text');
      const preview = buildPreview('user-data', [{ name: 'ud', bytes: Buffer.from(text) }]);
      assert.match(preview.text, /# Note: a multipart\/mixed part has no usable boundary/);
    });
  }

  test('an empty unsplittable multipart is not worth a note', () => {
    const run = runUserData([{ name: 'ud', bytes: Buffer.from('Content-Type: multipart/mixed\nMIME-Version: 1.0\n\n\n') }]);
    assert.equal(run.messages.filter((m) => m.code === 'mime-unsplittable').length, 0);
  });

  test('the CLI: a note on stderr, exit 0 (cloud-init goes on), and the reason of every skipped part', () => {
    const { dir, cleanup } = tempDir();
    try {
      const mimeFile = path.join(dir, 'ud.mime');
      writeFileSync(mimeFile, NO_BOUNDARY);
      let err = '';
      assert.equal(main([mimeFile], { stdout: () => {}, stderr: (t) => (err += t) }), 0);
      assert.match(err, /^note: a multipart\/mixed part has no usable boundary/m);
      const bad = path.join(dir, 'bad.yaml');
      writeFileSync(bad, CC + 'a: [1, 2\n');
      err = '';
      assert.equal(main([bad], { stdout: () => {}, stderr: (t) => (err += t) }), 0);
      assert.match(err, /^cloud-init WARNING: Failed at merging in cloud config part from part-001: empty cloud config$/m);
      assert.match(err, /^note: part-001: Skipped by cloud-init: ValueError: empty cloud config \(while parsing a flow sequence/m);
    } finally {
      cleanup();
    }
  });
});
