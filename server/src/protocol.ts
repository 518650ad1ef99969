/**
 * Custom requests between the VS Code client and the language server, typed
 * once for both sides (as vscode-eslint's customMessages.ts and
 * rust-analyzer's lsp_ext.ts are). The client never merges: it asks, and shows
 * what the server answers. This module has no runtime dependency, so the
 * client can import it at activation without loading the LSP libraries.
 */
import type { PreviewMode } from './engine/outcome/mode';
import type { PreviewDelta } from './previewDelta';

/** A request's method with its parameter and result types (the typing of vscode-jsonrpc's RequestType). */
export interface RequestType<P, R> {
  readonly method: string;
  /** Never set: carries the types. */
  readonly types?: { params: P; result: R };
}

/** A notification's method with its parameter type. */
export interface NotificationType<P> {
  readonly method: string;
  readonly types?: { params: P };
}

/** The modes the editor's preview offers (the CLI's `handler` and `system` are not among them). */
export const PREVIEW_MODES = ['user-data', 'confd', 'boot', 'chef'] as const satisfies readonly PreviewMode[];
export type EditorPreviewMode = (typeof PREVIEW_MODES)[number];

export function isEditorPreviewMode(mode: unknown): mode is EditorPreviewMode {
  return (PREVIEW_MODES as readonly unknown[]).includes(mode);
}

export const PreviewRequest: RequestType<PreviewParams, PreviewResult> = { method: 'cloudConfigMerge/preview' };
/**
 * Client → server: a preview, answered with what changed since the answer the client holds (`base`) when
 * the server still has that one, else whole (on open, after a restart). `previewDelta.ts` applies it.
 */
export const PreviewUpdateRequest: RequestType<PreviewUpdateParams, PreviewUpdateResult> = { method: 'cloudConfigMerge/previewUpdate' };
export const DocumentInfoRequest: RequestType<DocumentInfoParams, DocumentInfoResult> = { method: 'cloudConfigMerge/documentInfo' };
/** Client → server: build MIME user-data from files, as `cloud-config-merge make-mime` does. */
export const MakeMimeRequest: RequestType<MakeMimeParams, MakeMimeResult> = { method: 'cloudConfigMerge/makeMime' };
/** Client → server: what a file is for the pipeline preview, and the cloudinit_configs in it. */
export const PipelineSourceRequest: RequestType<PipelineSourceParams, PipelineSourceResult> = { method: 'cloudConfigMerge/pipelineSource' };
/** Client → server, when trust is granted (at start it is initializationOptions.trusted). */
export const WorkspaceTrustNotification: NotificationType<{ trusted: boolean }> = { method: 'cloudConfigMerge/workspaceTrust' };

/**
 * Client → server: a preview was shown in a tab (`preview` its selection) or its last tab closed
 * (`preview` null). While open, its files are a set: their values' fates show in them (when no set file or
 * cloud.cfg.d folder already puts them in a set).
 */
export const PreviewSetNotification: NotificationType<PreviewSetParams> = { method: 'cloudConfigMerge/previewSet' };

export interface PreviewSetParams {
  /** The preview's own id (its URI). */
  id: string;
  preview: Pick<PreviewParams, 'mode' | 'files' | 'boot'> | null;
}

/**
 * Client → server: the set a file belongs to, as the server resolves it, or null: its saved set
 * (cloud-config-merge.yaml), else the NoCloud seed folder it is a file of (user-data over vendor-data).
 */
export const SetOfRequest: RequestType<SetOfParams, SetOfResult | null> = { method: 'cloudConfigMerge/setOf' };

export interface SetOfParams {
  uri: string;
}

export interface SetOfResult extends Pick<PreviewParams, 'files' | 'boot'> {
  /** The saved set's name; absent for a seed folder no set names. */
  name?: string;
  mode: 'user-data' | 'confd' | 'boot' | 'chef';
  /** A NoCloud seed (a folder's URI): the set is that seed, its user-data over its vendor-data (Save as Set writes `seed:`). */
  seed?: string;
}

/**
 * Client → server: what the order step shows before files given together are merged (a preview of a
 * selection, Build MIME User-Data): the saved set (cloud-config-merge.yaml) whose files are exactly
 * these, in its order, and each container among them (MIME multipart, #cloud-config-archive, gzip or
 * base64 of them) that already holds the parts of others, compared by content.
 */
export const PartOrderRequest: RequestType<PartOrderParams, PartOrderResult> = { method: 'cloudConfigMerge/partOrder' };

