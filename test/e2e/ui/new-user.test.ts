/**
 * What a new user hit, round 2 (issue 42), in the real workbench: on rhel-8 the write_files `source` error
 * says it is 23.4's schema and that 24.4 and later accept it; Change Merge Order ticks the walkthrough's
 * "Reorder and compare". (The boot wizard on a seed folder and unreadable YAML's images line are tested
 * over LSP and in unit tests.)
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, Workbench, useDevWorkbench } from './workbench';

const WORKSPACE = 'e2e-new-user';

suite('What a new user hit, round 2 (issue 42)', () => {
  const ui = useDevWorkbench(WORKSPACE, 'new-user-', (w) => w.page.keyboard.press('Escape'));
  let wb: Workbench;
  const inWorkspace = (p: string) => path.join(ROOT, '.tmp', WORKSPACE, p);
  suiteSetup(() => {
    wb = ui.wb;
  });

  /** The palette's multi-select list: filter, tick every row shown, accept. */
  async function pickAll(filter: string, expected: string[]): Promise<void> {
    for (const name of expected) await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await wb.tickAll(filter, expected.length);
    await wb.page.keyboard.press('Enter');
  }

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
