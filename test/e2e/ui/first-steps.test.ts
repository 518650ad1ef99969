/**
 * What a new user hit in a real VS Code (issue 31), in the real workbench: the README's first screen
 * followed word for word (its file names and its menu item are read from the README), the untitled editor
 * Build MIME User-Data opens previewed from its own title bar button, and a preview beside its source whose
 * header folds by section and wraps to the width set for a side column.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator } from 'playwright-core';
import { ROOT, Workbench, useDevWorkbench } from './workbench';

const WORKSPACE = 'e2e-first-steps-workspace';

/** The README's first section: its three numbered steps, and the paragraph on the order of parts. */
function readmeFirstScreen(): { steps: string[]; text: string } {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## ');
  const end = readme.indexOf('\n## ', start + 1);
  const text = readme.slice(start, end);
  const steps = [...text.matchAll(/^\d\. ([\s\S]*?)(?=^\d\. |^\s*$)/gm)].map((m) => m[1].replace(/\s+/g, ' ').trim());
  return { steps, text };
}

suite('What a new user hit (issue 31)', () => {
  const ui = useDevWorkbench(WORKSPACE, 'first-', (w) => w.page.keyboard.press('Escape'));
  let wb: Workbench;
  suiteSetup(() => void (wb = ui.wb));

  /** The visible lines of an editor, in line order, each with its right edge and the editor's visible right edge. */
  async function visibleLines(group: Locator): Promise<Array<{ text: string; right: number; visibleRight: number }>> {
    return group.locator('.editor-instance').first().evaluate((el) => {
      // (runs in the page)
      type Box = { right: number; top: number };
      type Node = { querySelector(s: string): Node | null; querySelectorAll(s: string): Node[]; getBoundingClientRect(): Box; innerText: string; clientWidth: number; style: { top: string } };
      const root = el as unknown as Node;
      const guard = root.querySelector('.overflow-guard')!;
      const scrollbar = root.querySelector('.scrollbar.vertical');
      const visibleRight = guard.getBoundingClientRect().right - (scrollbar?.clientWidth ?? 0);
      return [...root.querySelectorAll('.view-lines .view-line')]
        .map((l) => ({ top: parseFloat(l.style.top || '0'), text: l.innerText.replace(/\u00a0/g, ' '), right: (l.querySelector('span') ?? l).getBoundingClientRect().right, visibleRight }))
        .sort((a, b) => a.top - b.top)
        .map(({ text, right, visibleRight: v }) => ({ text, right, visibleRight: v }));
    });
  }

  test("the README's first screen, step by step: named parts, clicked in another order, previewed in name order", async () => {
    const { steps, text } = readmeFirstScreen();
    assert.strictEqual(steps.length, 3, `three steps:\n${text}`);
    // 1. Install: the package the step installs is the one `npm run package` writes (the vsix suite installs it).
    const install = /`(npm ci && npm run package && code --install-extension (\S+))`/.exec(steps[0]);
    assert.ok(install, steps[0]);
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    // (then the CLI's own tarball beside it: npm run pack:cli)
    assert.match(manifest.scripts.package, new RegExp(`--out ${install[2].replace(/\./g, '\\.')}( && npm run pack:cli)?$`));
    // 2. Parts named in merge order: the README's own names, written as a new user writes them.
    const names = [...steps[1].matchAll(/`(\d+-[\w-]+\.yaml)`/g)].map((m) => m[1]);
    assert.strictEqual(names.length, 3, steps[1]);
    const folder = path.join(ROOT, '.tmp', WORKSPACE, 'first-preview');
    fs.mkdirSync(folder, { recursive: true });
    const parts = [
      '#cloud-config\npackages:\n  - curl\nruncmd:\n  - echo base\n',
      '#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_list)+str()\npackages:\n  - nginx\nruncmd:\n  - systemctl restart nginx\n',
      '#cloud-config\nruncmd:\n  - echo secrets\n',
    ];
    names.forEach((name, i) => fs.writeFileSync(path.join(folder, name), parts[i]));
    await wb.runCommand('View: Close All Editors');
    // (the Explorer is told of files written outside VS Code when it looks again)
    await wb.runCommand('Refresh Explorer');
    await wb.expand('first-preview');
    // 3. "Select the parts in the Explorer, right-click, <item>." Clicked last first.
    const item = /right-click, ([^.]+)\./.exec(steps[2])?.[1];
    assert.ok(item, steps[2]);
    const clicks = [names[2], names[0], names[1]];
    await wb.contextMenu(() => wb.clickSelect(clicks), clicks, names[1], item);
    // The order step, as the README's paragraph on the order of parts names it: the order offered, taken.
    const accept = /and \*\*([^*]+)\*\* goes on/.exec(text)?.[1];
    assert.ok(accept, `the README says how to go on from the order step:\n${text}`);
    await wb.acceptOrder(accept);
    const group = wb.editorGroupWithTab(/Merged user-data/);
    await group.locator('.view-line', { hasText: 'What this merge lost' }).waitFor();
    assert.strictEqual(await wb.page.locator('.editor-group-container').count(), 2, 'the preview opens beside the editor');
    const lines = (await visibleLines(group)).map((l) => l.text);
    // Its header lists the parts in the order they were merged: the names' order, not the clicks'.
    const listed = names.map((n) => lines.findIndex((l) => new RegExp(`^# {3}\\d\\. part-00\\d .*first-preview/${n}`).test(l)));
    assert.ok(listed.every((at, i) => at > 0 && (i === 0 || at > listed[i - 1])), `${names.join(', ')} in this order:\n${lines.join('\n')}`);
    assert.ok(lines.some((l) => /^# What this merge lost \(/.test(l)), 'what the merge lost');
    await wb.revealLine(group, '- echo secrets');
    await wb.screenshot('13-readme-first-preview.png');
  });

  test('Build MIME User-Data, then the preview button of its new (untitled) editor: the parts merged, nothing "cannot be read"', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.expand('user-data');
    const names = ['1-base.yaml', '2-users.yaml', '10-app.yaml'];
    await wb.contextMenu(
      async () => {
        await wb.explorerRow(names[0]).click();
        await wb.selectExplorerRange(names[0], names.slice(1));
      },
      names,
      '10-app.yaml',
      'Build MIME User-Data',
    );
    await wb.acceptOrder('Build in this order');
    await wb.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Build MIME User-Data from 3 files' }).waitFor();
    await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'as cloud-init devel make-mime writes it' }).first().click();
    const mime = wb.editorGroupWithTab(/Untitled-\d/);
    await mime.locator('.view-line', { hasText: 'multipart/mixed' }).waitFor();
    const button = mime.locator('.editor-actions .action-label[aria-label*="Preview Merged User-Data"]');
    await button.waitFor();
    await button.click();
    const preview = wb.editorGroupWithTab(/Merged user-data/);
    await preview.locator('.view-line', { hasText: 'Parts, in the order cloud-init reads them' }).waitFor();
    const top = (await visibleLines(preview)).map((l) => l.text).join('\n');
    assert.doesNotMatch(top, /cannot be read/);
    assert.match(top, /^# {3}3\. 10-app\.yaml \(text\/cloud-config\) from Untitled-\d: merged/m);
    await wb.revealLine(preview, 'hostname: web-01');
    await wb.screenshot('14-build-mime-preview.png');
  });

  test('beside its source, the preview header folds by section and wraps to the width set for the side column', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openFile('parts/02-app.yaml');
    await wb.runCommand('Cloud-Config: Preview Merged User-Data');
    for (const name of ['01-base.yaml', '02-app.yaml', '03-typo.yaml']) await wb.page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await wb.tickAll('parts/', 3);
    await wb.page.keyboard.press('Enter');
    await wb.acceptOrder();
    const preview = wb.editorGroupWithTab(/Merged user-data \(3 files\)/);
    const heading = preview.locator('.view-line', { hasText: '# Parts, in the order cloud-init reads them:' });
    await heading.waitFor();
    assert.strictEqual(await wb.page.locator('.editor-group-container').count(), 2, 'a side column');
    const lost = (lines: Array<{ text: string }>) => lines.findIndex((l) => l.text.startsWith('# What this merge lost'));
    /** Fold on the parts' heading line: the line under it is then "What this merge lost". */
    const foldParts = async () => {
      await heading.click();
      await wb.page.keyboard.press('Control+Shift+BracketLeft');
      await preview.locator('.view-line', { hasText: '#   1. part-001' }).waitFor({ state: 'detached', timeout: 5000 });
      const lines = await visibleLines(preview);
      const at = lines.findIndex((l) => l.text.startsWith('# Parts,'));
      assert.ok(at >= 0 && lost(lines) === at + 1, `the section under the folded heading:\n${lines.map((l) => l.text).join('\n')}`);
    };
    const clipped = (lines: Array<{ text: string; right: number; visibleRight: number }>) => lines.filter((l) => l.text.startsWith('#') && l.right > l.visibleRight + 1).map((l) => l.text);
    const before = await visibleLines(preview);
    assert.ok(clipped(before).length > 0, 'at 100 columns the header is cut off in a side column');

    await foldParts();

    // The width a side column fits, as a user sets it (workspace settings); the header wraps to it.
    const ruler = (await wb.revealLine(preview, '# ---- what cloud-init writes ----')).locator('span').first();
    const box = await ruler.boundingBox();
    assert.ok(box);
    const charWidth = box.width / '# ---- what cloud-init writes ----'.length;
    // From where a line starts to the editor's visible right edge (the vertical scrollbar left out).
    const columns = Math.floor(((await visibleLines(preview))[0].visibleRight - box.x) / charWidth) - 2;
    assert.ok(columns >= 40 && columns < 100, `${columns} columns fit the side column`);
    console.log(`      (${columns} columns of ${charWidth.toFixed(2)} px fit the side column)`);
    const settings = path.join(ROOT, '.tmp', WORKSPACE, '.vscode', 'settings.json');
    fs.mkdirSync(path.dirname(settings), { recursive: true });
    fs.writeFileSync(settings, JSON.stringify({ 'cloudConfigMerge.preview.headerWidth': columns }, null, 2));
    try {
      const end = Date.now() + 20000;
      let lines = await visibleLines(preview);
      while (clipped(lines).length && Date.now() < end) {
        await wb.page.waitForTimeout(250);
        lines = await visibleLines(preview);
      }
      assert.deepEqual(clipped(lines), [], 'no header line is cut off');
      // Folded again (a new text can unfold it): the whole section reads in the column.
      if (await preview.locator('.view-line', { hasText: '#   1. part-001' }).count()) await foldParts();
      lines = await visibleLines(preview);
      assert.deepEqual(clipped(lines), []);
      const from = lost(lines);
      assert.ok(from > 0, lines.map((l) => l.text).join('\n'));
      const section = lines.slice(from).map((l) => l.text).join('\n').replace(/\n#\s+/g, ' ');
      assert.match(section, /'apend' is not an option of list\(\): ignored/, 'what the merge lost reads in the side column');
      await wb.screenshot('15-header-folded-side-column.png');
    } finally {
      fs.rmSync(settings);
    }
  });
});
