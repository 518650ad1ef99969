/**
 * The merged preview of an outcome: a header that lists every part with its
 * effective spec (and every part cloud-init drops, with the reason), what the
 * merge lost and the merged result's schema problems, followed by exactly
 * what `cloud-config-merge` prints; plus, for every body line, the place that
 * supplied it and what the merge did there, and the header's links. The
 * CLI's `--format preview` and the editor's preview both come from here.
 */
import { PyValue } from '../py/values';
import { dumpPyYamlWithLines } from '../yaml/dump';
import { Limits } from '../limits';
import { MergedProblem, MergedSchemaReport } from '../outcome/mergedSchema';
import { CloudInitVersion } from '../spec/parse';
import { SourceLocation } from '../outcome/locate';
import { LineProvenance, lineProvenance, provenanceByDisplay, stepEffects } from '../outcome/provenance';
import { MAX_LOST_VALUES, MergeLosses, lossesOf, userDataLosses } from '../outcome/losses';
import { OutcomePart, SourceNames, partsOf, sourceNames, userDataNames } from '../outcome/parts';
import { MergedSchema, MergedSchemaOptions, SystemSchemaReport, mergedSchemaOf, systemSchemaOf } from '../outcome/schema';
import { systemSchemaHeading, systemSchemaItems } from './systemSchemaText';
import { InputFile, Outcome, RunOptions, SystemLayers, runSet, userDataLocator } from '../outcome/run';
import type { PreviewMode } from '../outcome/mode';
import { lossClause } from '../outcome/effects';
import { containerSentence, containersAmong } from '../userdata/containers';
import type { UserDataRun } from '../userdata/run';
import { HeaderLink, HeaderPiece, HeaderSection, HeaderWriter, PREVIEW_BODY_MARKER, headerWidthOf } from './header';
import type { DumpLine } from '../yaml/dump';
import { mergedImagesLine, runVerdict } from './imagesText';
import { deliveryOfFiles } from '../delivery/delivery';
import type { CloudName } from '../delivery/limits';
import { deliverySection } from './deliveryText';
import { seedSection, type SeedSummary } from './seedText';
import type { PlanOptions } from '../plan/plan';
import type { Target } from '../version/target';

/** The boot plan is required when a preview asks for it (require keeps it after). */
const planText = () => require('./planText') as typeof import('./planText');
const planModule = () => require('../plan/ofOutcome') as typeof import('../plan/ofOutcome');

export { HEADER_WIDTH, MAX_HEADER_WIDTH, MIN_HEADER_WIDTH, PREVIEW_BODY_MARKER, headerWidthOf, unwrapHeader, wrapHeaderLine, type HeaderLink, type HeaderSection } from './header';

/** Lost values the header lists; the rest are counted (the report has up to MAX_LOST_VALUES). */
export const HEADER_LOST_VALUES = 100;
/** Schema problems of the merged result the header lists; the rest are counted (`--check` lists them all). */
export const HEADER_SCHEMA_PROBLEMS = 100;

/** How the preview is written (the run's options are the outcome's). */
export interface PreviewRenderOptions extends MergedSchemaOptions {
  /** How the user changes a limit (`--limit maxParts=N`, a setting), added to the note when one is hit. */
  limitHint?: (limit: keyof Limits) => string;
  /**
   * User-data and handler modes: validate the merged cloud-config.txt as `cloud-init schema --system`
   * does and list its problems in the header, each with the file and line that wrote the value.
   */
  schema?: boolean;
  /** The header's widest line (`headerWidthOf`; HEADER_WIDTH by default). */
  headerWidth?: number;
  /** User-data and boot modes: the files as delivered to this cloud, against its user-data limit. */
  cloud?: CloudName;
  /** A NoCloud seed folder previewed as a set (boot mode): what NoCloud makes of it. */
  seed?: SeedSummary;
  /** User-data and handler modes: the image to write the "Boot plan" section for. */
  plan?: Target;
  /** The plan's options (a custom cloud.cfg instead of the one it renders for the image). */
  planOptions?: PlanOptions;
}

