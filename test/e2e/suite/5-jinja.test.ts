import * as assert from 'assert';
import { rmSync, writeFileSync } from 'fs';
import * as vscode from 'vscode';
import { closeAllEditors, fileUri, hoverText, open, positionOf, waitFor } from './helpers';

const RENDERED_SCHEME = 'cloud-config-merge-rendered';

/** A multipart with a cloud-config part and two text/jinja2 parts. */
const TEMPLATES_MIME = [
  'Content-Type: multipart/mixed; boundary="==e2e=="',
  'MIME-Version: 1.0',
  '',
  '--==e2e==',
  'Content-Type: text/cloud-config; charset="us-ascii"',
  'MIME-Version: 1.0',
  '',
  '#cloud-config',
  'packages: [git]',
  '--==e2e==',
  'Content-Type: text/jinja2; charset="us-ascii"',
  'MIME-Version: 1.0',
  'Content-Disposition: attachment; filename="host.tmpl"',
  '',
  '## template: jinja',
  '#cloud-config',
  'hostname: {{ v1.local_hostname }}',
  '--==e2e==',
  'Content-Type: text/jinja2; charset="us-ascii"',
  'MIME-Version: 1.0',
  'Content-Disposition: attachment; filename="region.tmpl"',
  '',
  '## template: jinja',
  '#cloud-config',
  'region: {{ v1.region }}',
  '--==e2e==--',
  '',
].join('\n');

function renderedEditor(): vscode.TextEditor | undefined {
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === RENDERED_SCHEME);
}

async function renderedText(ok: (text: string) => boolean): Promise<string> {
  return waitFor('the rendered view text', () => {
    const text = renderedEditor()?.document.getText();
    return text !== undefined && ok(text) ? text : undefined;
  });
}

