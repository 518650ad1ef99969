/**
 * Cloud-Config Merge for VS Code. Activation is cheap: it registers the
 * preview scheme, commands and providers, and starts the language server only
 * when a cloud-init document (or a preview) first needs it.
 */
import * as vscode from 'vscode';
import { Server, log } from './client';
import { isCloudConfigDocument } from './documents';
import { registerPreviewCommands } from './preview/commands';
import { registerPipelineCommands } from './pipeline';
import { registerProvenance } from './preview/provenance';
import { registerRenderedPart } from './preview/rendered';
import { PreviewProvider, type PreviewActivity } from './preview/provider';
import { PREVIEW_SCHEME } from './preview/uri';
import { StatusItem } from './status';
import { ImageStatusItem } from './imageStatus';
import { registerWalkthrough } from './walkthrough';
import { registerBareSeedLanguage } from './bareSeed';

let server: Server | undefined;

export interface CloudConfigMergeApi {
  /** Milliseconds activate() took. */
  activationMs: number;
  /** Whether the language server is running (it starts with the first cloud-init document). */
  isServerRunning(): boolean;
  /** Resolves once the language server is running (starting it if needed). */
  startServer(): Promise<void>;
  /** What the previews are doing (requests sent, a refresh under way): tests wait on it rather than on the clock. */
  previewActivity(): PreviewActivity;
}

export function activate(context: vscode.ExtensionContext): CloudConfigMergeApi {
  const t0 = performance.now();
  const output = vscode.window.createOutputChannel('Cloud-Config Merge', { log: true });
  server = new Server(context, output);
  const previews = new PreviewProvider(server);
  const startFor = (doc: vscode.TextDocument) => {
    if (isCloudConfigDocument(doc)) void server?.start().catch(() => undefined);
  };
  context.subscriptions.push(
    output,
    server,
    previews,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    registerProvenance(previews),
    registerPreviewCommands(context.workspaceState, server, previews),
    registerPipelineCommands(server),
    registerRenderedPart(server),
    new StatusItem(server),
    new ImageStatusItem(server),
    registerWalkthrough(context.globalState),
    registerBareSeedLanguage(),
    vscode.commands.registerCommand('cloudConfigMerge.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('cloudConfigMerge.restartServer', () => server?.restart()),
    vscode.workspace.onDidOpenTextDocument(startFor),
    // a YAML file that becomes a #cloud-config file while it is edited (the header may follow blank lines)
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!server?.isRunning && e.contentChanges.length) startFor(e.document);
    }),
  );
  vscode.workspace.textDocuments.forEach(startFor);
  const activationMs = performance.now() - t0;
  log(output, `Activated in ${activationMs.toFixed(1)} ms`);
  return {
    activationMs,
    isServerRunning: () => server?.isRunning ?? false,
    startServer: async () => {
      await server?.start();
    },
    previewActivity: () => previews.activity(),
  };
}

export async function deactivate(): Promise<void> {
  await server?.dispose();
  server = undefined;
}
