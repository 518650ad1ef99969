/**
 * What the playground shows for some user-data parts and an image: the engine's own renderings of one set of
 * parts, each equal to what the CLI prints for the same files (`test/web/` compares them byte for byte):
 *
 *  - `merged`: cloud-config.txt (`cloud-config-merge FILE...`), with the provenance of each line;
 *  - `mergeNotes`: what that merge says on stderr (cloud-init's warnings, our notes, why it fails);
 *  - `preview`: the editor's preview (`--format preview`), whose sections are the lost values and the images line;
 *  - `findings`: `--check` as text;
 *  - `plan`: `--plan` as text.
 *
 * The engine only (server/src/engine, common/): no file system, no process. The CLI's modules read files, so the
 * little they do between the engine and their output (cli/merge.ts, check.ts, plan.ts for the user-data mode
 * with no option but `--image`) is done again here; the byte-for-byte tests keep the two equal.
 */
import { runSet, type InputFile, type Outcome, type RunOptions } from '../../server/src/engine/outcome/run';
import { renderPreview, type PreviewModel } from '../../server/src/engine/render/previewText';
import { resolveTarget, imageProfile, IMAGE_PROFILES, DEFAULT_IMAGE } from '../../server/src/engine/version/profiles';
import type { Target } from '../../server/src/engine/version/target';
import { planTarget } from '../../server/src/engine/plan/facts';
import { planOfOutcome } from '../../server/src/engine/plan/ofOutcome';
import { planText } from '../../server/src/engine/render/planText';
import { notReproduced } from '../../server/src/engine/outcome/parts';
import { PyError } from '../../server/src/engine/py/errors';
import { LimitExceededError, DEFAULT_LIMITS } from '../../server/src/engine/limits';
import { decodeUtf8Surrogateescape } from '../../server/src/engine/py/codecs';
import { checkOutcome, isAccepted, wholeFileNote, type CheckResult } from '../../server/src/engine/outcome/check';
import { MAX_SCHEMA_PROBLEMS, checkDocuments, checkFindings, failsCheck, type CheckFinding } from '../../server/src/engine/check/check';
import { runCheck } from '../../server/src/engine/check/runFindings';
import { fatesOf, type FateReport } from '../../server/src/engine/outcome/fates';
import { autoinstallVerdictText, formatText } from '../../server/src/engine/render/checkText';
import { fatesText } from '../../server/src/engine/render/fatesText';
import { lintSection } from '../../server/src/engine/render/lintText';
import type { IncludeResolver } from '../../server/src/engine/userdata/process';
import { detectCloudInitDocument, detectionTextOfBytes, isContainerKind } from '../../common/detect';

export { IMAGE_PROFILES, DEFAULT_IMAGE };

/** A part as the user gave it: a name (the CLI's FILE path) and its text. */
export interface Part {
  name: string;
  text: string;
}

/** One rendering: what the CLI writes on stdout and stderr, and its exit code. */
export interface Printed {
  stdout: string;
  stderr: string;
  code: number;
}

export interface Answer {
  image: string;
  merged: Printed;
  /** One per line of `merged.stdout`: where that line's value was written, and what the merge did there. */
  provenance: string[];
  preview: Printed;
  /** The preview's sections, as lines of `preview.stdout` (0-based, inclusive). */
  sections: Array<{ kind: string; line: number; endLine: number }>;
  /** The images line of the preview (which images accept the merged result), when the images disagree. */
  imagesLine?: string;
  findings: Printed;
  plan: Printed;
  /** Parts the playground does not take as user-data (a seed's meta-data or network-config), with why. */
  refused: string[];
}

/** The CLI's exit codes (cli/main.ts, cli/merge.ts). */
const NOT_REPRODUCED = 4;

/** The page reads no file and fetches nothing: an `#include` is unreachable, in the CLI's words for a URL. */
const noIncludes: IncludeResolver = {
  read: (url) => ({ ok: false, message: `${url}: remote includes are never fetched (answer it with --include-map URL=FILE)` }),
};

