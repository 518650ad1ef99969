/**
 * The image profile of a cloud-config document, as a language status item: which image (cloud-init version,
 * distro) its diagnostics reproduce, switched in one click (a quick pick that writes the workspace folder's
 * `cloudConfigMerge.image`). The profiles are the server's one table (engine/version/profiles.ts).
 */
import * as vscode from 'vscode';
import { DEFAULT_IMAGE, IMAGE_PROFILES, imageProfile, type ImageProfile } from '../../server/src/engine/version/profiles';
import { DOCUMENT_SELECTOR, isCloudConfigDocument } from './documents';
import { DocumentInfoRequest } from '../../server/src/protocol';
import { Server } from './client';

export const CHOOSE_IMAGE_COMMAND = 'cloudConfigMerge.chooseImage';

const versionWords = (v: string) => (v === 'current' ? 'current cloud-init' : `cloud-init ${v}`);

/** The image a document is checked against: its folder's setting, else the default; and a version set over it. */
function imageOf(uri: vscode.Uri | undefined): { profile: ImageProfile; chosen: boolean; version?: string } {
  const config = vscode.workspace.getConfiguration('cloudConfigMerge', uri);
  const chosen = imageProfile(config.get<string>('image', '') ?? '');
  const seen = config.inspect<string>('cloudInitVersion');
  const version = seen?.workspaceFolderValue ?? seen?.workspaceValue ?? seen?.globalValue;
  return { profile: chosen ?? imageProfile(DEFAULT_IMAGE)!, chosen: !!chosen, ...(version ? { version } : {}) };
}

export class ImageStatusItem implements vscode.Disposable {
  private item: vscode.LanguageStatusItem | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private generation = 0;

  constructor(private readonly server: Server) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cloudConfigMerge.image') || e.affectsConfiguration('cloudConfigMerge.cloudInitVersion')) this.update();
      }),
      // A document that becomes cloud-config while it is edited (its header typed); a set file saved with an image.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document && !this.item) this.update();
      }),
      vscode.workspace.onDidSaveTextDocument(() => this.update()),
      server.onDidStart(() => this.update()),
      vscode.commands.registerCommand(CHOOSE_IMAGE_COMMAND, () => chooseImage(vscode.window.activeTextEditor?.document.uri)),
    );
    this.update();
  }

  private update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc || !isCloudConfigDocument(doc)) {
      this.item?.dispose();
      this.item = undefined;
      return;
    }
    if (!this.item) {
      this.item = vscode.languages.createLanguageStatusItem('cloudConfigMerge.image', DOCUMENT_SELECTOR);
      this.item.name = 'Cloud-Config Image';
      this.item.command = { title: 'Change Image', command: CHOOSE_IMAGE_COMMAND, tooltip: 'Choose the image profile of this folder' };
    }
    const item = this.item;
    if (!this.server.isRunning) {
      item.text = 'image';
      item.detail = 'starting the language server…';
      item.busy = true;
      return;
    }
    // What the server checks the document on (a saved set's image, the folder's, the default): never derived here.
    const generation = ++this.generation;
    this.server.request(DocumentInfoRequest, { uri: doc.uri.toString() }).then(
      (info) => {
        if (generation !== this.generation || this.item !== item) return;
        item.busy = false;
        const image = info.image;
        if (!image) {
          item.text = 'image';
          item.detail = undefined;
          return;
        }
        item.text = `image: ${image.id}`;
        const version = `${versionWords(image.version)}${image.versionOverride ? ' (cloudConfigMerge.cloudInitVersion)' : ''}`;
        const from = image.set ? ` (the image of ${image.set})` : image.isDefault ? ' (default)' : '';
        item.detail = `${version}, distro ${image.distro}${from}`;
        item.accessibilityInformation = { label: `Image profile ${image.id}: ${version}, distro ${image.distro}${from}.` };
        item.command = image.setFile
          ? { title: 'Open Set File', command: 'vscode.open', arguments: [vscode.Uri.parse(image.setFile)], tooltip: `${image.set} names this image in its set file` }
          : { title: 'Change Image', command: CHOOSE_IMAGE_COMMAND, tooltip: 'Choose the image profile of this folder' };
      },
      () => {
        if (generation !== this.generation || this.item !== item) return;
        item.busy = false;
      },
    );
  }

  dispose(): void {
    this.item?.dispose();
    this.disposables.forEach((d) => void d.dispose());
  }
}

/** The quick pick of image profiles; the choice is written to the document's workspace folder (the workspace, else the user settings). */
async function chooseImage(uri: vscode.Uri | undefined): Promise<void> {
  const current = imageOf(uri).profile.id;
  const items = IMAGE_PROFILES.map((p) => ({
    label: p.id,
    description: `${p.label}${p.id === DEFAULT_IMAGE ? ' (default)' : ''}${p.id === current ? ' \u2014 now' : ''}`,
    detail: `${versionWords(p.version)} (ships ${p.ships}), distro ${p.distro}, netplan ${p.netplan}`,
    id: p.id,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Image profile of this folder', placeHolder: `now ${current}`, matchOnDescription: true });
  if (!picked) return;
  const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  const target = folder ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('cloudConfigMerge', folder?.uri ?? uri).update('image', picked.id, target);
}
