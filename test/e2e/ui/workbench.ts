/** Drives the VS Code web workbench with playwright-core: palette, Explorer, editors, screenshots. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { Locator, Page } from 'playwright-core';

const lib = require('../../../../scripts/e2e/lib.js') as {
  ROOT: string;
  startServer(o?: object): Promise<Server>;
  launchBrowser(o?: object): Promise<{ page: Page; close: () => Promise<void> }>;
  workbenchUrl(server: Server, folder: string, payload?: Array<[string, string]>): string;
  remoteUri(server: Server, p: string): string;
  installVsix(vsix: string, o: { dir: string; userDataDir: string; extensionsDir: string }): string;
  tempDir(prefix: string): string;
};
export { lib };

export interface Server {
  host: string;
  dir: string;
  log: string;
  userDataDir: string;
  extensionsDir: string;
  stop(): void;
}

export const ROOT = lib.ROOT;

/** Where screenshots go: the README's images with E2E_UPDATE_SCREENSHOTS=1, else a scratch folder. */
export const SHOTS = process.env.E2E_UPDATE_SCREENSHOTS === '1' ? path.join(ROOT, 'images/screenshots') : path.join(ROOT, '.tmp/e2e-screenshots');

/**
 * A fresh copy of test/e2e/workspace (in .tmp/`name`) opened in the web workbench with the extension
 * under development, in a 1400×800 headless browser. `close` stops the browser and the server.
 */
export async function openDevWorkbench(name: string): Promise<{ wb: Workbench; close: () => Promise<void> }> {
  const workspace = path.join(ROOT, '.tmp', name);
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.cpSync(path.join(ROOT, 'test/e2e/workspace'), workspace, { recursive: true });
  const server = await lib.startServer({ dir: lib.tempDir('cc-ui-') });
  const browser = await lib.launchBrowser({ viewport: { width: 1400, height: 1000 } }).catch((e) => {
    server.stop();
    throw e;
  });
  const close = async () => {
    await browser.close();
    server.stop();
  };
  const wb = new Workbench(browser.page);
  browser.page.setDefaultTimeout(30000);
  try {
    await browser.page.goto(lib.workbenchUrl(server, workspace, [['extensionDevelopmentPath', lib.remoteUri(server, ROOT)], ['skipWelcome', 'true']]));
    await wb.ready();
  } catch (e) {
    await close();
    throw e;
  }
  return { wb, close };
}

/**
 * The hooks of a suite that drives its own workbench (`openDevWorkbench(name)`): opened before the
 * suite, a screenshot named after each failed test (`FAIL-<prefix>…`), then `afterEach`, and closed
 * after the suite. `ui.wb` is the workbench once the suite has started.
 */
export function useDevWorkbench(name: string, prefix: string, afterEach?: (wb: Workbench) => Promise<void>): { readonly wb: Workbench } {
  const ui: { wb: Workbench; close?: () => Promise<void> } = { wb: undefined as unknown as Workbench };
  suiteSetup(async () => {
    const opened = await openDevWorkbench(name);
    ui.wb = opened.wb;
    ui.close = opened.close;
  });
  teardown(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed') await ui.wb.screenshot(`FAIL-${prefix}${test.title.replace(/[^\w]+/g, '-').slice(0, 60)}.png`).catch(() => undefined);
    await afterEach?.(ui.wb);
  });
  suiteTeardown(async () => {
    await ui.close?.();
  });
  return ui;
}

export class Workbench {
  constructor(readonly page: Page) {}

  /** Waits until the Explorer shows the folder. */
  async ready(): Promise<void> {
    await this.page.waitForSelector('.monaco-workbench .part.editor', { timeout: 60000 });
    await this.page.waitForSelector('.explorer-folders-view .monaco-list-row', { timeout: 60000 });
  }

