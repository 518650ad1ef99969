/**
 * The shipped artifact: the .vsix that `npm run package` made, installed with --install-extension into a
 * fresh extensions folder, activates and previews (no development path, nothing from the repository).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, Server, Workbench, lib } from './workbench';

const VSIX = process.env.E2E_VSIX ?? path.join(ROOT, 'cloud-config-merge.vsix');

suite('Packaged extension (.vsix)', () => {
  let server: Server | undefined;
  let close: (() => Promise<void>) | undefined;

  suiteTeardown(async () => {
    await close?.();
    server?.stop();
  });

  test('the .vsix is under 1 MB and holds only what it should', () => {
    assert.ok(fs.existsSync(VSIX), `${VSIX} exists (npm run package)`);
    const size = fs.statSync(VSIX).size;
    console.log(`      ${path.basename(VSIX)}: ${(size / 1024).toFixed(0)} KiB`);
    assert.ok(size < 1024 * 1024, `${size} bytes`);
  });

  test('--install-extension installs it; opening a #cloud-config file and previewing works', async () => {
    const dir = lib.tempDir('cc-vsix-');
    const userDataDir = path.join(dir, 'user-data');
    const extensionsDir = path.join(dir, 'extensions');
    const out = lib.installVsix(VSIX, { dir, userDataDir, extensionsDir });
    assert.match(out, /successfully installed/i);
    const installed = fs.readdirSync(extensionsDir).filter((d) => d.startsWith('cloud-config-merge.cloud-config-merge-'));
    assert.strictEqual(installed.length, 1, `installed: ${fs.readdirSync(extensionsDir).join(', ')}`);
    const files = listFiles(path.join(extensionsDir, installed[0]));
    assert.ok(files.includes('dist/client.js') && files.includes('dist/server.js'), files.join(', '));
    assert.ok(!files.some((f) => /^(node_modules|server\/src|client\/src|test)\//.test(f)), `unexpected files: ${files.filter((f) => /^(node_modules|server|client|test)\//.test(f)).slice(0, 5).join(', ')}`);

    const workspace = path.join(ROOT, '.tmp', 'e2e-vsix-workspace');
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.cpSync(path.join(ROOT, 'test/e2e/workspace'), workspace, { recursive: true });
    server = await lib.startServer({ dir, userDataDir, extensionsDir });
    const browser = await lib.launchBrowser();
    close = browser.close;
    browser.page.setDefaultTimeout(30000);
    const wb = new Workbench(browser.page);
    await browser.page.goto(lib.workbenchUrl(server, workspace));
    await wb.ready();
    await wb.openFile('user-data/10-app.yaml');
    // palette → a pick list of the workspace's cloud-config files, the active one already ticked
    await wb.runCommand('Cloud-Config: Preview Merged User-Data');
    await browser.page.locator('.quick-input-list .monaco-list-row', { hasText: '1-base.yaml' }).first().waitFor();
    await browser.page.keyboard.press('Enter');
    const group = wb.editorGroupWithTab('Merged user-data (10-app).yaml');
    await group.locator('.view-line', { hasText: 'hostname: web-01' }).waitFor();
    assert.match(await wb.editorText(group), /# Cloud-Config Merge preview/);
  });
});

function listFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]));
}
