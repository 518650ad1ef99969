/**
 * The merged result's schema problems, derived from an outcome: the
 * cloud-config.txt a user-data run writes, validated as `cloud-init schema
 * --system` validates it on the instance, each problem placed in the part
 * that wrote the value (mergedSchema.ts). The preview's header, the
 * set's diagnostics, `--check` and the report all read this.
 */
import { LimitExceededError, Limits } from '../limits';
import { PyError } from '../py/errors';
import { CloudInitVersion } from '../spec/parse';
import { originAt, readBackOf, validateMerged, validateMergedText, type ReadBack, type MergedProblem, type MergedSchemaReport } from './mergedSchema';
import { problemPlace, validateCloudConfig, type SchemaProblem, type TextSchemaReport } from '../schema/validate';
import { systemConfigForSchema } from '../schema/systemConfig';
import type { Outcome } from './run';
import { TopLevelMemo } from '../schema/topLevelMemo';

/**
 * The schema report of the last cloud-config.txt validated: a refresh whose merged text did not change
 * (an edit of a comment, or of a value that loses to another part's) does not parse and validate it again.
 * The report depends on the text and the version only; problems are placed in the files afresh.
 */
export class SchemaReportCache {
  private last: { text: string; version: CloudInitVersion; maxProblems: number; report: TextSchemaReport } | undefined;
  /** The top-level keys' errors of the last check, per version: an edit of one key walks only that key again. */
  private readonly memos = new Map<CloudInitVersion, TopLevelMemo>();

  report(text: string, version: CloudInitVersion, maxProblems = Infinity, loaded?: () => ReadBack | undefined): TextSchemaReport {
    const last = this.last;
    if (last && last.version === version && last.maxProblems === maxProblems && last.text === text) return last.report;
    let memo = this.memos.get(version);
    if (!memo) this.memos.set(version, (memo = new TopLevelMemo()));
    const report = validateMergedText(text, version, maxProblems, loaded?.(), memo);
    // Without the loaded value: nothing reads it, and it is as large as the merged result.
    this.last = { text, version, maxProblems, report: { ...report, value: undefined, rootSpan: undefined } };
    return report;
  }
}

export interface MergedSchemaOptions {
  /** Most problems looked for (the editor bounds them); the report says where it stopped. */
  maxProblems?: number;
  cache?: SchemaReportCache;
}

/** What the check of the merged result says: its report, or why it was not checked. */
export type MergedSchema = { checked: true; schema: MergedSchemaReport } | { checked: false; reason: string; limit?: keyof Limits };

/**
 * The merged cloud-config.txt checked against the outcome's cloud-init version (user-data and handler
 * modes; the other modes write no cloud-config.txt: undefined).
 */
export function mergedSchemaOf(outcome: Outcome, options: MergedSchemaOptions = {}): MergedSchema | undefined {
  if (outcome.kind !== 'user-data') return undefined;
  const run = outcome.run;
  if (run.fatal || run.renderError) return { checked: false, reason: 'cloud-init writes no cloud-config.txt' };
  const version = outcome.options.version ?? 'current';
  try {
    const loaded = () => readBackOf(run);
    const report = options.cache?.report(run.cloudConfigTxt, version, options.maxProblems, loaded) ?? validateMergedText(run.cloudConfigTxt, version, options.maxProblems, loaded());
    return { checked: true, schema: validateMerged(run, version, outcome.locate, report) };
  } catch (e) {
    if (e instanceof LimitExceededError) return { checked: false, reason: e.message, limit: e.limit };
    if (e instanceof PyError) return { checked: false, reason: `cloud-init's validator raises ${e.pyType}: ${e.message}` };
    throw e;
  }
}

/** The schema problems of merged system config (confd mode), each placed in the drop-in or cloud.cfg that wrote it. */
export interface SystemSchemaReport {
  errors: MergedProblem[];
  deprecations: MergedProblem[];
  truncated?: boolean;
}

/**
 * The merged system config (cloud.cfg.d drop-ins, cloud.cfg) checked against the outcome's schema as
 * cloud-init holds system config to it (schema/systemConfig.ts): without `system_info`; undefined for
 * the other modes.
 */
export function systemSchemaOf(outcome: Outcome, options: MergedSchemaOptions = {}): { checked: true; schema: SystemSchemaReport } | { checked: false; reason: string; limit?: keyof Limits } | undefined {
  if (outcome.kind !== 'confd') return undefined;
  const value = systemConfigForSchema(outcome.result.value, outcome.options.version ?? 'current');
  try {
    const report = validateCloudConfig(value, outcome.options.version ?? 'current', undefined, options.maxProblems);
    const place = (deprecation: boolean) => (p: SchemaProblem): MergedProblem => {
      const { segments, on } = problemPlace(value, p, deprecation);
      const origin = originAt(value, segments);
      return { ...p, source: origin ? outcome.locate(origin, on === 'key' && origin.key ? 'key' : 'value') : null };
    };
    return { checked: true, schema: { errors: report.errors.map(place(false)), deprecations: report.deprecations.map(place(true)), ...(report.truncated ? { truncated: true } : {}) } };
  } catch (e) {
    if (e instanceof LimitExceededError) return { checked: false, reason: e.message, limit: e.limit };
    if (e instanceof PyError) return { checked: false, reason: `cloud-init's validator raises ${e.pyType}: ${e.message}` };
    throw e;
  }
}
