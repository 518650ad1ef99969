// cloudConfigMerge/previewUpdate through the built server: the changes it sends, applied as the client
// applies them, give the whole preview, after every one of a seeded random sequence of edits.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../support/lspClient';
import { PreviewRequest, PreviewResult, PreviewUpdateParams, PreviewUpdateRequest, PreviewUpdateResult } from '../../server/src/protocol';
import { applyPreviewDelta } from '../../server/src/previewDelta';
import { APPEND_LISTS } from './fixtures';

/** mulberry32: the same sequence of edits on every run. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PARTS = [
  `#cloud-config\npackages:\n  - nginx\n  - git\nruncmd:\n  - echo base\nusers:\n  - name: ops\n    groups: [adm]\n`,
  `#cloud-config\nmerge_how: ${APPEND_LISTS}\npackages:\n  - htop\nruncmd:\n  - [sh, -c, echo app]\nwrite_files:\n  - path: /etc/app.conf\n    content: |\n      a = 1\n      b = 2\n`,
  `#cloud-config\nntp:\n  enabled: true\n  servers: [a.example, b.example]\npackages: [curl]\nbootcmd:\n  - echo boot\n`,
  `#cloud-config\nmerge_how:\n  - name: list\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\nruncmd:\n  - echo last\nhostname: web-1\n`,
];

/** Lines an author types, valid and not (a preview of a broken part says so in its header). */
const TYPED = [
  '  - vim',
  'runcmd:',
  '  - echo more',
  'packages:',
  'hostname: db-2',
  `merge_how: ${APPEND_LISTS}`,
  'write_files:',
  '  - path: /etc/x',
  '    content: hello',
  'timezone: UTC',
  '  nested: [1, 2',
  'bogus_key: 1',
  'ssh_pwauth: maybe',
  '#include',
  '',
];

describe('preview updates', () => {
  let client: LspClient;
  let root: string;
  const uris: string[] = [];
  before(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-preview-update-')));
    PARTS.forEach((text, i) => {
      const file = path.join(root, `${i + 1}.yaml`);
      writeFileSync(file, text);
      uris.push(pathToFileURL(file).href);
    });
    client = await LspClient.start({ workspaceFolders: [root] });
  });
  after(async () => {
    await client.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const whole = (files: string[]) => client.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files });
  const update = (params: PreviewUpdateParams) => client.request<PreviewUpdateResult>(PreviewUpdateRequest.method, params);

  test('the changes applied to the held answer equal the whole answer, along 2,000 random edits', async () => {
    const random = seeded(44);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const texts = PARTS.map((t) => t.split('\n'));
    // Three parts open in the editor (edited there), the fourth read from disk.
    for (let i = 0; i < 3; i++) await client.open(uris[i], PARTS[i]);
    let files = uris.slice();
    let held: { version: number; result: PreviewResult } | undefined;
    let deltas = 0;
    let deltaBytes = 0;
    let wholeBytes = 0;
    for (let step = 0; step < 2000; step++) {
      const part = Math.floor(random() * 3);
      const lines = texts[part];
      const at = Math.floor(random() * lines.length);
      const what = random();
      if (what < 0.4) lines[at] += pick(['x', ' ', ':', '1', '-']);
      else if (what < 0.6 && lines.length > 1) lines.splice(at, 1);
      else if (what < 0.9) lines.splice(at, 0, pick(TYPED));
      else lines.splice(at, 0, lines[at] ?? '');
      client.change(uris[part], lines.join('\n'));
      // Now and then the merge order changes, or the client lost an answer (it asks with an older version).
      if (random() < 0.02) files = [files[1], files[0], ...files.slice(2)];
      const lost = random() < 0.02;
      const base = held && lost ? held.version - 1 : held?.version;
      const answer = await update({ mode: 'user-data', files, id: 'preview:1', ...(base !== undefined ? { base } : {}) });
      let result: PreviewResult;
      // Every fourth answer (and the last) is compared with the whole one: a wrong change stays in what the client holds.
      const compared = step % 4 === 3 || step === 1999;
      if ('delta' in answer) {
        assert.ok(held, 'no changes before a whole answer');
        assert.equal(answer.base, held.version, 'changes are made for the version the client holds');
        result = applyPreviewDelta(held.result, answer.delta);
        deltas++;
        if (compared) deltaBytes += JSON.stringify(answer).length;
      } else {
        assert.ok(!held || lost, `a whole answer although the server made the last one (step ${step})`);
        result = answer.result;
      }
      held = { version: answer.version, result };
      if (!compared) continue;
      const expected = await whole(files);
      wholeBytes += JSON.stringify(expected).length;
      assert.deepEqual(result, expected, `after edit ${step + 1}`);
    }
    assert.ok(deltas > 1800, `most answers are changes (${deltas})`);
    assert.ok(deltaBytes * 10 < wholeBytes, `the changes are a small part of the whole answers (${deltaBytes} vs ${wholeBytes} bytes)`);
  });

  test('another preview, or a version the server no longer holds, gets the whole answer', async () => {
    const first = await update({ mode: 'user-data', files: uris, id: 'preview:a' });
    assert.ok('result' in first);
    const other = await update({ mode: 'user-data', files: uris, id: 'preview:b', base: first.version });
    assert.ok('result' in other, 'a version of another preview is not a base');
    const again = await update({ mode: 'user-data', files: uris, id: 'preview:a', base: first.version });
    assert.ok('delta' in again && again.base === first.version);
    assert.deepEqual(again.delta.lines, [], 'nothing changed: no line changes');
    assert.deepEqual(again.delta.entries, []);
    assert.deepEqual(again.delta.changed, {});
    const stale = await update({ mode: 'user-data', files: uris, id: 'preview:a', base: first.version });
    assert.ok('result' in stale, 'the version before the last is not held');
  });
});