export interface PreviewModel {
  text: string;
  /** What `cloud-config-merge` prints for the same files: the tail of `text`. */
  body: string;
  headerLineCount: number;
  /** One per body line, placed in `text`. */
  entries: LineProvenance[];
  parts: OutcomePart[];
  /** The header's links to the places it names. */
  headerLinks: HeaderLink[];
  /** The header's sections (the parts, notes, what the merge lost, the schema), as they were written. */
  headerSections: HeaderSection[];
  /** Folds of the merged data: pairs of first and last lines of `text` (`dataFolds`). */
  dataFolds: number[];
  /** cloud-init itself would fail: the body is empty and this says why. */
  failure?: string;
  /** Set when the failure is one of our limits, not cloud-init (the input is over it). */
  limit?: keyof Limits;
  /** With `schema`: the merged result as cloud-init's validator sees it (when it could be checked). */
  schema?: MergedSchemaReport;
  /** What the merge lost; the header's "What this … lost" section says it in words. */
  losses?: MergeLosses;
}

/** A run and its preview in one call (the CLI's `--format preview`, tests): runSet, then renderPreview. */
/**
 * The user-data (its parts, and the merged result) up to which the preview checks it on every image
 * profile's cloud-init: each other version merges the parts again and checks each of them and the merged
 * result, on every refresh (AWS takes 16 KB of user-data).
 */
export const IMAGES_IN_PREVIEW_BYTES = 16 * 1024;

export function buildPreview(mode: PreviewMode, files: InputFile[], options: RunOptions & PreviewRenderOptions & { layers?: SystemLayers } = {}): PreviewModel {
  return renderPreview(runSet(mode, { files, layers: options.layers }, options), options);
}

const TITLES: Record<PreviewMode, string> = {
  'user-data': 'user-data parts merged as cloud-init merges them',
  handler: 'each file fed to the cloud-config part handler',
  confd: 'cloud.cfg.d drop-ins (the first listed wins by default)',
  boot: 'boot-time layering (user-data > vendor-data2 > vendor-data > datasource > system)',
  chef: 'Chef deep merge (later files win; override_attributes over default_attributes)',
};

