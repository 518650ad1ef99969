/**
 * The pipeline commands (issue 16); the server builds and reads, the client only asks and shows:
 *  - Build MIME User-Data: the Explorer selection (or the active file) as MIME user-data, as
 *    `cloud-init devel make-mime` writes it (or gzip + base64, as Terraform does), in a new editor;
 *  - Preview Terraform / Rendered User-Data: a `terraform show -json` (or `pulumi stack export`)
 *    file, one cloudinit_config of it, or a saved rendered blob, previewed as cloud-init merges it.
 * Each takes its choices as arguments too, so it can be scripted (and tested).
 */
import * as vscode from 'vscode';
import { type MakeMimeParams, MakeMimeRequest, PipelineSourceRequest } from '../../server/src/protocol';
import { Server } from './client';
import { chooseOrder } from './orderStep';
import { openPreview } from './preview/commands';

export function registerPipelineCommands(server: Server): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand('cloudConfigMerge.buildMime', (clicked?: unknown, selected?: unknown, encoding?: MakeMimeParams['encoding'], order?: unknown) => buildMimeCommand(server, clicked, selected, encoding, order)),
    vscode.commands.registerCommand('cloudConfigMerge.previewPipeline', (target?: unknown, address?: string) => previewPipelineCommand(server, target, address)),
  );
}

function selection(clicked: unknown, selected: unknown): vscode.Uri[] {
  let uris = Array.isArray(selected) && selected.length ? selected.filter((u): u is vscode.Uri => u instanceof vscode.Uri) : [];
  if (!uris.length && clicked instanceof vscode.Uri) uris = [clicked];
  const active = vscode.window.activeTextEditor?.document.uri;
  if (!uris.length && active && active.scheme === 'file') uris = [active];
  return uris;
}

/**
 * Returns the new document's URI (untitled), or undefined when nothing was built. Two files or more
 * go through the order step first (the parts in the order they are written, a saved set's when one has
 * exactly these files); `order` (for scripts) is `default` (the order offered) or the URIs in order.
 */
async function buildMimeCommand(server: Server, clicked?: unknown, selected?: unknown, encoding?: MakeMimeParams['encoding'], order?: unknown): Promise<vscode.Uri | undefined> {
  const selectedUris = selection(clicked, selected);
  if (!selectedUris.length) {
    void vscode.window.showInformationMessage('Cloud-Config: select the files to build MIME user-data from.');
    return undefined;
  }
  const chosen = await chooseOrder(server, selectedUris, { title: 'Build MIME User-Data: the order of its parts', accept: 'Build in this order' }, order);
  if (!chosen) return undefined;
  if (chosen.notUserData.length) void vscode.window.showInformationMessage(`Cloud-Config: ${chosen.notUserData.join(' ')}`);
  if (!chosen.files.length) return undefined;
  const uris = chosen.files;
  if (!encoding) {
    const picked = await vscode.window.showQuickPick(
      [
        { label: 'MIME', description: 'as cloud-init devel make-mime writes it', encoding: 'mime' as const },
        { label: 'gzip + base64', description: "as Terraform's cloudinit_config writes it by default", encoding: 'gzip+base64' as const },
        { label: 'base64', description: 'the MIME text, base64-encoded', encoding: 'base64' as const },
      ],
      { title: `Build MIME User-Data from ${uris.length} file${uris.length === 1 ? '' : 's'}` },
    );
    if (!picked) return undefined;
    encoding = picked.encoding;
  }
  const result = await server.request(MakeMimeRequest, { files: uris.map(String), encoding });
  if (result.problems.length) {
    void vscode.window.showErrorMessage(`Cloud-Config: no user-data built. ${result.problems.join(' ')}`);
    return undefined;
  }
  const doc = await vscode.workspace.openTextDocument({ content: result.text, language: 'plaintext' });
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc.uri;
}

/** Returns the preview's URI, or undefined when there is nothing to preview. */
async function previewPipelineCommand(server: Server, target?: unknown, address?: string): Promise<vscode.Uri | undefined> {
  const uri = target instanceof vscode.Uri ? target : vscode.window.activeTextEditor?.document.uri;
  if (!uri) {
    void vscode.window.showInformationMessage('Cloud-Config: open or select a terraform show -json file or a rendered user-data blob.');
    return undefined;
  }
  const source = await server.request(PipelineSourceRequest, { uri: uri.toString() });
  if (source.problem) {
    void vscode.window.showErrorMessage(`Cloud-Config: ${vscode.workspace.asRelativePath(uri)}: ${source.problem}`);
    return undefined;
  }
  if (source.kind === 'rendered') return openPreview({ mode: 'user-data', files: [uri.toString()], source: { kind: 'rendered' } }, { beside: true });
  let chosen = address;
  if (chosen === undefined) {
    if (source.configs.length === 1) chosen = source.configs[0].address;
    else {
      const picked = await vscode.window.showQuickPick(
        source.configs.map((c) => ({ label: c.address, description: `${c.parts} part${c.parts === 1 ? '' : 's'}${c.origin === 'parts' ? ', rebuilt from its parts (rendered is not known yet)' : ''}` })),
        { title: 'Preview which cloudinit_config?' },
      );
      if (!picked) return undefined;
      chosen = picked.label;
    }
  }
  return openPreview({ mode: 'user-data', files: [uri.toString()], source: { kind: 'terraform', address: chosen } }, { beside: true });
}
