/**
 * The merged preview: a header that lists every part with its effective
 * spec (and every part cloud-init drops, with the reason), followed by
 * exactly what `cloud-config-merge` prints; plus, for every output line, the
 * source that supplied it and what it overrode. The CLI's `--format preview`
 * and the editor's preview both come from here.
 */
import { Origin, PyDict, PyValue, getListOrigins } from './values';
import { pyReprForMessage } from './py/repr';
import { ParsedMerger } from './spec/parse';
import { DumpLine, dumpPyYamlWithLines, pyKeyDisplay } from './yaml/dump';
import { CloudInitVersion } from './spec/parse';
import { Locator, PartEffect, SourceLocation, fileLine, formatPath, partEffects, provenanceByDisplay, textLocator } from './provenance';
import { IncludeFailure, IncludeResolver } from './userdata/process';
import { PartLoadCache } from './userdata/cloudConfigHandler';
import { PartReport, UserDataRun, runHandlerParts, runUserData } from './userdata/run';
import { decodeUtf8Surrogateescape } from './py/codecs';
import { mergeConfD } from './system/confd';
import { assembleBoot, BootInputs } from './system/boot';
import { MergerFactory } from './merge/construct';
import { chefMergeFiles } from './chef/deepMerge';
import { loadChefFiles } from './chef/files';
import { LimitExceededError, Limits } from './limits';
import { validateMerged, validateMergedText, type MergedProblem, type MergedSchemaReport } from './schema/merged';
import type { TextSchemaReport } from './schema/validate';
import { MAX_LOST_VALUES, MergeLosses, mergeLosses } from './lost';
import { bootLosses, confdLosses } from './lostSystem';
import type { ConfdResult } from './system/confd';
import type { BootResult } from './system/boot';
import { pushAll } from './arrays';

/** Lost values the header lists; the rest are counted (the report has up to MAX_LOST_VALUES). */
export const HEADER_LOST_VALUES = 100;
/** Schema problems of the merged result the header lists; the rest are counted (`--check` lists them all). */
export const HEADER_SCHEMA_PROBLEMS = 100;

export type PreviewMode = 'user-data' | 'handler' | 'confd' | 'boot' | 'chef';

export interface PreviewFile {
  name: string;
  bytes: Uint8Array;
  headers?: Record<string, string>;
}

export interface PreviewOptions {
  version?: CloudInitVersion;
  includes?: IncludeResolver;
  onIncludeFailure?: IncludeFailure;
  instanceData?: unknown;
  launchIndex?: number;
  limits?: Limits;
  customMergers?: ReadonlyMap<string, MergerFactory>;
  /** Boot mode: which roles the files play besides user-data. */
  boot?: Omit<BootInputs, 'userData'>;
  /** How the user changes a limit (`--limit maxParts=N`, a setting), added to the note when one is hit. */
  limitHint?: (limit: keyof Limits) => string;
  /**
   * User-data and handler modes: validate the merged cloud-config.txt as `cloud-init schema --system`
   * does and list its problems in the header, each with the file and line that wrote the value.
   */
  schema?: boolean;
  /** Loads of cloud-config parts kept from the previous preview, reused where a part's text is unchanged. */
  partCache?: PartLoadCache;
  /** The schema report of the previous preview's cloud-config.txt, reused while that text is unchanged. */
  schemaCache?: SchemaReportCache;
  /** Most schema problems looked for in the merged result (the editor bounds them); the header says where it stopped. */
  maxSchemaProblems?: number;
}

/**
 * The schema report of the last cloud-config.txt validated: a refresh whose merged text did not change
 * (an edit of a comment, or of a value that loses to another part's) does not parse and validate it again.
 * The report depends on the text and the version only; problems are placed in the files afresh.
 */
export class SchemaReportCache {
  private last: { text: string; version: CloudInitVersion; maxProblems: number; report: TextSchemaReport } | undefined;

