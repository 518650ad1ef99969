/**
 * The image profile of a cloud-config document, as a language status item: which image (cloud-init version,
 * distro) its diagnostics reproduce, switched in one click (a quick pick that writes the workspace folder's
 * `cloudConfigMerge.image`). The profiles are the server's one table (engine/version/profiles.ts).
 */
import * as vscode from 'vscode';
import { DEFAULT_IMAGE, IMAGE_PROFILES, imageProfile, type ImageProfile } from '../../server/src/engine/version/profiles';
import { DOCUMENT_SELECTOR, isCloudConfigDocument } from './documents';

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

  constructor() {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cloudConfigMerge.image') || e.affectsConfiguration('cloudConfigMerge.cloudInitVersion')) this.update();
      }),
      // A document that becomes cloud-config while it is edited (its header typed).
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document && !this.item) this.update();
      }),
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
    const { profile, chosen, version } = imageOf(doc.uri);
    this.item.text = `image: ${profile.id}`;
    const over = version ? `${versionWords(version)} (cloudConfigMerge.cloudInitVersion)` : versionWords(profile.version);
    this.item.detail = `${over}, distro ${profile.distro}${chosen ? '' : ' (default)'}`;
    this.item.accessibilityInformation = { label: `Image profile ${profile.id}: ${over}, distro ${profile.distro}.` };
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
