/** `--format report`: `{result, parts, diagnostics, provenance}` as JSON. */
import { PyValue } from '../engine/values';
import { toCanonicalJson } from '../engine/py/json';
import { Locator, SourceLocation, collectProvenance, formatPath, partEffects, textLocator } from '../engine/provenance';
import { validateMerged, type MergedProblem } from '../engine/schema/merged';
import type { SchemaVersion } from '../engine/schema/validate';
import { LimitExceededError } from '../engine/limits';
import { PyError } from '../engine/py/errors';
import { bootLayeringLosses, userDataLocator } from '../engine/preview';
import { MergeLosses, mergeLosses } from '../engine/lost';
import { confdLosses } from '../engine/lostSystem';
import { UserDataRun } from '../engine/userdata/run';
import { ConfdResult } from '../engine/system/confd';
import { BootInputs, BootResult } from '../engine/system/boot';
import { MergeManyStep } from '../engine/system/mergemany';
import { ReadConfResult } from '../engine/system/readConf';
import { ConfigFile } from '../engine/system/readConf';
import { ChefMergeFilesResult } from '../engine/chef/deepMerge';
import { LoadedChefFiles } from '../engine/chef/files';
import { coded, type FindingCode } from '../engine/lint/codes';

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
  if (!location) return null;
  return { file: location.file, line: location.line + 1, column: location.character + 1, ...(location.note ? { note: location.note } : {}) };
}

/**
 * `cloud-init schema --system` on the run's cloud-config.txt, each problem with the file, line and column
 * that wrote the value (null where provenance has no place); `checked: false` with the reason when it
 * could not be validated (nothing written, or over the maxExpandedNodes limit).
 */
function schemaSection(run: UserDataRun, version: SchemaVersion, locate: Locator) {
  if (run.fatal || run.renderError) return { cloud_init_version: version, checked: false, reason: 'cloud-init writes no cloud-config.txt' };
  try {
    const m = validateMerged(run, version, locate);
    const item = (p: MergedProblem) => ({ path: p.path, message: p.message, ...(display(p.source) ?? { file: null, line: null, column: null }) });
    return { cloud_init_version: version, checked: true, valid: m.valid, errors: m.errors.map(item), deprecations: m.deprecations.map(item) };
  } catch (e) {
    if (!(e instanceof LimitExceededError) && !(e instanceof PyError)) throw e;
    return { cloud_init_version: version, checked: false, reason: e instanceof PyError ? `cloud-init's validator raises ${e.pyType}: ${e.message}` : e.message };
  }
}

export function userDataReport(mode: string, run: UserDataRun, format: ReportFormat, version: SchemaVersion = 'current'): string {
  const w = new ReportJson(format);
  const locate = userDataLocator(run);
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
      effects: partEffects(h?.events, locate).map((e) => ({ path: formatPath(e.path), what: e.what, reason: e.reason, from: display(e.from), at: display(e.at) })),
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
  const losses = mergeLosses(run, locate);
  const partNumber = (i: number) => run.reports[i]?.part.number ?? null;
  return w.serialize(
    {
      mode,
      cloud_config_txt: run.cloudConfigTxt,
      parts,
      diagnostics,
      provenance: provenance.entries.map((p) => ({ path: p.path.map((s) => (typeof s === 'number' ? s : w.json(s))), ...display(p.location) })),
      provenance_truncated: provenance.truncated,
      schema: schemaSection(run, version, locate),
      // What the merge lost, as the preview's "What this merge lost" section says it.
      lost: lostReport(losses, 'part', partNumber),
    },
    run.result
  );
}

/**
 * A "What this … lost" section as JSON: each value with the source that had it (`part`, `file`,
 * `layer`: named by `unit`) and the source whose merge displaced it (`by_part`, …).
 */
