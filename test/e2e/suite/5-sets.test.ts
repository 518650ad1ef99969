import * as assert from 'assert';
import * as vscode from 'vscode';
import { closeAllEditors, fileUri, open, waitFor } from './helpers';

function fates(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => String(typeof d.code === 'object' ? d.code.value : d.code).startsWith('fate-'));
}

suite('Fates in the files of a set (cloud-config-merge.yaml)', () => {
  test('editing one open part updates the diagnostics and hints in another open part, before saving', async () => {
    const base = await open('sets/10-base.yaml', vscode.ViewColumn.One);
    const app = await open('sets/30-app.yaml', vscode.ViewColumn.Two);
    const replaced = await waitFor('the replaced fate on the base part', () => {
      const d = fates(base.document.uri).filter((x) => x.message.startsWith('replaced by `runcmd` of sets/30-app.yaml:3'));
      return d.length ? d : undefined;
    });
    assert.strictEqual(replaced[0].range.start.line, 3);
    assert.strictEqual(replaced[0].severity, vscode.DiagnosticSeverity.Information);
    assert.strictEqual(replaced[0].relatedInformation?.[0].location.uri.toString(), fileUri('sets/30-app.yaml').toString());

    // The jump to the value in the set's merged preview: its line is selected there.
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', base.document.uri, replaced[0].range, vscode.CodeActionKind.QuickFix.value);
    const show = actions.find((a) => a.title === 'Show `runcmd` in the merged preview');
    assert.ok(show?.command, `actions: ${actions.map((a) => a.title).join(', ')}`);
    const shownAt = await vscode.commands.executeCommand<number | undefined>(show.command.command, ...(show.command.arguments ?? []));
    const preview = vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'cloud-config-merge-preview');
    assert.ok(preview && shownAt !== undefined);
    assert.strictEqual(preview.document.lineAt(shownAt).text, 'runcmd:');
    assert.strictEqual(preview.selection.start.line, shownAt);
    await vscode.window.showTextDocument(app.document, vscode.ViewColumn.Two);

    // Unsaved: 30-app now appends, so the base value survives and 30-app's list gets a hint instead.
    const line = app.document.lineAt(1);
    assert.ok(await app.edit((e) => e.replace(line.range, 'merge_how: dict(no_replace,recurse_list)+list(append)')));
    await waitFor('the fate to clear from the base part', () => fates(base.document.uri).length === 0);
    const hints = await waitFor('the appended hint in 30-app', async () => {
      const h = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', app.document.uri, new vscode.Range(0, 0, 10, 0));
      return h.length ? h : undefined;
    });
    assert.deepStrictEqual(hints.map((h) => [h.position.line, typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')]), [[2, 'appended after sets/10-base.yaml:4']]);

    await vscode.commands.executeCommand('workbench.action.files.revert');
    await waitFor('the fate to come back once the edit is reverted', () => fates(base.document.uri).length === 1);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});

/** A file's fates and fate hints, as a user reads them: `line: message` (1-based lines), sorted. */
async function fatesShown(uri: vscode.Uri): Promise<string[]> {
  const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>('vscode.executeInlayHintProvider', uri, new vscode.Range(0, 0, 100, 0));
  return [
    ...fates(uri).map((d) => `${d.range.start.line + 1}: ${d.message}`),
    ...hints.map((h) => `${h.position.line + 1}: ${typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')}`),
  ].sort();
}

/** Waits until the file shows exactly `expected`, and says what it showed when it never does. */
async function showsExactly(uri: vscode.Uri, what: string, expected: string[]): Promise<void> {
  let last: string[] = [];
  try {
    await waitFor(what, async () => JSON.stringify((last = await fatesShown(uri))) === JSON.stringify(expected));
  } catch {
    assert.deepStrictEqual(last, expected, `${what}: the fates shown in ${uri.path}`);
  }
}

suite('Fates in the files of an open preview', () => {
  // Written here, not in the fixture workspace: the UI suite's pick lists show every cloud-init file.
  const FILES: Record<string, string> = {
    'reorder/base.yaml': '#cloud-config\nhostname: base\ntimezone: UTC\npackages: [curl]\n',
    'reorder/20-web.yaml': '#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nhostname: web\ntimezone: Europe/Berlin\npackages: [nginx]\n',
  };
  suiteSetup(async () => {
    await closeAllEditors();
    for (const [name, text] of Object.entries(FILES)) await vscode.workspace.fs.writeFile(fileUri(name), new TextEncoder().encode(text));
  });
  suiteTeardown(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.delete(fileUri('reorder'), { recursive: true });
  });

  test('after Change Merge Order a part shows the fates of the new order only, through an edit and a reopening', async () => {
    const base = fileUri('reorder/base.yaml');
    const web = await open('reorder/20-web.yaml', vscode.ViewColumn.One);
    const preview = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', base, [base, web.document.uri], 'default');
    // Explorer order: 20-web.yaml first, so base.yaml (default spec) replaces each of its values.
    const spec = "(that part's spec: dict(replace)+list()+str() (default))";
    await showsExactly(web.document.uri, 'the fates of 20-web.yaml, base.yaml', [
      `3: replaced by \`hostname\` of reorder/base.yaml:2 ${spec}`,
      `4: replaced by \`timezone\` of reorder/base.yaml:3 ${spec}`,
      `5: replaced by \`packages\` of reorder/base.yaml:4 ${spec}`,
    ]);

    // base.yaml first: 20-web.yaml's no_replace loses its strings and appends its list.
    const reordered = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.changeOrder', preview, [2, 1]);
    assert.notStrictEqual(reordered.toString(), preview.toString());
    const mine = "(this part's spec: dict(no_replace,recurse_list)+list(append))";
    const newOrder = [
      `3: lost: dict(no_replace) keeps the existing value; a string is only merged with recurse_str ${mine}, so reorder/base.yaml:2 keeps its value`,
      `4: lost: dict(no_replace) keeps the existing value; a string is only merged with recurse_str ${mine}, so reorder/base.yaml:3 keeps its value`,
      '5: appended after reorder/base.yaml:4',
    ];
    await showsExactly(web.document.uri, 'the fates of base.yaml, 20-web.yaml', newOrder);

    // An unsaved edit: 20-web.yaml now replaces, so in the new order none of its values is lost.
    const spec2 = web.document.lineAt(1);
    assert.ok(await web.edit((e) => e.replace(spec2.range, 'merge_how: dict(replace)+list()')));
    await showsExactly(web.document.uri, 'the fates of base.yaml, 20-web.yaml (edited)', []);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await showsExactly(web.document.uri, 'the fates of base.yaml, 20-web.yaml (reverted)', newOrder);

    // Closed and opened again.
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const again = await open('reorder/20-web.yaml', vscode.ViewColumn.One);
    await showsExactly(again.document.uri, 'the fates of base.yaml, 20-web.yaml (reopened)', newOrder);

    // The preview closed: the files are in no set any more.
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === reordered.toString());
    assert.strictEqual(tabs.length, 1, 'the reordered preview has one tab');
    await vscode.window.tabGroups.close(tabs);
    await showsExactly(again.document.uri, 'the fates of 20-web.yaml with the preview closed', []);
    await closeAllEditors();
  });
});

suite("Save Preview as a Named Set… from the preview's … menu", () => {
  const setFile = () => fileUri('cloud-config-merge.yaml');
  let saved: Uint8Array;
  suiteSetup(async () => {
    await closeAllEditors();
    saved = await vscode.workspace.fs.readFile(setFile());
  });
  suiteTeardown(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.writeFile(setFile(), saved);
  });

  test('the menu passes (uri, context): the name is asked for, and the set is saved under it (issue 36, item 13)', async () => {
    const [base, app] = ['sets/10-base.yaml', 'sets/30-app.yaml'].map(fileUri);
    const preview = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', base, [base, app], 'default');
    // As the editor title's … menu calls it: the preview's URI, then the editor's own context object.
    let done = false;
    let result: vscode.Uri | undefined;
    void vscode.commands.executeCommand<vscode.Uri | undefined>('cloudConfigMerge.saveSet', preview, { groupId: 1, editorIndex: 0 }).then((uri) => {
      done = true;
      result = uri;
    });
    // The name box opens with `default` in it; it is accepted as soon as it shows (accepting with no box open does nothing).
    await waitFor('the save to finish', async () => {
      if (!done) await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      return done;
    });
    assert.ok(result instanceof vscode.Uri, 'saved, not refused with "A set name is letters…"');
    assert.strictEqual(result.toString(), setFile().toString());
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(setFile()));
    assert.match(text, /^ {2}default:\n {4}files:\n {6}- sets\/10-base\.yaml\n {6}- sets\/30-app\.yaml\n/m);
  });
});
