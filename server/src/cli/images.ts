/**
 * `--check --image all` (or `--image ID,ID`): which images accept the input. Each cloud-init version the
 * images name is checked once, by --check's own run (main.ts schemaCheck); each image gets its version's
 * verdict. Exit 1 when any image listed rejects the input: a CI job lists the images it ships to.
 */
import type { SetInputs } from '../engine/outcome/run';
import { isAccepted, type CheckResult, type Located } from '../engine/outcome/check';
import { imageVerdicts, imagesJson, imagesText, type VersionVerdict } from '../engine/render/imagesText';
import type { CloudInitVersion } from '../engine/version/versions';
import { UsageError, type CliOptions } from './args';
import { schemaCheck, type CliIO } from './main';

/** A version's verdict from its --check result: the files' errors, or the merged result's when only it has some. */
export function versionVerdict(result: CheckResult): VersionVerdict {
  const place = (p: Located, file?: string) => ({ path: p.path, message: p.message, ...(p.file ?? file ? { file: p.file ?? file } : {}), ...(p.line ? { line: p.line } : {}), ...(p.column ? { column: p.column } : {}) });
  const files = result.files.flatMap((f) => f.errors.map((p) => place(p, f.file)));
  const merged = (result.merged?.errors ?? []).map((p) => place(p));
  // A file's problem is the merged result's too: it is listed once, where it is written.
  return { valid: isAccepted(result), errors: files.length ? files : merged };
}

export function imagesCheck(o: CliOptions, io: CliIO, inputs: SetInputs & { paths: string[] }): number {
  if (o.mode !== 'user-data' && o.mode !== 'handler') throw new UsageError(`--image ${o.image} checks user-data against each image's schema: it works with the user-data and handler modes, not ${o.mode}`);
  const images = o.images ?? [];
  const byEngine = new Map<string, VersionVerdict>();
  const verdicts = imageVerdicts(images, (version: CloudInitVersion) => {
    const run = version;
    let verdict = byEngine.get(run);
    if (!verdict) byEngine.set(run, (verdict = versionVerdict(schemaCheck(o, io, inputs, run).result ?? { files: [], merged: null })));
    return verdict;
  });
  if (o.format === 'json') io.stdout(JSON.stringify(imagesJson(verdicts), null, o.pretty ? 2 : undefined) + '\n');
  else io.stdout(imagesText(verdicts));
  return verdicts.every((v) => v.valid) ? 0 : 1;
}