/** Text as the CLI reads a file: UTF-8 bytes. */
const encoder = new TextEncoder();

function targetOf(image: string): { id: string; target: Target } {
  const id = imageProfile(image) ? image : DEFAULT_IMAGE;
  return { id, target: resolveTarget({ image: id }) };
}

function runOptions(target: Target, detail: 'full' | 'value'): RunOptions {
  return { version: target.version, includes: noIncludes, onIncludeFailure: 'error', limits: { ...DEFAULT_LIMITS }, detail };
}

/** main.ts's words for what stops a command. */
function failureText(e: unknown): { stderr: string; code: number } {
  if (e instanceof CloudInitFailureText) return { stderr: `cloud-config-merge: cloud-init would fail: ${e.message}\n`, code: 3 };
  if (e instanceof PyError) return { stderr: `cloud-config-merge: cloud-init would fail: ${e.pyType}: ${e.message}\n`, code: 3 };
  if (e instanceof LimitExceededError || e instanceof InputErrorText) return { stderr: `cloud-config-merge: ${e.message}\n`, code: 2 };
  return { stderr: `cloud-config-merge: internal error: ${(e as Error).message}\n`, code: 1 };
}
class CloudInitFailureText extends Error {}
class InputErrorText extends Error {}

/** Runs a command: its stdout and stderr as written, its exit code (main.ts's catch). */
function printed(command: (out: (t: string) => void, err: (t: string) => void) => number): Printed {
  let stdout = '';
  let stderr = '';
  try {
    const code = command((t) => (stdout += t), (t) => (stderr += t));
    return { stdout, stderr, code };
  } catch (e) {
    const f = failureText(e);
    return { stdout, stderr: stderr + f.stderr, code: f.code };
  }
}

/** cli/merge.ts's writeMerge and sayNotes, user-data mode, YAML out. */
function mergeCommand(outcome: Outcome, out: (t: string) => void, err: (t: string) => void): number {
  if (outcome.kind === 'failed') throw outcome.failure.thrown;
  if (outcome.kind !== 'user-data') throw new Error(`unexpected ${outcome.kind} outcome`);
  const run = outcome.run;
  for (const m of run.messages) err(m.level === 'info' ? `note: ${m.message}\n` : `cloud-init ${m.level.toUpperCase()}: ${m.message}\n`);
  for (const r of run.reports) {
    if ((r.disposition === 'failed' && r.handled?.error) || (r.disposition === 'jinja-ignored' && r.note.startsWith('Skipped by cloud-init'))) err(`note: ${r.part.filename}: ${r.note}\n`);
  }
  const partial = notReproduced(outcome).length ? NOT_REPRODUCED : 0;
  if (run.fatal?.limit) throw new InputErrorText(`${run.fatal.message}: nothing is merged`);
  if (run.fatal) throw new CloudInitFailureText(`${run.fatal.pyType}: ${run.fatal.message} (no user-data is processed at all)`);
  if (run.renderError) throw new CloudInitFailureText(`writing cloud-config.txt raises: ${run.renderError}`);
  out(run.cloudConfigTxt);
  return partial;
}

/** cli/plan.ts's planInputsOf with no `--cloud-cfg`: the image's plan target, or why there is none. */
function planTargetOf(target: Target): Target | string {
  const planned = planTarget(target.version, target.distro);
  return typeof planned === 'string' ? planned : { ...planned, netplan: target.netplan };
}

/** `--format preview` (cli/merge.ts's writePreview). */
function previewCommand(outcome: Outcome, target: Target, out: (t: string) => void, err: (t: string) => void): { code: number; model: PreviewModel } {
  const plan = planTargetOf(target);
  const model = renderPreview(outcome, { schema: true, ...(typeof plan === 'string' ? {} : { plan, planOptions: {} }), limitHint: (limit) => `raise it with --limit ${limit}=N` });
  out(model.text);
  if (model.limit) err(`cloud-config-merge: ${model.failure}\n`);
  return { model, code: model.limit ? 2 : model.failure ? 3 : model.parts.some((p) => p.status === 'not-reproduced') ? NOT_REPRODUCED : 0 };
}

