/**
 * The cloud-config-merge language server: wiring only. The connection
 * (stdio with --stdio, node IPC when started by a client over IPC), client
 * capabilities, per-document settings, the shared analysis cache, and one
 * feature per file in ./features. The engine under ./engine knows nothing
 * of LSP; the features translate.
 */
import {
  Connection,
  DidChangeConfigurationNotification,
  InitializeParams,
  InitializeResult,
  IPCMessageReader,
  IPCMessageWriter,
  ProposedFeatures,
  TextDocuments,
  TextDocumentSyncKind,
  createConnection,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClientSupport, ServerContext, clientSupport } from './features/common/context';
import { AnalysisCache } from './features/common/analysisCache';
import { DEFAULT_SETTINGS, SETTINGS_SECTION, ServerSettings, normalizeSettings, withImage } from './features/common/settings';
import { connectionLogger, describeError } from './features/common/log';
import { DiagnosticsFeature } from './features/diagnostics';
import { registerHover } from './features/hover';
import { registerCompletion, TRIGGER_CHARACTERS } from './features/completion';
import { JINJA_TRIGGER_CHARACTERS } from './features/jinjaCompletion';
import { CODE_ACTION_KINDS, registerCodeActions } from './features/codeActions';
import { registerPreview } from './features/preview';
import { registerPreviewUpdate } from './features/previewUpdate';
import { registerPipeline } from './features/pipeline';
import { registerDocumentInfo } from './features/documentInfo';
import { registerRenderedPart } from './features/renderedPart';
import { WorkspaceMergers } from './features/common/customMergers';
import { WorkspaceTrustNotification } from './protocol';
import { instanceDataFor, instanceDataKey } from './features/common/instanceData';
import { PartSets } from './sets/partSets';
import { runImage } from './sets/resolve';
import { registerFates, setDiagnostics } from './features/fates';
import { registerFateHints } from './features/fateHints';
import { fateFixes } from './features/fateFixes';
import { planDiagnostics } from './features/planDiagnostics';
import { planFixes } from './features/planFixes';
import { secretFixes } from './features/secretFixes';
import { registerSetRequests } from './features/setRequests';
import { registerPartOrder } from './features/partOrder';
import { setFileDiagnostics } from './features/setFileDiagnostics';
import { InstanceDataFilesInUse, registerInstanceDataWatch, watchInstanceDataFiles } from './features/instanceDataWatch';

const TRANSPORT_FLAGS = /^--(stdio|node-ipc|socket|pipe)\b/;

/** stdio with --stdio (and the other explicit transports); node IPC when forked without a flag. */
function openConnection(): Connection {
  const explicit = process.argv.slice(2).some((a) => TRANSPORT_FLAGS.test(a));
  if (!explicit && typeof process.send === 'function') {
    return createConnection(ProposedFeatures.all, new IPCMessageReader(process), new IPCMessageWriter(process));
  }
  return createConnection(ProposedFeatures.all);
}

const connection = openConnection();
const documents = new TextDocuments(TextDocument);
const log = connectionLogger(connection);
const analyses = new AnalysisCache((state) => log.verbose(`[analysis] ${state.uri} v${state.version}: ${state.millis.toFixed(1)} ms`));

let support: ClientSupport = clientSupport({});
/** Custom merger modules: code from the workspace, so only loaded once the client says it is trusted. */
const workspaceMergers = new WorkspaceMergers();
let folders: string[] = [];

/* ------------------------------------------------------------------ settings */

/** Per-document settings as the client answered them; cleared when the configuration changes. */
const pendingSettings = new Map<string, Promise<ServerSettings>>();
/** The last answer per document, so fast requests never wait for the client. */
const knownSettings = new Map<string, ServerSettings>();
/** For clients without workspace/configuration: what didChangeConfiguration pushed. */
let globalSettings: ServerSettings = DEFAULT_SETTINGS;

function settingsFor(uri: string): Promise<ServerSettings> {
  if (!support.configuration) return Promise.resolve(globalSettings);
  let pending = pendingSettings.get(uri);
  if (!pending) {
    const request = connection.workspace.getConfiguration({ scopeUri: uri || undefined, section: SETTINGS_SECTION }).then(
      (raw: unknown) => normalizeSettings(raw),
      (e: unknown) => {
        log.warn(`workspace/configuration failed, using defaults: ${describeError(e)}`);
        return DEFAULT_SETTINGS;
      },
    );
    pending = request.then((settings) => {
      if (pendingSettings.get(uri) === pending) knownSettings.set(uri, settings);
      log.level = settings.trace.server;
      instanceDataFiles.update();
      return settings;
    });
    pendingSettings.set(uri, pending);
  }
  return pending;
}

function clientSettings(uri: string): ServerSettings {
  return (support.configuration ? knownSettings.get(uri) : undefined) ?? globalSettings;
}

/**
 * A document's settings for its run: a file in a saved set with an `image:` is checked on that image (its
 * version, distro and netplan), its templates rendered with the set's `instanceData`.
 */
function runSettings(uri: string, settings: ServerSettings): ServerSettings {
  const set = partSets.runSetOf(uri);
  if (!set) return settings;
  const image = runImage(set, {});
  const imaged = image ? { ...withImage(settings, image), imageFrom: { set: set.name, setFile: set.setFile } } : settings;
  return set.instanceData ? { ...imaged, instanceData: set.instanceData } : imaged;
}