export function renderPreview(outcome: Outcome, options: PreviewRenderOptions = {}): PreviewModel {
  const mode = outcome.mode === 'system' ? 'confd' : outcome.mode;
  const parts = partsOf(outcome);
  const header = new HeaderWriter(headerWidthOf(options.headerWidth));
  const failure = failureOf(outcome, options);
  if (failure) {
    writeHeader(header, outcome.kind === 'failed' ? `${mode} mode` : TITLES[mode], parts, [failure.text]);
    return { text: header.lines.join('\n') + '\n', body: '', headerLineCount: header.lines.length, entries: [], parts, headerLinks: header.links, headerSections: header.sections, dataFolds: [], failure: failure.text, ...(failure.limit ? { limit: failure.limit } : {}) };
  }
  const losses = lossesOf(outcome);
  const names = sourceNames(outcome);
  const sections: Array<(w: HeaderWriter) => void> = [];
  if (options.seed) {
    const seed = options.seed;
    sections.push((w) => seedSection(w, seed));
  }
  if (options.cloud && (outcome.mode === 'user-data' || outcome.mode === 'boot')) {
    const delivery = deliveryOfFiles(outcome.inputs.files, options.cloud);
    sections.push((w) => deliverySection(w, delivery));
  }
  if (losses && names) sections.push((w) => w.section('lost', () => lostSection(w, losses, names)));
  let schema: MergedSchemaReport | undefined;
  let notes: string[] = [];
  let body: string;
  let value: PyValue | null;
  let bodyLines: Parameters<typeof lineProvenance>[4];
  let bodyOffset = 0;
  let effects: ReturnType<typeof stepEffects> = [];
  let locate = () => null as SourceLocation | null;
  let override: ((path: string) => SourceLocation | null) | undefined;
  switch (outcome.kind) {
    case 'user-data': {
      const run = outcome.run;
      // Notes of ours are left out, except those that say where content is lost without a trace.
      notes = run.messages.filter((m) => m.level !== 'info' || m.code === 'mime-unsplittable').map((m) => m.message);
      notes.push(...containerNotes(run));
      if (options.schema) {
        const checked = mergedSchemaOf(outcome, options);
        if (checked?.checked) schema = checked.schema;
        const version = outcome.options.version ?? 'current';
        // Each other version is a whole schema check on every refresh: done for user-data of a size a cloud takes
        // (AWS 16 KB, OpenStack and Azure 64 KB), said and left to --check above that.
        const images = !checked?.checked
          ? undefined
          : Math.max(run.cloudConfigTxt.length, outcome.inputs.files.reduce((n, f) => n + f.bytes.length, 0)) > IMAGES_IN_PREVIEW_BYTES
            ? `Which images accept this: not checked in the preview above ${IMAGES_IN_PREVIEW_BYTES / 1024} KB of user-data (cloud-config-merge --check --image all checks it)`
            : mergedImagesLine((other) => runVerdict(outcome, other, other === version ? { valid: checked.schema.valid, errors: checked.schema.errors } : undefined));
        if (checked) sections.push((w) => w.section('schema', () => schemaSection(w, checked, version, options, images)));
      }
      const target = options.plan;
      if (target) sections.push((w) => w.section('plan', () => planText().planSection(w, planModule().planOfOutcome(outcome, target, options.planOptions ?? {}))));
      body = run.cloudConfigTxt;
      value = run.result;
      bodyLines = run.renderedLines;
      // The dump's line numbers start at its `---`.
      bodyOffset = body.slice(0, Math.max(0, body.indexOf('---'))).split('\n').length - 1;
      effects = run.reports.flatMap((r) => stepEffects(r.handled?.events, outcome.locate));
      locate = outcome.locate as typeof locate;
      break;
    }
    case 'boot': {
      const boot = outcome.boot;
      notes = boot.notes;
      // The final value is re-read from cloud-config.txt, so user-data values are found by path in the user-data run.
      const ud = boot.userData;
      const userDataSources = ud?.result ? provenanceByDisplay(ud.result, userDataLocator(ud)) : new Map<string, SourceLocation | null>();
      override = (path) => userDataSources.get(path) ?? null;
      // What the user-data layer's own merge lost, part by part (the layering itself is listed first).
      if (ud && !ud.fatal && ud.reports.length) sections.push((w) => w.section('lost', () => lostSection(w, userDataLosses(ud, userDataLocator(ud)), userDataNames(ud, 'user-data merge'))));
      value = boot.value;
      body = '';
      break;
    }
    case 'chef': {
      const at = outcome.locate;
      notes = outcome.result.notices.map((n) => {
        const place = n.origin ? at(n.origin, 'value') : null;
        return `${place ? `${place.file}:${place.line + 1}: ` : ''}${n.message}`;
      });
      locate = at as typeof locate;
      value = outcome.result.merged;
      body = '';
      break;
    }
    case 'confd':
    case 'system':
      notes = outcome.kind === 'confd' ? outcome.result.notes : [];
      if (options.schema && outcome.kind === 'confd') {
        const checked = systemSchemaOf(outcome, options);
        if (checked) sections.push((w) => w.section('schema', () => systemSchemaSection(w, checked, outcome.options.version ?? 'current', options)));
      }
      locate = outcome.locate as typeof locate;
      value = outcome.result.value;
      body = '';
      break;
    case 'failed':
      throw new Error('unreachable: a failed outcome is written by failureOf above');
  }
  if (outcome.kind !== 'user-data') {
    const dumped = dumpPyYamlWithLines(value);
    body = dumped.text;
    bodyLines = dumped.lines;
  }
  writeHeader(header, TITLES[mode], parts, notes, sections);
  const dataStart = header.lines.length + bodyOffset;
  bodyLines ??= value === null ? [] : dumpPyYamlWithLines(value).lines;
  const entries = value === null ? [] : lineProvenance(value, locate, dataStart, effects, bodyLines, override);
  // The body ends with the dump's document end line (`...`, cloud-init dumps with explicit_end) and a newline.
  const dataEnd = header.lines.length + body.split('\n').length - 3;
  const dataFolds = value === null ? [] : foldsOf(bodyLines, dataStart, dataEnd);
  return { text: header.lines.join('\n') + '\n' + body, body, headerLineCount: header.lines.length, entries, parts, headerLinks: header.links, headerSections: header.sections, dataFolds, ...(losses ? { losses } : {}), ...(schema ? { schema } : {}) };
}

/** A container given beside its own parts (a MIME file with the files it was built from): their parts merge twice. */
function containerNotes(run: UserDataRun): string[] {
  const inputs = run.sources.filter((s) => !s.includedBy).length;
  const name = (i: number) => run.sources[i].name;
  return containersAmong(run.reports.map((r) => r.part), inputs).map((c) => `${containerSentence(name(c.container), c.contains.map(name))}: their parts are merged twice, once from each`);
}

/** Folds of the merged data the editor keeps (it shows at most 5,000 by default); the outermost are kept. */
export const MAX_DATA_FOLDS = 5000;

/**
 * The merged data's folds: every key and item with what is written under it, up to the line before the
 * next key or item that is not inside it (the dump lists them in the order it writes them), or `end`.
 * Pairs of first and last lines of the text (`offset` is the line of the dump's first line); a key and the
 * first key of its value on one line (`- name: x`) are one fold. At most MAX_DATA_FOLDS, the outermost.
 */
