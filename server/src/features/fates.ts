/**
 * Merge consequences where people write: in every open file of a set
 * (sets/partSets.ts), a diagnostic on each value whose fate the merge
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
import { Diagnostic, DiagnosticRelatedInformation, Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { Fate } from '../engine/outcome/fates';
import { EffectKind } from '../engine/outcome/effects';
import { SourceLocation, inFileText } from '../engine/outcome/locate';
import { inFile } from '../engine/check/runFindings';
import type { PlanFix } from '../engine/plan/pitfalls';
import { ServerContext } from './common/context';
import { DIAGNOSTIC_SOURCE, SEVERITY as DIAGNOSTIC_SEVERITY } from './common/ranges';
import { PartSets, SetAnalysis } from '../sets/partSets';
import { ServerSettings } from './common/settings';
import { describeError } from './common/log';

/** What a pitfall diagnostic carries for its quick fix (planFixes.ts). */
export interface PlanDiagnosticData {
  planFix: PlanFix;
}

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
 * The findings of the sets' runs written in this document (engine/check/runFindings.ts: fates, the merged
 * result's schema problems, the boot plan's pitfalls) as diagnostics.
 * @param ownSchema the messages of the schema problems the document's own analysis reports: a problem of the
 *   merged result that the part already shows by itself is not shown twice.
 */
export function fateDiagnostics(analyses: SetAnalysis[], document: TextDocument, ownSchema: ReadonlySet<string> = new Set()): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const analysis of analyses) {
    const prefix = analyses.length > 1 ? `${analysis.set.label}: ` : '';
    const file = analysis.nameOf(document.uri);
    // (a lone container's own analysis says what stops its run)
    const whole = analysis.set.container ? [] : analysis.findings.filter((f) => f.at === null);
    for (const f of [...whole, ...(file === undefined ? [] : inFile(analysis.findings, file, ownSchema))]) {
      const message = `${prefix}${f.code === 'set-not-merged' ? f.message.replace('the set', analysis.set.label) : f.message}`;
      const range = f.at ? toRange(f.at) : { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
      const key = `${range.start.line}:${range.start.character}:${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const related = (f.related ?? []).flatMap((r) => relatedInformation(analysis, r.at, r.message.replace('the set', analysis.set.label)));
      const data: FateDiagnosticData | PlanDiagnosticData | undefined = f.fate ? { set: analysis.set.key, kind: f.fate.kind, path: f.fate.path } : f.planFix ? { planFix: f.planFix } : undefined;
      out.push({ range, severity: DIAGNOSTIC_SEVERITY[f.severity], source: DIAGNOSTIC_SOURCE, code: f.code, message, ...(related.length ? { relatedInformation: related } : {}), ...(data ? { data } : {}) });
    }
  }
  return out;
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