  report(text: string, version: CloudInitVersion, maxProblems = Infinity): TextSchemaReport {
    const last = this.last;
    if (last && last.version === version && last.maxProblems === maxProblems && last.text === text) return last.report;
    const report = validateMergedText(text, version, maxProblems);
    // Without the loaded value: nothing reads it, and it is as large as the merged result.
    this.last = { text, version, maxProblems, report: { ...report, value: undefined, rootSpan: undefined } };
    return report;
  }
}

function overLimitFailure(limit: keyof Limits, message: string, options: PreviewOptions): string {
  const hint = options.limitHint ? `; ${options.limitHint(limit)}` : '';
  return `not merged: the input is over a limit of this tool (${limit}): ${message}${hint}`;
}

export interface PreviewEntry {
  /** 0-based line in `text`. */
  line: number;
  /** The path in display form (`runcmd[0]`). */
  path: string;
  source: SourceLocation | null;
  /** Values of earlier parts this one replaced, and new values that lost, with the reason. */
  history: Array<{ what: PartEffect['what']; reason: string; from?: SourceLocation | null; at?: SourceLocation | null }>;
}

export interface PreviewPart {
  label: string;
  file: string;
  /** 'not-reproduced': cloud-init renders this part, this tool cannot (the preview lacks it). */
  status: 'merged' | 'dropped' | 'not-merged' | 'not-reproduced';
  spec?: string;
  reason?: string;
}

export interface PreviewModel {
  text: string;
  /** What `cloud-config-merge` prints for the same files: the tail of `text`. */
  body: string;
  headerLineCount: number;
  entries: PreviewEntry[];
  parts: PreviewPart[];
  /** cloud-init itself would fail: the body is empty and this says why. */
  failure?: string;
  /** Set when the failure is one of our limits, not cloud-init (the input is over it). */
  limit?: keyof Limits;
  /** With `schema`: the merged result as cloud-init's validator sees it. */
  schema?: MergedSchemaReport;
  /** What the merge lost (user-data, handler and confd modes; boot mode: its layering); the header's "What this … lost" section says it in words. */
  losses?: MergeLosses;
}

/** The widest header line: wider lines are wrapped (the body, cloud-init's own text, is never touched). */
export const HEADER_WIDTH = 100;

/**
 * A header line wrapped at spaces to `width` characters, continuation lines indented under the
 * item's text; a word longer than a whole line is cut. Header items start 1, 3 or 5 spaces after
 * the '#'; continuations 4 or 6 and more, so `unwrapHeader` can join them again.
 */
export function wrapHeaderLine(line: string, width = HEADER_WIDTH): string[] {
  if (line.length <= width) return [line];
  const prefix = /^#\s*(?:\d+\.\s+)?/.exec(line)?.[0] ?? '';
  // Deeper than the item's own text and than the items nested under it, so a continuation never reads as a new item.
  const indent = '#' + ' '.repeat(Math.min(prefix.length + 2, Math.floor(width / 2)));
  const out: string[] = [];
  let current = prefix;
  let fresh = true;
  for (let word of line.slice(prefix.length).split(' ')) {
    for (;;) {
      const room = width - current.length - (fresh ? 0 : 1);
      if (word.length <= room) {
        current += (fresh ? '' : ' ') + word;
        fresh = false;
        break;
      }
      if (!fresh) {
        out.push(current);
        current = indent;
        fresh = true;
        continue;
      }
      // A word longer than a whole line (a long spec): cut after its last '+' or ',' that fits, else at the edge.
      const natural = Math.max(word.lastIndexOf('+', room - 1), word.lastIndexOf(',', room - 1)) + 1;
      const cut = natural > room / 2 ? natural : room;
      current += word.slice(0, cut);
      word = word.slice(cut);
      out.push(current);
      current = indent;
    }
  }
  if (!fresh) out.push(current);
  return out;
}

export const PREVIEW_BODY_MARKER = '# ---- what cloud-init writes ----';

