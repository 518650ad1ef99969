/**
 * `--format report`: an outcome as one JSON document: the merged `result`, the parts, diagnostics,
 * provenance, what the merge lost, the fates and (user-data) the merged result's schema problems, each
 * derived from the one outcome, so the report names every file the way every other answer does.
 */
import { PyValue } from '../py/values';
import { toCanonicalJson } from '../py/json';
import { SourceLocation, displayPath, locationJson } from '../outcome/locate';
import { collectProvenance, stepEffects } from '../outcome/provenance';
import { type MergedProblem } from '../outcome/mergedSchema';
import { MergeLosses, lossesOf } from '../outcome/losses';
import { SourceNames, sourceNames } from '../outcome/parts';
import { mergedSchemaOf } from '../outcome/schema';
import { fatesOf } from '../outcome/fates';
import { hasFates } from '../outcome/mode';
import { Outcome } from '../outcome/run';
import { coded, type FindingCode } from '../findings/codes';
import { fatesJson } from './fatesText';

/** How the report is written: indentation, and the expansion limit for aliased values. */
export interface ReportFormat {
  pretty: boolean;
  /** `maxExpandedNodes`: the most nodes a value may expand to in JSON. */
  maxNodes?: number;
}

/**
 * Builds one report. Python's JSON has NaN and Infinity, which JSON.parse refuses: the canonical
 * text of each loaded value is kept as it is and put in place by serialize().
 */
class ReportJson {
  private readonly raw: string[] = [];
  constructor(private readonly format: ReportFormat) {}

  json(value: PyValue): unknown {
    this.raw.push(toCanonicalJson(value, { maxNodes: this.format.maxNodes }).text);
    return `__RAW_JSON_${this.raw.length - 1}__`;
  }

  serialize(report: Record<string, unknown>, result: PyValue | null): string {
    const { pretty, maxNodes } = this.format;
    const resultText = toCanonicalJson(result, { pretty, maxNodes }).text;
    const placeholder = '"__RESULT_PLACEHOLDER__"';
    const text = JSON.stringify({ ...report, result: '__RESULT_PLACEHOLDER__' }, null, pretty ? 2 : undefined);
    return text.replace(/"__RAW_JSON_(\d+)__"/g, (_, i: string) => this.raw[Number(i)]).replace(placeholder, () => resultText);
  }
}

function display(location: SourceLocation | null | undefined) {
  return location ? locationJson(location) : null;
}

/**
 * `cloud-init schema --system` on the run's cloud-config.txt, each problem with the file, line and column
 * that wrote the value (null where provenance has no place); `checked: false` with the reason when it
 * could not be validated (nothing written, or over the maxExpandedNodes limit).
 */
function schemaSection(outcome: Outcome) {
  const version = outcome.options.version ?? 'current';
  const checked = mergedSchemaOf(outcome);
  if (!checked?.checked) return { cloud_init_version: version, checked: false, reason: checked?.reason ?? 'cloud-init writes no cloud-config.txt' };
  const m = checked.schema;
  const item = (p: MergedProblem) => ({ path: p.path, message: p.message, ...(display(p.source) ?? { file: null, line: null, column: null }) });
  return { cloud_init_version: version, checked: true, valid: m.valid, errors: m.errors.map(item), deprecations: m.deprecations.map(item) };
}

/** The report of an outcome, in its mode's shape; `fates` first where the mode has them. */
export function reportOf(outcome: Outcome, format: ReportFormat): string {
  const fates = hasFates(outcome.mode) ? { fates: fatesJson(fatesOf(outcome)) } : {};
  switch (outcome.kind) {
    case 'user-data':
      return userDataReport(outcome, fates, format);
    case 'confd':
    case 'system':
      return systemReport(outcome, fates, format);
    case 'boot':
      return bootReport(outcome, fates, format);
    case 'chef':
      return chefReport(outcome, format);
    case 'failed':
      throw new Error('a failed run has no report: the face says why it failed');
  }
}

