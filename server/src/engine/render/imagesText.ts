/**
 * "Which images accept this": the verdict of each image profile, from one schema check per cloud-init
 * version (`--check`'s, or the preview's check of the merged result), written as one line (the preview's
 * header, the top of `--check --image all`), as the text that follows it, and as JSON.
 */
import { IMAGE_PROFILES, type ImageProfile } from '../version/profiles';
import { CLOUD_INIT_VERSIONS, type CloudInitVersion } from '../version/versions';
import { validateMergedText } from '../outcome/mergedSchema';
import { checkFile, type FileResult } from '../outcome/check';
import { runSet, type Outcome } from '../outcome/run';
import { LimitExceededError } from '../limits';
import { PyError } from '../py/errors';

/** One problem that makes a version reject the input, placed where it is known. */
export interface VerdictProblem {
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

/**
 * The problems that make a version reject the input, from its `--check` result: the files' errors, or the
 * merged result's when only it has some (a file's problem is the merged result's too: listed once, where it is written).
 */
export function versionProblems(result: { files: ReadonlyArray<{ file?: string; errors: ReadonlyArray<{ path: string; message: string; file?: string; line?: number; column?: number }> }>; merged: { errors: ReadonlyArray<{ path: string; message: string; file?: string; line?: number; column?: number }> } | null }): VerdictProblem[] {
  const place = (p: { path: string; message: string; file?: string; line?: number; column?: number }, file?: string): VerdictProblem => ({ path: p.path, message: p.message, ...(p.file ?? file ? { file: p.file ?? file } : {}), ...(p.line ? { line: p.line } : {}), ...(p.column ? { column: p.column } : {}) });
  const files = result.files.flatMap((f) => f.errors.map((p) => place(p, f.file)));
  return files.length ? files : (result.merged?.errors ?? []).map((p) => place(p));
}

/** What one version's check says. */
export interface VersionVerdict {
  valid: boolean;
  errors: VerdictProblem[];
}

export interface ImageVerdict extends VersionVerdict {
  image: string;
  version: CloudInitVersion;
}

/**
 * Each profile with the verdict of its version (each version checked once, by `check`). A part cloud-init
 * could not read is dropped by every version, though only 23.4 and later's schema check reports it
 * ("Ignored invalid user-data"): a version that does not report it is given the same problem, so that
 * unreadable YAML is not "valid on debian-12".
 */
export function imageVerdicts(profiles: readonly ImageProfile[], check: (version: CloudInitVersion) => VersionVerdict): ImageVerdict[] {
  const byVersion = new Map<CloudInitVersion, VersionVerdict>();
  for (const p of profiles) if (!byVersion.has(p.version)) byVersion.set(p.version, check(p.version));
  return profiles.map((p) => {
    const verdict = byVersion.get(p.version)!;
    return { image: p.id, version: p.version, valid: verdict.valid, errors: verdict.errors };
  });
}

/** `x: message` of a problem, on one line. */
function said(p: VerdictProblem): string {
  return `${p.path ? `${p.path}: ` : ''}${p.message.trim().replace(/\s*\n\s*/g, ' ')}`;
}

/** A version as the verdicts write it. */
function versionName(v: CloudInitVersion): string {
  return v === 'current' ? 'current' : v;
}

/**
 * "(cloud-init 24.4 and later)" when the images that accept are exactly those whose version is at least the
 * oldest such version, otherwise "(cloud-init 22.4, current)".
 */
function validRange(verdicts: readonly ImageVerdict[]): string {
  const valid = new Set(verdicts.filter((v) => v.valid).map((v) => v.version));
  const versions = CLOUD_INIT_VERSIONS.filter((v) => verdicts.some((x) => x.version === v));
  const first = versions.findIndex((v) => valid.has(v));
  const upward = first >= 0 && versions.slice(first).every((v) => valid.has(v));
  if (upward && first > 0 && versions[first] !== 'current') return `cloud-init ${versions[first]} and later`;
  return `cloud-init ${versions.filter((v) => valid.has(v)).map(versionName).join(', ')}`;
}

/** The images that reject the input, grouped by what they report (versions that report the same errors share a group), oldest version first. */
function rejections(verdicts: readonly ImageVerdict[]): Array<{ images: ImageVerdict[]; versions: CloudInitVersion[]; errors: VerdictProblem[] }> {
  const groups = new Map<string, { images: ImageVerdict[]; versions: CloudInitVersion[]; errors: VerdictProblem[] }>();
  for (const version of CLOUD_INIT_VERSIONS) {
    const here = verdicts.filter((v) => v.version === version && !v.valid);
    if (!here.length) continue;
    const key = JSON.stringify(here[0].errors.map((p) => [p.path, p.message, p.file, p.line, p.column]));
    const group = groups.get(key) ?? groups.set(key, { images: [], versions: [], errors: here[0].errors }).get(key)!;
    group.images.push(...here);
    group.versions.push(version);
  }
  return [...groups.values()];
}

/** Whether the images differ in their verdict (some accept and some reject, or they report different errors). */
export function verdictsDiffer(verdicts: readonly ImageVerdict[]): boolean {
  const valid = verdicts.filter((v) => v.valid).length;
  if (valid) return valid < verdicts.length;
  return rejections(verdicts).length > 1;
}

/** More problems than the preview's check of another version looks for in a text (OTHER_VERSION_PROBLEMS). */
const MANY_MORE = 19;

/** One line: "valid on debian-13, rhel-9 (cloud-init 24.4 and later); on rhel-8 (23.4) x: ... is unknown". */
export function imagesSummary(verdicts: readonly ImageVerdict[]): string {
  const valid = verdicts.filter((v) => v.valid);
  if (valid.length === verdicts.length) return `valid on every image (${valid.map((v) => v.image).join(', ')})`;
  const groups = rejections(verdicts);
  // Past MANY_MORE the count is not said: the preview looks for the first few problems only, --check for all.
  const what = (errors: VerdictProblem[]) => (errors.length ? said(errors[0]) + (errors.length > 1 ? ` (and ${errors.length - 1 >= MANY_MORE ? 'many' : errors.length - 1} more)` : '') : 'rejected');
  if (!valid.length && groups.length === 1) return `valid on no image: ${what(groups[0].errors)}`;
  const clauses: string[] = [];
  if (valid.length) clauses.push(`valid on ${valid.map((v) => v.image).join(', ')} (${validRange(verdicts)})`);
  for (const g of groups) clauses.push(`on ${g.images.map((v) => v.image).join(', ')} (${g.versions.map(versionName).join(', ')}) ${what(g.errors)}`);
  return clauses.join('; ');
}

/** `--check --image …` as text: the summary, then every problem of the images that reject, once per group that reports the same. */
export function imagesText(verdicts: readonly ImageVerdict[]): string {
  const out = [`Which images accept this: ${imagesSummary(verdicts)}`];
  for (const g of rejections(verdicts)) {
    out.push('', `Invalid on ${g.images.map((v) => v.image).join(', ')} (cloud-init ${g.versions.map(versionName).join(', ')}):`);
    for (const p of g.errors) out.push(`  ${p.file ? `${p.file}${p.line ? `:${p.line}${p.column ? `:${p.column}` : ''}` : ''}: ` : ''}${said(p)}`);
  }
  return out.join('\n') + '\n';
}

/** `--check --image … --format json`. */
export function imagesJson(verdicts: readonly ImageVerdict[]): { images: Array<{ image: string; version: CloudInitVersion; valid: boolean; errors: VerdictProblem[] }> } {
  return { images: verdicts.map((v) => ({ image: v.image, version: v.version, valid: v.valid, errors: v.errors })) };
}

/** The last merged text each version validated for the preview's line, and its verdict (a refresh that changed nothing validates nothing). */
const lastChecked = new Map<CloudInitVersion, { text: string; verdict: { valid: boolean; errors: VerdictProblem[] } }>();

/** The other versions' problems a preview line needs: a verdict and the first few errors, not 200,000 of them. */
const OTHER_VERSION_PROBLEMS = 20;

/** A FILE's own check per version and text, kept across refreshes (an edit re-checks the part edited). */
const fileChecks = new Map<string, FileResult[]>();
const MAX_FILE_CHECKS = 2_000;

function fileCheck(name: string, bytes: Uint8Array, version: CloudInitVersion, instanceData: unknown): FileResult[] {
  const key = `${version}\0${name}\0${instanceData === undefined ? '' : typeof instanceData === 'string' ? instanceData : JSON.stringify(instanceData)}\0${new TextDecoder().decode(bytes)}`;
  let found = fileChecks.get(key);
  if (!found) {
    if (fileChecks.size >= MAX_FILE_CHECKS) fileChecks.clear();
    fileChecks.set(key, (found = checkFile(name, bytes, version, instanceData, { acceptance: false, maxProblems: OTHER_VERSION_PROBLEMS })));
  }
  return found;
}

/**
 * The verdict of one version on a user-data run, as `--check --image` gives it from cloud-init's own check:
 * each FILE as `cloud-init schema -c` takes it and the merged result, with that version's own merge (each
 * version merges and reads YAML its own way: 22.4 and 23.4 load `!!python/unicode`, later ones drop the part).
 * `merged`: the run's own merged check when it is of this version (not validated again).
 */
export function runVerdict(outcome: Outcome, version: CloudInitVersion, merged?: { valid: boolean; errors: VerdictProblem[] }): VersionVerdict {
  const run = outcome.options.version === version || (outcome.options.version === undefined && version === 'current') ? outcome : runSet(outcome.mode, outcome.inputs, { ...outcome.options, version, detail: 'value' });
  if (run.kind !== 'user-data') return { valid: false, errors: [{ path: '', message: run.kind === 'failed' ? run.failure.message : `no user-data run in ${run.mode} mode` }] };
  if (run.run.fatal) return { valid: false, errors: [{ path: '', message: `cloud-init ${version} processes none of this user-data: ${run.run.fatal.pyType}: ${run.run.fatal.message}` }] };
  const files = run.inputs.files.flatMap((f) => fileCheck(f.name, f.bytes, version, run.options.instanceData));
  let mergedVerdict = merged;
  if (!mergedVerdict) {
    const text = run.run.cloudConfigTxt;
    const last = lastChecked.get(version);
    if (last?.text === text) mergedVerdict = last.verdict;
    else {
      const report = validateMergedText(text, version, OTHER_VERSION_PROBLEMS);
      mergedVerdict = { valid: report.valid, errors: report.errors.map((p) => ({ path: p.path, message: p.message })) };
      lastChecked.set(version, { text, verdict: mergedVerdict });
    }
  }
  const result = { files, merged: mergedVerdict };
  return { valid: files.every((f) => f.valid !== false) && mergedVerdict.valid, errors: versionProblems(result) };
}

/**
 * The preview header's "Which images accept this": each version's verdict on the run (runVerdict: a run
 * per version, as `--check --image all` runs). Undefined when every image accepts it (the header stays as
 * short as it was) or a version could not check it.
 */
export function mergedImagesLine(verdictOf: (version: CloudInitVersion) => VersionVerdict, profiles: readonly ImageProfile[] = IMAGE_PROFILES): string | undefined {
  try {
    const verdicts = imageVerdicts(profiles, verdictOf);
    // Every image with the same verdict: the schema section above already says it.
    return verdictsDiffer(verdicts) ? `Which images accept this: ${imagesSummary(verdicts)}` : undefined;
  } catch (e) {
    if (e instanceof LimitExceededError || e instanceof PyError) return undefined;
    throw e;
  }
}