/** `list(append)+dict(no_replace)` for a parsed spec, whatever form it was written in. */
export function formatSpec(mergers: ParsedMerger[]): string {
  return mergers
    .map((m) => {
      const name = typeof m.name === 'string' ? m.name : shortRepr(m.name);
      const options = Array.isArray(m.options) && m.options.every((o) => typeof o === 'string') ? (m.options as string[]).join(',') : shortRepr(m.options);
      return `${name}(${options})`;
    })
    .join('+');
}

/** A repr for a header line: settings can be any YAML value, even an alias bomb or 10,000 levels deep. */
function shortRepr(value: PyValue): string {
  return pyReprForMessage(value, 200);
}

export function buildPreview(mode: PreviewMode, files: PreviewFile[], options: PreviewOptions = {}): PreviewModel {
  try {
    return buildPreviewModel(mode, files, options);
  } catch (e) {
    if (!(e instanceof LimitExceededError)) throw e;
    // Over one of our limits (boot mode's user-data or vendor-data, ...): said in the preview, never thrown at the caller.
    const failure = overLimitFailure(e.limit, e.message, options);
    const header = headerLines(`${mode} mode`, [], [failure]);
    return { text: header.join('\n') + '\n', body: '', headerLineCount: header.length, entries: [], parts: [], failure, limit: e.limit };
  }
}

function buildPreviewModel(mode: PreviewMode, files: PreviewFile[], options: PreviewOptions): PreviewModel {
  const runOptions = { ...options, trace: true };
  if (mode === 'user-data' || mode === 'handler') {
    // The line map comes from the render of cloud-config.txt itself: one dump, not two.
    const linesToo = { ...runOptions, withLines: true };
    const run = mode === 'handler' ? runHandlerParts(files, linesToo) : runUserData(files, linesToo);
    return userDataPreview(mode, run, options);
  }
  if (mode === 'confd') {
    const result = mergeConfD(files, { version: options.version, trace: true, instanceData: options.instanceData, customMergers: options.customMergers, cloudCfg: options.boot?.cloudCfg, order: options.boot?.confdOrder });
    const locate = confdLocator(result, options.boot?.cloudCfg?.name);
    const parts: PreviewPart[] = result.files
      .slice()
      .sort((a, b) => (a.rank ?? 1e9) - (b.rank ?? 1e9))
      .map((f) => ({
        label: f.used ? `priority ${(f.rank ?? 0) + 1}` : 'ignored',
        file: f.file.name,
        status: f.read?.notReproduced ? 'not-reproduced' : f.used ? 'merged' : 'not-merged',
        spec: f.step?.spec ? formatSpec(f.step.spec) + (f.step.defaulted ? ' (default)' : '') : undefined,
        reason: f.read?.notReproduced ?? (f.used ? f.read?.warnings.join('; ') || undefined : 'the name does not end in .cfg'),
      }));
    const losses = confdLosses(result, locate);
    const names = confdNames(result, options.boot?.cloudCfg?.name);
    const model = valuePreview('cloud.cfg.d drop-ins (the first listed wins by default)', result.value, locate, parts, result.notes, undefined, lostSection(losses, names));
    return { ...model, losses };
  }
  if (mode === 'chef') return chefPreview(files, options.limits);
  const boot = assembleBoot({ userData: files, ...options.boot }, runOptions);
  const parts: PreviewPart[] = boot.layers.map((l) => ({ label: l.layer, file: l.layer, status: 'merged', spec: l.step?.spec ? formatSpec(l.step.spec) + (l.step.defaulted ? ' (default)' : '') : undefined }));
  // The final value is re-read from cloud-config.txt, so user-data values are found by path in the user-data run.
  const ud = boot.userData;
  const userDataSources = ud?.result ? provenanceByDisplay(ud.result, userDataLocator(ud)) : new Map<string, SourceLocation | null>();
  // What the user-data layer's own merge lost, part by part (the layering itself is listed above).
  const lost = ud && !ud.fatal && ud.reports.length ? lostSection(mergeLosses(ud, userDataLocator(ud)), partNames(ud, ud.reports.map((r) => describePart(ud, r)), 'user-data merge')) : [];
  const layering = bootLayeringLosses(boot, { ...options.boot, userData: files });
  const model = valuePreview('boot-time layering (user-data > vendor-data2 > vendor-data > datasource > system)', boot.value, () => null, parts, boot.notes, (path) => userDataSources.get(path) ?? null, [
    ...lostSection(layering.losses, layering.names),
    ...lost,
  ]);
  return { ...model, losses: layering.losses };
}

