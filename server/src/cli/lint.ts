/**
 * `cloud-config-merge --lint FILE...`: the editor's merge-spec diagnostics on the command line,
 * for pre-commit hooks and CI. Files that are not cloud-init documents are skipped, as the
 * language server skips them. Exit 1 when an error or a warning is found.
 */
import { analyzeDocument } from '../engine/lint/analyzeDocument';
import { LineIndex } from '../engine/text/lineIndex';
import { decodeUtf8Surrogateescape } from '../engine/userdata/mime';
import { CliOptions } from './args';
import { CliIO, read } from './main';

export function lintMode(o: CliOptions, io: CliIO): number {
  let failing = 0;
  let checked = 0;
  for (const file of o.files) {
    const text = decodeUtf8Surrogateescape(read(o, file));
    const analysis = analyzeDocument(text, file, { version: o.version, maxBytes: o.limits.maxFileBytes, maxDepth: o.limits.maxDepth });
    if (!analysis.info) continue;
    checked++;
    const lines = new LineIndex(text);
    for (const f of analysis.findings) {
      const at = lines.position(f.span.start);
      io.stdout(`${file}:${at.line + 1}:${at.character + 1}: ${f.severity}: ${f.message} [${f.code}]\n`);
      if (f.severity === 'error' || f.severity === 'warning') failing++;
    }
  }
  if (failing) io.stderr(`cloud-config-merge: ${failing} problem${failing === 1 ? '' : 's'} in ${checked} cloud-init file${checked === 1 ? '' : 's'}\n`);
  return failing ? 1 : 0;
}