export interface PartOrderParams {
  /** File URIs (open editors' unsaved text is used). */
  files: string[];
}

export interface PartOrderResult {
  /**
   * The set these files are, if they are one: the saved set of exactly these files (its order is the one
   * offered), else the NoCloud seed folder whose user-data (and vendor-data) they are, merged in cloud-init's
   * order (boot mode: the user-data over the vendor-data), which the order step does not change.
   */
  set?: SetOfResult;
  /** Files that are not user-data (a NoCloud seed's meta-data, a network-config): cloud-init never merges them. */
  notUserData?: Array<{ file: string; kind: 'meta-data' | 'network-config'; message: string }>;
  containers: Array<{
    file: string;
    /** The files whose every part it holds, in the order given. */
    contains: string[];
    /** How many of its parts none of the other files has (what leaving it out loses). */
    own: number;
    /** `built.mime already contains 20-web.yaml and base.yaml`. */
    message: string;
  }>;
}

/**
 * Client → server: a preview's selection saved as a named set. The answer is the new text of the
 * workspace folder's cloud-config-merge.yaml (the client writes it), or why it cannot be saved.
 */
export const SaveSetRequest: RequestType<SaveSetParams, SaveSetResult> = { method: 'cloudConfigMerge/saveSet' };

/** What a saved set's name may be: checked as the user types it, and by the server. */
export const SET_NAME_RULE = { pattern: /^[A-Za-z0-9][A-Za-z0-9._-]*$/, message: 'A set name is letters, digits, ".", "_" or "-", starting with a letter or digit.' } as const;

export interface SaveSetParams extends Pick<PreviewParams, 'files' | 'boot'>, Pick<SetOfResult, 'seed'> {
  /** The set's name (SET_NAME_RULE). */
  name: string;
  mode: PreviewMode;
  /** The set file's current text ('' when there is none), as the editor has it. */
  currentText?: string;
}

export type SaveSetResult = { uri: string; text: string } | { error: string };

/** Files are URIs; open editors' unsaved text is used where there is one. */
export interface PreviewParams {
  mode: PreviewMode;
  /** User-data files (or drop-ins for `confd`), in merge order. */
  files: string[];
  /** Boot mode: the other layers, as URIs. */
  boot?: { cloudCfg?: string; confd?: string[]; vendor?: string; vendor2?: string; dsConfig?: string; runtimeCfg?: string; cmdlineCfg?: string; builtinCfg?: string };
  /** Leave one part out (1-based index into `files`), for the "Compare" action. */
  exclude?: number;
  /**
   * What the one file is, when it is not user-data itself: `terraform` (the JSON of `terraform show
   * -json` or `pulumi stack export`; the config at `address` is previewed) or `rendered` (a saved
   * rendered blob: base64 text is decoded first). User-data mode only.
   */
  source?: PreviewSource;
  /**
   * The header's widest line, in characters (100 by default; 40 to 1000): a client that knows its
   * window's width passes it, VS Code passes the setting `cloudConfigMerge.preview.headerWidth`.
   */
  headerWidth?: number;
}

export interface PreviewUpdateParams extends PreviewParams {
  /** The preview's own id (its URI): the server keeps its last answer for each of a few ids. */
  id: string;
  /** The `version` of the answer the client holds for `id`; none on open. */
  base?: number;
}

/** A whole answer (`result`), or the changes (`delta`) that turn the client's `base` answer into it. */
export type PreviewUpdateResult = { version: number; result: PreviewResult } | { version: number; base: number; delta: PreviewDelta };

export type PreviewSource = { kind: 'terraform'; address: string } | { kind: 'rendered' };

export interface MakeMimeParams {
  /** File URIs, in part order (open editors' unsaved text is used). */
  files: string[];
  /** `mime` (default): the text `cloud-init devel make-mime` writes; `gzip+base64`: as Terraform's default. */
  encoding?: 'mime' | 'gzip+base64' | 'base64';
  /** A fixed boundary (tests); a random one in Python's format otherwise. */
  boundary?: string;
}

export interface MakeMimeResult {
  /** The blob, or '' when `problems` says why nothing was built. */
  text: string;
  /** Why a file cannot be a part (unreadable, not UTF-8, no content type on its first line). */
  problems: string[];
  /** The parts, in order, with the content type each got. */
  parts: Array<{ file: string; filename: string; contentType: string }>;
}

export interface PipelineSourceParams {
  uri: string;
}