/** Where drop-ins' values live: a drop-in by its index in the input list, `cloud.cfg` after the last one. */
export function confdLocator(result: ConfdResult, cloudCfgName = 'cloud.cfg'): Locator {
  return textLocator([...result.files.map((f) => (f.read ? { name: f.file.name, text: f.read.text } : null)), result.cloudCfg ? { name: cloudCfgName, text: result.cloudCfg.read.text } : null]);
}

/** The names a cloud.cfg.d preview gives its files in the lost-values section. */
export function confdNames(result: ConfdResult, cloudCfgName = 'cloud.cfg'): LostSectionNames {
  const stepOf = (i: number) => (i === result.files.length ? result.cloudCfg?.steps[result.cloudCfg.steps.length - 1] : result.files[i]?.step);
  return {
    merge: 'cloud.cfg.d merge',
    unit: 'file',
    name: (i) => (i === result.files.length ? cloudCfgName : (result.files[i]?.file.name ?? 'an earlier value')),
    spec: (i) => {
      const step = stepOf(i);
      return step?.spec ? formatSpec(step.spec) + (step.defaulted ? ' (default)' : '') : undefined;
    },
  };
}

/**
 * What the boot-time layering lost (user-data over vendor-data over the datasource and system config),
 * each value placed by its path in its layer's own merge, and the names of the layers.
 */
export function bootLayeringLosses(boot: BootResult, inputs: Partial<BootInputs>): { losses: MergeLosses; names: LostSectionNames } {
  const byPath = new Map<number, Map<string, SourceLocation | null>>();
  const provenanceOf = (layer: number): Map<string, SourceLocation | null> => {
    const known = byPath.get(layer);
    if (known) return known;
    const name = boot.layers[layer]?.layer;
    const run = name === 'user-data' ? boot.userData : name === 'vendor-data' ? boot.vendor : name === 'vendor-data2' ? boot.vendor2 : undefined;
    const map = run?.result
      ? provenanceByDisplay(run.result, userDataLocator(run))
      : name === 'base'
        ? provenanceByDisplay(boot.system.value, confdLocator(boot.system, inputs.cloudCfg?.name))
        : new Map<string, SourceLocation | null>();
    byPath.set(layer, map);
    return map;
  };
  const losses = bootLosses(boot, (layer, path) => provenanceOf(layer).get(path) ?? null);
  const fileOf: Record<string, string | undefined> = {
    'user-data': inputs.userData?.length === 1 ? inputs.userData[0].name : inputs.userData?.length ? `${inputs.userData.length} files` : undefined,
    'vendor-data': inputs.vendor?.name,
    'vendor-data2': inputs.vendor2?.name,
    datasource: inputs.dsConfig?.name,
    base: 'system config',
  };
  const names: LostSectionNames = {
    merge: 'boot-time layering',
    unit: 'layer',
    name: (i) => {
      const layer = boot.layers[i]?.layer;
      if (!layer) return 'an earlier value';
      return fileOf[layer] ? `${layer} (${fileOf[layer]})` : layer;
    },
    spec: (i) => {
      const step = boot.layers[i]?.step;
      return step?.spec ? formatSpec(step.spec) + (step.defaulted ? ' (default)' : '') : undefined;
    },
  };
  return { losses, names };
}