suite('Jinja templates', () => {
  const settings = () => vscode.workspace.getConfiguration('cloudConfigMerge');

  suiteSetup(closeAllEditors);
  suiteTeardown(async () => {
    await settings().update('instanceData', undefined, vscode.ConfigurationTarget.Global);
    await closeAllEditors();
  });

  test('Show Rendered Part opens a read-only view beside the template, rendered with the chosen instance data, live', async () => {
    await settings().update('instanceData', undefined, vscode.ConfigurationTarget.Global);
    const source = await open('templated.yaml');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.showRenderedPart');
    assert.ok(uri, 'the command returns the view URI');
    assert.strictEqual(uri.scheme, RENDERED_SCHEME);
    assert.match(uri.path, /templated \(rendered\)\.yaml$/);
    const editor = await waitFor('the rendered editor', renderedEditor);
    assert.strictEqual(editor.viewColumn, vscode.ViewColumn.Two, 'opened beside');
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), source.document.uri.toString(), 'focus stays in the template');
    assert.notStrictEqual(vscode.workspace.fs.isWritableFileSystem(RENDERED_SCHEME), true, 'the view is read-only');

    // No instance data chosen: rendered with {}, where `v1` itself is undefined, so cloud-init drops the part.
    await renderedText((t) => t.includes("cloud-init does not render this part: UndefinedError: 'v1' is undefined"));

    // A sample: the view follows the setting.
    await settings().update('instanceData', 'aws', vscode.ConfigurationTarget.Global);
    const text = await renderedText((t) => t.includes('hostname: ip-172-31-20-5\n'));
    assert.match(text, /^# Rendered by Cloud-Config Merge/);
    assert.ok(text.endsWith('#cloud-config\nhostname: ip-172-31-20-5\nfqdn: ip-172-31-20-5.example.org\n'), text);

    // Edits to the template show up without saving.
    const at = positionOf(source.document, '.example.org');
    assert.ok(await source.edit((e) => e.replace(new vscode.Range(at, at.translate(0, '.example.org'.length)), '.{{ v1.region }}.internal')));
    await renderedText((t) => t.includes('fqdn: ip-172-31-20-5.us-east-1.internal'));
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  test('hover on a variable says what cloud-init writes with the chosen data', async () => {
    await settings().update('instanceData', 'gce', vscode.ConfigurationTarget.Global);
    const editor = await open('templated.yaml');
    const position = positionOf(editor.document, 'local_hostname', 3);
    const text = await waitFor('a Jinja hover', async () => {
      const t = await hoverText(editor.document.uri, position);
      return /cloud-init writes `web-1`/.test(t) ? t : undefined;
    });
    assert.match(text, /v1\.local_hostname/);
  });

  test('the rendered view and the diagnostics follow the instance-data file when it changes on disk', async () => {
    await closeAllEditors();
    const dataFile = fileUri('instance-data.e2e.json').fsPath;
    writeFileSync(dataFile, JSON.stringify({ v1: { local_hostname: 'before' } }));
    try {
      // relative: resolved from the template's workspace folder
      await settings().update('instanceData', 'instance-data.e2e.json', vscode.ConfigurationTarget.Global);
      const source = await open('templated.yaml');
      await vscode.commands.executeCommand('cloudConfigMerge.showRenderedPart');
      await renderedText((t) => t.endsWith('hostname: before\nfqdn: before.example.org\n'));
      // changed outside the editor (no save in VS Code): the server's file watcher sees it
      writeFileSync(dataFile, JSON.stringify({ v1: { local_hostname: 'after' } }));
      await renderedText((t) => t.endsWith('hostname: after\nfqdn: after.example.org\n'));
      // the variable is undefined in the new data: the template's diagnostics say so without an edit
      writeFileSync(dataFile, JSON.stringify({ v1: { region: 'none' } }));
      await waitFor('an undefined-variable diagnostic', () => vscode.languages.getDiagnostics(source.document.uri).some((d) => String(typeof d.code === 'object' ? d.code.value : d.code) === 'jinja-undefined-variable'));
    } finally {
      rmSync(dataFile, { force: true });
      await settings().update('instanceData', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('the rendered view follows unsaved edits of the instance-data file, and the disk again once they are reverted', async () => {
    await closeAllEditors();
    const dataUri = fileUri('instance-data.unsaved.e2e.json');
    writeFileSync(dataUri.fsPath, JSON.stringify({ v1: { local_hostname: 'saved' } }));
    try {
      await settings().update('instanceData', 'instance-data.unsaved.e2e.json', vscode.ConfigurationTarget.Global);
      await open('templated.yaml');
      await vscode.commands.executeCommand('cloudConfigMerge.showRenderedPart');
      await renderedText((t) => t.endsWith('hostname: saved\nfqdn: saved.example.org\n'));
      // edited in the editor, not saved: the server gets the editor's text
      const data = await vscode.workspace.openTextDocument(dataUri);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(dataUri, new vscode.Range(data.positionAt(0), data.positionAt(data.getText().length)), JSON.stringify({ v1: { local_hostname: 'unsaved' } }));
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(data.isDirty);
      await renderedText((t) => t.endsWith('hostname: unsaved\nfqdn: unsaved.example.org\n'));
      // reverted: the file on disk again
      await vscode.window.showTextDocument(data, { viewColumn: vscode.ViewColumn.One });
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await renderedText((t) => t.endsWith('hostname: saved\nfqdn: saved.example.org\n'));
    } finally {
      await closeAllEditors();
      rmSync(dataUri.fsPath, { force: true });
      await settings().update('instanceData', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('in a MIME multipart, Show Rendered Part renders the text/jinja2 part under the cursor, and keeps it after edits', async () => {
    await closeAllEditors();
    await settings().update('instanceData', 'aws', vscode.ConfigurationTarget.Global);
    // written here, not in the fixture workspace: the UI suite's pick lists would list it too
    writeFileSync(fileUri('templates.mime').fsPath, TEMPLATES_MIME);
    try {
      const source = await open('templates.mime');
      const at = positionOf(source.document, 'v1.region');
      source.selection = new vscode.Selection(at, at);
      const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.showRenderedPart');
      assert.ok(uri && /^part=\d+$/.test(uri.fragment), `a part index in ${uri?.toString()}`);
      const text = await renderedText((t) => t.endsWith('region: us-east-1'));
      assert.match(text, /# The text\/jinja2 part region\.tmpl of this multipart/);
      // an edit above the part moves it; the view still renders it
      assert.ok(await source.edit((e) => e.insert(new vscode.Position(4, 0), 'X-Note: moved\n')));
      await renderedText((t) => t.endsWith('region: us-east-1') && t !== text);
      await vscode.commands.executeCommand('workbench.action.files.revert');
    } finally {
      await closeAllEditors();
      rmSync(fileUri('templates.mime').fsPath, { force: true });
    }
  });
});