export interface PipelineSourceResult {
  /** `terraform`: JSON of terraform show -json / pulumi stack export; `rendered`: a blob to preview as is (base64 decoded). */
  kind: 'terraform' | 'rendered';
  configs: Array<{ address: string; parts: number; origin: 'rendered' | 'parts' | 'unknown' }>;
  /** Why the file cannot be previewed (not JSON of those tools, no cloudinit_config in it). */
  problem?: string;
}

export interface PreviewLocation {
  uri: string;
  /** 0-based. */
  line: number;
  character: number;
  endLine: number;
  endCharacter: number;
  note?: string;
}

export interface PreviewLineInfo {
  line: number;
  path: string;
  source: PreviewLocation | null;
  history: PreviewLineHistory[];
}

export interface PreviewLineHistory {
  /** engine/outcome/effects.ts: an earlier value replaced or deleted here, or this value lost to the one kept. */
  what: 'replaced' | 'lost' | 'deleted';
  reason: string;
  from: PreviewLocation | null;
  at: PreviewLocation | null;
}

/**
 * Where each data line of a preview came from, in a compact form: a preview of 100 parts has some
 * 14,000 data lines, and an object per line (with its file's URI) was most of the answer's bytes and
 * of both sides' time. `previewLines` expands it into `PreviewLineInfo`s.
 */
export interface PreviewLineMap {
  /** The files the places are in; `note` when the places in that file are only approximate. */
  files: Array<{ uri: string; note?: string }>;
  /**
   * `PREVIEW_LINE_FIELDS` numbers per data line, in the order of the lines, most as a difference from
   * the line before so that they stay short: see `PreviewLineField`.
   */
  rows: number[];
  /** Per data line: its path after the characters it shares with the previous line's path. */
  paths: string[];
  /** The lines whose value replaced, deleted or lost to another (few): by their index in `rows`. */
  history: Array<{ entry: number; history: PreviewLineHistory[] }>;
}

/** The numbers of one data line in `PreviewLineMap.rows`. */
export enum PreviewLineField {
  /** Its line in the text, minus the previous data line's (the first: the line itself). */
  Line,
  /** How many characters of its path are the previous data line's path's first characters. */
  SharedPath,
  /** 1 + the index in `files` of the place its value was written; 0: no single source. */
  File,
  /** The place's start line, minus the previous place's start line (the first: the line itself). */
  StartLine,
  StartCharacter,
  /** The place's end line minus its start line. */
  LineSpan,
  EndCharacter,
}
export const PREVIEW_LINE_FIELDS = 7;

/** What `cloud-config-merge` prints for the previewed files: the tail of the preview's text (sent once, not twice). */
export function previewBody(result: Pick<PreviewResult, 'text' | 'bodyStart'>): string {
  return result.text.slice(result.bodyStart);
}

/** The data lines of a preview, expanded (the client does it on the first hover or jump). */
export function previewLines(map: PreviewLineMap | undefined): PreviewLineInfo[] {
  if (!map) return [];
  const out: PreviewLineInfo[] = [];
  const histories = new Map(map.history.map((h) => [h.entry, h.history]));
  let line = 0;
  let path = '';
  let sourceLine = 0;
  for (let entry = 0, i = 0; i + PREVIEW_LINE_FIELDS <= map.rows.length; entry++, i += PREVIEW_LINE_FIELDS) {
    line += map.rows[i + PreviewLineField.Line];
    path = path.slice(0, map.rows[i + PreviewLineField.SharedPath]) + (map.paths[entry] ?? '');
    const file = map.files[map.rows[i + PreviewLineField.File] - 1];
    let source: PreviewLocation | null = null;
    if (file) {
      sourceLine += map.rows[i + PreviewLineField.StartLine];
      source = {
        uri: file.uri,
        line: sourceLine,
        character: map.rows[i + PreviewLineField.StartCharacter],
        endLine: sourceLine + map.rows[i + PreviewLineField.LineSpan],
        endCharacter: map.rows[i + PreviewLineField.EndCharacter],
        ...(file.note ? { note: file.note } : {}),
      };
    }
    out.push({ line, path, source, history: histories.get(entry) ?? [] });
  }
  return out;
}

/** A link in the preview's header to a part's file or a `file:line` place, placed by the server that wrote the header. */
export interface PreviewHeaderLink {
  /** 0-based line of `text`, and the link's columns on it. */
  line: number;
  character: number;
  endCharacter: number;
  target: PreviewLocation;
}

/**
 * A section of the preview's header, as the server wrote it: its heading line through its last line
 * (0-based lines of `text`). `problems` and `findings` are the lines about unreadable sources and about
 * the parts of a Terraform or rendered source.
 */
