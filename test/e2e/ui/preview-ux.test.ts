/**
 * The preview as a new user meets it (issue 20), in the real workbench: what the merge lost, header lines
 * that fit, Ctrl+click that keeps the preview visible, a compare of the data only, the boot-mode wizard from
 * a cloud.cfg.d preview, titles that count files, the title bar button previewing the file's set,
 * completion that opens by itself, and the walkthrough ticked by the commands. Each step leaves a
 * screenshot (the README's, with E2E_UPDATE_SCREENSHOTS=1).
 *
 * The workspace's `parts/` folder is the issue's: a base, an app part appending lists, and a part whose
 * merge_how has the typo `list(apend)`.
 */
import * as assert from 'assert';
import type { Locator } from 'playwright-core';
import { Workbench, useDevWorkbench } from './workbench';

const SET_TAB = 'Merged user-data (3 files).yaml';
/** The same preview under any title (so that a test of something else also runs against older titles). */
const ANY_SET_TAB = /Merged user-data \(3 (files|parts)\)\.yaml/;

suite('The preview as a new user meets it', () => {
  const ui = useDevWorkbench('e2e-ux-workspace', 'ux-', (w) => w.page.keyboard.press('Escape'));
  let wb: Workbench;
  suiteSetup(() => void (wb = ui.wb));

  /** The palette's multi-select list: filter, tick every row shown, accept. */
  async function pickAll(filter: string, expected: string[]): Promise<void> {
    for (const name of expected) await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await wb.tickAll(filter, expected.length);
    await wb.page.keyboard.press('Enter');
  }

  /** A one-choice pick list titled `title`: waits for it, then picks the row. */
  async function pickOne(title: string | RegExp, row: string): Promise<void> {
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor();
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().click();
  }

  /**
   * Each test starts from no open editor and makes its own preview of `parts/`, so that it stands or
   * falls by itself: from the palette, the three parts ticked. With `beside`, that file is opened
   * first, and the preview opens in a second group beside it.
   */
  async function openPartsPreview(beside?: string): Promise<Locator> {
    await wb.runCommand('View: Close All Editors');
    await wb.page.locator('.editor-group-container .tab').first().waitFor({ state: 'detached' });
    if (beside) await wb.openFile(beside);
    await wb.runCommand('Cloud-Config: Preview Merged User-Data');
    await pickAll('parts/', ['01-base.yaml', '02-app.yaml', '03-typo.yaml']);
    await wb.acceptOrder();
    const group = wb.editorGroupWithTab(ANY_SET_TAB);
    await group.locator('.view-line', { hasText: '#cloud-config' }).waitFor();
    return group;
  }

  /** The header lines of an editor's text (the lines before the body marker). */
  function headerOf(text: string): string[] {
    const lines = text.split('\n');
    const end = lines.findIndex((l) => l.startsWith('# ---- what cloud-init writes'));
    assert.ok(end > 0, `the header ends with the body marker:\n${text.slice(0, 2000)}`);
    return lines.slice(0, end);
  }

  test('1, 2, 6, 10: with no editor open, the palette previews three parts in one group; the header says what was lost, in lines of at most 100 characters', async () => {
    const group = await openPartsPreview();
    await wb.activeTab(SET_TAB).waitFor({ timeout: 5000 });
    await group.locator('.view-line', { hasText: 'What this merge lost' }).waitFor({ timeout: 5000 });
    assert.strictEqual(await wb.page.locator('.editor-group-container').count(), 1, 'no empty group beside the preview');
    const text = await wb.orderedText(group);
    const header = headerOf(text);
    assert.match(header.join('\n'), /^# What this merge lost \(3 values, 1 ignored option\), by the part that had it:$/m);
    const joined = header.join('\n').replace(/\n#(?: {4}| {6,})(?=\S)/g, ' ');
    assert.match(joined, /'apend' is not an option of list\(\): ignored, so lists are overwritten item by item/);
    assert.match(joined, /From part-001 \(parts\/01-base\.yaml\), displaced by part-003 \(parts\/03-typo\.yaml\), merged with list\(apend\)/);
    assert.match(joined, /packages\[0\] 'curl' at parts\/01-base\.yaml:3: replaced by parts\/03-typo\.yaml:4/);
    assert.match(joined, /runcmd\[0\] 'echo base' at parts\/01-base\.yaml:5: replaced/);
    assert.match(joined, /write_files\[0\] \{'path': '\/etc\/motd'.* at parts\/01-base\.yaml:7: replaced/);
    for (const line of header) assert.ok(line.length <= 100, `${line.length} characters: ${line}`);
    await wb.screenshot('8-what-this-merge-lost.png');
  });

  test('3: Ctrl+click on a preview line opens its source in the other column; the preview stays visible; keys are not underlined', async () => {
    const preview = await openPartsPreview();
    // The header's file names are links; the data lines are not (a link is underlined at rest).
    await preview.locator('.detected-link', { hasText: 'parts/01-base.yaml' }).first().waitFor();
    const line = await wb.revealLine(preview, 'hostname: web-01');
    assert.strictEqual(await line.locator('.detected-link').count(), 0, 'the key is not a link');
    // the innermost span of the key (a line's outer span holds all of it)
    const key = line.locator('span[class*="mtk"]', { hasText: 'hostname' }).last();
    await key.hover();
    await wb.page.keyboard.down('Control');
    await key.hover({ position: { x: 5, y: 5 } });
    // Ctrl+hover underlines this line only: it has a definition, its source
    await line.locator('.goto-definition-link').first().waitFor();
    await key.click({ modifiers: ['Control'] });
    await wb.page.keyboard.up('Control');
    // The jump lands in the preview's group (VS Code's rule for Go to Definition) and is moved beside it.
    const otherGroup = wb.page.locator('.editor-group-container', { hasNot: wb.page.locator('.tab', { hasText: 'Merged user-data' }) });
    const source = otherGroup.filter({ has: wb.page.locator('.tab.active', { hasText: '02-app.yaml' }) });
    await source.locator('.view-line', { hasText: 'hostname: web-01' }).waitFor();
    const previewGroup = wb.page.locator('.editor-group-container', { has: wb.page.locator('.tab', { hasText: 'Merged user-data' }) });
    await previewGroup.locator('.tab', { hasText: '02-app.yaml' }).waitFor({ state: 'detached', timeout: 5000 });
    await previewGroup.locator('.tab.active', { hasText: ANY_SET_TAB }).waitFor({ timeout: 5000 });
    await previewGroup.locator('.view-line', { hasText: 'hostname: web-01' }).waitFor({ timeout: 5000 });
    assert.strictEqual(await wb.page.locator('.editor-group-container').count(), 2, 'the source opened in a second group');
    // the source has the focus, on the line that supplied the value
    await wb.page.locator('.statusbar-item[id="status.editor.selection"]', { hasText: /Ln 7,/ }).waitFor({ timeout: 5000 });
    // A place in the header ("…01-base.yaml:3") opens in the same other column, not over the preview.
    const place = (await wb.revealLine(preview, "packages[0] 'curl'")).locator('span[class*="mtk"]', { hasText: '01-base.yaml:3' }).last();
    await place.waitFor({ timeout: 5000 });
    await place.hover();
    await wb.page.keyboard.down('Control');
    await place.hover({ position: { x: 5, y: 5 } });
    await place.click({ modifiers: ['Control'] });
    await wb.page.keyboard.up('Control');
    await wb.editorGroupWithTab('01-base.yaml').waitFor();
    assert.strictEqual(await wb.page.locator('.editor-group-container').count(), 2);
    await wb.editorGroupWithTab(ANY_SET_TAB).waitFor();
    await wb.screenshot('9-ctrl-click-beside.png');
  });

  test('4, 6: Compare Without Part diffs the merged data only, side by side at full width, titled without a doubled extension', async () => {
    // The preview beside its source: a half-width group, where VS Code would draw a diff inline.
    const preview = await openPartsPreview('parts/02-app.yaml');
    assert.strictEqual(await wb.page.locator('.editor-group-container').count(), 2, 'the preview is beside the source');
    const editorPart = await wb.page.locator('.part.editor').first().boundingBox();
    // Focus the preview's text, not its tab: the command is offered when the focused editor is a preview.
    await preview.locator('.view-line', { hasText: '#cloud-config' }).click();
    await wb.runCommand('Cloud-Config: Compare Without Part…');
    await pickOne('Compare Without Part', '03-typo.yaml');
    const diff = wb.page.locator('.monaco-diff-editor.side-by-side').first();
    await diff.locator('.view-line', { hasText: '- htop' }).first().waitFor();
    const box = await diff.boundingBox();
    assert.ok(editorPart && box && box.width > 0.9 * editorPart.width, `the diff has the editor area's width (${box?.width} of ${editorPart?.width} px)`);
    const tab = wb.page.locator('.tabs-container .tab.active', { hasText: /without 03-typo/ });
    assert.doesNotMatch(await tab.innerText(), /\.yaml\.yaml/);
    const text = (await diff.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /Merged data only/);
    assert.doesNotMatch(text, /# from \d+ files|# part-00\d|Cloud-Config Merge preview|What this merge lost/, 'no header noise');
    assert.match(text, /- curl/, 'what the part changes is there');
    // Closing the diff gives the source and the preview their columns back.
    await wb.page.locator('.tabs-container .tab.active', { hasText: /without 03-typo/ }).locator('.codicon-close').click();
    await diff.waitFor({ state: 'detached' });
    await wb.page.locator('.editor-group-container').nth(1).waitFor();
    for (const group of await wb.page.locator('.editor-group-container').all()) {
      await wb.page.waitForFunction((el) => (el as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width > 200, await group.elementHandle());
    }
  });

  test('5: boot mode from a cloud.cfg.d preview: four steps, Browse… for every file, the drop-ins stay system config', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.expand('cloud.cfg.d');
    await wb.explorerRow('cloud.cfg.d').click({ button: 'right' });
    const item = wb.page.locator('.context-view .monaco-menu .action-label', { hasText: 'Preview Merged User-Data' });
    await item.waitFor();
    await item.click();
    await wb.page.locator('.context-view .monaco-menu').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => item.click());
    const confdTab = /Merged cloud\.cfg\.d \(3 (files|parts)\)\.yaml/;
    const confd = wb.editorGroupWithTab(confdTab);
    await confd.locator('.view-line', { hasText: 'preserve_hostname' }).waitFor();
    // focus the preview (its text, not its tab: a tab's tooltip can swallow the next key)
    await confd.locator('.view-line', { hasText: 'preserve_hostname' }).click();
    await wb.runCommand('Cloud-Config: Change Preview Mode…');
    await pickOne('Change Preview Mode', 'boot');
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Boot-time layering (1/4): user-data' }).waitFor();
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Browse…' }).waitFor();
    await pickAll('1-base', ['1-base.yaml']);
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Boot-time layering (2/4): vendor-data' }).waitFor();
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Browse…' }).waitFor();
    await pickOne('(2/4)', '(none)');
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Boot-time layering (3/4): /etc/cloud/cloud.cfg' }).waitFor();
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Browse…' }).waitFor();
    await pickOne('(3/4)', '(none)');
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Boot-time layering (4/4): /etc/cloud/cloud.cfg.d' }).waitFor();
    for (const dropIn of ['05_logging.cfg', '90_dpkg.cfg', '99_local.cfg']) {
      await wb.page.locator('.quick-input-list .monaco-list-row[aria-checked="true"]', { hasText: dropIn }).waitFor();
    }
    await wb.page.keyboard.press('Enter');
    const boot = wb.editorGroupWithTab('Merged boot config (1-base).yaml');
    await boot.locator('.view-line', { hasText: 'timezone: Etc/UTC' }).waitFor();
    const text = await wb.orderedText(boot);
    assert.match(text, /^preserve_hostname: true$/m, 'a drop-in key');
    assert.match(text, /^datasource_list:$/m, 'another drop-in key');
    await wb.screenshot('10-boot-wizard-result.png');
  });

  test('7: the title bar button previews the file\'s set (its folder\'s parts), not a copy of the file', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openFile('parts/02-app.yaml');
    const button = wb.editorGroupWithTab('02-app.yaml').locator('.editor-actions .action-label[aria-label*="Preview Merged User-Data"]');
    await button.waitFor();
    await button.click();
    // no saved set and no earlier selection holds it: its folder's files, through the order step
    await wb.acceptOrder();
    const group = wb.editorGroupWithTab(/Merged user-data/);
    await group.locator('.view-line', { hasText: '#cloud-config' }).waitFor();
    await wb.activeTab(SET_TAB).waitFor({ timeout: 5000 });
    assert.match(await wb.orderedText(group), /3\. part-003 \(text\/cloud-config\) from parts\/03-typo\.yaml/);
  });

  test('8: completion opens by itself after merge_how: " and after list(', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openFile('parts/01-base.yaml');
    const editor = wb.editorGroupWithTab('01-base.yaml');
    await editor.locator('.view-line', { hasText: '#cloud-config' }).click();
    await wb.page.keyboard.press('End');
    await wb.page.keyboard.press('Enter');
    await wb.page.keyboard.type('merge_how: "');
    const suggest = wb.page.locator('.editor-widget.suggest-widget.visible');
    await suggest.locator('.monaco-list-row', { hasText: 'dict' }).first().waitFor({ timeout: 15000 });
    await wb.page.keyboard.press('Escape');
    await suggest.waitFor({ state: 'hidden' });
    await wb.page.keyboard.type('list(');
    await suggest.locator('.monaco-list-row', { hasText: 'append' }).first().waitFor({ timeout: 15000 });
    await wb.screenshot('11-completion-trigger.png');
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('File: Revert File');
  });

  test('9: the walkthrough\'s preview, provenance and compare steps are ticked by the commands run above', async () => {
    // The commands ran in the tests above, before any Welcome or walkthrough page was open.
    await wb.runCommand('View: Close All Editors');
    await wb.runCommand('Welcome: Open Walkthrough...');
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with Cloud-Config Merge' }).first().click();
    for (const step of ['preview', 'provenance', 'compare']) {
      await wb.page.locator(`[data-done-step-id$="#${step}"].complete`).first().waitFor({ timeout: 15000 });
    }
    await wb.screenshot('12-walkthrough.png');
  });
});
