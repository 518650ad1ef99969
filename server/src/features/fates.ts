/**
 * Merge consequences where people write: in every open file of a set
 * (common/partSets.ts), a diagnostic on each value whose fate the merge
 * decides against it, with related information pointing at the value that
 * decides; and the merged result's `cloud-init schema --system` problems on
 * the part that wrote the value. Appended and prepended lists are not
 * problems: they get inlay hints (fateHints.ts). Values that survive get
 * nothing, and so does every file outside a set.
 *
 * Severities: a lost value, a deleted value and a dropped part are Warnings
 * (the part says something cloud-init never does); a replaced or overridden
 * value is Information (overriding is how layered configs are meant to work,
 * but the writer of the base value should see it).
 */
import { MAX_SCHEMA_PROBLEMS } from './common/analysisCache';
import { Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { pathToFileURL } from 'node:url';
import { Fate } from '../engine/outcome/fates';
import { EFFECTS, EffectKind, EffectWeight } from '../engine/outcome/effects';
import { SourceLocation, inFileText } from '../engine/outcome/locate';
import { ServerContext } from './common/context';
import { DIAGNOSTIC_SOURCE, SEVERITY as DIAGNOSTIC_SEVERITY } from './common/ranges';
import { severityOf } from '../engine/findings/codes';
import { PartSets, SetAnalysis } from './common/partSets';
import { ServerSettings } from './common/settings';
import { describeError } from './common/log';

/** The editor's severity for an effect's weight (engine/outcome/effects.ts); hints are inlay hints, not diagnostics. */
const SEVERITY: Record<EffectWeight, DiagnosticSeverity | null> = {
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: null,
};

/** What a fate diagnostic carries for the quick fixes (fateFixes.ts). */
export interface FateDiagnosticData {
  set: string;
  kind: EffectKind;
  path: string;
}

export function toRange(l: SourceLocation): Range {
  return { start: { line: l.line, character: l.character }, end: { line: l.endLine, character: l.endCharacter } };
}

/** The analyses of the sets this document belongs to (none: not in a set). */
export function analysesFor(sets: PartSets, document: TextDocument, settings: ServerSettings): SetAnalysis[] {
  return sets.setsOf(document.uri).map((set) => sets.analyze(set, settings));
}

/** The fates of the values written in this document, in every set it belongs to. */
export function fatesIn(analysis: SetAnalysis, uri: string): Fate[] {
  // Only those placed in the document's own text (not in a part decoded from it).
  return analysis.report.fates.filter((f) => inFileText(f.at) && analysis.uriOf(f.at!.file) === uri);
}

/**
 * @param ownSchema the messages of the schema problems the document's own analysis reports: a problem of
 *   the merged result that the part already shows by itself is not shown twice.
 */
export function fateDiagnostics(analyses: SetAnalysis[], document: TextDocument, ownSchema: ReadonlySet<string> = new Set()): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const analysis of analyses) {
    const prefix = analyses.length > 1 ? `${analysis.set.label}: ` : '';
    if (analysis.report.failure) {
      // Nothing can be said about single values: the whole set does not merge.
      out.push({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Information, source: DIAGNOSTIC_SOURCE, code: 'set-not-merged', message: `The fates of ${analysis.set.label} (${analysis.set.mode}) cannot be shown: ${analysis.report.failure}` });
      continue;
    }
    for (const fate of fatesIn(analysis, document.uri)) {
      const severity = SEVERITY[EFFECTS[fate.kind].weight];
      if (severity === null || !fate.at) continue;
      const message = `${prefix}${fate.message}`;
      const key = `${fate.at.line}:${fate.at.character}:${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const related = fate.by ? relatedInformation(analysis, fate.by, `${fate.kind === 'lost' || fate.kind === 'overridden' ? 'the value kept' : 'the value that decides'}: \`${fate.path}\``) : [];
      const data: FateDiagnosticData = { set: analysis.set.key, kind: fate.kind, path: fate.path };
      out.push({ range: toRange(fate.at), severity, source: DIAGNOSTIC_SOURCE, code: `fate-${fate.kind}`, message, ...(related.length ? { relatedInformation: related } : {}), data });
    }
    if (analysis.schema?.report.truncated) {
      out.push({ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: DiagnosticSeverity.Warning, source: DIAGNOSTIC_SOURCE, code: 'limit-exceeded', message: `${prefix}The check of the merged result against cloud-init's schema stopped after ${MAX_SCHEMA_PROBLEMS} problems: \`cloud-config-merge --check\` lists them all.` });
    }
    for (const [problems, code] of [
      [analysis.schema?.errors ?? [], 'merged-schema-error'],
      [analysis.schema?.deprecations ?? [], 'merged-schema-deprecation'],
    ] as const) {
      const severity = DIAGNOSTIC_SEVERITY[severityOf(code)];
      for (const p of problems) {
        const at = inFileText(p.source);
        if (!at || analysis.uriOf(at.file) !== document.uri) continue;
        if (reportedAlready(ownSchema, `${p.path}: ${p.message.trim()}`)) continue;
        out.push({
          range: toRange(at),
          severity,
          source: DIAGNOSTIC_SOURCE,
          code,
          message: `${prefix}in the merged result, cloud-init's schema reports: ${p.path}: ${p.message.trim()}`,
          relatedInformation: firstPartRelated(analysis),
        });
      }
    }
  }
  return out;
}