export interface PreviewHeaderSection {
  kind: 'parts' | 'notes' | 'lost' | 'schema' | 'plan' | 'problems' | 'findings';
  line: number;
  endLine: number;
}

export interface PreviewResult {
  text: string;
  /** Where the tail of `text` that equals `cloud-config-merge` output starts: `previewBody(result)`. */
  bodyStart: number;
  /** Where each data line came from: `previewLines(result.lineMap)`. */
  lineMap: PreviewLineMap;
  parts: Array<{ label: string; file: string; status: 'merged' | 'dropped' | 'not-merged' | 'not-reproduced'; spec?: string; reason?: string }>;
  headerLinks?: PreviewHeaderLink[];
  /** The header's sections (the editor folds them). */
  headerSections?: PreviewHeaderSection[];
  /**
   * The merged data's keys and items with what is written under them, for folding: pairs of 0-based
   * first and last lines of `text` ([first, last, first, last, …]), outermost first where there are more
   * than 5,000.
   */
  dataFolds?: number[];
  /** Sources that could not be read (deleted, renamed, unreadable), reported in the text too. */
  problems: string[];
  /** Every file the preview read or tried to read, `#include` targets included: an edit to any of them changes it. */
  sources?: string[];
  failure?: string;
}

export interface DocumentInfoParams {
  uri: string;
}

/** For the language status item: what kind of part this is and its effective spec. */
export interface DocumentInfoResult {
  kind: string | null;
  spec: string | null;
  summary: string[];
  /**
   * Whether cloud-init merges the document (user-data, a drop-in, cloud.cfg, Chef attributes): the client
   * offers the merge preview only then. Not a NoCloud seed's meta-data nor a network-config, which
   * cloud-init reads but never merges; not a document that is not cloud-init input.
   */
  merged: boolean;
  /** Present when cloud-init renders the document with Jinja (the client then offers Show Rendered Part). */
  template?: true;
  /**
   * The image the document is checked on, as the server resolved it: its folder's `cloudConfigMerge.image`
   * (or the default), or the `image:` of the saved set it is in (`set`), with the version override.
   */
  image?: DocumentImage;
}

export interface DocumentImage {
  /** The profile id ('' only for a document checked with no profile). */
  id: string;
  version: string;
  distro: string;
  /** Whether the version is the `cloudConfigMerge.cloudInitVersion` override. */
  versionOverride: boolean;
  /** The set (`set NAME`) whose `image:` decides it, when one does, and its set file's URI. */
  set?: string;
  setFile?: string;
  /** No setting names an image: the default one. */
  isDefault: boolean;
  /** Settings written with a value the server does not know (their defaults apply), in words; absent when none. */
  ignored?: string[];
}

/** Client → server: a `## template: jinja` document rendered with the chosen instance data. */
export const RenderedPartRequest: RequestType<RenderedPartParams, RenderedPartResult> = { method: 'cloudConfigMerge/renderedPart' };

export interface RenderedPartParams {
  /** The template's URI (an open editor's unsaved text is used). */
  uri: string;
  /** In a MIME multipart: which `text/jinja2` part (the index `part` of an earlier answer). */
  part?: number;
  /** In a MIME multipart, when `part` is not given: the part under this position. */
  position?: { line: number; character: number };
}

export interface RenderedPartResult {
  /** The view's text: a short header of comment lines, then the rendered part. */
  text: string;
  /** In a MIME multipart: the index of the part rendered (pass it back as `part` to render it again). */
  part?: number;
}

/**
 * Server → client: an instance-data file the server reads changed on disk (the server's file watcher
 * said so); the diagnostics are already refreshed, the open rendered views should ask again.
 */
export const InstanceDataChangedNotification: NotificationType<{ file: string }> = { method: 'cloudConfigMerge/instanceDataChanged' };

/**
 * Server → client: the instance-data files the open documents use (file system paths), sent when that
 * set changes. The client answers with InstanceDataTextNotification for those open with unsaved changes.
 */
export const InstanceDataFilesNotification: NotificationType<{ files: string[] }> = { method: 'cloudConfigMerge/instanceDataFiles' };

/**
 * Client → server: the unsaved text of an instance-data file open in the editor, or null once the file
 * on disk is current again (saved, reverted, closed). Handled like a change on disk.
 */
export const InstanceDataTextNotification: NotificationType<{ file: string; text: string | null }> = { method: 'cloudConfigMerge/instanceDataText' };
