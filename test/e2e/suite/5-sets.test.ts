import * as assert from 'assert';
import * as vscode from 'vscode';
import { fileUri, open, waitFor } from './helpers';

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