/** Chef-style deep merge: files in order, later wins; override attributes over default attributes. */
function chefPreview(files: PreviewFile[], limits?: Limits): PreviewModel {
  const loaded = loadChefFiles(files, limits);
  const locate = textLocator(loaded.texts);
  const result = chefMergeFiles(loaded.values);
  const parts: PreviewPart[] = loaded.texts.map((t, i) => ({
    label: result.kinds[i],
    file: t.name,
    status: loaded.errors.some((e) => e.startsWith(t.name + ':')) ? 'dropped' : 'merged',
    spec: 'Chef deep merge',
    reason: loaded.errors.find((e) => e.startsWith(t.name + ':')),
  }));
  const notes = result.notices.map((n) => {
    const at = n.origin ? locate(n.origin, 'value') : null;
    return `${at ? `${at.file}:${at.line + 1}: ` : ''}${n.message}`;
  });
  return valuePreview('Chef deep merge (later files win; override_attributes over default_attributes)', result.merged, locate, parts, notes);
}

/** Where the values of each handled part live in the input files. */
export function userDataLocator(run: UserDataRun): Locator {
  const blobTexts = new Map<number, string>();
  const blobText = (i: number): string => {
    const cached = blobTexts.get(i);
    if (cached !== undefined) return cached;
    const text = decodeUtf8Surrogateescape(run.sources[i].bytes);
    blobTexts.set(i, text);
    return text;
  };
  return textLocator(
    run.reports.map((r) => {
      const source = run.sources[r.part.blob]?.name ?? '?';
      if (r.jinja?.rendered !== undefined) return { name: source, text: r.jinja.rendered, note: `position in the rendered template of ${r.part.filename}` };
      if (r.part.span && r.part.text !== null) return { name: source, text: blobText(r.part.blob), base: r.part.span.start };
      if (r.part.offsetInBlob && r.part.text !== null) return { name: source, text: blobText(r.part.blob), map: r.part.offsetInBlob };
      if (r.part.text !== null) return { name: source, text: r.part.text, note: `position in the decoded part ${r.part.filename}` };
      return null;
    }),
  );
}

function describePart(run: UserDataRun, r: PartReport): PreviewPart {
  const file = run.sources[r.part.blob]?.name ?? '?';
  const label = `${r.part.filename} (${r.part.contentType})`;
  const h = r.handled;
  if (r.disposition === 'merged' && h?.discarded) return { label, file, status: 'dropped', reason: r.note };
  if (r.disposition === 'merged' && h) {
    const spec = h.kind === 'jsonp' ? 'JSON patch' : `${formatSpec(h.effective ?? [])}${h.defaulted ? ' (default)' : h.body && h.header ? ` (${h.body.key} + ${h.header.name})` : h.body ? ` (${h.body.key})` : h.header ? ` (${h.header.name})` : ''}`;
    return { label, file, status: 'merged', spec };
  }
  if (r.disposition === 'jinja-not-reproduced') return { label, file, status: 'not-reproduced', reason: r.note };
  if (r.disposition === 'failed' || r.disposition === 'jinja-ignored' || r.disposition === 'filtered-out' || r.disposition === 'unhandled') {
    return { label, file, status: 'dropped', reason: r.note };
  }
  return { label, file, status: 'not-merged', reason: r.note };
}

function headerLines(title: string, parts: PreviewPart[], notes: string[] = [], sections: string[] = []): string[] {
  const lines = [`# Cloud-Config Merge preview: ${title}`, '# Parts, in the order cloud-init reads them:'];
  parts.forEach((p, i) => {
    const where = p.file && p.file !== p.label ? ` from ${p.file}` : '';
    if (p.status === 'merged') lines.push(`#   ${i + 1}. ${p.label}${where}: merged with ${p.spec ?? '(no spec)'}`);
    else if (p.status === 'not-reproduced') lines.push(`#   ${i + 1}. ${p.label}${where}: NOT SHOWN (a limitation of this tool, not of cloud-init). ${p.reason ?? ''}`.trimEnd());
    else if (p.status === 'dropped') lines.push(`#   ${i + 1}. ${p.label}${where}: DROPPED. ${p.reason ?? ''}`.trimEnd());
    else lines.push(`#   ${i + 1}. ${p.label}${where}: not merged. ${p.reason ?? ''}`.trimEnd());
  });
  if (!parts.length) lines.push('#   (none)');
  for (const n of notes) lines.push(`# Note: ${n}`);
  pushAll(lines, sections);
  lines.push(PREVIEW_BODY_MARKER);
  return lines.flatMap((l) => wrapHeaderLine(l.replace(/[\r\n]+/g, ' ')));
}

