import * as assert from 'assert';
import * as vscode from 'vscode';
import { PREVIEW_SCHEME, cli, closeAllEditors, fileUri, open, positionOf, previewText, waitFor } from './helpers';

const PARTS = ['schema/1-base.yaml', 'schema/2-app.yaml'];

function codeOf(d: vscode.Diagnostic): string | number | undefined {
  return typeof d.code === 'object' ? d.code.value : d.code;
}

suite('Schema validation (real language server and preview)', () => {
  suiteSetup(closeAllEditors);

  test('a schema error in one part is a diagnostic on that part, on the value, in cloud-init\'s words', async () => {
    const editor = await open(PARTS[1]);
    const uri = editor.document.uri;
    const [diag] = await waitFor('the schema diagnostic', () => {
      const d = vscode.languages.getDiagnostics(uri).filter((x) => codeOf(x) === 'schema-error');
      return d.length ? d : undefined;
    });
    assert.strictEqual(editor.document.getText(diag.range), '644');
    assert.strictEqual(diag.range.start.line, 4);
    assert.strictEqual(diag.severity, vscode.DiagnosticSeverity.Error);
    assert.strictEqual(diag.message, "write_files.0.permissions: 644 is not of type 'string'");
    await open(PARTS[0]);
    const base = await waitFor('the other part analysed', () => vscode.languages.getDiagnostics(fileUri(PARTS[0])), 5000);
    assert.deepStrictEqual(base.filter((d) => String(codeOf(d)).startsWith('schema-')), [], 'the other part has no schema problem');
  });

  test('the merged preview\'s header lists the problem with the part and line that wrote it, linked there', async () => {
    const [a, b] = PARTS.map(fileUri);
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', a, [a, b]);
    assert.strictEqual(uri.scheme, PREVIEW_SCHEME);
    const text = await previewText(uri, (t) => t.includes('# Schema:'));
    assert.strictEqual(text, cli(['--format', 'preview', '--mode', 'user-data', ...PARTS]), 'the same as the CLI prints');
    const header = text.slice(0, text.indexOf('# ---- what cloud-init writes'));
    assert.match(header, /# Schema: cloud-init rejects the merged result \(1 error, 0 deprecations\):\n#   error: write_files\.0\.permissions: 644 is not of type 'string'(?: |\n#\s+)\(schema\/2-app\.yaml:5\)/);
    const doc = await vscode.workspace.openTextDocument(uri);
    const at = positionOf(doc, 'schema/2-app.yaml:5');
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri);
    const link = links.find((l) => l.range.contains(at));
    assert.ok(link?.target, 'the source of the problem is a link');
    assert.match(decodeURIComponent(link.target.toString()), /2-app\.yaml/);
    await closeAllEditors();
  });
});
