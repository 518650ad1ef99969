import * as assert from 'assert';
import * as path from 'path';
import * as vscode from 'vscode';
import { REPO, fileUri, hoverText, open, positionOf, waitFor } from './helpers';

// the facts hover shows come from the engine's catalogue
const catalogue = require(path.join(REPO, 'server/out/engine/spec/catalogue.js')) as { OPTIONS: Record<string, { effect: Record<string, string> }> };

function codeOf(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === 'object' ? d.code.value : d.code;
}

suite('Language features (real language server)', () => {
  test('a bare user-data that is a shell script opens as a shell script, not YAML', async () => {
    const uri = fileUri('bare-script/user-data');
    await vscode.workspace.fs.writeFile(uri, Buffer.from('#!/bin/bash\necho "hello: world"\n'));
    try {
      const opened = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(opened, { preview: false });
      const doc = await waitFor('the shell script language', () => vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString() && d.languageId === 'shellscript'));
      assert.strictEqual(doc.languageId, 'shellscript');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(uri, '..'), { recursive: true });
    }
  });

  test('a malformed merge spec gets a diagnostic on exactly the bad word', async () => {
    const editor = await open('broken/typo-spec.yaml');
    const uri = editor.document.uri;
    const diags = await waitFor('diagnostics', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => codeOf(x) === 'unknown-option');
      return d.length ? d : undefined;
    });
    assert.strictEqual(diags.length, 1);
    assert.strictEqual(editor.document.getText(diags[0].range), 'apend');
    assert.deepStrictEqual([diags[0].range.start.line, diags[0].range.start.character], [2, 17]);
    assert.strictEqual(diags[0].severity, vscode.DiagnosticSeverity.Warning);
    assert.match(diags[0].message, /Did you mean 'append'\?/);
    assert.deepStrictEqual(vscode.languages.getDiagnostics(fileUri('user-data/1-base.yaml')), [], 'a correct part has none');
  });

  test('hover on a merger option explains what it does for that merger', async () => {
    const editor = await open('user-data/1-base.yaml');
    const text = await hoverText(editor.document.uri, positionOf(editor.document, 'recurse_list', 3));
    assert.match(text, /recurse_list\*\* in dict\(\)/);
    assert.ok(text.includes(catalogue.OPTIONS.recurse_list.effect.dict), text);
  });

  test('completion inside list(…) offers the options list() reads', async () => {
    const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: '#cloud-config\nmerge_how: "list()+dict()"\n' });
    await vscode.window.showTextDocument(doc);
    const inside = positionOf(doc, 'list()', 5);
    const list = await waitFor('completion items', async () => {
      const r = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, inside);
      return r.items.length ? r : undefined;
    });
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const o of ['append', 'prepend', 'no_replace', 'recurse_dict']) assert.ok(labels.includes(o), `${o} in ${labels.join(', ')}`);
    assert.ok(!labels.includes('allow_delete'), 'allow_delete is read by dict() only');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('the quick fix for the typo changes the text and the diagnostic goes away', async () => {
    const editor = await open('broken/typo-spec.yaml');
    const uri = editor.document.uri;
    const diag = vscode.languages.getDiagnostics(uri).find((x) => codeOf(x) === 'unknown-option');
    assert.ok(diag);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diag.range, vscode.CodeActionKind.QuickFix.value);
    const fix = actions.find((a) => a.title === "Change to 'append'");
    assert.ok(fix, `actions: ${actions.map((a) => a.title).join(', ')}`);
    assert.strictEqual(fix.isPreferred, true);
    if (fix.edit) assert.ok(await vscode.workspace.applyEdit(fix.edit));
    if (fix.command) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    assert.match(editor.document.getText(), /merge_how: "list\(append\)\+dict\(no_replace,recurse_list\)\+str\(\)"/);
    await waitFor('the diagnostic to clear', () => !vscode.languages.getDiagnostics(uri).some((x) => codeOf(x) === 'unknown-option'));
    assert.ok(await editor.document.save());
  });

  test('a seed\'s meta-data: hover says which NoCloud method reads the key, completion offers the others', async () => {
    const editor = await open('seed/meta-data');
    const at = positionOf(editor.document, 'local-hostname', 3);
    const text = await waitFor('the meta-data hover', async () => {
      const t = await hoverText(editor.document.uri, at);
      return /DataSource\.get_hostname/.test(t) ? t : undefined;
    });
    assert.match(text, /What NoCloud makes of this file: instance-id 'iid-e2e-01', hostname 'web-1', dsmode net/);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, new vscode.Position(2, 0));
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('public-keys') && !labels.includes('instance-id'), labels.join(', '));
  });
});
