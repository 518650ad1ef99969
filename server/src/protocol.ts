/**
 * Custom requests between the VS Code client and the language server. The
 * client never merges: it asks, and shows what the server answers.
 */
import type { PreviewMode } from './engine/preview';

export const PREVIEW_REQUEST = 'cloudConfigMerge/preview';
export const DOCUMENT_INFO_REQUEST = 'cloudConfigMerge/documentInfo';
/** Client → server: `{ trusted: boolean }`, at start (initializationOptions.trusted) and when trust is granted. */
export const TRUST_NOTIFICATION = 'cloudConfigMerge/workspaceTrust';

/**
 * Client → server: a preview opened or changed (`preview` its selection) or closed (`preview` null).
 * While open, its files are a set: their values' fates show in them (when no set file or
 * cloud.cfg.d folder already puts them in a set).
 */
export const PREVIEW_SET_NOTIFICATION = 'cloudConfigMerge/previewSet';

export interface PreviewSetParams {
  /** The preview's own id (its URI). */
  id: string;
  preview: Pick<PreviewParams, 'mode' | 'files' | 'boot'> | null;
}

/** Client → server: the saved set (cloud-config-merge.yaml) a file belongs to, or null. */
export const SET_OF_REQUEST = 'cloudConfigMerge/setOf';

export interface SetOfParams {
  uri: string;
}

export interface SetOfResult extends Pick<PreviewParams, 'files' | 'boot'> {
  name: string;
  mode: 'user-data' | 'confd' | 'boot' | 'chef';
}

/**
 * Client → server: a preview's selection saved as a named set. The answer is the new text of the
 * workspace folder's cloud-config-merge.yaml (the client writes it), or why it cannot be saved.
 */
export const SAVE_SET_REQUEST = 'cloudConfigMerge/saveSet';

export interface SaveSetParams extends Pick<PreviewParams, 'files' | 'boot'> {
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
}

export type PreviewSource = { kind: 'terraform'; address: string } | { kind: 'rendered' };

/** Client → server: build MIME user-data from files, as `cloud-config-merge make-mime` does. */
export const MAKE_MIME_REQUEST = 'cloudConfigMerge/makeMime';

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

/** Client → server: what a file is for the pipeline preview, and the cloudinit_configs in it. */
export const PIPELINE_SOURCE_REQUEST = 'cloudConfigMerge/pipelineSource';

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
  history: Array<{ what: 'overrode' | 'lost' | 'deleted'; reason: string; from: PreviewLocation | null; at: PreviewLocation | null }>;
}

export interface PreviewResult {
  text: string;
  /** The tail of `text` that equals `cloud-config-merge` output. */
  body: string;
  lines: PreviewLineInfo[];
  parts: Array<{ label: string; file: string; status: 'merged' | 'dropped' | 'not-merged' | 'not-reproduced'; spec?: string; reason?: string }>;
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
}
