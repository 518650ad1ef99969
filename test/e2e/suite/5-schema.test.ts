import * as assert from 'assert';
import * as vscode from 'vscode';
import { PREVIEW_SCHEME, cli, closeAllEditors, fileUri, open, positionOf, previewText, waitFor } from './helpers';

const PARTS = ['schema/a-base.yaml', 'schema/b-app.yaml'];

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
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', a, [a, b], 'default');
    assert.strictEqual(uri.scheme, PREVIEW_SCHEME);
    const text = await previewText(uri, (t) => t.includes('# Schema:'));
    assert.strictEqual(text, cli(['--format', 'preview', '--mode', 'user-data', ...PARTS]), 'the same as the CLI prints');
    const header = text.slice(0, text.indexOf('# ---- what cloud-init writes'));
    assert.match(header, /# Schema: cloud-init rejects the merged result \(1 error, 0 deprecations\):\n# {3}error: write_files\.0\.permissions: 644 is not of type 'string'(?: |\n#\s+)\(schema\/b-app\.yaml:5\)/);
    const doc = await vscode.workspace.openTextDocument(uri);
    const at = positionOf(doc, 'schema/b-app.yaml:5');
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', uri);
    const link = links.find((l) => l.range.contains(at));
    assert.ok(link?.target, 'the source of the problem is a link');
    assert.match(decodeURIComponent(link.target.toString()), /b-app\.yaml/);
    await closeAllEditors();
  });

  test('beside Red Hat YAML, a *cloud-config.yaml file gets no schema findings from us until its SchemaStore association is off', async () => {
    // The suite runs with a stand-in that has Red Hat YAML's id and settings (test/e2e/stubs/red-hat-yaml).
    assert.ok(vscode.extensions.getExtension('redhat.vscode-yaml'), 'the stand-in is installed');
    const editor = await open('schema/web-cloud-config.yaml');
    const uri = editor.document.uri;
    const spec = await waitFor('the merge-spec diagnostic (ours either way)', () => vscode.languages.getDiagnostics(uri).find((d) => codeOf(d) === 'unknown-option'));
    assert.strictEqual(editor.document.getText(spec.range), 'apend');
    assert.deepStrictEqual(vscode.languages.getDiagnostics(uri).filter((d) => String(codeOf(d)).startsWith('schema-')), [], 'left to Red Hat YAML');
    const yaml = vscode.workspace.getConfiguration('yaml');
    await yaml.update('schemaStore.enable', false, vscode.ConfigurationTarget.Workspace);
    try {
      const schema = await waitFor('our schema diagnostic once Red Hat YAML no longer validates the file', () => vscode.languages.getDiagnostics(uri).find((d) => codeOf(d) === 'schema-error'));
      assert.strictEqual(schema.message, "packages: 'curl' is not of type 'array'");
    } finally {
      await yaml.update('schemaStore.enable', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor('the schema findings left to Red Hat YAML again', () => !vscode.languages.getDiagnostics(uri).some((d) => String(codeOf(d)).startsWith('schema-')));
    await closeAllEditors();
  });
});
