// Issue 16 in a real VS Code: Build MIME User-Data on an Explorer selection, and the preview of a
// Terraform state (one cloudinit_config of it) and of a rendered blob, each equal to the CLI.
import * as assert from 'assert';
import { readFileSync } from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { REPO, cli, closeAllEditors, fileUri, previewText } from './helpers';

const FILES = ['user-data/1-base.yaml', 'user-data/2-users.yaml', 'user-data/10-app.yaml'];
const SCRATCH = 'pipeline-scratch';

suite('Pipeline: make-mime, Terraform, rendered blobs', () => {
  suiteSetup(async () => {
    await closeAllEditors();
    const state = readFileSync(path.join(REPO, 'test/pipeline/fixtures/state.json'));
    await vscode.workspace.fs.writeFile(fileUri(`${SCRATCH}/state.json`), state);
  });
  suiteTeardown(async () => {
    await closeAllEditors();
    await vscode.workspace.fs.delete(fileUri(SCRATCH), { recursive: true, useTrash: false });
  });

  test('Build MIME User-Data: the selection, in Explorer order, as make-mime writes it, in a new editor', async () => {
    const [a, b, c] = FILES.map(fileUri);
    const built = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.buildMime', b, [c, a, b], 'mime', 'default');
    assert.ok(built, 'the command returns the new document');
    assert.strictEqual(built.scheme, 'untitled');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === built.toString());
    assert.ok(doc);
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), built.toString(), 'shown');
    const text = doc.getText();
    const boundary = /boundary="([^"]+)"/.exec(text)?.[1];
    assert.ok(boundary);
    // The CLI with the same files (by base name, as the editor names them) and boundary writes the same text.
    const expected = cli(['make-mime', '--boundary', boundary, ...FILES.map((f) => `${f}:cloud-config`)]).replace(/filename="user-data\//g, 'filename="');
    assert.strictEqual(text, expected);
    // Saved, it previews as its parts do.
    await vscode.workspace.fs.writeFile(fileUri(`${SCRATCH}/user-data.mime`), new TextEncoder().encode(text));
    const preview = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', fileUri(`${SCRATCH}/user-data.mime`), [fileUri(`${SCRATCH}/user-data.mime`)]);
    const body = (await previewText(preview, (t) => t.includes('# ---- what cloud-init writes ----'))).split('# ---- what cloud-init writes ----\n')[1];
    assert.strictEqual(body.replace(/^# (1-base|2-users|10-app)\.yaml$/gm, '# NAME'), cli(FILES).replace(/^# part-00\d$/gm, '# NAME'));
  });

  test('Build MIME, then the preview button of the new (untitled, unsaved) editor: its parts merged, nothing "cannot be read"', async () => {
    const [a, b, c] = FILES.map(fileUri);
    const built = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.buildMime', a, [a, b, c], 'mime', 'default');
    assert.strictEqual(built.scheme, 'untitled');
    // The title bar button: (the editor's resource, its context).
    const preview = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.preview', built, {});
    const text = await previewText(preview, (t) => t.includes('# ---- what cloud-init writes ----'));
    assert.doesNotMatch(text, /cannot be read/);
    const body = text.split('# ---- what cloud-init writes ----\n')[1];
    assert.strictEqual(body.replace(/^# (1-base|2-users|10-app)\.yaml$/gm, '# NAME'), cli(FILES).replace(/^# part-00\d$/gm, '# NAME'));
    // An edit of the unsaved editor shows in the preview.
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === built.toString());
    assert.ok(doc);
    // (make-mime writes its parts in base64: the edit replaces the whole text.)
    const edit = new vscode.WorkspaceEdit();
    edit.replace(built, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), '#cloud-config\nlocale: e2e_TEST.UTF-8\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    await previewText(preview, (t) => /^locale: e2e_TEST\.UTF-8$/m.test(t));
  });

  test('a gzip + base64 blob built into an untitled editor previews as a rendered blob from the palette', async () => {
    const [a, b] = FILES.map(fileUri);
    const built = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.buildMime', a, [a, b], 'gzip+base64', 'default');
    assert.strictEqual(built.scheme, 'untitled');
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.previewPipeline');
    assert.ok(uri, 'the active untitled editor is previewed');
    const text = await previewText(uri, (t) => t.includes('# ---- what cloud-init writes ----'));
    assert.doesNotMatch(text, /cannot be read/);
    assert.strictEqual(text.split('# ---- what cloud-init writes ----\n')[1].replace(/^# (1-base|2-users)\.yaml$/gm, '# NAME'), cli(FILES.slice(0, 2)).replace(/^# part-00\d$/gm, '# NAME'));
  });

  test('Preview Terraform / Rendered User-Data: one config of a state, equal to the CLI, findings in the header', async () => {
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.previewPipeline', fileUri(`${SCRATCH}/state.json`), 'module.db.cloudinit_config.db');
    assert.ok(uri);
    assert.match(uri.path, /module\.db\.cloudinit_config\.db/);
    const text = await previewText(uri, (t) => t.includes('# ---- what cloud-init writes ----'));
    assert.strictEqual(text.split('# ---- what cloud-init writes ----\n')[1], cli(['--from-terraform', `${SCRATCH}/state.json`, '--address', 'module.db.cloudinit_config.db']));
    // Header lines are wrapped at 100 characters; continuation lines are '#' and four or more spaces.
    assert.match(text.replace(/\n# {4,}/g, ' '), /^# Finding: part 2 \(filename "extra\.yaml"\): error: .*\[part-skipped\]$/m);
    // The whole preview, header and findings included, is what the CLI's preview format prints.
    assert.strictEqual(text, cli(['--from-terraform', `${SCRATCH}/state.json`, '--address', 'module.db.cloudinit_config.db', '--format', 'preview']));
  });

  test('a rendered blob (gzip + base64, as Terraform writes it) previews as the blob cloud-init receives', async () => {
    const [a, b] = FILES.map(fileUri);
    const built = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.buildMime', a, [a, b], 'gzip+base64', 'default');
    const blob = vscode.workspace.textDocuments.find((d) => d.uri.toString() === built.toString())?.getText() ?? '';
    assert.match(blob, /^H4sI/, 'gzip, base64-encoded');
    await vscode.workspace.fs.writeFile(fileUri(`${SCRATCH}/rendered.b64`), new TextEncoder().encode(blob));
    const uri = await vscode.commands.executeCommand<vscode.Uri>('cloudConfigMerge.previewPipeline', fileUri(`${SCRATCH}/rendered.b64`));
    const text = await previewText(uri, (t) => t.includes('# ---- what cloud-init writes ----'));
    assert.strictEqual(text.split('# ---- what cloud-init writes ----\n')[1], cli(['--rendered', `${SCRATCH}/rendered.b64`]));
  });
});