function lostReport(losses: MergeLosses, unit: 'part' | 'file' | 'layer', source: (index: number) => unknown) {
  return {
    total: losses.total,
    values: losses.groups.flatMap((g) =>
      g.values.map((v) => ({ [unit]: g.owner < 0 ? null : source(g.owner), [`by_${unit}`]: source(g.by), path: v.path, value: v.value, what: v.what, reason: v.reason, at: display(v.at), by: display(v.by) })),
    ),
    ignored_options: losses.ignored.map((i) => ({ [unit]: source(i.part), merger: i.merger, option: i.option, instead: i.instead })),
    [`dropped_${unit}s`]: losses.dropped.map((d) => ({ [unit]: source(d.part), reason: d.reason })),
  };
}

interface SystemLike {
  value: PyValue;
  files: Array<{ file: ConfigFile; input: number; used: boolean; read?: ReadConfResult; rank?: number; step?: MergeManyStep }>;
  steps?: MergeManyStep[];
  notes?: string[];
}

export function systemReport(mode: string, result: ConfdResult | SystemLike, format: ReportFormat): string {
  const w = new ReportJson(format);
  const files = result.files;
  const texts = files.map((f) => (f.read ? { name: f.file.name, text: f.read.text } : null));
  const cloudCfg = 'cloudCfg' in result ? result.cloudCfg : undefined;
  if (cloudCfg) texts.push({ name: 'cloud.cfg', text: cloudCfg.read.text });
  const locate = textLocator(texts);
  const provenance = collectProvenance(result.value, locate);
  return w.serialize(
    {
      mode,
      parts: files.map((f) => ({
        file: f.file.name,
        used: f.used,
        rank: f.rank ?? null,
        spec: f.step?.spec?.map((m) => [w.json(m.name), w.json(m.options)]) ?? null,
        defaulted: f.step?.defaulted ?? null,
        leftover_merge_type: f.step?.leftoverMergeType ?? false,
        warnings: f.read?.warnings ?? [],
      })),
      diagnostics: (result.notes ?? []).map((n) => ({ severity: 'info', message: n })),
      provenance: provenance.entries.map((p) => ({ path: p.path.map((s) => (typeof s === 'number' ? s : w.json(s))), ...display(p.location) })),
      provenance_truncated: provenance.truncated,
      // confd: what a drop-in (or cloud.cfg) lost to the files merged before it, as the preview says it
      ...('cloudCfg' in result ? { lost: lostReport(confdLosses(result, locate), 'file', (i) => (i === files.length ? 'cloud.cfg' : (files[i]?.file.name ?? null))) } : {}),
    },
    result.value
  );
}

export function bootReport(result: BootResult, format: ReportFormat, inputs: Partial<BootInputs> = {}): string {
  const w = new ReportJson(format);
  const layering = bootLayeringLosses(result, inputs);
  return w.serialize(
    {
      mode: 'boot',
      layers: result.layers.map((l) => ({ layer: l.layer, spec: l.step?.spec?.map((m) => [w.json(m.name), w.json(m.options)]) ?? null, defaulted: l.step?.defaulted ?? null })),
      user_data_skipped: result.userDataSkipped ?? null,
      vendor_skipped: result.vendorSkipped,
      cloud_config_txt: result.userData?.cloudConfigTxt ?? null,
      vendor_cloud_config_txt: result.vendor?.cloudConfigTxt ?? null,
      vendor2_cloud_config_txt: result.vendor2?.cloudConfigTxt ?? null,
      parts: [...(result.userData?.reports ?? []), ...(result.vendor?.reports ?? []), ...(result.vendor2?.reports ?? [])].map((r) => ({ filename: r.part.filename, content_type: r.part.contentType, disposition: r.disposition, note: r.note })),
      diagnostics: result.notes.map((n) => ({ severity: 'info', message: n })),
      provenance: [],
      // what user-data took over vendor-data and the system config, as the preview says it
      lost: lostReport(layering.losses, 'layer', (i) => result.layers[i]?.layer ?? null),
    },
    result.value
  );
}

export function chefReport(loaded: LoadedChefFiles, result: ChefMergeFilesResult, format: ReportFormat): string {
  const w = new ReportJson(format);
  const locate = textLocator(loaded.texts);
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