/* ------------------------------------------------------------------ context and features */

const ctx: ServerContext = {
  connection,
  documents,
  log,
  get support() {
    return support;
  },
  // What a document is checked with is its run's: the client's settings, with the image of the saved set it is in.
  settings: async (uri) => runSettings(uri, await settingsFor(uri)),
  knownSettings: (uri) => runSettings(uri, clientSettings(uri)),
  clientSettings,
  state: (document) => {
    const settings = ctx.knownSettings(document.uri);
    const instanceData = { key: instanceDataKey(settings, document.uri, folders), choice: instanceDataFor(settings, document.uri, folders) };
    return analyses.get(document, settings, ctx.customMergers(settings), instanceData);
  },
  workspaceFolders: () => folders,
  customMergers: (settings) => workspaceMergers.load(settings.customMergers, folders),
};

const diagnostics = new DiagnosticsFeature(ctx);
const instanceDataFiles = new InstanceDataFilesInUse(ctx);
const partSets = new PartSets(ctx);
diagnostics.addSource((document, settings) => [...setFileDiagnostics(ctx, partSets, document, settings), ...setDiagnostics(ctx, partSets, document, settings), ...planDiagnostics(ctx, partSets, document, settings)]);

connection.onInitialize((params: InitializeParams): InitializeResult => {
  support = clientSupport(params.capabilities);
  folders = folderPaths(params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []));
  if (!folders.length && params.rootPath) folders = [path.resolve(params.rootPath)];
  const options = params.initializationOptions as { settings?: unknown; trusted?: unknown } | undefined;
  if (options?.settings) globalSettings = normalizeSettings(options.settings);
  workspaceMergers.trusted = options?.trusted === true;
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
      hoverProvider: true,
      completionProvider: { triggerCharacters: [...TRIGGER_CHARACTERS, ...JINJA_TRIGGER_CHARACTERS], resolveProvider: false },
      inlayHintProvider: true,
      codeActionProvider: support.codeActionLiterals ? { codeActionKinds: CODE_ACTION_KINDS, resolveProvider: false } : true,
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: 'cloud-config-language-server' },
  };
});

connection.onInitialized(() => {
  if (support.configuration && support.dynamicConfiguration) {
    void connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
  }
  watchInstanceDataFiles(ctx);
  if (support.workspaceFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      const removed = new Set(folderPaths((e?.removed ?? []).map((f) => f.uri)));
      folders = [...folders.filter((f) => !removed.has(f)), ...folderPaths((e?.added ?? []).map((f) => f.uri))];
      instanceDataFiles.update();
      // Custom mergers load from the folders: what the open documents are told may have changed.
      diagnostics.refreshAll();
    });
  }
});

/** The client tells when the user trusts the workspace (VS Code's workspace trust). */
connection.onNotification(WorkspaceTrustNotification.method, (params: { trusted?: unknown }) => {
  workspaceMergers.trusted = params?.trusted === true;
  diagnostics.refreshAll();
});

connection.onDidChangeConfiguration((change) => {
  if (support.configuration) pendingSettings.clear();
  else globalSettings = normalizeSettings((change.settings as Record<string, unknown> | null)?.[SETTINGS_SECTION]);
  log.level = globalSettings.trace.server;
  diagnostics.refreshAll();
});

documents.onDidClose((e) => {
  pendingSettings.delete(e.document.uri);
  knownSettings.delete(e.document.uri);
  analyses.delete(e.document.uri);
  instanceDataFiles.update();
});

diagnostics.register();
registerHover(ctx);
registerCompletion(ctx);
registerCodeActions(ctx, [
  (document, range, diagnostics) => fateFixes(ctx, partSets, document, range, diagnostics),
  (document, range, diagnostics) => planFixes(document, range, diagnostics),
  (document, range, diagnostics) => secretFixes(ctx.state(document), document, range, diagnostics),
]);
registerPreview(ctx, partSets);
registerPreviewUpdate(ctx, partSets);
registerPipeline(ctx);
registerDocumentInfo(ctx);
registerRenderedPart(ctx);
registerInstanceDataWatch(ctx, (uri) => diagnostics.refresh(uri));
const refreshHints = () => {
  if (support.inlayHintRefresh) void connection.languages.inlayHint.refresh().catch(() => undefined);
};
registerFates(ctx, partSets, (uri) => diagnostics.refresh(uri), refreshHints);
registerFateHints(ctx, partSets);
registerPartOrder(ctx, partSets);
registerSetRequests(ctx, partSets, () => {
  diagnostics.refreshAll();
  refreshHints();
});

function folderPaths(uris: string[]): string[] {
  const paths: string[] = [];
  for (const uri of uris) {
    try {
      // One spelling per folder (no trailing slash, no `.`): a removal must match what was added.
      paths.push(path.resolve(fileURLToPath(uri)));
    } catch {
      /* not a file folder: includes can never be inside it */
    }
  }
  return paths;
}

// Last resort: a bug must not end the session. Everything expected is caught in the features.
process.on('uncaughtException', (e) => {
  try {
    log.error(`uncaught: ${describeError(e)}`);
  } catch {
    /* the connection itself is gone */
  }
});
process.on('unhandledRejection', (e) => {
  try {
    log.error(`unhandled rejection: ${describeError(e)}`);
  } catch {
    /* the connection itself is gone */
  }
});

documents.listen(connection);
connection.listen();
