// The preview's header in a side column (issue 42): left unset, the width fits a side column of a
// 1400-pixel window (about 58 columns show), and a preview that has the window to itself wraps at the
// full width; a width the user sets wins everywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chooseHeaderWidth } from '../../client/src/preview/headerWidth';
import { HEADER_WIDTH, SIDE_COLUMN_HEADER_WIDTH, buildPreview } from '../../server/src/engine/render/previewText';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { default?: unknown }> } } };

test("the setting's default is the side column's width, narrower than the 58 columns a side column shows", () => {
  assert.equal(manifest.contributes.configuration.properties['cloudConfigMerge.preview.headerWidth'].default, SIDE_COLUMN_HEADER_WIDTH);
  assert.ok(SIDE_COLUMN_HEADER_WIDTH <= 58);
});

test('unset: a side column beside the editor, the full width when the preview is alone; set anywhere: that width', () => {
  assert.equal(chooseHeaderWidth(undefined, false), SIDE_COLUMN_HEADER_WIDTH);
  assert.equal(chooseHeaderWidth({}, false), SIDE_COLUMN_HEADER_WIDTH);
  assert.equal(chooseHeaderWidth({}, true), HEADER_WIDTH);
  assert.equal(chooseHeaderWidth({ globalValue: 120 }, false), 120);
  assert.equal(chooseHeaderWidth({ globalValue: 120, workspaceValue: 70 }, true), 70);
  assert.equal(chooseHeaderWidth({ globalValue: 120, workspaceValue: 70, workspaceFolderValue: 64 }, true), 64);
});

test('at the side column width, "What this merge lost" and every other header line fit', () => {
  const files = [
    { name: '10-base.yaml', bytes: Buffer.from('#cloud-config\npackages: [curl, git]\nruncmd: [echo base]\nwrite_files:\n  - path: /etc/motd\n    content: base\n') },
    { name: '20-app.yaml', bytes: Buffer.from('#cloud-config\npackages: [nginx]\nruncmd: [echo app]\n') },
  ];
  const model = buildPreview('user-data', files, { schema: true, version: 'current', headerWidth: SIDE_COLUMN_HEADER_WIDTH });
  const header = model.text.slice(0, model.text.indexOf('# ---- what cloud-init writes ----')).split('\n').filter(Boolean);
  assert.ok(header.some((l) => l.startsWith('# What this merge lost')), model.text);
  for (const line of header) assert.ok(line.length <= SIDE_COLUMN_HEADER_WIDTH, `${line.length}: ${line}`);
});
