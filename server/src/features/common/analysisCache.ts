/**
 * One analysis per document version and settings, shared by diagnostics,
 * hover, completion, code actions and documentInfo: on a 20,000-line file
 * the analysis is the expensive step, so it runs once per edit, not per request.
 */
import { validatedByRedHatYaml } from './redHatYaml';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Position, Range } from 'vscode-languageserver';
import { analyzeDocument, DocumentAnalysis } from '../../engine/lint/analyzeDocument';
import { LoadedCustomMergers, NO_CUSTOM_MERGERS } from './customMergers';
import { LineIndex } from '../../engine/text/lineIndex';
import { TextSpan } from '../../engine/py/values';
import { ServerSettings, analysisKey } from './settings';
import type { InstanceDataChoice } from '../../engine/template/instanceData';

/** A snapshot: the text and analysis of one version of a document. */
export class DocumentState {
  private index?: LineIndex;
  private readonly memos = new Map<string, unknown>();

  constructor(
    readonly uri: string,
    readonly version: number,
    readonly languageId: string,
    readonly text: string,
    readonly settings: ServerSettings,
    readonly analysis: DocumentAnalysis,
    readonly millis: number,
    /** The custom mergers this analysis knew (declared in settings, trusted workspaces only). */
    readonly custom: LoadedCustomMergers = NO_CUSTOM_MERGERS,
  ) {}

  /** A value derived from this version's text, computed once (features share the snapshot). */
  memo<T>(key: string, compute: () => T): T {
    if (!this.memos.has(key)) this.memos.set(key, compute());
    return this.memos.get(key) as T;
  }

  get lines(): LineIndex {
    return (this.index ??= new LineIndex(this.text));
  }

  offsetAt(position: Position): number {
    return this.lines.offset(position);
  }

  positionAt(offset: number): Position {
    return this.lines.position(offset);
  }

  range(span: TextSpan): Range {
    return { start: this.lines.position(span.start), end: this.lines.position(span.end) };
  }

  /** The text of the line holding `offset`, and where it starts. */
  lineAt(offset: number): { text: string; start: number; line: number } {
    const { line } = this.lines.position(offset);
    const start = this.lines.lineStart(line);
    let end = this.text.indexOf('\n', start);
    if (end < 0) end = this.text.length;
    if (end > start && this.text.charCodeAt(end - 1) === 13) end--;
    return { text: this.text.slice(start, end), start, line };
  }
}

/** The path part of a URI, for the file-name rules (`cloud.cfg.d/*.cfg`). */
export function uriPath(uri: string): string {
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}

export { MAX_SCHEMA_PROBLEMS } from '../../engine/check/check';
import { MAX_SCHEMA_PROBLEMS } from '../../engine/check/check';

/** Analyses one version of a document (uncached: for documents that are not open). */
export function analyze(document: TextDocument, settings: ServerSettings, custom: LoadedCustomMergers = NO_CUSTOM_MERGERS, instanceData?: InstanceDataChoice): DocumentState {
  const text = document.getText();
  const started = performance.now();
  const path = uriPath(document.uri);
  const analysis = analyzeDocument(text, path, {
    languageId: document.languageId,
    maxBytes: settings.limits.maxFileBytes,
    maxDepth: settings.limits.maxDepth,
    version: settings.cloudInitVersion,
    netplan: settings.target.netplan,
    netplanVersion: settings.target.netplanVersion,
    subiquity: settings.target.subiquity ?? null,
    schema: settings.schema.enable && !validatedByRedHatYaml(document.uri, settings.schema.validatedByRedHatYaml),
    maxSchemaProblems: MAX_SCHEMA_PROBLEMS,
    customMergers: custom.modules.size ? custom.modules : undefined,
    instanceData,
    cloud: settings.cloud || undefined,
    maxDecompressedBytes: settings.limits.maxDecompressedBytes,
    secretsAsErrors: settings.secrets.asErrors,
  });
  return new DocumentState(document.uri, document.version, document.languageId, text, settings, analysis, performance.now() - started, custom);
}

export class AnalysisCache {
  private readonly entries = new Map<string, { key: string; state: DocumentState }>();

  constructor(private readonly analysed?: (state: DocumentState) => void) {}

  get(document: TextDocument, settings: ServerSettings, custom: LoadedCustomMergers = NO_CUSTOM_MERGERS, instanceData?: { key: string; choice: InstanceDataChoice }): DocumentState {
    const key = `${analysisKey(settings)}|${document.languageId}|${custom.key}|${instanceData?.key ?? ''}`;
    const hit = this.entries.get(document.uri);
    if (hit && hit.key === key && hit.state.version === document.version) return hit.state;
    const state = analyze(document, settings, custom, instanceData?.choice);
    this.entries.set(document.uri, { key, state });
    this.analysed?.(state);
    return state;
  }

  delete(uri: string): void {
    this.entries.delete(uri);
  }

  clear(): void {
    this.entries.clear();
  }
}
