/**
 * Issue 30: a bare `user-data` (the NoCloud name, no extension) opened first in a fresh workbench. It is
 * a Jinja template (`## template: jinja`), which VS Code's own YAML firstLine (`^#cloud-config`) does not
 * catch: VS Code must call it YAML from its name, so the extension wakes on it (onLanguage:yaml); then its
 * diagnostics reach the Problems panel and its title bar has the preview button.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, Workbench, useDevWorkbench } from './workbench';

const WORKSPACE = 'e2e-seed-workspace';

suite('A NoCloud seed opened first (issue 30)', () => {
  const ui = useDevWorkbench(WORKSPACE, 'seed-');
  let wb: Workbench;
  suiteSetup(() => void (wb = ui.wb));

  test('a bare user-data opened first is YAML, gets its diagnostic and the preview button', async () => {
    // The seed is copied into this suite's workspace only: in the shared one its files would be offered by every file pick.
    fs.cpSync(path.join(ROOT, 'test/e2e/seed'), path.join(ROOT, '.tmp', WORKSPACE, 'seed'), { recursive: true });
    await wb.openFile('seed/user-data');
    await wb.page.locator('.statusbar-item[id="status.editor.mode"]', { hasText: 'YAML' }).waitFor({ timeout: 10000 });
    const group = wb.editorGroupWithTab('user-data');
    await group.locator('.editor-actions .action-label[aria-label*="Preview Merged User-Data"]').waitFor({ timeout: 60000 });
    await wb.runCommand('Focus on Problems View');
    await wb.page.locator('.markers-panel .monaco-list-row', { hasText: 'apend' }).first().waitFor({ timeout: 60000 });
  });
});
