/**
 * `cloud-init schema --system` on what a user-data run writes: the merged cloud-config.txt validated as
 * cloud-init validates it on the instance, each problem traced back (provenance) to the part, file and
 * line that supplied the offending value.
 */
import type { Locator, SourceLocation } from './locate';
import type { UserDataRun } from '../userdata/run';
import { getListOrigins, PyDict, type Origin, type PyValue } from '../py/values';
import { readBack } from '../yaml/readBack';
import type { DumpLine } from '../yaml/dump';
import type { TopLevelMemo } from '../schema/topLevelMemo';
import { problemPlace, validateCloudConfigText, type SchemaProblem, type SchemaVersion, type TextSchemaReport } from '../schema/validate';

export interface MergedProblem extends SchemaProblem {
  /** Where the value was written, when provenance knows (0-based lines, as SourceLocation). */
  source: SourceLocation | null;
}

export interface MergedSchemaReport {
  valid: boolean;
  errors: MergedProblem[];
  deprecations: MergedProblem[];
  report: TextSchemaReport;
}

/** The origin of the value at a path of the merged result: the part that supplied it. */
export function originAt(root: PyValue, segments: PyValue[]): Origin | undefined {
  let node: PyValue | undefined = root;
  let origin: Origin | undefined;
  for (const seg of segments) {
    if (node instanceof PyDict) {
      origin = node.originOf(seg) ?? origin;
      node = node.get(seg);
    } else if (Array.isArray(node) && typeof seg === 'bigint') {
      origin = getListOrigins(node)?.[Number(seg)] ?? origin;
      node = node[Number(seg)];
    } else break;
    if (node === undefined) break;
  }
  return origin;
}

/**
 * cloud-init's schema check of a merged cloud-config.txt, without keeping where each value is written in
 * that text: its problems are placed through the merged value's own origins (validateMerged). With
 * `memo`, a read-back's top-level keys whose text is unchanged since the last check are not walked again.
 */
export function validateMergedText(text: string, version: SchemaVersion, maxProblems?: number, loaded?: ReadBack, memo?: TopLevelMemo): TextSchemaReport {
  const topLevel = loaded?.topLevelText && memo ? { root: loaded.value, memo, fingerprint: loaded.topLevelText } : undefined;
  return validateCloudConfigText(text, version, { spans: false, maxProblems, loaded, topLevel });
}

/** cloud-config.txt read back (readBackOf); with the text of each top-level key in the dump when the run has its lines. */
export interface ReadBack {
  value: PyValue;
  topLevelText?: (key: string) => string | undefined;
}

/**
 * cloud-config.txt as `schema --system` reads it back, without parsing it where the dump reads back as
 * the merged value with its keys sorted (yaml/readBack) and the comments above it are inert (printable
 * ASCII: a file name with a character the YAML reader refuses, or takes for a line break, is parsed as
 * cloud-init parses it). Undefined: parse the text.
 */
export function readBackOf(run: UserDataRun): ReadBack | undefined {
  const text = run.cloudConfigTxt;
  const start = text.indexOf('\n---');
  if (run.result === null || start < 0 || !INERT_HEADER.test(text.slice(0, start))) return undefined;
  const value = readBack(run.result);
  if (value === undefined) return undefined;
  return run.renderedLines ? { value, topLevelText: topLevelTexts(text.slice(start + 1), run.renderedLines) } : { value };
}

/**
 * Each top-level key's text in the dump (from its line to the next top-level key's), by key: the same
 * text is the same value, as the dump reads back as the value (readBack). Computed on first use.
 */
function topLevelTexts(dump: string, lines: readonly DumpLine[]): (key: string) => string | undefined {
  let texts: Map<string, string> | undefined;
  return (key) => {
    if (!texts) {
      texts = new Map();
      const tops = lines.filter((l) => l.path.length === 1 && typeof l.path[0] === 'string');
      const starts: number[] = [];
      let line = 0;
      let offset = 0;
      for (const t of tops) {
        while (line < t.line && offset >= 0) {
          offset = dump.indexOf('\n', offset);
          if (offset >= 0) offset++;
          line++;
        }
        starts.push(offset);
      }
      tops.forEach((t, i) => {
        const from = starts[i];
        if (from >= 0) texts?.set(t.path[0] as string, dump.slice(from, i + 1 < tops.length && starts[i + 1] >= 0 ? starts[i + 1] : dump.length));
      });
    }
    return texts.get(key);
  };
}

const INERT_HEADER = /^[\t\n\x20-\x7e]*$/;

/**
 * `locate` resolves the run's origins to files (`userDataLocator(run)` of engine/outcome/run); `report`, when
 * given, is validateCloudConfigText's report of this very cloud-config.txt (kept from an earlier run).
 */
export function validateMerged(run: UserDataRun, version: SchemaVersion, locate: Locator, report: TextSchemaReport = validateMergedText(run.cloudConfigTxt, version, undefined, readBackOf(run))): MergedSchemaReport {
  const place = (deprecation: boolean) => (p: SchemaProblem): MergedProblem => {
    if (run.result === null) return { ...p, source: null };
    // Where the editor shows the same problem in the part (schema/validate problemPlace).
    const { segments, on } = problemPlace(run.result, p, deprecation);
    const origin = originAt(run.result, segments);
    return { ...p, source: origin ? locate(origin, on === 'key' && origin.key ? 'key' : 'value') : null };
  };
  return { valid: report.valid, errors: report.errors.map(place(false)), deprecations: report.deprecations.map(place(true)), report };
}
