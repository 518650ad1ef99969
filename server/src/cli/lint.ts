/**
 * `cloud-config-merge --lint FILE...`: the editor's merge-spec diagnostics on the command line,
 * for pre-commit hooks and CI. Files that are not cloud-init documents are skipped, as the
 * language server skips them. Exit 1 when an error or a warning is found. `--format sarif`
 * writes SARIF 2.1.0 (for GitHub code scanning and other CI viewers) instead of lines. The findings are
 * those of the merge the same options make: its custom mergers, instance data and cloud-init version.
 */
import { sarifLog } from '../engine/render/sarif';
import { analyzeDocument } from '../engine/lint/analyzeDocument';
import { Finding } from '../engine/findings/findings';
import { LineIndex } from '../engine/text/lineIndex';
import { decodeUtf8Surrogateescape } from '../engine/py/codecs';
import { CliOptions } from './args';
import { CliIO, customMergers, instanceDataChoice, read } from './main';
import { packageVersion } from './version';

interface Located {
  file: string;
  finding: Finding;
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export function lintMode(o: CliOptions, io: CliIO): number {
  let failing = 0;
  let checked = 0;
  const all: Located[] = [];
  const options = { version: o.version, maxBytes: o.limits.maxFileBytes, maxDepth: o.limits.maxDepth, customMergers: customMergers(o, io), instanceData: instanceDataChoice(o) };
  for (const file of o.files) {
    const text = decodeUtf8Surrogateescape(read(o, file));
    const analysis = analyzeDocument(text, file, options);
    if (!analysis.info) continue;
    checked++;
    const lines = new LineIndex(text);
    for (const f of analysis.findings) {
      all.push({ file, finding: f, start: lines.position(f.span.start), end: lines.position(f.span.end) });
      if (f.severity === 'error' || f.severity === 'warning') failing++;
    }
  }
  if (o.format === 'sarif') io.stdout(JSON.stringify(sarif(all), null, o.pretty ? 2 : undefined) + '\n');
  else for (const l of all) io.stdout(`${l.file}:${l.start.line + 1}:${l.start.character + 1}: ${l.finding.severity}: ${l.finding.message} [${l.finding.code}]\n`);
  if (failing) io.stderr(`cloud-config-merge: ${failing} problem${failing === 1 ? '' : 's'} in ${checked} cloud-init file${checked === 1 ? '' : 's'}\n`);
  return failing ? 1 : 0;
}

const LEVEL = { error: 'error', warning: 'warning', info: 'note', hint: 'note' } as const;

/** One rule per finding code. */
function sarif(all: Located[]): unknown {
  const rules = [...new Set(all.map((l) => l.finding.code))].sort().map((id) => ({ id, name: id, shortDescription: { text: id } }));
  return sarifLog(
    { version: packageVersion(), informationUri: 'https://cloudinit.readthedocs.io/en/latest/reference/merging.html', rules },
    all.map((l) => ({
      ruleId: l.finding.code,
      level: LEVEL[l.finding.severity],
      message: l.finding.message,
      file: l.file,
      region: { startLine: l.start.line + 1, startColumn: l.start.character + 1, endLine: l.end.line + 1, endColumn: l.end.character + 1 },
    })),
  );
}