export function foldsOf(lines: readonly DumpLine[], offset: number, end: number): number[] {
  const folds: Array<{ line: number; endLine: number; depth: number }> = [];
  const open: Array<{ line: number; depth: number }> = [];
  const close = (until: number) => {
    const o = open.pop()!;
    // The outer of two that start on one line closes later: it replaces the inner one.
    if (until > o.line) {
      if (folds.length && folds[folds.length - 1].line === o.line) folds.pop();
      folds.push({ line: o.line, endLine: until, depth: o.depth });
    }
  };
  for (const l of lines) {
    const line = l.line + offset;
    while (open.length && open[open.length - 1].depth >= l.path.length) close(line - 1);
    open.push({ line, depth: l.path.length });
  }
  while (open.length) close(end);
  const kept = folds.length > MAX_DATA_FOLDS ? [...folds].sort((a, b) => a.depth - b.depth || a.line - b.line).slice(0, MAX_DATA_FOLDS).sort((a, b) => a.line - b.line) : folds.sort((a, b) => a.line - b.line);
  return kept.flatMap((f) => [f.line, f.endLine]);
}

/** Why the outcome has no merged result to show, in the preview's words (undefined: it has one). */
function failureOf(outcome: Outcome, options: PreviewRenderOptions): { text: string; limit?: keyof Limits } | undefined {
  const overLimit = (limit: keyof Limits, message: string) => {
    const hint = options.limitHint ? `; ${options.limitHint(limit)}` : '';
    return { text: `not merged: the input is over a limit of this tool (${limit}): ${message}${hint}`, limit };
  };
  if (outcome.kind === 'failed') return outcome.failure.limit ? overLimit(outcome.failure.limit, outcome.failure.message) : { text: `cloud-init fails: ${outcome.failure.message}` };
  if (outcome.kind !== 'user-data') return undefined;
  const run = outcome.run;
  if (run.fatal?.limit) return overLimit(run.fatal.limit, run.fatal.message);
  if (run.fatal) return { text: `cloud-init fails before merging anything: ${run.fatal.pyType}: ${run.fatal.message}` };
  if (run.renderError) return { text: `writing cloud-config.txt fails: ${run.renderError}` };
  return undefined;
}

function writeHeader(w: HeaderWriter, title: string, parts: OutcomePart[], notes: string[], sections: Array<(w: HeaderWriter) => void> = []): void {
  w.add(`# Cloud-Config Merge preview: ${title}`);
  w.section('parts', () => {
    w.add('# Parts, in the order cloud-init reads them:');
    parts.forEach((p, i) => {
      const from: HeaderPiece[] = p.file && p.file !== p.label ? [' from ', { text: p.file, target: { file: p.file, line: 0 } }] : [];
      const head = [`#   ${i + 1}. ${p.label}`, ...from];
      if (p.status === 'merged') w.add(...head, `: merged with ${p.spec ?? '(no spec)'}`);
      else if (p.status === 'not-reproduced') w.add(...head, `: NOT SHOWN (a limitation of this tool, not of cloud-init). ${p.reason ?? ''}`.trimEnd());
      else if (p.status === 'dropped') w.add(...head, `: DROPPED. ${p.reason ?? ''}`.trimEnd());
      else w.add(...head, `: not merged. ${p.reason ?? ''}`.trimEnd());
    });
    if (!parts.length) w.add('#   (none)');
  });
  w.section('notes', () => {
    for (const n of notes) w.add(`# Note: ${n}`);
  });
  for (const section of sections) section(w);
  w.add(PREVIEW_BODY_MARKER);
}

/** A place as the header writes it (`30-app.yaml:4`), linked when it is a line of the file itself. */
function placePiece(l: SourceLocation | null, unknown = 'an unknown place'): HeaderPiece {
  if (!l) return unknown;
  if (l.note) return l.anchor ? { text: `${l.file}:${l.anchor.line + 1} (${l.note}: line ${l.line + 1})`, target: { file: l.file, line: l.anchor.line } } : `${l.file} (${l.note}: line ${l.line + 1})`;
  return { text: `${l.file}:${l.line + 1}`, target: { file: l.file, line: l.line } };
}