function userDataReport(outcome: Extract<Outcome, { kind: 'user-data' }>, fates: object, format: ReportFormat): string {
  const w = new ReportJson(format);
  const { run, locate, mode } = outcome;
  const parts = run.reports.map((r) => {
    const h = r.handled;
    const mergeHeaders = Object.fromEntries(r.part.headers.filter((x) => /^(x-)?merge-type$/i.test(x.name)).map((x) => [x.name, x.value]));
    return {
      number: r.part.number,
      filename: r.part.filename,
      file: run.sources[r.part.blob]?.name,
      content_type: r.part.contentType,
      declared_type: r.part.declaredType,
      route: r.part.route,
      disposition: r.disposition,
      note: r.note,
      merge_headers: mergeHeaders,
      spec: h
        ? {
            body: h.body ? { key: h.body.key, value: w.json(h.body.raw) } : null,
            header: h.header ? { name: h.header.name, value: h.header.value } : null,
            effective: h.effective?.map((m) => [w.json(m.name), w.json(m.options)]) ?? null,
            defaulted: h.defaulted ?? null,
            leftover_merge_type: h.leftoverMergeType ?? false,
          }
        : null,
      error: h?.error ? { kind: h.error.pyType, stage: h.error.stage, message: h.error.message, detail: h.error.detail ?? null } : null,
      jinja: r.jinja ? { missing_variables: r.jinja.missingVariables, rendered_type: r.jinja.subType ?? null, error: r.jinja.error ?? null } : null,
      effects: stepEffects(h?.events, locate).map((e) => ({ path: displayPath(e.path), what: e.what, reason: e.reason, from: display(e.from), at: display(e.at) })),
    };
  });
  const diagnostics: Array<{ severity: string; code: FindingCode; message: string; file: string | null | undefined; part: number | null }> = run.messages.map((m) => ({
    severity: m.level,
    code: m.code,
    message: m.message,
    file: m.blob !== undefined ? run.sources[m.blob]?.name : null,
    part: m.part ?? null,
  }));
  if (run.fatal) diagnostics.unshift({ ...coded(run.fatal.limit ? 'over-limit' : 'user-data-failed'), message: `${run.fatal.pyType}: ${run.fatal.message}`, file: run.fatal.source !== undefined ? run.sources[run.fatal.source]?.name : null, part: null });
  if (run.renderError) diagnostics.unshift({ ...coded('cloud-config-txt-not-written'), message: `writing cloud-config.txt raises ${run.renderError}: cloud-init writes no file`, file: null, part: null });
  const provenance = run.result === null ? { entries: [], truncated: false } : collectProvenance(run.result, locate);
  return w.serialize(
    {
      ...fates,
      mode,
      cloud_config_txt: run.cloudConfigTxt,
      parts,
      diagnostics,
      provenance: provenance.entries.map((p) => ({ path: p.path.map((s) => (typeof s === 'number' ? s : w.json(s))), ...display(p.location) })),
      provenance_truncated: provenance.truncated,
      schema: schemaSection(outcome),
      // What the merge lost, as the preview's "What this merge lost" section says it.
      lost: lostOf(outcome),
    },
    run.result
  );
}

/**
 * A "What this … lost" section as JSON: each value with the source that had it (`part`, `file`,
 * `layer`: named by `unit`) and the source whose merge displaced it (`by_part`, …).
 */
function lostOf(outcome: Outcome) {
  const losses = lossesOf(outcome);
  const names = sourceNames(outcome);
  return losses && names ? lostReport(losses, names) : undefined;
}

function lostReport(losses: MergeLosses, names: SourceNames) {
  const { unit } = names;
  const source = (i: number) => names.id(i);
  return {
    total: losses.total,
    values: losses.groups.flatMap((g) =>
      g.values.map((v) => ({ [unit]: g.owner < 0 ? null : source(g.owner), [`by_${unit}`]: source(g.by), path: v.path, value: v.value, what: v.what, reason: v.reason, at: display(v.at), by: display(v.by) })),
    ),
    ignored_options: losses.ignored.map((i) => ({ [unit]: source(i.part), merger: i.merger, option: i.option, instead: i.instead })),
    [`dropped_${unit}s`]: losses.dropped.map((d) => ({ [unit]: source(d.part), reason: d.reason })),
  };
}

