/**
 * What only the UI shows: the Explorer's multi-select context menu, a preview opening beside the editor,
 * the provenance hover, the Problems panel, the read-only preview, the compare diff. Each step leaves a
 * screenshot (the README's, with E2E_UPDATE_SCREENSHOTS=1).
 */
import * as assert from 'assert';
import { Workbench, useDevWorkbench } from './workbench';

const PREVIEW_TAB = 'Merged user-data (3 files).yaml';

suite('Workbench (browser)', () => {
  const ui = useDevWorkbench('e2e-ui-workspace', '');
  let wb: Workbench;
  suiteSetup(() => void (wb = ui.wb));

  test('Explorer: select three parts, right-click, "Preview Merged User-Data" opens the preview beside', async () => {
    const { page } = wb;
    await wb.expand('user-data');
    await wb.explorerRow('1-base.yaml').click();
    await wb.activeTab('1-base.yaml').waitFor();
    const item = page.locator('.context-view .monaco-menu .action-label', { hasText: 'Preview Merged User-Data' });
    const names = ['1-base.yaml', '2-users.yaml', '10-app.yaml'];
    // The Explorer can re-render (decorations, the language server starting) between the selection and
    // the right-click and drop the selection: the menu is only used once all three are still selected.
    for (let attempt = 1; ; attempt++) {
      await wb.selectExplorerRange(names[0], names.slice(1));
      await wb.explorerRow('10-app.yaml').click({ button: 'right' });
      await item.waitFor();
      const selected = await Promise.all(names.map((n) => wb.explorerRow(n).getAttribute('aria-selected')));
      if (selected.every((s) => s === 'true')) break;
      await page.keyboard.press('Escape');
      await page.locator('.context-view .monaco-menu').waitFor({ state: 'hidden' });
      if (attempt === 3) throw new Error(`the Explorer selection did not hold: ${selected.join(', ')}`);
    }
    await wb.screenshot('1-explorer-context-menu.png');
    await item.click();
    // on a busy machine a click can land while the menu is still being laid out: then it stays open
    const menu = page.locator('.context-view .monaco-menu');
    await menu.waitFor({ state: 'hidden', timeout: 5000 }).catch(() => item.click());
    // the order step: the three parts in name order, taken as offered
    await wb.acceptOrder();
    const group = wb.editorGroupWithTab(PREVIEW_TAB);
    await group.waitFor();
    assert.strictEqual(await page.locator('.editor-group-container').count(), 2, 'the preview opened in a second group');
    await group.locator('.view-line', { hasText: 'Cloud-Config Merge preview' }).waitFor();
    const text = await wb.editorText(group);
    assert.match(text, /# Cloud-Config Merge preview/);
    assert.match(text, /from user-data\/10-app\.yaml/);
    // the merged data, below the header (its Boot plan section included)
    await wb.revealLine(group, 'hostname: web-01');
    await wb.screenshot('2-preview-beside.png');
  });

  test('hovering a preview line shows where the value came from and what it replaced', async () => {
    const group = wb.editorGroupWithTab(PREVIEW_TAB);
    const line = await wb.revealLine(group, 'timezone: America/New_York');
    await line.locator('span', { hasText: 'timezone' }).first().hover();
    const hover = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: '10-app.yaml:8' });
    await hover.waitFor();
    await hover.locator(':text("Replaced")').first().waitFor();
    await wb.page.waitForTimeout(400); // let the fade-in finish
    await wb.screenshot('3-provenance-hover.png');
    await wb.page.keyboard.press('Escape');
  });

  test('the editor title bar has the preview button on cloud-init documents only', async () => {
    const button = (tab: string) => wb.editorGroupWithTab(tab).locator('.editor-actions .action-label[aria-label*="Preview Merged User-Data"]');
    await wb.explorerRow('settings.yaml').click();
    await wb.activeTab('settings.yaml').waitFor();
    await wb.page.waitForTimeout(500);
    assert.strictEqual(await button('settings.yaml').count(), 0, 'no button on an ordinary YAML file');
    await wb.explorerRow('1-base.yaml').click();
    await wb.activeTab('1-base.yaml').waitFor();
    await button('1-base.yaml').waitFor();
  });

  test('the language status item shows the kind of part and its effective merge spec', async () => {
    await wb.editorGroupWithTab('1-base.yaml').locator('.view-line').first().click();
    const status = wb.page.locator('.statusbar-item[id="status.languageStatus"]');
    await status.waitFor();
    await status.hover();
    const hover = wb.page.locator('.monaco-hover:not(.hidden)', { hasText: 'cloud-config' });
    await hover.waitFor();
    await hover.locator(':text("list(append)")').first().waitFor();
    await wb.page.waitForTimeout(400);
    await wb.screenshot('4-language-status.png');
    await wb.page.keyboard.press('Escape');
  });

  test('the Problems panel lists the merge-spec diagnostic', async () => {
    await wb.expand('broken');
    await wb.explorerRow('typo-spec.yaml').click();
    await wb.activeTab('typo-spec.yaml').waitFor();
    await wb.runCommand('Focus on Problems View');
    const row = wb.page.locator('.markers-panel .monaco-list-row', { hasText: 'apend' });
    await row.first().waitFor();
    await wb.screenshot('5-problems.png');
  });

  test('typing into the preview is refused: "Cannot edit in read-only editor"', async () => {
    const group = wb.editorGroupWithTab(PREVIEW_TAB);
    await group.locator('.tab', { hasText: PREVIEW_TAB }).click().catch(() => undefined);
    const editor = wb.editorGroupWithTab(PREVIEW_TAB);
    // The cursor goes inside the line: a typed character would land in it. (The whole text is not
    // compared: the header is longer than the view, and the refused keystroke may scroll it.)
    await (await wb.revealLine(editor, 'hostname: web-01')).click();
    await wb.page.keyboard.type('x');
    await wb.page.locator('.monaco-editor-overlaymessage', { hasText: /read-only/i }).waitFor();
    const line = (await (await wb.revealLine(editor, 'hostname:')).innerText()).replace(/\u00a0/g, ' ');
    assert.strictEqual(line, 'hostname: web-01', 'the text did not change');
    assert.strictEqual(await editor.locator('.tab.active.dirty').count(), 0, 'the preview is not dirty');
    await wb.screenshot('6-read-only.png');
  });

  test('"Compare Without Part…" shows what one part changes, as a diff', async () => {
    await wb.runCommand('View: Hide Panel');
    // Focus the preview's text, not its tab: the command is offered when the focused editor is a preview.
    await (await wb.revealLine(wb.editorGroupWithTab(PREVIEW_TAB), 'hostname: web-01')).click();
    await wb.runCommand('Cloud-Config: Compare Without Part…');
    const pick = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: '10-app.yaml' });
    await pick.first().waitFor();
    await pick.first().click();
    const diff = wb.page.locator('.monaco-diff-editor');
    await diff.first().waitFor();
    await wb.activeTab(/without 10-app ↔ with 10-app/).waitFor();
    // the diff gets the whole editor area, so it is side by side
    await wb.page.locator('.monaco-diff-editor.side-by-side').first().waitFor();
    await wb.page.waitForTimeout(500);
    await wb.screenshot('7-compare-without-part.png');
  });
});