/** The header's "What this merge lost" section (user-data parts, drop-ins or boot layers). */
function lostSection(w: HeaderWriter, losses: MergeLosses, names: SourceNames): void {
  const { groups, ignored, dropped, total } = losses;
  const { merge, unit } = names;
  if (!total && !ignored.length && !dropped.length) {
    w.add(`# What this ${merge} lost: nothing (no value of a ${unit} was replaced, deleted, lost or dropped)`);
    return;
  }
  const counts = [total ? `${total} value${total === 1 ? '' : 's'}` : '', dropped.length ? `${dropped.length} whole ${unit}${dropped.length === 1 ? '' : 's'}` : '', ignored.length ? `${ignored.length} ignored option${ignored.length === 1 ? '' : 's'}` : ''];
  w.add(`# What this ${merge} lost (${counts.filter(Boolean).join(', ')}), by the ${unit} that had it:`);
  for (const i of ignored) w.add(`#   Ignored option in ${names.name(i.part)}, ${i.written}: ${i.instead}.`);
  for (const d of dropped) w.add(`#   ${names.name(d.part)}: all of it (DROPPED, see its line above).`);
  let shown = 0;
  for (const g of groups) {
    if (shown >= HEADER_LOST_VALUES) break;
    const spec = names.spec(g.by) ? `, merged with ${names.spec(g.by)}` : '';
    w.add(g.owner === g.by ? `#   From ${names.name(g.by)}${spec}:` : `#   From ${names.name(g.owner)}, displaced by ${names.name(g.by)}${spec}:`);
    for (const v of g.values.slice(0, HEADER_LOST_VALUES - shown)) {
      shown++;
      w.add(`#     ${v.path} ${v.value} at `, placePiece(v.at), ': ', ...lossClause(v.what, v.by ? placePiece(v.by) : null), ` (${v.reason})`);
    }
  }
  if (shown < total) w.add(`#   … and ${total - shown} more (--format report lists up to ${MAX_LOST_VALUES})`);
}

/** The header's account of `cloud-init schema --system` on the result. */
function schemaSection(w: HeaderWriter, checked: MergedSchema, version: CloudInitVersion, options: PreviewRenderOptions, images?: string): void {
  if (!checked.checked) {
    const hint = checked.limit && options.limitHint ? `; ${options.limitHint(checked.limit)}` : '';
    w.add(`# Schema: not checked: ${checked.reason}${hint}`);
    return;
  }
  const schema = checked.schema;
  const who = version === 'current' ? 'cloud-init' : `cloud-init ${version}`;
  // Nothing to report, nothing said: the header stays as short as it was.
  if (!schema.errors.length && !schema.deprecations.length) {
    if (images) w.add(`# ${images}`);
    return;
  }
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const stopped = schema.report.truncated ? ` before the check stopped at ${options.maxProblems} problems` : '';
  w.add(`# Schema: ${who} ${schema.valid ? 'accepts' : 'rejects'} the merged result (${count(schema.errors.length, 'error')}, ${count(schema.deprecations.length, 'deprecation')}${stopped}):`);
  const listed = [...schema.errors.map((p) => ['error', p] as const), ...schema.deprecations.map((p) => ['deprecated', p] as const)];
  for (const [what, p] of listed.slice(0, HEADER_SCHEMA_PROBLEMS)) w.add(`#   ${what}: ${p.path}: ${p.message.trim()}`, ...wherePieces(p));
  const hidden = Math.max(0, listed.length - HEADER_SCHEMA_PROBLEMS);
  const rest = [hidden ? `${hidden} more` : '', stopped ? 'the problems the check did not look for' : ''].filter(Boolean).join(', and ');
  if (rest) w.add(`#   … and ${rest} (\`cloud-config-merge --check\` lists them all)`);
  if (images) w.add(`# ${images}`);
}

/** The header's account of the merged system config against the schema, and where cloud-init says it. */
function systemSchemaSection(w: HeaderWriter, checked: { checked: true; schema: SystemSchemaReport } | { checked: false; reason: string; limit?: keyof Limits }, version: CloudInitVersion, options: PreviewRenderOptions): void {
  if (!checked.checked) {
    const hint = checked.limit && options.limitHint ? `; ${options.limitHint(checked.limit)}` : '';
    w.add(`# Schema: not checked: ${checked.reason}${hint}`);
    return;
  }
  const heading = systemSchemaHeading(checked.schema, version, options.maxProblems);
  if (!heading) return;
  w.add(`# ${heading}`);
  const items = systemSchemaItems(checked.schema);
  for (const i of items.slice(0, HEADER_SCHEMA_PROBLEMS)) w.add(`#   ${i.text}`, ...wherePieces(i.problem));
  if (items.length > HEADER_SCHEMA_PROBLEMS) w.add(`#   … and ${items.length - HEADER_SCHEMA_PROBLEMS} more`);
}

function wherePieces(p: MergedProblem): HeaderPiece[] {
  return p.source ? [' (', placePiece(p.source), ')'] : [];
}