function systemReport(outcome: Extract<Outcome, { kind: 'confd' | 'system' }>, fates: object, format: ReportFormat): string {
  const w = new ReportJson(format);
  const result = outcome.result;
  const files: Array<(typeof result.files)[number] & { rank?: number; step?: { spec?: Array<{ name: PyValue; options: PyValue }>; defaulted?: boolean; leftoverMergeType?: boolean } }> = result.files;
  const provenance = collectProvenance(result.value, outcome.locate);
  return w.serialize(
    {
      ...fates,
      mode: outcome.mode,
      parts: files.map((f, i) => {
        const step = outcome.kind === 'system' ? outcome.result.steps[i] : f.step;
        return {
          file: f.file.name,
          used: f.used,
          rank: f.rank ?? null,
          spec: step?.spec?.map((m) => [w.json(m.name), w.json(m.options)]) ?? null,
          defaulted: step?.defaulted ?? null,
          leftover_merge_type: step?.leftoverMergeType ?? false,
          warnings: f.read?.warnings ?? [],
        };
      }),
      diagnostics: (outcome.kind === 'confd' ? outcome.result.notes : []).map((n) => ({ severity: 'info', message: n })),
      provenance: provenance.entries.map((p) => ({ path: p.path.map((s) => (typeof s === 'number' ? s : w.json(s))), ...display(p.location) })),
      provenance_truncated: provenance.truncated,
      // confd: what a drop-in (or cloud.cfg) lost to the files merged before it, as the preview says it
      ...(outcome.kind === 'confd' ? { lost: lostOf(outcome) } : {}),
    },
    result.value
  );
}

function bootReport(outcome: Extract<Outcome, { kind: 'boot' }>, fates: object, format: ReportFormat): string {
  const w = new ReportJson(format);
  const result = outcome.boot;
  return w.serialize(
    {
      ...fates,
      mode: 'boot',      layers: result.layers.map((l) => ({ layer: l.layer, spec: l.step?.spec?.map((m) => [w.json(m.name), w.json(m.options)]) ?? null, defaulted: l.step?.defaulted ?? null })),
      user_data_skipped: result.userDataSkipped ?? null,
      vendor_skipped: result.vendorSkipped,
      cloud_config_txt: result.userData?.cloudConfigTxt ?? null,
      vendor_cloud_config_txt: result.vendor?.cloudConfigTxt ?? null,
      vendor2_cloud_config_txt: result.vendor2?.cloudConfigTxt ?? null,
      parts: [...(result.userData?.reports ?? []), ...(result.vendor?.reports ?? []), ...(result.vendor2?.reports ?? [])].map((r) => ({ filename: r.part.filename, content_type: r.part.contentType, disposition: r.disposition, note: r.note })),
      diagnostics: result.notes.map((n) => ({ severity: 'info', message: n })),
      provenance: [],
      // what user-data took over vendor-data and the system config, as the preview says it
      lost: lostOf(outcome),
    },
    result.value
  );
}

function chefReport(outcome: Extract<Outcome, { kind: 'chef' }>, format: ReportFormat): string {
  const w = new ReportJson(format);
  const { loaded, result, locate } = outcome;
  const provenance = collectProvenance(result.merged, locate);
  return w.serialize(
    {
      mode: 'chef',
      files: loaded.texts.map((file, i) => ({ file: file.name, kind: result.kinds[i] })),
      default_attributes: w.json(result.defaults),
      override_attributes: w.json(result.overrides),
      diagnostics: result.notices.map((n) => ({ ...coded(n.kind), path: n.path, message: n.message, at: display(n.origin ? locate(n.origin, 'value') : null) })),
      provenance: provenance.entries.map((p) => ({ path: p.path.map((s) => (typeof s === 'number' ? s : w.json(s))), ...display(p.location) })),
      provenance_truncated: provenance.truncated,
    },
    result.merged
  );
}
