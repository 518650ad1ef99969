import * as assert from 'assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, PREVIEW_SCHEME, cli, closeAllEditors, fileUri, hoverText, open, positionOf, previewEditors, previewText, serverPids, waitFor, workspaceRoot } from './helpers';

const FILES = ['user-data/1-base.yaml', 'user-data/2-users.yaml', 'user-data/10-app.yaml'];

function filesOf(preview: vscode.Uri): string[] {
  return (JSON.parse(preview.query) as { files: string[] }).files;
}

/** The place a preview link opens: its target is `command:cloudConfigMerge.openSource?[{uri, line, …}]`. */
function placeOf(link: vscode.DocumentLink): { uri: string; line: number } {
  const target = link.target!;
  assert.strictEqual(target.scheme, 'command');
  assert.strictEqual(target.path, 'cloudConfigMerge.openSource');
  const [place] = JSON.parse(target.query) as Array<{ uri: string; line?: number }>;
  return { uri: place.uri, line: place.line ?? 0 };
}

async function linksOf(uri: vscode.Uri): Promise<vscode.DocumentLink[]> {
  return vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri);
}

/** The extension's API (it is active: a preview is open or a cloud-config document was). */
function api(): { previewActivity(): { requestsSent: number; busy: boolean } } {
  const extension = vscode.extensions.getExtension<{ previewActivity(): { requestsSent: number; busy: boolean } }>(EXTENSION_ID);
  assert.ok(extension?.isActive, 'the extension is active');
  return extension.exports;
}

/** Resolves once no preview refresh is scheduled, asked for or waiting for the server's answer. */
async function previewsSettled(): Promise<void> {
  await waitFor('the previews to settle', () => !api().previewActivity().busy);
}

