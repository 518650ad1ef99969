/**
 * The findings of one run (an Outcome), placed where they are written: the fates the merge decides against
 * a value, the merged result's schema problems on the part that wrote the value, and the boot plan's
 * pitfalls. The editor's diagnostics, `--check` (text, JSON, SARIF) and `--lint` all take them from here,
 * with the same codes, severities and words: a face only chooses which files it shows them in.
 */
import type { Severity } from '../findings/findings';
import { severityOf, type FindingCode } from '../findings/codes';
import { EFFECTS, type EffectKind, type EffectWeight } from '../outcome/effects';
import { fatesOf, type FateReport } from '../outcome/fates';
import { inFileText, type SourceLocation } from '../outcome/locate';
import type { Outcome } from '../outcome/run';
import { mergedSchemaOf } from '../outcome/schema';
import type { MergedSchemaReport } from '../outcome/mergedSchema';
import { planOfOutcome, type OutcomePlan } from '../plan/ofOutcome';
import type { PlanFix } from '../plan/pitfalls';
import type { PlanOptions } from '../plan/plan';
import type { Target } from '../version/target';

/** A finding of a run: `at` in a file's own text, or null for the run as a whole (it does not merge, a check stopped). */
export interface RunFinding {
  code: FindingCode | `fate-${EffectKind}`;
  severity: Severity;
  message: string;
  at: SourceLocation | null;
  /** Other places the finding speaks of (the value that decides a fate, the part where the merge starts). */
  related?: Array<{ at: SourceLocation; message: string }>;
  /** What a quick fix needs: the fate (its kind and path) or the plan's fix. */
  fate?: { kind: EffectKind; path: string };
  planFix?: PlanFix;
}

/** A fate's severity from its effect's weight; hints (appended, prepended) are inlay hints, not findings. */
const FATE_SEVERITY: Record<EffectWeight, Severity | null> = { warning: 'warning', information: 'info', hint: null };

export interface RunFindingsOptions {
  /** The merged result's schema problems (undefined: not checked). */
  schema?: MergedSchemaReport;
  /** The boot plan of the run, when the run has one (user-data runs on a known image). */
  plan?: { target: Target; options?: PlanOptions };
  /** The fates, when the caller has them already. */
  fates?: FateReport;
}

export interface RunFindings {
  findings: RunFinding[];
  fates: FateReport;
  plan?: OutcomePlan | { error: string };
}

export function runFindings(outcome: Outcome, options: RunFindingsOptions = {}): RunFindings {
  const findings: RunFinding[] = [];
  const fates = options.fates ?? fatesOf(outcome);
  const firstFile = outcome.inputs.files[0]?.name;
  const firstPart: RunFinding['related'] = firstFile !== undefined ? [{ at: { file: firstFile, source: 0, line: 0, character: 0, endLine: 0, endCharacter: 0 }, message: `the first part of the set, merged in ${outcome.mode} mode` }] : undefined;
  if (fates.failure) {
    findings.push({ code: 'set-not-merged', severity: 'info', at: null, message: `The fates of the set (${outcome.mode}) cannot be shown: ${fates.failure}` });
  }
  for (const fate of fates.fates) {
    const severity = FATE_SEVERITY[EFFECTS[fate.kind].weight];
    const at = inFileText(fate.at);
    if (severity === null || !at) continue;
    const related = fate.by ? [{ at: fate.by, message: `${fate.kind === 'lost' || fate.kind === 'overridden' ? 'the value kept' : 'the value that decides'}: \`${fate.path}\`` }] : undefined;
    findings.push({ code: `fate-${fate.kind}`, severity, at, message: fate.message, ...(related ? { related } : {}), fate: { kind: fate.kind, path: fate.path } });
  }
  const schema = options.schema;
  if (schema?.report.truncated) {
    findings.push({ code: 'limit-exceeded', severity: 'warning', at: null, message: `The check of the merged result against cloud-init's schema stopped after ${schema.report.errors.length + schema.report.deprecations.length} problems: \`cloud-config-merge --check\` lists them all.` });
  }
  for (const [problems, code] of [
    [schema?.errors ?? [], 'merged-schema-error'],
    [schema?.deprecations ?? [], 'merged-schema-deprecation'],
  ] as const) {
    for (const p of problems) {
      const at = inFileText(p.source);
      if (!at) continue;
      findings.push({ code, severity: severityOf(code), at, message: `${MERGED_PREFIX}${p.path}: ${p.message.trim()}`, ...(firstPart ? { related: firstPart } : {}) });
    }
  }
  let plan: RunFindings['plan'];
  if (options.plan && outcome.kind === 'user-data' && outcome.mode === 'user-data') {
    const { target } = options.plan;
    plan = planOfOutcome(outcome, target, options.plan.options ?? {});
    if (!('error' in plan)) findings.push(...pitfallFindings(plan, target));
  }
  return { findings, fates, plan };
}

/**
 * The run's whole check, as a set's analysis in the editor and `--check` of a set make it: the fates, the
 * merged result's schema problems (when `schema`), the plan's pitfalls for `target`.
 */
export function runCheck(outcome: Outcome, options: { schema: boolean; maxProblems?: number; target?: Target; planOptions?: PlanOptions; fates?: FateReport }): RunFindings & { schema?: MergedSchemaReport } {
  const checked = options.schema ? mergedSchemaOf(outcome, { maxProblems: options.maxProblems }) : undefined;
  const schema = checked?.checked ? checked.schema : undefined;
  const found = runFindings(outcome, { schema, ...(options.fates ? { fates: options.fates } : {}), ...(options.target ? { plan: { target: options.target, ...(options.planOptions ? { options: options.planOptions } : {}) } } : {}) });
  return { ...found, schema };
}

/** The plan's pitfalls as findings (hints, a key read once per instance, are the hover's to say). */
export function pitfallFindings(plan: OutcomePlan, target: Target): RunFinding[] {
  const out: RunFinding[] = [];
  for (const pit of plan.pitfalls) {
    if (pit.severity === 'hint') continue;
    const at = inFileText(pit.at);
    if (!at) continue;
    out.push({ code: pit.code, severity: pit.severity, at, message: `${pit.message} (our boot-plan check, for ${target.distro} with cloud-init ${target.version})`, ...(pit.fix ? { planFix: pit.fix } : {}) });
  }
  return out;
}

const MERGED_PREFIX = "in the merged result, cloud-init's schema reports: ";

/**
 * A file's findings of the run, less the merged result's schema problems that the file's own check
 * already reports (`own`: the messages of its own `schema-*` findings): a problem is not said twice.
 */
export function inFile(findings: readonly RunFinding[], file: string, own: ReadonlySet<string>): RunFinding[] {
  return findings.filter((f) => f.at?.file === file && !(f.code.startsWith('merged-schema-') && reportedAlready(own, f.message.slice(MERGED_PREFIX.length))));
}

/** Own messages may be shortened with a trailing '…'. */
function reportedAlready(own: ReadonlySet<string>, message: string): boolean {
  if (own.has(message)) return true;
  for (const m of own) if (m.endsWith('…') && message.startsWith(m.slice(0, -1))) return true;
  return false;
}
