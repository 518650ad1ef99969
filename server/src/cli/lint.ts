/**
 * `cloud-config-merge --lint FILE...`: the editor's merge-spec diagnostics on the command line,
 * for pre-commit hooks and CI. Files that are not cloud-init documents are skipped, as the
 * language server skips them. Exit 1 when an error or a warning is found. `--format sarif`
 * writes SARIF 2.1.0 (for GitHub code scanning and other CI viewers) instead of lines. The findings are
 * those of the merge the same options make: its custom mergers, instance data and cloud-init version.
 * `--check` adds the same findings to its report (lintOptions, engine/lint/lintFiles.ts). `--type` reads every
 * FILE as that NoCloud seed file, as `--check --type` does.
 */
import { sarifLog } from '../engine/render/sarif';
import { lintFiles } from '../engine/lint/lintFiles';
import type { AnalyzeOptions } from '../engine/lint/analyzeDocument';
import { lintLines, lintSarif, lintSummary } from '../engine/render/lintText';
import { decodeUtf8Surrogateescape } from '../engine/py/codecs';
import { CliOptions } from './args';
import { CliIO, customMergers, instanceDataChoice, read } from './main';
import { packageVersion } from './version';

/** What the findings of `--lint` and `--check` are computed with: the merge's own options. */
export function lintOptions(o: CliOptions, io: CliIO): Omit<AnalyzeOptions, 'schema'> {
  return { version: o.version, netplan: o.target.netplan, netplanVersion: o.target.netplanVersion, maxBytes: o.limits.maxFileBytes, maxDepth: o.limits.maxDepth, customMergers: customMergers(o, io), instanceData: instanceDataChoice(o) };
}

export function lintMode(o: CliOptions, io: CliIO): number {
  const options = lintOptions(o, io);
  // Read one at a time, as analysed: a large list of files is never all in memory.
  const files = (function* () {
    for (const path of o.files) yield { path, text: decodeUtf8Surrogateescape(read(o, path)), kind: o.type };
  })();
  const result = lintFiles(files, options);
  if (o.format === 'sarif') {
    const { rules, results } = lintSarif(result);
    io.stdout(JSON.stringify(sarifLog({ version: packageVersion(), informationUri: 'https://cloudinit.readthedocs.io/en/latest/reference/merging.html', rules }, results), null, o.pretty ? 2 : undefined) + '\n');
  } else for (const line of lintLines(result)) io.stdout(line + '\n');
  const summary = lintSummary(result);
  if (summary) io.stderr(`cloud-config-merge: ${summary}\n`);
  return result.failing ? 1 : 0;
}
