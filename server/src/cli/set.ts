/**
 * `--set NAME`: the CLI reads the same set file as the editor and merges the
 * same files, in the same mode and order.
 */
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import { SET_FILE_MAX_BYTES, SET_FILE_NAME } from '../engine/sets/setFile';
import { listForPatterns, readSetFile, resolveSet, setPatterns } from '../node/sets';
import { runImage, savedSetRun } from '../sets/resolve';
import { CliOptions, UsageError } from './args';
import { pushAll } from '../engine/arrays';

/** `--set NAME`: the mode, files and layers of a set of the set file (`--set-file`, else ./cloud-config-merge.yaml). */
export function applySet(o: CliOptions, cwd = process.cwd()): void {
  if (o.set === undefined) return;
  if (o.files.length) throw new UsageError(`--set ${o.set} names the files: give no FILE with it (got ${o.files.join(' ')})`);
  const file = path.resolve(cwd, o.setFile ?? SET_FILE_NAME);
  if (!existsSync(file)) throw new UsageError(`--set ${o.set}: no set file ${o.setFile ?? `${SET_FILE_NAME} in ${cwd}`} (give one with --set-file PATH)`);
  const parsed = readSetFile(file);
  if (!parsed) throw new UsageError(`--set ${o.set}: ${file} cannot be read (a set file is a file of at most ${SET_FILE_MAX_BYTES} bytes)`);
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new UsageError(`${file}: ${errors.map((e) => e.message).join('; ')}`);
  const set = parsed.sets.find((s) => s.name === o.set);
  if (!set) throw new UsageError(`--set ${o.set}: ${file} has no such set (it has ${parsed.sets.map((s) => s.name).join(', ') || 'none'})`);
  const folder = path.dirname(file);
  const reading = { folders: o.setAllowOutside ? null : [folder], maxFiles: o.limits.maxSetFiles, words: { folders: folder, allowOutside: 'give --set-allow-outside to read it', maxFiles: 'change it with --limit maxSetFiles=N' } };
  const resolved = resolveSet(folder, set, listForPatterns(folder, setPatterns(set), reading.folders), reading);
  if (resolved.problems.length) throw new UsageError(`${file}: ${resolved.problems.map((p) => p.message).join('; ')}`);
  if (resolved.unmatched.length) throw new UsageError(`--set ${o.set}: no file matches ${resolved.unmatched.join(', ')}`);
  const run = savedSetRun(folder, resolved);
  // Paths as a user would type them from here, so messages and SARIF name files relative to the working directory.
  const shown = (f: string) => path.relative(cwd, f) || f;
  o.mode = run.mode;
  // The set's image, unless --image names one (applyTarget then reads it).
  o.image = runImage(run, { requested: o.image });
  o.files = run.files.map(shown);
  pushAll(o.includeMap, run.includeMap.map((m) => ({ url: m.url, file: shown(m.file) })));
  // The set's instance data is a file, even one named like a shipped sample (`aws`), as in the editor.
  if (run.instanceData) o.instanceData = path.isAbsolute(shown(run.instanceData)) ? shown(run.instanceData) : `.${path.sep}${shown(run.instanceData)}`;
  if (run.boot.confd) o.confd = run.boot.confd.map(shown);
  if (run.boot.cloudCfg) o.cloudCfg = shown(run.boot.cloudCfg);
  if (run.boot.vendor) o.vendor = shown(run.boot.vendor);
  if (run.boot.vendor2) o.vendor2 = shown(run.boot.vendor2);
  if (run.boot.dsConfig) o.dsConfig = shown(run.boot.dsConfig);
  // A seed's meta-data and network-config are checked and previewed with it, as with --seed.
  if (run.seed) {
    o.seed = run.seed.folder;
    o.seedFiles = { metaData: run.seed.metaData && shown(run.seed.metaData), networkConfig: run.seed.networkConfig && shown(run.seed.networkConfig) };
  }
}

