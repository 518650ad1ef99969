/**
 * What a new user hit, round 2 (issue 42), in the real workbench (1400 px wide, as the issue measured):
 * the preview's header fits a side column; on rhel-8 the write_files `source` error says it is 23.4's
 * schema and that 24.4 and later accept it; the boot wizard on a NoCloud seed ticks only user-data and
 * starts step 2 on the vendor-data beside it; unreadable YAML is not "valid on debian-12"; Change Merge
 * Order ticks the walkthrough's "Reorder and compare".
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, Workbench, useDevWorkbench } from './workbench';

const WORKSPACE = 'e2e-new-user';
/** What a side column shows at 1400 px with the editor beside (the measure), and what we wrap at. */
const SIDE_COLUMN = 58;

suite('What a new user hit, round 2 (issue 42)', () => {
  const ui = useDevWorkbench(WORKSPACE, 'new-user-', (w) => w.page.keyboard.press('Escape'));
  let wb: Workbench;
  const inWorkspace = (p: string) => path.join(ROOT, '.tmp', WORKSPACE, p);
  suiteSetup(() => {
    wb = ui.wb;
    fs.cpSync(path.join(ROOT, 'test/e2e/seed'), inWorkspace('nocloud'), { recursive: true });
    fs.writeFileSync(inWorkspace('unreadable.yaml'), '#cloud-config\npackages: [curl\n  b: c: d\n');
  });

  /** The palette's multi-select list: filter, tick every row shown, accept. */
  async function pickAll(filter: string, expected: string[]): Promise<void> {
    for (const name of expected) await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await wb.tickAll(filter, expected.length);
    await wb.page.keyboard.press('Enter');
  }

  function headerOf(text: string): string[] {
    const lines = text.split('\n');
    const end = lines.findIndex((l) => l.startsWith('# ---- what cloud-init writes'));
    assert.ok(end > 0, `the header ends with the body marker:\n${text.slice(0, 2000)}`);
    return lines.slice(0, end);
  }

  test('2: beside the editor, every header line fits the side column, "What this merge lost" included', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openFile('parts/01-base.yaml');
    await wb.runCommand('Cloud-Config: Preview Merged User-Data');
    await pickAll('parts/', ['01-base.yaml', '02-app.yaml', '03-typo.yaml']);
    await wb.acceptOrder();
    const group = wb.editorGroupWithTab(/Merged user-data \(3 files\)\.yaml/);
    await group.locator('.view-line', { hasText: 'What this merge lost' }).waitFor({ timeout: 30000 });
    assert.strictEqual(await wb.page.locator('.editor-group-container').count(), 2, 'the preview is beside the editor');
    const header = headerOf(await wb.orderedText(group));
    for (const line of header) assert.ok(line.length <= SIDE_COLUMN, `${line.length} characters: ${line}`);
    // No horizontal scroll bar is needed for the header: the widest rendered header line fits the editor.
    const text = await group.locator('.view-line', { hasText: 'What this merge lost' }).first().locator('span').first().boundingBox();
    const frame = await group.locator('.editor-instance .overflow-guard').first().boundingBox();
    assert.ok(text && frame && text.x + text.width <= frame.x + frame.width, `"What this merge lost" is shown whole: ${JSON.stringify({ text, frame })}`);
    await wb.screenshot('new-user-2-side-column.png');
  });

  test('3: on rhel-8, the write_files source error names 23.4 and the versions that accept it', async () => {
    await wb.runCommand('View: Close All Editors');
    fs.mkdirSync(inWorkspace('.vscode'), { recursive: true });
    fs.writeFileSync(inWorkspace('.vscode/settings.json'), JSON.stringify({ 'cloudConfigMerge.image': 'rhel-8' }));
    await wb.openFile('images/write-files-source.yaml');
    await wb.runCommand('Focus on Problems View');
    const row = wb.page.locator('.markers-panel .monaco-list-row', { hasText: "'source' was unexpected" }).first();
    await row.waitFor({ timeout: 60000 });
    assert.match(await row.innerText(), /cloud-init 23\.4's schema; 24\.4 and later accept it/);
    await wb.screenshot('new-user-3-rhel-8.png');
    fs.rmSync(inWorkspace('.vscode/settings.json'));
  });

  test('4: the boot wizard on a seed folder: step 1 ticks user-data only, step 2 starts on the vendor-data beside it', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Cloud-Config: Preview Merged User-Data');
    await pickAll('nocloud/', ['user-data', 'vendor-data']);
    await wb.acceptOrder();
    await wb.editorGroupWithTab(/Merged user-data \(2 files\)\.yaml/).locator('.view-line').first().waitFor();
    await wb.runCommand('Cloud-Config: Change Preview Mode');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'boot' }).first().click();
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Boot-time layering (1/4)' }).waitFor();
    const ticked = wb.page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]');
    await ticked.first().waitFor();
    const names = await ticked.allInnerTexts();
    assert.ok(names.some((n) => /^user-data/.test(n)), names.join(' | '));
    assert.ok(!names.some((n) => /^vendor-data/.test(n)), `vendor-data is not ticked as user-data: ${names.join(' | ')}`);
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Boot-time layering (2/4)' }).waitFor();
    const first = wb.page.locator('.quick-input-list .monaco-list-row.focused');
    await first.waitFor();
    assert.match(await first.innerText(), /^vendor-data/);
    await wb.screenshot('new-user-4-wizard.png');
    await wb.page.keyboard.press('Escape');
  });

  test('6: unreadable YAML is not "valid on debian-12" in the preview', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openFile('unreadable.yaml');
    await wb.runCommand('Cloud-Config: Preview Merged User-Data');
    await pickAll('unreadable', ['unreadable.yaml']);
    const group = wb.editorGroupWithTab('Merged user-data (unreadable).yaml');
    await group.locator('.view-line', { hasText: 'Ignored invalid user-data' }).waitFor({ timeout: 30000 });
    const text = await wb.orderedText(group);
    assert.doesNotMatch(text, /Which images accept this/);
    assert.doesNotMatch(text, /valid on debian-12/);
  });

  test('7: Change Merge Order ticks the walkthrough\'s "Reorder and compare"', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Cloud-Config: Preview Merged User-Data');
    await pickAll('parts/', ['01-base.yaml', '02-app.yaml', '03-typo.yaml']);
    await wb.acceptOrder();
    await wb.editorGroupWithTab(/Merged user-data \(3 files\)\.yaml/).locator('.view-line').first().waitFor();
    await wb.runCommand('Cloud-Config: Change Merge Order');
    await wb.acceptOrder('Apply this order');
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Cloud-Config Merge' }).first().click();
    await wb.page.locator('[data-done-step-id$="#compare"].complete').first().waitFor({ timeout: 15000 });
  });
});
