import * as assert from 'assert';
import * as vscode from 'vscode';
import { PREVIEW_SCHEME, cli, closeAllEditors, fileUri, open, previewText, waitFor } from './helpers';

const FILE = 'plan/app.yaml';

function codeOf(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === 'object' ? d.code.value : d.code;
}

suite('Boot plan (real language server and preview)', () => {
  suiteSetup(closeAllEditors);

  test("the preview has a Boot plan section, the same as the CLI's, with the line that activated write_files", async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', fileUri(FILE), [fileUri(FILE)]);
    assert.strictEqual(uri.scheme, PREVIEW_SCHEME);
    const text = await previewText(uri, (t) => t.includes('# Boot plan on'));
    assert.strictEqual(text, cli(['--format', 'preview', '--mode', 'user-data', FILE]), 'the same as the CLI prints');
    assert.match(text, /# {3}init: write_files, activated by write_files at plan\/app\.yaml:5/);
    assert.match(text, /Error \(our check plan-owner-created-later\) at plan\/app\.yaml:7/);
    await closeAllEditors();
  });

  test('an owner created later is an error on the owner; the quick fix adds defer: true and the error goes', async () => {
    const editor = await open(FILE);
    const uri = editor.document.uri;
    const [diag] = await waitFor('the pitfall', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => codeOf(x) === 'plan-owner-created-later');
      return d.length ? d : undefined;
    });
    assert.strictEqual(diag.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(diag.range.start.line, 6);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diag.range);
    const fix = actions.find((a) => a.title.startsWith('Add defer: true'));
    assert.ok(fix?.edit, 'the quick fix');
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.strictEqual(editor.document.lineAt(6).text, '    defer: true');
    await waitFor('the pitfall gone', () => !vscode.languages.getDiagnostics(uri).some((x) => codeOf(x) === 'plan-owner-created-later'));
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await closeAllEditors();
  });
});
