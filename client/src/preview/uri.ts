/**
 * A preview is named by its URI, which holds everything needed to make it
 * again: the mode, the ordered files, the boot-time layers and the part left
 * out for a comparison. So a preview survives a window reload and can be
 * reopened from history. The path ends in `.yaml`, so it is highlighted.
 *
 *   cloud-config-merge-preview:/Merged user-data (3 files).yaml?{"mode":"user-data","files":[…]}
 */
import * as vscode from 'vscode';
import { type EditorPreviewMode, PREVIEW_MODES, type PreviewParams, type PreviewSource, isEditorPreviewMode } from '../../../server/src/protocol';

export const PREVIEW_SCHEME = 'cloud-config-merge-preview';

export type PreviewMode = EditorPreviewMode;
export { PREVIEW_MODES };

export interface PreviewState {
  mode: PreviewMode;
  /** URIs, in merge order. */
  files: string[];
  boot?: PreviewParams['boot'];
  /** Boot mode: the NoCloud seed these files are, as the server resolved it (a folder's URI; Save as Set keeps it). */
  seed?: string;
  /** 1-based index into `files` of the part left out. */
  exclude?: number;
  /** The one file is Terraform / Pulumi JSON (one config of it) or a rendered blob. */
  source?: PreviewSource;
  /** `data`: only the merged data, without the header or cloud-init's part comments (what Compare diffs). */
  view?: 'data';
}

export function baseName(uri: string): string {
  const path = vscode.Uri.parse(uri).path;
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1)) || uri;
}

/** A file's name without its extension: titles end in `.yaml` themselves (`Merged user-data (02-app).yaml`). */
export function stemName(uri: string): string {
  const name = baseName(uri);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * The tab title. It counts files, as picked; the header counts parts (a MIME file or an `#include`
 * holds several), so the two never disagree about one number.
 */
export function title(state: PreviewState): string {
  const n = state.files.length;
  const what = state.mode === 'confd' ? 'cloud.cfg.d' : state.mode === 'boot' ? 'boot config' : state.mode === 'chef' ? 'Chef attributes' : 'user-data';
  const parts = n === 1 ? stemName(state.files[0]) : `${n} files`;
  const without = state.exclude ? ` without ${stemName(state.files[state.exclude - 1] ?? '?')}` : '';
  const view = state.view === 'data' ? ', data only' : '';
  if (state.source?.kind === 'terraform') return `Merged user-data (${state.source.address})`.replace(/[/\\]/g, '_');
  if (state.source?.kind === 'rendered') return `Merged user-data (rendered ${parts})`.replace(/[/\\]/g, '_');
  // a slash would start a new path segment
  return `Merged ${what} (${parts})${without}${view}`.replace(/[/\\]/g, '_');
}

export function toPreviewUri(state: PreviewState): vscode.Uri {
  const clean: PreviewState = { mode: state.mode, files: state.files };
  if (state.boot && Object.values(state.boot).some((v) => v !== undefined && (!Array.isArray(v) || v.length))) clean.boot = state.boot;
  if (state.seed && state.mode === 'boot') clean.seed = state.seed;
  if (state.exclude) clean.exclude = state.exclude;
  if (state.source) clean.source = state.source;
  if (state.view === 'data') clean.view = 'data';
  return vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${title(clean)}.yaml`, query: JSON.stringify(clean) });
}

/** The state a preview URI encodes; throws on a URI this extension did not make. */
export function fromPreviewUri(uri: vscode.Uri): PreviewState {
  if (uri.scheme !== PREVIEW_SCHEME) throw new Error(`not a preview: ${uri.toString()}`);
  const raw = JSON.parse(uri.query) as Partial<PreviewState>;
  if (!raw || !Array.isArray(raw.files) || !raw.files.every((f) => typeof f === 'string')) throw new Error('the preview URI lists no files');
  const mode = isEditorPreviewMode(raw.mode) ? raw.mode : 'user-data';
  const source = sourceOf(raw.source);
  const seed = mode === 'boot' && typeof raw.seed === 'string' ? raw.seed : undefined;
  return { mode, files: raw.files, boot: raw.boot, ...(seed ? { seed } : {}), exclude: typeof raw.exclude === 'number' ? raw.exclude : undefined, view: raw.view === 'data' ? 'data' : undefined, ...(source ? { source } : {}) };
}

function sourceOf(raw: unknown): PreviewSource | undefined {
  const s = raw as Partial<{ kind: string; address: unknown }> | undefined;
  if (s?.kind === 'rendered') return { kind: 'rendered' };
  if (s?.kind === 'terraform' && typeof s.address === 'string') return { kind: 'terraform', address: s.address };
  return undefined;
}

export function isPreviewUri(uri: vscode.Uri | undefined): uri is vscode.Uri {
  return uri?.scheme === PREVIEW_SCHEME;
}

/** All source URIs a preview reads (user-data files and boot layers). */
export function sourcesOf(state: PreviewState): string[] {
  const out = [...state.files];
  const b = state.boot;
  if (b) {
    for (const v of Object.values(b)) {
      if (typeof v === 'string') out.push(v);
      else if (Array.isArray(v)) for (const item of v) out.push(item);
    }
  }
  return out;
}

/** The setting `cloudConfigMerge.preview.headerWidth` for a preview (of its first file's folder); the server bounds it. */
export function headerWidthSetting(state: PreviewState): number | undefined {
  const scope = state.files[0] ?? state.boot?.cloudCfg;
  return vscode.workspace.getConfiguration('cloudConfigMerge', scope ? vscode.Uri.parse(scope) : undefined).get<number>('preview.headerWidth');
}

export function toParams(state: PreviewState): PreviewParams {
  const params: PreviewParams = { mode: state.mode, files: state.files };
  if (state.boot) params.boot = state.boot;
  if (state.exclude) params.exclude = state.exclude;
  if (state.source) params.source = state.source;
  return params;
}