/** `--plan` (cli/plan.ts's planCommand). */
function planCommand(outcome: Outcome, target: Target, out: (t: string) => void): number {
  const planned = planTargetOf(target);
  if (typeof planned === 'string') throw new InputErrorText(planned);
  if (outcome.kind === 'failed') throw outcome.failure.thrown;
  if (outcome.kind === 'user-data' && outcome.run.fatal) throw new CloudInitFailureText(`${outcome.run.fatal.pyType}: ${outcome.run.fatal.message} (no user-data is processed at all)`);
  const result = planOfOutcome(outcome, planned, {});
  if ('error' in result) throw new CloudInitFailureText(result.error);
  out(planText(result.plan, result.pitfalls, result.merged, result.locate, result.otherTool));
  return result.pitfalls.some((p) => p.severity === 'error') ? 1 : 0;
}

/** `--check` as text (cli/check.ts's checkRun, failing and writeCheck, user-data mode, no seed, no cloud). */
function checkCommand(files: InputFile[], target: Target, out: (t: string) => void, err: (t: string) => void): number {
  const version = target.version;
  const outcome = runSet('user-data', { files }, runOptions(target, 'full'));
  for (const f of files) {
    const note = outcome.kind === 'user-data' ? wholeFileNote(f.name, f.bytes, version) : undefined;
    if (note) err(`cloud-config-merge: note: ${note}\n`);
  }
  const checked = checkOutcome(outcome, version, { names: files.map((f) => f.name), merged: true });
  if (checked && 'fatal' in checked) {
    if (checked.fatal.limit) throw new InputErrorText(`${checked.fatal.message}: nothing is merged`);
    throw new CloudInitFailureText(`${checked.fatal.pyType}: ${checked.fatal.message} (no user-data is processed at all)`);
  }
  const result: CheckResult | null = checked ?? null;
  const fates: FateReport = fatesOf(outcome);
  const lone = files.length === 1 ? files[0] : undefined;
  const container = lone !== undefined && isContainerKind(detectCloudInitDocument(detectionTextOfBytes(lone.bytes), lone.name)?.kind);
  const isSet = files.length > 1 || container;
  const plan = planTargetOf(target);
  const planned = typeof plan === 'string' ? undefined : plan;
  const docs = checkDocuments(
    files.map((f) => ({ path: f.name, text: decodeUtf8Surrogateescape(f.bytes) })),
    { version, netplan: target.netplan, netplanVersion: target.netplanVersion, maxBytes: DEFAULT_LIMITS.maxFileBytes, maxDepth: DEFAULT_LIMITS.maxDepth, maxDecompressedBytes: DEFAULT_LIMITS.maxDecompressedBytes, schema: true, maxSchemaProblems: MAX_SCHEMA_PROBLEMS, ...(planned && !isSet ? { planAlone: planned, planOptions: {} } : {}) },
  );
  const found = isSet ? runCheck(outcome, { schema: true, maxProblems: MAX_SCHEMA_PROBLEMS, ...(planned ? { target: planned, planOptions: {} } : {}), fates }).findings : [];
  const runFound = container ? found.filter((f) => f.at !== null) : found;
  const findings = checkFindings(docs, runFound);
  // What cloud-init's own report covers (check.ts's coveredByVerdict, besidesReport).
  const covered = (f: CheckFinding): boolean => (f.code.startsWith('merged-schema-') ? result?.merged !== null && result !== null : (result?.files.some((r) => r.file === f.file) ?? false));
  const verdict = result !== null && result.files.length + (result.merged ? 1 : 0) > 0;
  const shown = findings.filter((f) => !f.code.startsWith('fate-') && (!covered(f) || !(f.code.startsWith('schema-') || f.code.startsWith('merged-schema-') || f.code === 'yaml-invalid')));
  const lint = lintSection(shown, shown.filter((f) => failsCheck(f, false)).length);
  out(autoinstallVerdictText(docs.autoinstall));
  if (result) out(formatText(result, version));
  out(lint.text);
  if (fates.fates.length || fates.failure || !result) out(fatesText(fates));
  if (lint.failure) out(lint.failure);
  const failing = (result !== null && !isAccepted(result)) || findings.some((f) => failsCheck(f, verdict && covered(f)));
  return failing ? 1 : 0;
}