/**
 * The preview's text with every wrapped header line joined again (for tools and tests that read
 * sentences). A word that was cut because it is longer than a line comes back with a space in it.
 */
export function unwrapHeader(text: string): string {
  const marker = text.indexOf(PREVIEW_BODY_MARKER);
  const end = marker < 0 ? text.length : marker;
  return text.slice(0, end).replace(/\n#(?: {4}| {6,})(?=\S)/g, ' ') + text.slice(end);
}

/** `part-002 (02-app.yaml)`: how the lost-values section names a part. */
function partName(run: UserDataRun, index: number): string {
  const r = run.reports[index];
  if (!r) return 'an earlier value';
  return `${r.part.filename} (${run.sources[r.part.blob]?.name ?? '?'})`;
}

function place(l: SourceLocation | null): string {
  return l ? fileLine(l) : 'an unknown place';
}

/** How a "What this … lost" section names the merge's sources and their specs. */
export interface LostSectionNames {
  /** What was merged: `merge`, `user-data merge`, `cloud.cfg.d merge`, `boot-time layering`. */
  merge: string;
  /** What one source is called: `part`, `file`, `layer`. */
  unit: string;
  name(index: number): string;
  spec(index: number): string | undefined;
}

/** The names of a user-data run's parts, for its lost-values section. */
export function partNames(run: UserDataRun, parts: PreviewPart[], merge = 'merge'): LostSectionNames {
  return { merge, unit: 'part', name: (i) => partName(run, i), spec: (i) => parts[i]?.spec };
}

/** The header's "What this merge lost" section (user-data parts, drop-ins or boot layers). */
export function lostSection(losses: MergeLosses, names: LostSectionNames): string[] {
  const { groups, ignored, dropped, total } = losses;
  const { merge, unit } = names;
  if (!total && !ignored.length && !dropped.length) return [`# What this ${merge} lost: nothing (no value of a ${unit} was overwritten, rejected or dropped)`];
  const counts = [total ? `${total} value${total === 1 ? '' : 's'}` : '', dropped.length ? `${dropped.length} whole ${unit}${dropped.length === 1 ? '' : 's'}` : '', ignored.length ? `${ignored.length} ignored option${ignored.length === 1 ? '' : 's'}` : ''];
  const lines = [`# What this ${merge} lost (${counts.filter(Boolean).join(', ')}), by the ${unit} that had it:`];
  for (const i of ignored) lines.push(`#   Ignored option in ${names.name(i.part)}, ${i.written}: ${i.instead}.`);
  for (const d of dropped) lines.push(`#   ${names.name(d.part)}: all of it (DROPPED, see its line above).`);
  let shown = 0;
  for (const g of groups) {
    if (shown >= HEADER_LOST_VALUES) break;
    const spec = names.spec(g.by) ? `, merged with ${names.spec(g.by)}` : '';
    lines.push(g.owner === g.by ? `#   From ${names.name(g.by)}${spec}:` : `#   From ${names.name(g.owner)}, displaced by ${names.name(g.by)}${spec}:`);
    for (const v of g.values.slice(0, HEADER_LOST_VALUES - shown)) {
      shown++;
      const what =
        v.what === 'overwritten' ? `overwritten by ${place(v.by)}` : v.what === 'deleted' ? `deleted by ${place(v.by)}` : v.what === 'rejected' ? `rejected, ${place(v.by)} kept` : 'dropped';
      lines.push(`#     ${v.path} ${v.value} at ${place(v.at)}: ${what} (${v.reason})`);
    }
  }
  if (shown < total) lines.push(`#   … and ${total - shown} more (--format report lists up to ${MAX_LOST_VALUES})`);
  return lines;
}

function userDataPreview(mode: PreviewMode, run: UserDataRun, options: PreviewOptions): PreviewModel {
  const parts = run.reports.map((r) => describePart(run, r));
  const title = mode === 'handler' ? 'each file fed to the cloud-config part handler' : 'user-data parts merged as cloud-init merges them';
  if (run.fatal || run.renderError) {
    const failure = run.fatal?.limit
      ? overLimitFailure(run.fatal.limit, run.fatal.message, options)
      : run.fatal
        ? `cloud-init fails before merging anything: ${run.fatal.pyType}: ${run.fatal.message}`
        : `writing cloud-config.txt fails: ${run.renderError}`;
    const header = headerLines(title, parts, [failure]);
    return { text: header.join('\n') + '\n', body: '', headerLineCount: header.length, entries: [], parts, failure, ...(run.fatal?.limit ? { limit: run.fatal.limit } : {}) };
  }
  // Notes of ours are left out, except those that say where content is lost without a trace.
  const notes = run.messages.filter((m) => m.level !== 'info' || m.code === 'mime-unsplittable').map((m) => m.message);
  const locate = userDataLocator(run);
  const losses = mergeLosses(run, locate);
  let schema: MergedSchemaReport | undefined;
  let schemaHeader: string[] = [];
  if (options.schema) {
    try {
      const version = options.version ?? 'current';
      const max = options.maxSchemaProblems;
      schema = validateMerged(run, version, locate, options.schemaCache?.report(run.cloudConfigTxt, version, max) ?? validateMergedText(run.cloudConfigTxt, version, max));
      schemaHeader = schemaLines(schema, version, max);
    } catch (e) {
      if (!(e instanceof LimitExceededError)) throw e;
      const hint = options.limitHint ? `; ${options.limitHint(e.limit)}` : '';
      schemaHeader = [`# Schema: not checked: ${e.message}${hint}`];
    }
  }
  const header = headerLines(title, parts, notes, [...lostSection(losses, partNames(run, parts)), ...schemaHeader]);
  const body = run.cloudConfigTxt;
  const prefix = body.slice(0, Math.max(0, body.indexOf('---')));
  const entries = run.result === null ? [] : lineEntries(run.result, locate, header.length + prefix.split('\n').length - 1, run.reports.flatMap((r) => partEffects(r.handled?.events, locate)), run.renderedLines);
  return { text: header.join('\n') + '\n' + body, body, headerLineCount: header.length, entries, parts, losses, ...(schema ? { schema } : {}) };
}

/** The header's account of `cloud-init schema --system` on the result. */
function schemaLines(schema: MergedSchemaReport, version: CloudInitVersion, maxProblems?: number): string[] {
  const who = version === '22.4' ? 'cloud-init 22.4' : 'cloud-init';
  // Nothing to report, nothing said: the header stays as short as it was.
  if (!schema.errors.length && !schema.deprecations.length) return [];
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const stopped = schema.report.truncated ? ` before the check stopped at ${maxProblems} problems` : '';
  const lines = [`# Schema: ${who} ${schema.valid ? 'accepts' : 'rejects'} the merged result (${count(schema.errors.length, 'error')}, ${count(schema.deprecations.length, 'deprecation')}${stopped}):`];
  const where = (p: MergedProblem) => (p.source ? ` (${fileLine(p.source)})` : '');
  const listed = [...schema.errors.map((p) => ['error', p] as const), ...schema.deprecations.map((p) => ['deprecated', p] as const)];
  for (const [what, p] of listed.slice(0, HEADER_SCHEMA_PROBLEMS)) lines.push(`#   ${what}: ${p.path}: ${p.message.trim()}${where(p)}`);
  const hidden = Math.max(0, listed.length - HEADER_SCHEMA_PROBLEMS);
  const rest = [hidden ? `${hidden} more` : '', stopped ? 'the problems the check did not look for' : ''].filter(Boolean).join(', and ');
  if (rest) lines.push(`#   … and ${rest} (\`cloud-config-merge --check\` lists them all)`);
  return lines;
}

function valuePreview(title: string, value: PyValue, locate: Locator, parts: PreviewPart[], notes: string[], override?: (path: string) => SourceLocation | null, sections: string[] = []): PreviewModel {
  const header = headerLines(title, parts, notes, sections);
  const dumped = dumpPyYamlWithLines(value);
  const entries = lineEntries(value, locate, header.length, [], dumped.lines, override);
  return { text: header.join('\n') + '\n' + dumped.text, body: dumped.text, headerLineCount: header.length, entries, parts };
}

function displayPath(path: PyValue[]): string {
  return formatPath(path.map((s) => (typeof s === 'number' ? s : pyKeyDisplay(s))));
}

/**
 * One entry per dumped line: its display path, the place its value was written and what it changed.
 * The value is followed down each line's path from the previous line's (lines come in document
 * order), so only the nodes that have a line are looked at.
 */
function lineEntries(
  value: PyValue,
  locate: Locator,
  offset: number,
  effects: PartEffect[],
  dumpedLines: DumpLine[] = dumpPyYamlWithLines(value).lines,
  override?: (path: string) => SourceLocation | null,
): PreviewEntry[] {
  const history = new Map<string, PreviewEntry['history']>();
  for (const e of effects) {
    const key = displayPath(e.path);
    const list = history.get(key) ?? [];
    list.push({ what: e.what, reason: e.reason, from: e.from, at: e.at });
    history.set(key, list);
  }
  // Along the previous line's path: the node, its origin and its display path at each depth.
  const nodes: Array<PyValue | undefined> = [value];
  const origins: Array<Origin | undefined> = [undefined];
  const displays: string[] = [''];
  const byDisplay = new Map<PyDict, Map<string, { value: PyValue; origin?: Origin }>>();
  let previous: DumpLine['path'] = [];
  return dumpedLines.map((l) => {
    const segments = l.path;
    let depth = 0;
    while (depth < segments.length && depth < previous.length && segments[depth] === previous[depth]) depth++;
    for (; depth < segments.length; depth++) {
      const segment = segments[depth];
      const parent = nodes[depth];
      let child: { value: PyValue; origin?: Origin } | undefined;
      if (parent instanceof PyDict && typeof segment === 'string') child = childByDisplay(parent, segment, byDisplay);
      else if (Array.isArray(parent) && typeof segment === 'number' && segment < parent.length) child = { value: parent[segment], origin: getListOrigins(parent)?.[segment] };
      nodes[depth + 1] = child?.value;
      origins[depth + 1] = child?.origin;
      const above = displays[depth];
      displays[depth + 1] = typeof segment === 'number' ? `${above}[${segment}]` : above ? `${above}.${segment}` : segment;
    }
    previous = segments;
    // formatPath's form: an empty key alone is the root's name too.
    const path = displays[segments.length] || '(root)';
    const origin = origins[segments.length];
    return { line: l.line + offset, path, source: override ? override(path) : origin ? locate(origin, 'value') : null, history: history.get(path) ?? [] };
  });
}

/**
 * The entry of a mapping whose key is written `display` in a dumped path: the string key itself, else
 * (a key of another type: `1`, `None`, a date) the last key shown that way.
 */
function childByDisplay(dict: PyDict, display: string, cache: Map<PyDict, Map<string, { value: PyValue; origin?: Origin }>>): { value: PyValue; origin?: Origin } | undefined {
  const value = dict.get(display);
  if (value !== undefined) return { value, origin: dict.originOf(display) };
  let shown = cache.get(dict);
  if (!shown) {
    shown = new Map();
    for (const item of dict.items()) shown.set(pyKeyDisplay(item.key), item);
    cache.set(dict, shown);
  }
  return shown.get(display);
}
