/**
 * The order of parts is chosen before it matters (issue 31, item 1), in the real workbench: a selection
 * previews through the order step (the parts listed in the order they will merge, moved there), a MIME
 * selected beside the files it was built from is said and left out, Build MIME User-Data offers a saved
 * set's order, and the title bar's folder fallback says the container too (put back, the preview's header
 * says its parts merge twice).
 *
 * `order/`: base.yaml, 20-web.yaml (merge_how no_replace), 30-secrets.yaml and built.mime, a MIME of
 * 20-web.yaml and base.yaml as Python's email writes it (its own part names). `build/`: a copy of the two
 * parts and a saved set `built` listing base.yaml first.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT, Workbench, useDevWorkbench } from './workbench';

const WORKSPACE = 'e2e-order-workspace';
const BASE = '#cloud-config\nhostname: base\npackages:\n  - curl\n';
const WEB = '#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nhostname: web\npackages:\n  - nginx\n';
const BOUNDARY = '===============4711258912946342044==';
const MIME = [
  `Content-Type: multipart/mixed; boundary="${BOUNDARY}"`,
  'MIME-Version: 1.0',
  '',
  ...[['web-part', WEB], ['base-part', BASE]].flatMap(([name, body]) => [
    `--${BOUNDARY}`,
    'Content-Type: text/cloud-config; charset="us-ascii"',
    'MIME-Version: 1.0',
    'Content-Transfer-Encoding: 7bit',
    `Content-Disposition: attachment; filename="${name}"`,
    '',
    body.replace(/\n$/, ''),
  ]),
  `--${BOUNDARY}--`,
  '',
].join('\n');

suite('The order of parts is chosen before it matters (issue 31)', () => {
  const ui = useDevWorkbench(WORKSPACE, 'order-', (w) => w.page.keyboard.press('Escape'));
  let wb: Workbench;
  const step = () => ui.wb.page.locator('.quick-input-widget');

  suiteSetup(async () => {
    wb = ui.wb;
    const root = path.join(ROOT, '.tmp', WORKSPACE);
    const files: Record<string, string> = {
      'order/base.yaml': BASE,
      'order/20-web.yaml': WEB,
      'order/30-secrets.yaml': '#cloud-config\nruncmd:\n  - echo secrets\n',
      'order/built.mime': MIME,
      'build/base.yaml': BASE,
      'build/20-web.yaml': WEB,
    };
    for (const [name, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
      fs.writeFileSync(path.join(root, name), text);
    }
    fs.appendFileSync(path.join(root, 'cloud-config-merge.yaml'), '  built:\n    files: [build/base.yaml, build/20-web.yaml]\n');
    await wb.runCommand('Refresh Explorer');
  });

  /** The header's lines, continuation lines joined. */
  function header(text: string): string {
    return text.slice(0, text.indexOf('# ---- what cloud-init writes')).replace(/\n#\s{4,}(?=\S)/g, ' ');
  }

  /** Clicks a button of the order step's row `row` (by its tooltip, or its icon). */
  async function rowButton(row: string, tooltip: string, icon: string): Promise<void> {
    const item = step().locator('.quick-input-list .monaco-list-row', { hasText: row }).first();
    await item.hover();
    await item.locator(`.action-label[aria-label="${tooltip}"], .action-label[title="${tooltip}"], .action-label.codicon-${icon}`).first().click();
  }

  /** Waits until the order step's first rows start with `expected` (spaces aside). */
  async function waitForRows(expected: string[]): Promise<void> {
    const squash = (t: string) => t.replace(/\s+/g, '');
    const matches = (rows: string[]) => expected.every((e, i) => squash(rows[i] ?? '').startsWith(squash(e)));
    const end = Date.now() + 10000;
    let rows = await wb.pickRows();
    while (!matches(rows) && Date.now() < end) {
      await wb.page.waitForTimeout(200);
      rows = await wb.pickRows();
    }
    assert.ok(matches(rows), `the rows start with:\n${expected.join('\n')}\nthey are:\n${rows.join('\n')}`);
  }

  test('a selection clicked base.yaml first: the step shows the name order and says built.mime holds the others; moved, base.yaml merges first', async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.expand('order');
    const clicks = ['base.yaml', '20-web.yaml', 'built.mime'];
    await wb.contextMenu(() => wb.clickSelect(clicks), clicks, 'base.yaml', 'Preview Merged User-Data');
    await step().locator('.quick-input-title', { hasText: 'Merge Order: name order, as the Explorer sorts' }).waitFor();
    await waitForRows(['Merge in this order 2 parts', '1. 20-web.yaml', '2. base.yaml', 'built.mime (left out)']);
    assert.match((await wb.pickRows())[3], /built\.mime already contains 20-web\.yaml and base\.yaml; left out/);
    await wb.screenshot('16-order-step.png');
    await rowButton('2. base.yaml', 'Merge earlier', 'arrow-up');
    await waitForRows(['Merge in this order', '1. base.yaml', '2. 20-web.yaml', 'built.mime (left out)']);
    await wb.acceptOrder();
    const preview = wb.editorGroupWithTab(/Merged user-data \(2 files\)/);
    await preview.locator('.view-line', { hasText: 'What this merge lost' }).waitFor();
    const text = header(await wb.orderedText(preview));
    assert.match(text, /# {3}1\. part-001 \(text\/cloud-config\) from order\/base\.yaml: merged/);
    assert.match(text, /# {3}2\. part-002 \(text\/cloud-config\) from order\/20-web\.yaml: merged/);
    assert.doesNotMatch(text, /built\.mime/);
  });

  test("Build MIME User-Data offers the saved set's order (base.yaml first), and writes its parts in it", async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.expand('build');
    // order/ holds files of the same names: folded, the Explorer shows build/'s only.
    const order = wb.explorerRow('order');
    if ((await order.getAttribute('aria-expanded')) === 'true') await order.click();
    await wb.page.locator('.explorer-folders-view .monaco-list-row[aria-label="order"][aria-expanded="false"]').waitFor();
    const names = ['20-web.yaml', 'base.yaml'];
    await wb.contextMenu(() => wb.clickSelect(names), names, 'base.yaml', 'Build MIME User-Data');
    await step().locator('.quick-input-title', { hasText: 'Build MIME User-Data: the order of its parts: the order of set built (cloud-config-merge.yaml)' }).waitFor();
    await waitForRows(['Build in this order 2 parts', '1. base.yaml', '2. 20-web.yaml']);
    await wb.acceptOrder('Build in this order');
    await step().locator('.quick-input-title', { hasText: 'Build MIME User-Data from 2 files' }).waitFor();
    await step().locator('.quick-input-list .monaco-list-row', { hasText: 'as cloud-init devel make-mime writes it' }).first().click();
    const mime = wb.editorGroupWithTab(/Untitled-\d/);
    await mime.locator('.view-line', { hasText: 'multipart/mixed' }).waitFor();
    const text = await wb.orderedText(mime);
    const base = text.indexOf('filename="base.yaml"');
    const web = text.indexOf('filename="20-web.yaml"');
    assert.ok(base > 0 && web > base, `base.yaml's part first:\n${text}`);
    await wb.runCommand('View: Revert and Close Editor');
  });

  test("the title bar's folder fallback: built.mime said and left out; put back, the preview's header says its parts merge twice", async () => {
    await wb.runCommand('View: Close All Editors');
    await wb.openFile('order/30-secrets.yaml');
    const button = wb.editorGroupWithTab('30-secrets.yaml').locator('.editor-actions .action-label[aria-label*="Preview Merged User-Data"]');
    await button.click();
    await step().locator('.quick-input-title', { hasText: 'Merge Order' }).waitFor();
    await waitForRows(['Merge in this order 3 parts', '1. 20-web.yaml', '2. 30-secrets.yaml', '3. base.yaml', 'built.mime (left out)']);
    await rowButton('built.mime (left out)', 'Merge it too', 'add');
    await waitForRows(['Merge in this order 4 parts', '1. 20-web.yaml', '2. 30-secrets.yaml', '3. base.yaml', '4. built.mime']);
    assert.match((await wb.pickRows())[4], /built\.mime already contains 20-web\.yaml and base\.yaml; their parts merge twice/);
    await wb.acceptOrder();
    const preview = wb.editorGroupWithTab(/Merged user-data \(4 files\)/);
    await preview.locator('.view-line', { hasText: 'Parts, in the order cloud-init reads them' }).waitFor();
    await preview.locator('.view-line', { hasText: 'already contains' }).first().waitFor();
    assert.match(header(await wb.orderedText(preview)), /# Note: order\/built\.mime already contains order\/20-web\.yaml and order\/base\.yaml: their parts are merged twice, once from each/);
  });
});