suite('Merged preview', () => {
  let preview: vscode.Uri;

  suiteSetup(closeAllEditors);

  test('Explorer multi-select opens a read-only preview beside the editor, without focus, equal to the CLI', async () => {
    const source = await open(FILES[0]);
    const [a, b, c] = FILES.map(fileUri);
    // the Explorer passes (clicked, selected[]); the selection comes in click order
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', b, [c, a, b], 'default');
    assert.ok(uri, 'the command returns the preview URI');
    preview = uri;
    assert.strictEqual(preview.scheme, PREVIEW_SCHEME);
    assert.match(preview.path, /\.yaml$/);
    const editor = await waitFor('the preview editor', () => previewEditors()[0]);
    assert.strictEqual(editor.viewColumn, vscode.ViewColumn.Two, 'opened beside');
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), source.document.uri.toString(), 'focus stays in the source');
    assert.strictEqual(editor.document.languageId, 'yaml');
    const expected = cli(['--format', 'preview', '--mode', 'user-data', ...FILES]);
    assert.strictEqual(await previewText(preview, (t) => t.length > 0), expected);
    assert.notStrictEqual(vscode.workspace.fs.isWritableFileSystem(PREVIEW_SCHEME), true, 'the preview scheme is read-only');
  });

  test('parts merge in Explorer order: folder by folder, numbers compared as numbers', async () => {
    assert.deepStrictEqual(filesOf(preview), FILES.map((f) => fileUri(f).toString()));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', fileUri('templated.yaml'), [
      fileUri('templated.yaml'), fileUri('user-data/2-users.yaml'), fileUri('broken/typo-spec.yaml'),
    ], 'default');
    assert.deepStrictEqual(filesOf(uri), ['broken/typo-spec.yaml', 'user-data/2-users.yaml', 'templated.yaml'].map((f) => fileUri(f).toString()));
    await closePreview(uri);
  });

  test('editing a source updates the preview, saved or not', async () => {
    const editor = await open(FILES[2]);
    const at = positionOf(editor.document, 'web-01');
    assert.ok(await editor.edit((e) => e.replace(new vscode.Range(at, at.translate(0, 6)), 'web-02')));
    await previewText(preview, (t) => t.includes('hostname: web-02'));
    assert.ok(await editor.document.save());
    const expected = cli(['--format', 'preview', '--mode', 'user-data', ...FILES]);
    assert.match(expected, /hostname: web-02/);
    await previewText(preview, (t) => t === expected);
  });

  test('hover and Go to Definition on a line point at the file and line that supplied a value; the jump opens it beside the preview', async () => {
    const doc = await vscode.workspace.openTextDocument(preview);
    const pos = positionOf(doc, 'hostname: web-02', 2);
    const hover = await waitFor('a provenance hover', async () => {
      const h = await hoverText(preview, pos);
      return /10-app\.yaml:9\b/.test(h) ? h : undefined;
    });
    assert.match(hover, /hostname/);
    const source = fileUri(FILES[2]).toString();
    const [definition] = await vscode.commands.executeCommand<Array<vscode.Location | vscode.LocationLink>>('vscode.executeDefinitionProvider', preview, pos);
    assert.ok(definition, 'a definition on the line');
    const target = 'targetUri' in definition ? { uri: definition.targetUri, range: definition.targetRange } : definition;
    assert.strictEqual(target.uri.toString(), source);
    assert.strictEqual(target.range.start.line, 8);
    assert.strictEqual((await linksOf(preview)).filter((l) => l.range.start.line === pos.line).length, 0, 'a data line is not a link (a link is underlined at rest)');
    // Go to Definition from the preview (what Ctrl+click runs) lands in the preview's group; the source is moved beside it.
    const column = columnOf(preview);
    await vscode.window.showTextDocument(doc, { viewColumn: column, preserveFocus: false, selection: new vscode.Range(pos, pos) });
    await vscode.commands.executeCommand('editor.action.revealDefinition');
    // (the source may be open beside already: then it is the line that shows the jump)
    await waitFor('the source beside the preview, on the line', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === source && e.viewColumn !== column && e.selection.start.line === 8),
    );
    await waitFor("the preview back at the front of its group", () => previewEditors().some((e) => e.viewColumn === column));
    const previewGroup = vscode.window.tabGroups.all.find((g) => g.viewColumn === column);
    assert.ok(!previewGroup?.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === source), "the source is not left in the preview's group");
  });

  test('the hover tells what a value replaced', async () => {
    const doc = await vscode.workspace.openTextDocument(preview);
    const hover = await hoverText(preview, positionOf(doc, 'timezone: America/New_York', 2));
    assert.match(hover, /10-app\.yaml:8\b/);
    assert.match(hover, /(Replaced|Lost|Deleted)/);
    assert.match(hover, /(1-base|2-users)\.yaml:\d+/);
  });

  test('the header links each part to its file', async () => {
    const doc = await vscode.workspace.openTextDocument(preview);
    const partLines = (await linksOf(preview)).filter((l) => /^#\s+\d+\. /.test(doc.lineAt(l.range.start.line).text));
    assert.deepStrictEqual(partLines.map((l) => placeOf(l).uri), FILES.map((f) => fileUri(f).toString()));
  });

  test('Compare Without Part opens a diff of the merged result without and with that part', async () => {
    const without = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.compareWithoutPart', preview, 3);
    const tab = await waitFor('the diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.strictEqual(tab.original.toString(), without.toString());
    const withPart = tab.modified;
    assert.deepStrictEqual({ ...JSON.parse(withPart.query), view: undefined }, { ...JSON.parse(preview.query), view: undefined }, 'the same parts, all of them');
    const left = await previewText(without, (t) => t.length > 0);
    // Only the merged data is compared: no header, no "# from N files" / "# part-00N" lines that differ by construction.
    for (const side of [left, await previewText(withPart, (t) => t.length > 0)]) {
      assert.match(side, /^# Merged data only .*\n---\n/);
      assert.doesNotMatch(side, /# from \d+ files|# part-\d+|Cloud-Config Merge preview/);
    }
    assert.doesNotMatch(left, /hostname: web-02/, 'hostname only comes from the part left out');
    assert.match(left, /timezone: Etc\/UTC/, 'without the part, the first timezone stays (dict(no_replace))');
    assert.match(await previewText(withPart), /timezone: America\/New_York/, 'with it, dict(replace) wins');
    // The data-only view renumbers the server's line map: its hovers still name the line that wrote the value.
    const withDoc = await vscode.workspace.openTextDocument(withPart);
    const zoneHover = await waitFor('a provenance hover in the data-only view', async () => {
      const h = await hoverText(withPart, positionOf(withDoc, 'timezone: America/New_York', 2));
      return /10-app\.yaml:8\b/.test(h) ? h : undefined;
    });
    assert.match(zoneHover, /timezone/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('Change Merge Order reorders the parts in place', async () => {
    const column = columnOf(preview);
    assert.ok(column, 'the preview has a tab');
    const reordered = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.changeOrder', preview, [3, 1, 2]);
    assert.deepStrictEqual(filesOf(reordered), [FILES[2], FILES[0], FILES[1]].map((f) => fileUri(f).toString()));
    const expected = cli(['--format', 'preview', '--mode', 'user-data', FILES[2], FILES[0], FILES[1]]);
    assert.strictEqual(await previewText(reordered, (t) => t.length > 0), expected);
    await waitFor('the old preview tab to close', () => !openTabs().includes(preview.toString()));
    assert.strictEqual(columnOf(reordered), column, 'the reordered preview took the old one\'s place');
    preview = reordered;
  });

  test('a renamed or deleted source is reported inside the preview', async () => {
    const before = await previewText(preview);
    const moved = fileUri('user-data/2-users.yaml.bak');
    const edit = new vscode.WorkspaceEdit();
    edit.renameFile(fileUri(FILES[1]), moved);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const broken = await previewText(preview, (t) => t !== before);
    assert.match(broken, /2-users\.yaml/);
    assert.doesNotMatch(broken, /name: ops/, 'the missing part contributes nothing');
    const back = new vscode.WorkspaceEdit();
    back.renameFile(moved, fileUri(FILES[1]));
    assert.ok(await vscode.workspace.applyEdit(back));
    await previewText(preview, (t) => t === before);
  });

  test('an unsaved edit of an #include target updates the preview', async () => {
    const target = fileUri('include-check/included.yaml');
    const main = fileUri('include-check/main.txt');
    // The file watcher's events for the two new files refresh every preview: they pass first, seen by a
    // watcher of our own (the same events reach the extension's at once), and their refreshes are answered.
    const reported = new Set<string>();
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(workspaceRoot(), 'include-check/*'));
    watcher.onDidCreate((u) => reported.add(u.toString()));
    watcher.onDidChange((u) => reported.add(u.toString()));
    try {
      await vscode.workspace.fs.writeFile(target, Buffer.from('#cloud-config\nfrom_include: before\n'));
      await vscode.workspace.fs.writeFile(main, Buffer.from(`#include\n${target.fsPath}\n`));
      await waitFor('the file watcher to report both new files', () => reported.has(target.toString()) && reported.has(main.toString()));
    } finally {
      watcher.dispose();
    }
    await previewsSettled();
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', main, [main]);
    await previewText(uri, (t) => t.includes('from_include: before'));
    const editor = await open('include-check/included.yaml');
    await previewsSettled();
    const at = positionOf(editor.document, 'before');
    assert.ok(await editor.edit((e) => e.replace(new vscode.Range(at, at.translate(0, 6)), 'after')));
    assert.ok(editor.document.isDirty, 'not saved');
    await previewText(uri, (t) => t.includes('from_include: after'));
    await closePreview(uri);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(fileUri('include-check'), { recursive: true });
  });

  test('a language server that dies mid-request is restarted, and the open preview is made again', async () => {
    // A file only this preview reads, so that exactly one preview request is in flight when the server dies.
    const file = fileUri('user-data/restart-check.yaml');
    await vscode.workspace.fs.writeFile(file, Buffer.from('#cloud-config\nhostname: before-restart\n'));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', file, [file]);
    await previewText(uri, (t) => t.includes('hostname: before-restart'));
    const editor = await open('user-data/restart-check.yaml');
    await previewsSettled(); // the refreshes that opening caused are answered
    const [pid] = serverPids();
    assert.ok(pid, 'the language server runs');
    const at = positionOf(editor.document, 'before');
    // Freeze the server, let the preview's refresh request be sent to it, then kill it: the request fails.
    const sent = api().previewActivity().requestsSent;
    process.kill(pid, 'SIGSTOP');
    try {
      assert.ok(await editor.edit((e) => e.replace(new vscode.Range(at, at.translate(0, 6)), 'after')));
      await waitFor("the preview's refresh request to the frozen server", () => api().previewActivity().requestsSent > sent);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
    await waitFor('a new language server', () => serverPids().some((p) => p !== pid));
    const text = await previewText(uri, (t) => t.includes('hostname: after-restart'), 30000);
    assert.match(text, /^# Cloud-Config Merge preview/);
    await closePreview(uri);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.workspace.fs.delete(file);
  });

  test('Change Preview Mode: boot-time layering over chosen vendor-data and drop-ins, equal to the CLI', async () => {
    const boot = { vendor: fileUri('templated.yaml').toString(), confd: [fileUri('cloud.cfg.d/99_local.cfg').toString()] };
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.changeMode', preview, 'boot', boot);
    const state = JSON.parse(uri.query) as { mode: string; files: string[]; boot: unknown };
    assert.strictEqual(state.mode, 'boot');
    assert.deepStrictEqual(state.boot, boot);
    const expected = cli(['--format', 'preview', '--mode', 'boot', '--vendor', 'templated.yaml', '--confd', 'cloud.cfg.d/99_local.cfg', ...filesOf(preview).map((f) => vscode.workspace.asRelativePath(vscode.Uri.parse(f)))]);
    assert.strictEqual(await previewText(uri, (t) => t.length > 0), expected);
    preview = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.changeMode', uri, 'user-data');
    assert.strictEqual(JSON.parse(preview.query).mode, 'user-data');
  });

  test('boot mode from a cloud.cfg.d preview: the drop-ins stay system config under the user-data', async () => {
    const folder = fileUri('cloud.cfg.d');
    const confd = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', folder, [folder]);
    const boot = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.changeMode', confd, 'boot', {}, [fileUri('user-data/1-base.yaml').toString()]);
    const state = JSON.parse(boot.query) as { mode: string; files: string[]; boot: { confd?: string[] } };
    assert.deepStrictEqual(state.files, [fileUri('user-data/1-base.yaml').toString()]);
    assert.deepStrictEqual(state.boot.confd, JSON.parse(confd.query).files);
    const text = await previewText(boot, (t) => t.length > 0);
    assert.match(text, /^preserve_hostname: true$/m, 'a drop-in key');
    assert.match(text, /^timezone: Etc\/UTC$/m, 'a user-data key');
    const expected = cli(['--format', 'preview', '--mode', 'boot', '--confd', 'cloud.cfg.d/99_local.cfg', '--confd', 'cloud.cfg.d/90_dpkg.cfg', '--confd', 'cloud.cfg.d/05_logging.cfg', 'user-data/1-base.yaml']);
    assert.strictEqual(text, expected);
    await closePreview(boot);
  });

  test('the title bar button previews the file\'s set: its folder\'s parts (its tab title counts files, no doubled extension)', async () => {
    await open('parts/02-app.yaml');
    // The editor title bar passes (resource, context), not a selection.
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', fileUri('parts/02-app.yaml'), { groupId: 0 }, 'default');
    assert.deepStrictEqual(filesOf(uri), ['parts/01-base.yaml', 'parts/02-app.yaml', 'parts/03-typo.yaml'].map((f) => fileUri(f).toString()));
    assert.strictEqual(decodeURIComponent(uri.path), '/Merged user-data (3 files).yaml');
    const text = await previewText(uri, (t) => t.length > 0);
    assert.match(text, /What this merge lost \(3 values, 1 ignored option\)/);
    await closePreview(uri);
  });

  test('the cloud.cfg.d folder previews as drop-ins in cloud-init\'s order, equal to the CLI', async () => {
    const folder = fileUri('cloud.cfg.d');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', folder, [folder]);
    const state = JSON.parse(uri.query) as { mode: string; files: string[] };
    assert.strictEqual(state.mode, 'confd');
    const dropIns = ['cloud.cfg.d/99_local.cfg', 'cloud.cfg.d/90_dpkg.cfg', 'cloud.cfg.d/05_logging.cfg'];
    assert.deepStrictEqual(state.files, dropIns.map((f) => fileUri(f).toString()));
    const expected = cli(['--format', 'preview', '--mode', 'confd', ...dropIns]);
    assert.strictEqual(await previewText(uri, (t) => t.length > 0), expected);
    await closePreview(uri);
  });
});

function columnOf(uri: vscode.Uri): vscode.ViewColumn | undefined {
  return vscode.window.tabGroups.all.find((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()))?.viewColumn;
}

function openTabs(): string[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => (t.input instanceof vscode.TabInputText ? t.input.uri.toString() : ''));
}

async function closePreview(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
  await vscode.window.tabGroups.close(tabs);
}
