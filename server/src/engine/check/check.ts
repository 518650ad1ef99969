/**
 * The one check of a run: every finding, with its file, place, code, severity and words, as the editor's
 * diagnostics show it and `--check` (text, JSON, SARIF), `--check --each` and `--lint` write it.
 *
 *  - Each document the run reads (its parts, layers, drop-ins, a seed's meta-data and network-config) is
 *    analysed as the language server analyses an open document (lint/analyzeDocument.ts, with the schema of
 *    the run's cloud-init): merge specs, schema, templates, network-config, meta-data.
 *  - A document that no user-data merge covers (a file checked alone, a seed's parts) gets the boot plan of
 *    its own value, as the editor plans a document in no set (planAlone).
 *  - The run itself adds its findings (runFindings.ts: fates, the merged result's schema problems, the plan's
 *    pitfalls) in the files that wrote the values, less what a file's own check says already.
 */
import { analyzeDocument, type AnalyzeOptions, type DocumentAnalysis } from '../lint/analyzeDocument';
import type { AutoinstallJson } from '../autoinstall/report';
import type { Severity } from '../findings/findings';
import { LineIndex } from '../text/lineIndex';
import { PyDict } from '../py/values';
import { textLocator } from '../outcome/locate';
import { planBoot, type PlanOptions } from '../plan/plan';
import { planPitfalls } from '../plan/pitfalls';
import { withOtherTools } from '../plan/otherTool';
import type { Target } from '../version/target';
import { inFile, pitfallFindings, type RunFinding } from './runFindings';

type Position = { line: number; character: number };

/**
 * Most schema problems looked for in one document or run: ten times the diagnostics the editor shows, so
 * those shown are still the most severe of many (finding 200,000 took seconds on every edit).
 */
export const MAX_SCHEMA_PROBLEMS = 10_000;

/** A finding of the check, placed in its file (0-based, as LSP places it). */
export interface CheckFinding {
  file: string;
  start: Position;
  end: Position;
  code: string;
  severity: Severity;
  message: string;
  /** `document`: the file's own analysis; `run`: the run of the set it is in (fates, merged schema, pitfalls). */
  origin: 'document' | 'run';
}

export interface DocumentInput {
  path: string;
  text: string;
  /** Read as that seed file whatever its name and content (`--type`). */
  kind?: AnalyzeOptions['kind'];
}

export interface DocumentsCheck {
  findings: CheckFinding[];
  /** Files that are cloud-init documents (the others are skipped, as the editor skips them). */
  checked: number;
  /** The messages of each file's own schema findings: the run's merged-schema problems are not said again. */
  ownSchema: Map<string, Set<string>>;
  /** Subiquity's verdict on each file that is an autoinstall config. */
  autoinstall: Map<string, AutoinstallJson>;
}

export interface DocumentsOptions extends AnalyzeOptions {
  /** Plan each cloud-config document on its own for this image (documents that no user-data merge covers). */
  planAlone?: Target;
  /** The plan's options (a custom cloud.cfg). */
  planOptions?: PlanOptions;
}

/** The documents' own findings, one file at a time (a long list is never all in memory). */
export function checkDocuments(files: Iterable<DocumentInput>, options: DocumentsOptions): DocumentsCheck {
  const out: DocumentsCheck = { findings: [], checked: 0, ownSchema: new Map(), autoinstall: new Map() };
  const { planAlone: target, planOptions, ...analyze } = options;
  for (const { path, text, kind } of files) {
    const analysis = analyzeDocument(text, path, kind ? { ...analyze, kind } : analyze);
    if (!analysis.info) continue;
    out.checked++;
    const lines = new LineIndex(text);
    const own = new Set<string>();
    for (const f of analysis.findings) {
      out.findings.push({ file: path, start: lines.position(f.span.start), end: lines.position(f.span.end), code: f.code, severity: f.severity, message: f.message, origin: 'document' });
      if (f.code.startsWith('schema-')) own.add(f.message);
    }
    out.ownSchema.set(path, own);
    if (analysis.autoinstall) out.autoinstall.set(path, analysis.autoinstall);
    if (target) for (const f of planAlone(analysis, text, path, target, planOptions)) out.findings.push(placed(f, 'document'));
  }
  return out;
}

/**
 * The boot plan of a cloud-config document on its own (its loaded value is the merged result): its
 * pitfalls, placed in it under `name`. Documents of other kinds and unreadable YAML have none.
 */
export function planAlone(analysis: DocumentAnalysis, text: string, name: string, target: Target, options: PlanOptions = {}): RunFinding[] {
  const loaded = analysis.yaml;
  if (analysis.info?.kind !== 'cloud-config' || !loaded?.ok || analysis.yamlBase === undefined) return [];
  const value = loaded.value instanceof PyDict ? loaded.value : null;
  const plan = planBoot(value, target, options);
  if (!plan.ok) return [];
  const locate = textLocator([{ name, text, base: analysis.yamlBase }]);
  // A file written for another tool (coreos-cloudinit, Ignition, autoinstall without #cloud-config) is named so, once.
  const named = withOtherTools(planPitfalls(plan.plan, value, locate, () => text), plan.plan, value, locate, [{ name, text }]);
  return pitfallFindings({ plan: plan.plan, pitfalls: named.pitfalls, merged: value, locate }, target);
}

/** Every finding of the check: the documents' own, then the run's in each document, less what a document says already. */
export function checkFindings(documents: DocumentsCheck, run: readonly RunFinding[] = []): CheckFinding[] {
  const out = documents.findings.slice();
  if (!run.length) return out;
  const whole = run.filter((f) => f.at === null);
  for (const [file, own] of documents.ownSchema) {
    for (const f of whole) out.push({ file, start: { line: 0, character: 0 }, end: { line: 0, character: 0 }, code: f.code, severity: f.severity, message: f.message, origin: 'run' });
    for (const f of inFile(run, file, own)) out.push(placed(f, 'run'));
  }
  return out;
}

function placed(f: RunFinding, origin: CheckFinding['origin']): CheckFinding {
  const at = f.at!;
  return { file: at.file, start: { line: at.line, character: at.character }, end: { line: at.endLine, character: at.endCharacter }, code: f.code, severity: f.severity, message: f.message, origin };
}

/**
 * Whether a finding fails `--check`, `--check --each` and `--lint` (exit 1): errors and warnings, except
 * where another verdict decides: cloud-init's own schema verdict for `schema-*` and `merged-schema-*` in
 * `--check`, and `--fail-on` for fates.
 */
export function failsCheck(f: CheckFinding, schemaVerdict: boolean): boolean {
  if (f.severity !== 'error' && f.severity !== 'warning') return false;
  if (f.code.startsWith('fate-')) return false;
  if (schemaVerdict && (f.code.startsWith('schema-') || f.code.startsWith('merged-schema-'))) return false;
  return true;
}
