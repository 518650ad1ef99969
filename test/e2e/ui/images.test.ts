/**
 * The image profile in a real VS Code: the language status item of a cloud-config document shows it, and one
 * click (its "Change Image" link, then the quick pick) switches the folder's `cloudConfigMerge.image`; the
 * diagnostics follow. `write_files[].source` is accepted by current cloud-init (the default image,
 * ubuntu-24.04) and rejected by 22.4 (debian-12).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, useDevWorkbench } from './workbench';

const FILE = 'write-files-source.yaml';
const WORKSPACE = 'e2e-ui-images';

suite('Image profiles (browser)', () => {
  const ui = useDevWorkbench(WORKSPACE, 'images-');

  test('switching the image from the language status item changes a version-dependent diagnostic', async () => {
    const wb = ui.wb;
    const { page } = wb;
    await wb.expand('images');
    await wb.explorerRow(FILE).click();
    await wb.activeTab(FILE).waitFor();
    await wb.editorGroupWithTab(FILE).locator('.view-line').first().click();
    await wb.runCommand('Focus on Problems View');
    const rows = page.locator('.markers-panel .monaco-list-row');
    // The merge-spec warning comes with every image: once it is listed, the file has been checked.
    await rows.filter({ hasText: 'apend' }).first().waitFor();
    assert.strictEqual(await rows.filter({ hasText: "'source' was unexpected" }).count(), 0, 'current cloud-init accepts write_files source');

    const status = page.locator('.statusbar-item[id="status.languageStatus"]');
    await status.hover();
    const hover = page.locator('.monaco-hover:not(.hidden)', { hasText: 'image: ubuntu-24.04' });
    await hover.waitFor();
    await wb.screenshot('images-1-status.png');
    await hover.locator('a', { hasText: 'Change Image' }).first().click();
    const pick = page.locator('.quick-input-list .monaco-list-row', { hasText: 'debian-12' });
    await pick.first().waitFor();
    await wb.screenshot('images-2-pick.png');
    await pick.first().click();

    await rows.filter({ hasText: "'source' was unexpected" }).first().waitFor();
    const settings = JSON.parse(fs.readFileSync(path.join(ROOT, '.tmp', WORKSPACE, '.vscode', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.strictEqual(settings['cloudConfigMerge.image'], 'debian-12', "the choice is the folder's setting");
    await status.hover();
    await page.locator('.monaco-hover:not(.hidden)', { hasText: 'image: debian-12' }).waitFor();
    await wb.screenshot('images-3-debian.png');
  });
});