  /**
   * Runs a command by its palette title. Contributions of an extension can register a moment after
   * the workbench is drawn, so retry while the palette does not list it yet.
   */
  async runCommand(title: string, deadlineMs = 30000): Promise<void> {
    const end = Date.now() + deadlineMs;
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    for (;;) {
      try {
        // F1 can land while a menu or tooltip is closing and be lost: then it is pressed again.
        await this.page.keyboard.press('F1');
        await input.waitFor({ state: 'visible', timeout: 3000 });
        await input.fill('>' + title);
        await this.page.locator('.quick-input-list .monaco-list-row').first().filter({ hasText: title }).waitFor({ timeout: 1500 });
        await this.page.keyboard.press('Enter');
        return;
      } catch {
        await this.page.keyboard.press('Escape');
        if (Date.now() > end) throw new Error(`"${title}" never appeared in the Command Palette`);
        await this.page.waitForTimeout(500);
      }
    }
  }

  explorerRow(name: string): Locator {
    return this.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`);
  }

  /**
   * Selects `first` and the rows after it (adjacent in the Explorer) and checks that every one is
   * selected: a modifier click can land while the list re-renders after opening the first file, so
   * the keyboard (Shift+Down from the first row) is the fallback.
   */
  async selectExplorerRange(first: string, rest: string[]): Promise<void> {
    const all = [first, ...rest];
    const selected = async () => {
      for (const name of all) if ((await this.explorerRow(name).getAttribute('aria-selected')) !== 'true') return false;
      return true;
    };
    await this.explorerRow(rest[rest.length - 1]).click({ modifiers: ['Shift'] });
    for (let attempt = 0; attempt < 3 && !(await selected()); attempt++) {
      await this.explorerRow(first).click();
      for (let i = 0; i < rest.length; i++) await this.page.keyboard.press('Shift+ArrowDown');
      await this.page.waitForTimeout(200);
    }
    if (!(await selected())) throw new Error(`could not select ${all.join(', ')} in the Explorer`);
  }

  /** Expands a folder in the Explorer (no-op when it is already expanded). */
  async expand(folder: string): Promise<void> {
    const row = this.explorerRow(folder);
    await row.waitFor();
    if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    await this.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${folder}"][aria-expanded="true"]`).waitFor();
  }

  /** Opens a workspace file through Quick Open. */
  async openFile(name: string): Promise<void> {
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible' });
    await input.fill(name);
    // the first row, once the list is filtered (recently opened files are listed before it is)
    await this.page.locator('.quick-input-list .monaco-list-row').first().filter({ hasText: path.basename(name) }).waitFor();
    await this.page.keyboard.press('Enter');
    await this.activeTab(path.basename(name)).waitFor();
  }

  /**
   * Scrolls an editor with the mouse wheel until a line with this text is rendered (Monaco renders only
   * the lines in view). The wheel leaves the focus and the active group where they are.
   */
  async revealLine(group: Locator, text: string): Promise<Locator> {
    const line = group.locator('.view-line', { hasText: text }).first();
    const lines = group.locator('.editor-instance .view-lines').first();
    const frame = group.locator('.editor-instance .overflow-guard').first();
    for (let step = 0; step < 100 && !(await line.count()); step++) {
      const before = await lines.innerText();
      await frame.hover({ position: { x: 120, y: 60 } });
      await this.page.mouse.wheel(0, 120);
      // the next frame renders other lines; at the end of the document nothing changes any more
      const moved = await this.page.waitForFunction(([el, old]) => (el as { innerText: string }).innerText !== old, [await lines.elementHandle(), before] as const, { timeout: 2000 }).then(() => true, () => false);
      if (!moved) break;
    }
    await line.waitFor();
    return line;
  }

  /** Ticks, in the open multi-select pick list, every row the filter leaves (exactly `count`), and waits until they are. */
  async tickAll(filter: string, count: number): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(filter);
    const rows = this.page.locator('.quick-input-list .monaco-list-row');
    await rows.nth(count - 1).waitFor();
    for (let i = 0; i < count; i++) {
      if ((await rows.nth(i).getAttribute('aria-checked')) !== 'true') await rows.nth(i).locator('label.quick-input-list-label').click();
    }
    await this.page.locator('.quick-input-widget .quick-input-count', { hasText: `${count} Selected` }).waitFor();
  }

  /** Clicks these Explorer rows in this order: the first a plain click, the others with Ctrl. */
  async clickSelect(names: string[]): Promise<void> {
    await this.explorerRow(names[0]).click();
    for (const name of names.slice(1)) await this.explorerRow(name).click({ modifiers: ['Control'] });
  }

  /**
   * Selects `names` with `select`, right-clicks `row` and clicks the context menu item with exactly this
   * title. The Explorer can re-render (decorations, the language server starting) between the selection
   * and the right-click and drop the selection: the menu is only used once all of them are still selected.
   */
  async contextMenu(select: () => Promise<void>, names: string[], row: string, title: string): Promise<void> {
    const item = this.page.locator('.context-view .monaco-menu .action-label', { hasText: new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`) });
    for (let attempt = 1; ; attempt++) {
      await select();
      await this.explorerRow(row).click({ button: 'right' });
      await item.waitFor();
      const selected = await Promise.all(names.map((n) => this.explorerRow(n).getAttribute('aria-selected')));
      if (selected.every((s) => s === 'true')) break;
      await this.page.keyboard.press('Escape');
      await this.page.locator('.context-view .monaco-menu').waitFor({ state: 'hidden' });
      if (attempt === 3) throw new Error(`the Explorer selection did not hold: ${names.join(', ')}: ${selected.join(', ')}`);
    }
    await item.click();
    await this.page.locator('.context-view .monaco-menu').waitFor({ state: 'hidden', timeout: 5000 }).catch(() => item.click());
  }

  /** The rows of the open pick list, in list order (the DOM order of a list is not its order). */
  async pickRows(): Promise<string[]> {
    const rows = this.page.locator('.quick-input-list .monaco-list-row');
    const entries = await rows.evaluateAll((els) =>
      els.map((el) => {
        // (runs in the page)
        const row = el as unknown as { getAttribute(a: string): string | null; innerText: string };
        return { index: Number(row.getAttribute('data-index')), text: row.innerText.replace(/\s+/g, ' ').trim() };
      }),
    );
    return entries.sort((a, b) => a.index - b.index).map((e) => e.text);
  }

  /**
   * The order step (shown before two files or more merge): waits for it, then goes on with the order it
   * shows by clicking its first item (`accept`).
   */
  async acceptOrder(accept = 'Merge in this order'): Promise<void> {
    const row = this.page.locator('.quick-input-list .monaco-list-row', { hasText: accept }).first();
    await row.waitFor();
    await row.click();
    await row.waitFor({ state: 'hidden' });
  }

  /** The visible text of an editor, in line order (Monaco's DOM order is not the line order). */
  async orderedText(group: Locator): Promise<string> {
    return (await group.locator('.editor-instance .view-lines').first().evaluate((el) => {
      // (runs in the page: `el` and its lines are DOM elements)
      const lines = [...el.querySelectorAll('.view-line')].map((l) => {
        const line = l as unknown as { style: { top: string }; innerText: string };
        return { top: parseFloat(line.style.top || '0'), text: line.innerText };
      });
      return lines.sort((a, b) => a.top - b.top).map((l) => l.text).join('\n');
    })).replace(/\u00a0/g, ' ');
  }

  activeTab(label: string | RegExp): Locator {
    return this.page.locator('.tabs-container .tab.active', { hasText: label });
  }

  /** The editor showing a tab with this label (in whichever group it is). */
  editorGroupWithTab(label: string | RegExp): Locator {
    return this.page.locator('.editor-group-container', { has: this.page.locator('.tab.active', { hasText: label }) });
  }

  /** The visible text of an editor, with Monaco's non-breaking spaces turned back into spaces. */
  async editorText(group: Locator): Promise<string> {
    return (await group.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
  }

  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(SHOTS, { recursive: true });
    const file = path.join(SHOTS, name);
    await this.page.screenshot({ path: file });
    // the README's copies are palette-quantized when pngquant is installed (a third of the size)
    if (SHOTS.startsWith(path.join(ROOT, 'images'))) {
      spawnSync('pngquant', ['--quality=70-90', '--speed=1', '--strip', '--force', '--output', file, file], { stdio: 'ignore' });
    }
    return file;
  }
}