/** The provenance column of cloud-config.txt: one entry per line of the body, in the preview's words. */
function provenanceOf(model: PreviewModel): string[] {
  const lines = model.body === '' ? [] : model.body.replace(/\n$/, '').split('\n');
  const column = lines.map(() => '');
  for (const e of model.entries) {
    const i = e.line - model.headerLineCount;
    if (i < 0 || i >= column.length) continue;
    const at = e.source ? `${e.source.file}:${e.source.line + 1}` : '';
    const did = [...new Set(e.history.map((h) => h.what))].join(', ');
    column[i] = [at, did].filter(Boolean).join(' · ');
  }
  return column;
}

/**
 * The preview's images line, with the lines it wraps onto (header.ts indents a continuation deeper than the item's
 * own text), as the preview writes it.
 */
function imagesLineOf(text: string): string | undefined {
  const lines = text.split('\n');
  const first = lines.findIndex((l) => /^#\s*Which images accept this/.test(l));
  if (first < 0) return undefined;
  const own = /^#\s*/.exec(lines[first])?.[0].length ?? 1;
  let last = first;
  while (last + 1 < lines.length && new RegExp(`^# {${own},}\\S`).test(lines[last + 1])) last++;
  return lines.slice(first, last + 1).join('\n');
}

/** The parts a user-data merge refuses (check.ts and seedFiles.ts's rule): a seed's meta-data or network-config. */
function refusedParts(parts: readonly Part[]): string[] {
  const out: string[] = [];
  for (const p of parts) {
    const kind = detectCloudInitDocument(detectionTextOfBytes(encoder.encode(p.text)), p.name)?.kind;
    if (kind === 'meta-data' || kind === 'network-config') out.push(`${p.name} is a ${kind}, not user-data: the playground merges user-data parts only`);
  }
  return out;
}

/** Every rendering of the parts, in order, on the image (the default image for an unknown or empty id). */
export function answer(parts: readonly Part[], image: string): Answer {
  const { id, target } = targetOf(image);
  const refused = refusedParts(parts);
  const files: InputFile[] = parts.filter((p) => !refused.some((r) => r.startsWith(`${p.name} `))).map((p) => ({ name: p.name, bytes: encoder.encode(p.text) }));
  const full = runSet('user-data', { files }, runOptions(target, 'full'));
  let model: PreviewModel | undefined;
  const preview = printed((out, err) => {
    const r = previewCommand(full, target, out, err);
    model = r.model;
    return r.code;
  });
  const merged = printed((out, err) => mergeCommand(runSet('user-data', { files }, runOptions(target, 'value')), out, err));
  const findings = printed((out, err) => checkCommand(files, target, out, err));
  const plan = printed((out) => planCommand(full, target, out));
  const imagesLine = imagesLineOf(preview.stdout);
  return {
    image: id,
    merged,
    provenance: model && merged.code !== 2 && merged.code !== 3 ? provenanceOf(model) : [],
    preview,
    sections: model?.headerSections.map((s) => ({ kind: s.kind, line: s.line, endLine: s.endLine })) ?? [],
    ...(imagesLine ? { imagesLine } : {}),
    findings,
    plan,
    refused,
  };
}

export const PROFILES = IMAGE_PROFILES.map((p) => ({ id: p.id, label: p.label, version: p.version }));