/** Own messages may be shortened with a trailing '…'. */
function reportedAlready(own: ReadonlySet<string>, message: string): boolean {
  if (own.has(message)) return true;
  for (const m of own) if (m.endsWith('…') && message.startsWith(m.slice(0, -1))) return true;
  return false;
}

function relatedInformation(analysis: SetAnalysis, l: SourceLocation, message: string): DiagnosticRelatedInformation[] {
  const uri = analysis.uriOf(l.file);
  if (!uri) return [];
  // A place in text decoded from the file: the line that stands for it (else the file's start), with the place in words.
  if (l.note) {
    const at = l.anchor ?? { line: 0, character: 0 };
    return [{ location: { uri, range: { start: at, end: at } }, message: `${message} (${l.note}: line ${l.line + 1})` }];
  }
  return [{ location: { uri, range: toRange(l) }, message }];
}

/** Schema problems of the merged result point at the set's first part, where the merge starts. */
function firstPartRelated(analysis: SetAnalysis): DiagnosticRelatedInformation[] {
  const first = analysis.set.files[0];
  if (!first) return [];
  return [{ location: { uri: pathToFileURL(first).href, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, message: `the first part of ${analysis.set.label}, merged in ${analysis.set.mode} mode` }];
}

/**
 * What the diagnostics feature adds to a document's own: the fates and merged-schema problems of the
 * sets it belongs to. A failure here is logged, never the end of the document's diagnostics.
 */
export function setDiagnostics(ctx: ServerContext, sets: PartSets, document: TextDocument, settings: ServerSettings): Diagnostic[] {
  try {
    const analyses = analysesFor(sets, document, settings);
    if (!analyses.length) return [];
    const ownSchema = new Set(ctx.state(document).analysis.findings.filter((f) => f.code.startsWith('schema-')).map((f) => f.message));
    return fateDiagnostics(analyses, document, ownSchema);
  } catch (e) {
    ctx.log.error(`fates of ${document.uri}: ${describeError(e)}`);
    return [];
  }
}

/**
 * Keeps the other open files of a set current: an edit to one part (or to a file a part `#include`s)
 * changes the fates in every other part, so their diagnostics (and hints) are computed again after the usual quiet time.
 */
export function registerFates(ctx: ServerContext, sets: PartSets, refresh: (uri: string) => void, refreshHints: () => void): void {
  const affected = (uri: string) => {
    const keys = new Set([...sets.setsOf(uri).map((s) => s.key), ...sets.includedBy(uri)]);
    const isSetFile = uri.endsWith('/cloud-config-merge.yaml');
    let any = false;
    for (const document of ctx.documents.all()) {
      if (document.uri === uri) continue;
      if (isSetFile || sets.setsOf(document.uri).some((s) => keys.has(s.key))) {
        refresh(document.uri);
        any = true;
      }
    }
    if (any || keys.size) refreshHints();
  };
  ctx.documents.onDidChangeContent((e) => affected(e.document.uri));
  ctx.documents.onDidClose((e) => {
    sets.forget(e.document);
    affected(e.document.uri);
  });
}
