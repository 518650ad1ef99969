/**
 * Push diagnostics: debounced per document (the latest text wins; the wait adapts to the document,
 * see common/quietTime.ts), never published for a version that is no longer current, cleared on close.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Diagnostic } from 'vscode-languageserver';
import { ServerContext } from './common/context';
import { DocumentState } from './common/analysisCache';
import { guardCall } from './common/guard';
import { toDiagnostic } from './common/ranges';
import type { Finding } from '../engine/findings/findings';
import { isLimitName } from '../engine/limits';
import { SETTINGS_SECTION, ServerSettings } from './common/settings';
import { coded } from '../engine/findings/codes';
import { MAX_QUIET_MS, QuietTime } from './common/quietTime';
import { pushAll } from '../engine/arrays';

/**
 * Most diagnostics published for one document. A generated or hostile file can have hundreds of
 * thousands of findings (one per duplicate key): past this many, the most severe are kept and one
 * more diagnostic says how many were left out.
 */
export const MAX_DIAGNOSTICS = 1000;

/** The diagnostics of one analysed version, in document order. */
export function diagnosticsFor(state: DocumentState): Diagnostic[] {
  const byPosition = (a: Finding, b: Finding) => a.span.start - b.span.start || a.span.end - b.span.end;
  let findings = state.analysis.findings.slice();
  let omitted: Finding | undefined;
  if (findings.length > MAX_DIAGNOSTICS) {
    findings.sort((a, b) => rank(a) - rank(b) || byPosition(a, b));
    omitted = {
      ...coded('too-many-problems'),
      span: findings[MAX_DIAGNOSTICS].span,
      message: `${findings.length - MAX_DIAGNOSTICS} more problems in this document are not shown (at most ${MAX_DIAGNOSTICS}, the most severe first).`,
    };
    findings = findings.slice(0, MAX_DIAGNOSTICS);
  }
  findings.sort(byPosition);
  if (omitted) findings.push(omitted);
  return findings.map((f) => withLimitSetting(toDiagnostic(state, f)));
}

const SEVERITY_RANK: Record<Finding['severity'], number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** The findings about one of our limits (the analysis stopped there). */
const isAboutLimit = (code: unknown) => code === 'limit-exceeded' || code === 'too-large';

/** Severity first; a limit that stopped the analysis is always shown, as it says what is missing. */
function rank(f: Finding): number {
  return isAboutLimit(f.code) ? -1 : SEVERITY_RANK[f.severity];
}

/** A finding about one of our limits says which setting raises it. */
function withLimitSetting(diagnostic: Diagnostic): Diagnostic {
  if (!isAboutLimit(diagnostic.code) || typeof diagnostic.message !== 'string') return diagnostic;
  const name = /\b(max[A-Z]\w*)\b/.exec(diagnostic.message)?.[1];
  if (!name || !isLimitName(name)) return diagnostic;
  return { ...diagnostic, message: `${diagnostic.message} (setting ${SETTINGS_SECTION}.limits.${name})` };
}

/**
 * Lets the connection dispatch messages that arrived while we were busy. The JSON-RPC layer
 * dispatches from its own setImmediate, queued after ours: the second hop runs after it.
 */
async function yieldToQueuedMessages(): Promise<void> {
  for (let hop = 0; hop < 2; hop++) await new Promise((resolve) => setImmediate(resolve));
}

export class DiagnosticsFeature {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Versions as opened: the first analysis of a document is not delayed. */
  private readonly opened = new Map<string, number>();
  private readonly quietTimes = new Map<string, QuietTime>();

  /** Diagnostics other features add to a document's own (the fates of the set it belongs to). */
  private readonly extras: Array<(document: TextDocument, settings: ServerSettings) => Diagnostic[]> = [];

  constructor(private readonly ctx: ServerContext) {}

  addSource(source: (document: TextDocument, settings: ServerSettings) => Diagnostic[]): void {
    this.extras.push(source);
  }

  /**
   * Another document's edit changes this one's diagnostics: computed again after the longest quiet
   * time, as that edit may be one key of many.
   */
  refresh(uri: string): void {
    if (this.ctx.documents.get(uri)) this.schedule(uri, MAX_QUIET_MS);
  }

  register(): void {
    const { documents } = this.ctx;
    documents.onDidOpen((e) => this.opened.set(e.document.uri, e.document.version));
    documents.onDidChangeContent((e) => {
      const first = this.opened.get(e.document.uri) === e.document.version;
      this.opened.delete(e.document.uri);
      this.schedule(e.document.uri, first ? 0 : this.quietTime(e.document.uri).afterEdit(performance.now()));
    });
    documents.onDidClose((e) => this.close(e.document));
  }

  /** Settings changed: every open document is analysed again. */
  refreshAll(): void {
    for (const document of this.ctx.documents.all()) this.schedule(document.uri, 0);
  }

  private quietTime(uri: string): QuietTime {
    let quiet = this.quietTimes.get(uri);
    if (!quiet) this.quietTimes.set(uri, (quiet = new QuietTime()));
    return quiet;
  }

  private schedule(uri: string, delay: number): void {
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        void guardCall(this.ctx.log, 'diagnostics', () => this.validate(uri));
      }, delay),
    );
  }

  private async validate(uri: string): Promise<void> {
    const document = this.ctx.documents.get(uri);
    if (!document) return;
    const version = document.version;
    const settings = await this.ctx.settings(uri);
    // The document may have changed or closed while the settings were fetched: drop this run.
    const current = this.ctx.documents.get(uri);
    if (!current || current.version !== version) return;
    if (!settings.validation.enable) {
      await this.ctx.connection.sendDiagnostics({ uri, version, diagnostics: [] });
      return;
    }
    const state = this.ctx.state(current);
    const diagnosticsStart = performance.now();
    const diagnostics = diagnosticsFor(state);
    for (const extra of this.extras) pushAll(diagnostics, extra(current, settings));
    this.quietTime(uri).noteAnalysis(state.millis + (performance.now() - diagnosticsStart));
    // The analysis ran synchronously: let edits that arrived meanwhile be applied, then re-check.
    await yieldToQueuedMessages();
    if (this.ctx.documents.get(uri)?.version !== version) return;
    this.ctx.log.verbose(`[diagnostics] ${uri} v${version}: ${diagnostics.length} diagnostic(s), analysis ${state.millis.toFixed(1)} ms`);
    await this.ctx.connection.sendDiagnostics({ uri, version, diagnostics });
  }

  private close(document: TextDocument): void {
    const uri = document.uri;
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.delete(uri);
    this.opened.delete(uri);
    this.quietTimes.delete(uri);
    void this.ctx.connection.sendDiagnostics({ uri, diagnostics: [] });
  }
}
