/**
 * The schema problems of merged system config (confd mode: outcome/schema.ts systemSchemaOf) in words,
 * with where cloud-init reports them (schema/systemConfig.ts): the preview's header section and
 * `--check`'s text share the heading and the item lines.
 */
import type { SystemSchemaReport } from '../outcome/schema';
import type { MergedProblem } from '../outcome/mergedSchema';
import { systemSchemaVerdict } from '../schema/systemConfig';
import type { CloudInitVersion } from '../version/versions';

/** The heading line (no comment mark); empty when there is nothing to report. */
export function systemSchemaHeading(report: SystemSchemaReport, version: CloudInitVersion, maxProblems?: number): string {
  const { errors, deprecations, truncated } = report;
  if (!errors.length && !deprecations.length) return '';
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const stopped = truncated ? ` before the check stopped at ${maxProblems} problems` : '';
  return `Schema of this system config (${count(errors.length, 'error')}, ${count(deprecations.length, 'deprecation')}${stopped}): ${systemSchemaVerdict(version, !errors.length)}:`;
}

/** Each problem: what it is and cloud-init's path and message. */
export function systemSchemaItems(report: SystemSchemaReport): Array<{ text: string; problem: MergedProblem }> {
  return [...report.errors.map((p) => ({ text: `error: ${p.path}: ${p.message.trim()}`, problem: p })), ...report.deprecations.map((p) => ({ text: `deprecated: ${p.path}: ${p.message.trim()}`, problem: p }))];
}

/** `--check`'s text for confd mode: the heading, then each problem with its file and line. */
export function systemSchemaText(report: SystemSchemaReport, version: CloudInitVersion): string {
  const heading = systemSchemaHeading(report, version);
  if (!heading) return '';
  const place = (p: MergedProblem) => (p.source ? ` (${p.source.file}:${p.source.line + 1})` : '');
  return [heading, ...systemSchemaItems(report).map((i) => `  ${i.text}${place(i.problem)}`)].join('\n') + '\n';
}
