/**
 * The image profile of a cloud-config document, as a language status item: which image (cloud-init version,
 * distro) its diagnostics reproduce, as the server resolved it (documentInfo: a saved set's image, the
 * folder's, the default), with the settings the server does not know and so ignores; switched in one click
 * (a quick pick of the server's one table of profiles, engine/version/profiles.ts, that writes the workspace
 * folder's `cloudConfigMerge.image`), or, for a set's image, its set file opened.
 */
import * as vscode from 'vscode';
import { DEFAULT_IMAGE, IMAGE_PROFILES } from '../../server/src/engine/version/profiles';
import { DocumentInfoRequest, type DocumentImage } from '../../server/src/protocol';
import type { Server } from './client';
import { DOCUMENT_SELECTOR, isCloudConfigDocument } from './documents';

export const CHOOSE_IMAGE_COMMAND = 'cloudConfigMerge.chooseImage';

/** After a settings change: the server reads the new settings once the client has said they changed. */
const UPDATE_DELAY_MS = 300;

const versionWords = (v: string) => (v === 'current' ? 'current cloud-init' : `cloud-init ${v}`);

/** The status item's words for the image the server checks a document on. */
export function imageWords(image: DocumentImage): { text: string; detail: string; label: string } {
  const version = `${versionWords(image.version)}${image.versionOverride ? ' (cloudConfigMerge.cloudInitVersion)' : ''}`;
  const from = image.set ? ` (the image of ${image.set})` : image.isDefault ? ' (default)' : '';
  const ignored = image.ignored?.length ? `; ignored: ${image.ignored.join('; ')}` : '';
  return {
    text: `image: ${image.id}${image.ignored?.length ? ' $(warning)' : ''}`,
    detail: `${version}, distro ${image.distro}${from}${ignored}`,
    label: `Image profile ${image.id}: ${version}, distro ${image.distro}${from}${ignored}.`,
  };
}

export class ImageStatusItem implements vscode.Disposable {
  private item: vscode.LanguageStatusItem | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: NodeJS.Timeout | undefined;
  private generation = 0;
  /** The image the server last said for the active document (the quick pick marks the folder's). */
  private shown: DocumentImage | undefined;

  constructor(private readonly server: Server) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('cloudConfigMerge.image') || e.affectsConfiguration('cloudConfigMerge.cloudInitVersion')) this.schedule();
      }),
      // The server checks the document again when its settings change: its diagnostics are published anew.
      vscode.languages.onDidChangeDiagnostics((e) => {
        const active = vscode.window.activeTextEditor?.document.uri.toString();
        if (active && e.uris.some((u) => u.toString() === active)) this.schedule();
      }),
      // A document that becomes cloud-config while it is edited (its header typed); a set file saved with an image.
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document && !this.item) this.update();
      }),
      vscode.workspace.onDidSaveTextDocument(() => this.update()),
      server.onDidStart(() => this.update()),
      vscode.commands.registerCommand(CHOOSE_IMAGE_COMMAND, () => chooseImage(vscode.window.activeTextEditor?.document.uri, this.shown && !this.shown.set ? this.shown.id : undefined)),
    );
    this.update();
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), UPDATE_DELAY_MS);
  }

  private update(): void {
    const doc = vscode.window.activeTextEditor?.document;
    const generation = ++this.generation;
    if (!doc || !isCloudConfigDocument(doc)) {
      this.item?.dispose();
      this.item = undefined;
      this.shown = undefined;
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
    // What the server checks the document on: never derived here.
    this.server.request(DocumentInfoRequest, { uri: doc.uri.toString() }).then(
      (info) => {
        if (generation !== this.generation || this.item !== item) return;
        item.busy = false;
        const image = info.image;
        this.shown = image;
        if (!image) {
          item.text = 'image';
          item.detail = undefined;
          return;
        }
        const words = imageWords(image);
        item.text = words.text;
        item.detail = words.detail;
        item.accessibilityInformation = { label: words.label };
        item.severity = image.ignored?.length ? vscode.LanguageStatusSeverity.Warning : vscode.LanguageStatusSeverity.Information;
        item.command = image.setFile
          ? { title: 'Open Set File', command: 'vscode.open', arguments: [vscode.Uri.parse(image.setFile)], tooltip: `${image.set} names this image in its set file` }
          : { title: 'Change Image', command: CHOOSE_IMAGE_COMMAND, tooltip: 'Choose the image profile of this folder' };
      },
      (e: unknown) => {
        if (generation !== this.generation || this.item !== item) return;
        item.busy = false;
        item.detail = `no information: ${e instanceof Error ? e.message : String(e)}`;
        item.severity = vscode.LanguageStatusSeverity.Warning;
      },
    );
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.item?.dispose();
    this.disposables.forEach((d) => void d.dispose());
  }
}

/**
 * The quick pick of image profiles; the choice is written to the document's workspace folder (the workspace,
 * else the user settings). `current`: the folder's image as the server said it.
 */
async function chooseImage(uri: vscode.Uri | undefined, current?: string): Promise<void> {
  const items = IMAGE_PROFILES.map((p) => ({
    label: p.id,
    description: `${p.label}${p.id === DEFAULT_IMAGE ? ' (default)' : ''}${p.id === current ? ' \u2014 now' : ''}`,
    detail: `${versionWords(p.version)} (ships ${p.ships}), distro ${p.distro}, netplan ${p.netplan}`,
    id: p.id,
  }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Image profile of this folder', placeHolder: current ? `now ${current}` : 'the image profile of this folder', matchOnDescription: true });
  if (!picked) return;
  const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : undefined;
  const target = folder ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  await vscode.workspace.getConfiguration('cloudConfigMerge', folder?.uri ?? uri).update('image', picked.id, target);
}
