/**
 * `cloud-config-merge --lint FILE...`: the editor's diagnostics on the command line, for pre-commit hooks
 * and CI. Each FILE is what the editor shows for it open alone (engine/check/check.ts's checkDocuments:
 * merge specs, cloud-init's schema, templates, network-config, meta-data, its own boot plan); files that
 * are not cloud-init documents are skipped, as the language server skips them. Exit 1 when an error or a
 * warning is found. `--format sarif` writes SARIF 2.1.0 instead of lines. The findings are those of the
 * merge the same options make: its custom mergers, instance data and cloud-init version. `--type` reads
 * every FILE as that NoCloud seed file, as `--check --type` does.
 */
import { sarifLog } from '../engine/render/sarif';
import { MAX_SCHEMA_PROBLEMS, checkDocuments, failsCheck } from '../engine/check/check';
import type { AnalyzeOptions } from '../engine/lint/analyzeDocument';
import { lintLines, lintSarif, lintSummary } from '../engine/render/lintText';
import { decodeUtf8Surrogateescape } from '../engine/py/codecs';
import { CliOptions } from './args';
import { CliIO, customMergers, instanceDataChoice, read } from './io';
import { planTargetOf } from './check';
import { packageVersion } from './version';

/** What the findings of `--lint` and `--check` are computed with: the merge's own options. */
export function lintOptions(o: CliOptions, io: CliIO): Omit<AnalyzeOptions, 'schema'> {
  return { version: o.version, netplan: o.target.netplan, netplanVersion: o.target.netplanVersion, subiquity: o.target.subiquity ?? null, maxBytes: o.limits.maxFileBytes, maxDepth: o.limits.maxDepth, customMergers: customMergers(o, io), instanceData: instanceDataChoice(o), cloud: o.cloud, maxDecompressedBytes: o.limits.maxDecompressedBytes, ...(o.failOnSecrets ? { secretsAsErrors: true } : {}), ...(o.loadedBodies ? { loadedBodies: o.loadedBodies } : {}) };
}

export function lintMode(o: CliOptions, io: CliIO): number {
  const target = planTargetOf(o);
  // Read one at a time, as analysed: a large list of files is never all in memory.
  const files = (function* () {
    for (const path of o.files) yield { path, text: decodeUtf8Surrogateescape(read(o, path)), kind: o.type };
  })();
  const result = checkDocuments(files, { ...lintOptions(o, io), schema: true, maxSchemaProblems: MAX_SCHEMA_PROBLEMS, ...(target ? { planAlone: target } : {}) });
  if (o.format === 'sarif') {
    const { rules, results } = lintSarif(result.findings);
    io.stdout(JSON.stringify(sarifLog({ version: packageVersion(), informationUri: 'https://cloudinit.readthedocs.io/en/latest/reference/merging.html', rules }, results), null, o.pretty ? 2 : undefined) + '\n');
  } else for (const line of lintLines(result.findings)) io.stdout(line + '\n');
  const failing = result.findings.filter((f) => failsCheck(f, false)).length;
  const summary = lintSummary(failing, result.checked);
  if (summary) io.stderr(`cloud-config-merge: ${summary}\n`);
  return failing ? 1 : 0;
}
