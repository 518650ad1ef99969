/**
 * Custom requests between the VS Code client and the language server. The
 * client never merges: it asks, and shows what the server answers.
 */
import type { PreviewMode } from './engine/preview';

export const PREVIEW_REQUEST = 'cloudConfigMerge/preview';
export const DOCUMENT_INFO_REQUEST = 'cloudConfigMerge/documentInfo';
/** Client → server: `{ trusted: boolean }`, at start (initializationOptions.trusted) and when trust is granted. */
export const TRUST_NOTIFICATION = 'cloudConfigMerge/workspaceTrust';

/** Files are URIs; open editors' unsaved text is used where there is one. */
export interface PreviewParams {
  mode: PreviewMode;
  /** User-data files (or drop-ins for `confd`), in merge order. */
  files: string[];
  /** Boot mode: the other layers, as URIs. */
  boot?: { cloudCfg?: string; confd?: string[]; vendor?: string; vendor2?: string; dsConfig?: string; runtimeCfg?: string; cmdlineCfg?: string; builtinCfg?: string };
  /** Leave one part out (1-based index into `files`), for the "Compare" action. */
  exclude?: number;
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
