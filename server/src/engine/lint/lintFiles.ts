/**
 * The editor's findings for a list of files, as `--lint` reports them and `--check` adds them to its
 * report: each file analysed as the language server analyses an open document (analyzeDocument, without
 * the schema check, which `--check` makes its own way), files that are not cloud-init documents skipped.
 */
import { analyzeDocument, type AnalyzeOptions } from './analyzeDocument';
import type { Finding } from '../findings/findings';
import { LineIndex } from '../text/lineIndex';

/** A finding with its 0-based place in its file. */
export interface FileFinding {
  file: string;
  finding: Finding;
  start: { line: number; character: number };
  end: { line: number; character: number };
}

export interface LintResult {
  findings: FileFinding[];
  /** Files that are cloud-init documents (the others are skipped). */
  checked: number;
  /** Findings that fail a CI run: errors and warnings. */
  failing: number;
}

/** `kind`: the file is read as that kind whatever its name and content (`--type` of `--check` and `--lint`). */
export function lintFiles(files: Iterable<{ path: string; text: string; kind?: AnalyzeOptions['kind'] }>, options: Omit<AnalyzeOptions, 'schema'>): LintResult {
  const result: LintResult = { findings: [], checked: 0, failing: 0 };
  for (const { path, text, kind } of files) {
    const analysis = analyzeDocument(text, path, kind ? { ...options, kind } : options);
    if (!analysis.info) continue;
    result.checked++;
    const lines = new LineIndex(text);
    for (const f of analysis.findings) {
      result.findings.push({ file: path, finding: f, start: lines.position(f.span.start), end: lines.position(f.span.end) });
      if (isFailing(f)) result.failing++;
    }
  }
  return result;
}

/** Errors and warnings fail `--lint` (and `--check`); information and hints do not. */
export function isFailing(f: Finding): boolean {
  return f.severity === 'error' || f.severity === 'warning';
}
