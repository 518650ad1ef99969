/**
 * Specs that change a fate: where a later part replaces a list or mapping of
 * an earlier one (or its own value is lost to it), the specs for the later
 * part that keep both, each tried by merging the set again with it, and kept
 * only when the value written here then survives; with the merged value at
 * that path, so a fix's title says what it will produce, never a guess.
 * User-data sets whose parts are whole files (`#cloud-config` files, one part
 * each) and cloud.cfg.d sets: the edit is that file's `merge_how`.
 */
import { PyDict, PyValue, TextSpan } from '../py/values';
import { Fate, fatesOf } from './fates';
import { shortValue } from './losses';
import { loadYaml } from '../yaml/load';
import { SourceLocation } from './locate';
import { UserDataRun } from '../userdata/run';
import { LineIndex } from '../text/lineIndex';
import { decodeUtf8Surrogateescape } from '../py/codecs';
import { Outcome, mergedValue, runSet } from './run';

/** Candidate specs, in the order they are offered: the usual "keep both" recipes first. */
export const KEEP_BOTH_SPECS = [
  'list(append)+dict(no_replace,recurse_array)+str()',
  'list(prepend)+dict(no_replace,recurse_array)+str()',
  'list(append)+dict(replace,recurse_array)+str()',
  'list(append,recurse_dict)+dict(no_replace,recurse_array,recurse_dict)+str()',
];

export interface SpecOutcome {
  spec: string;
  /** The merged value at the fate's path with this spec. */
  value: PyValue | undefined;
  /** Its short repr, for a title. */
  display: string;
  /** The text edit to the deciding file: replace `span` with `newText`. */
  edit: { span: TextSpan; newText: string };
}

/** The file (by name) whose spec decided the fate: the replacing part, or the part whose value was lost. */
export function decidingFile(fate: Fate): string | undefined {
  if (fate.kind === 'replaced') return fate.by?.file;
  if (fate.kind === 'lost') return fate.at?.file;
  return undefined;
}

/**
 * The specs of KEEP_BOTH_SPECS that keep the value of `fate` when the deciding file uses them,
 * each with the merged value it produces at the fate's path (distinct results only).
 */
export function keepBothOutcomes(outcome: Outcome, fate: Fate): SpecOutcome[] {
  const mode = outcome.mode;
  if (mode !== 'user-data' && mode !== 'confd') return [];
  const files = outcome.inputs.files;
  const target = decidingFile(fate);
  if (!target || !fate.segments || (fate.kind !== 'replaced' && fate.kind !== 'lost')) return [];
  const index = files.findIndex((f) => f.name === target);
  if (index < 0) return [];
  const text = new TextDecoder().decode(files[index].bytes);
  const out: SpecOutcome[] = [];
  const seen = new Set<string>();
  // A part of a MIME blob: its own spec is edited (merge_how in its body, else its Merge-Type header).
  const part = outcome.kind === 'user-data' ? mimePartAt(outcome.run, target, fate.kind === 'replaced' ? fate.by : fate.at) : undefined;
  for (const spec of KEEP_BOTH_SPECS) {
    const edit = part ? partSpecEdit(text, part, spec) : specEdit(text, spec, mode === 'user-data');
    if (!edit) return [];
    const changed = text.slice(0, edit.span.start) + edit.newText + text.slice(edit.span.end);
    const trial = files.map((f, i) => (i === index ? { ...f, bytes: new TextEncoder().encode(changed) } : f));
    const tried = runSet(mode, { ...outcome.inputs, files: trial }, outcome.options);
    const report = fatesOf(tried);
    const merged = mergedValue(tried);
    if (report.failure || merged === null) continue;
    // Both values kept: neither file's value at that path is replaced, lost or deleted any more
    // (lines of the edited file move, so values are recognised by path and file).
    const involved = new Set([fate.at?.file, fate.by?.file, target]);
    const still = report.fates.some((f) => (f.kind === 'replaced' || f.kind === 'lost' || f.kind === 'deleted') && f.path === fate.path && involved.has(f.at?.file));
    if (still) continue;
    const value = valueAt(merged, fate.segments);
    const display = value === undefined ? '(no value)' : shortValue(value);
    if (seen.has(display)) continue;
    seen.add(display);
    out.push({ spec, value, display, edit });
  }
  return out;
}

/** The span in its blob of the MIME part that holds `at`, when the deciding file is a multipart blob. */
function mimePartAt(run: UserDataRun, target: string, at: SourceLocation | null): TextSpan | undefined {
  if (!at) return undefined;
  const blob = run.sources.findIndex((src) => src.name === target);
  const reports = run.reports.filter((r) => r.part.blob === blob && r.part.route.some((step) => step.via === 'mime') && r.part.span);
  if (!reports.length) return undefined;
  const offset = new LineIndex(decodeUtf8Surrogateescape(run.sources[blob].bytes)).offset(at);
  return reports.find((r) => r.part.span!.start <= offset && offset <= r.part.span!.end)?.part.span;
}

/**
 * The edit of one MIME part's spec: its body's `merge_how` when it has one, else its `Merge-Type` (or
 * `X-Merge-Type`) header's value, else a `Merge-Type` header added after its last header line.
 */
function partSpecEdit(text: string, body: TextSpan, spec: string): { span: TextSpan; newText: string } | undefined {
  const own = specEdit(text.slice(body.start, body.end), spec);
  const loaded = loadYaml(text.slice(body.start, body.end));
  if (own && loaded.ok && loaded.value instanceof PyDict && (loaded.value.has('merge_how') || loaded.value.has('merge_type'))) {
    return { span: { start: own.span.start + body.start, end: own.span.end + body.start }, newText: own.newText };
  }
  // The headers: from after the boundary line to the blank line before the body.
  const blank = text.lastIndexOf('\n', body.start - 2);
  const boundary = text.lastIndexOf('\n--', blank);
  if (blank < 0 || boundary < 0) return undefined;
  const headerStart = text.indexOf('\n', boundary + 1) + 1;
  const headers = text.slice(headerStart, blank + 1);
  const newline = /\r\n/.test(headers) ? '\r\n' : '\n';
  for (const name of ['Merge-Type', 'X-Merge-Type']) {
    const line = new RegExp(`^${name}:[^\\S\\r\\n]*([^\\r\\n]*)(\\r?\\n)(?![ \\t])`, 'im').exec(headers);
    if (line && line[1].trim()) {
      const start = headerStart + line.index + line[0].indexOf(line[1], name.length + 1);
      return { span: { start, end: start + line[1].length }, newText: spec };
    }
  }
  const end = headerStart + headers.replace(/(\r?\n)+$/, '').length;
  return { span: { start: end, end }, newText: `${newline}Merge-Type: ${spec}` };
}

/** The value at a path of keys and indices, or undefined. */
export function valueAt(root: PyValue, segments: PyValue[]): PyValue | undefined {
  let current: PyValue | undefined = root;
  for (const s of segments) {
    if (current instanceof PyDict) current = current.has(s) ? current.get(s) : undefined;
    else if (Array.isArray(current) && typeof s === 'number') current = current[s];
    else return undefined;
    if (current === undefined) return undefined;
  }
  return current;
}

/**
 * A minimal edit that makes a file's spec `spec`: the value of its `merge_how` (else `merge_type`)
 * replaced in place (a list-form spec spanning lines is replaced whole), or a `merge_how` line added
 * after the `#cloud-config` line (at the top of a drop-in, which has none). Undefined for anything
 * else (a MIME blob, a document whose top level is not a mapping).
 */
export function specEdit(text: string, spec: string, cloudConfig = true): { span: TextSpan; newText: string } | undefined {
  const header = cloudConfig ? /^#cloud-config[^\S\r\n]*(\r?\n|$)/.exec(text) : /^()/.exec(text);
  if (!header) return undefined;
  const loaded = loadYaml(text);
  if (!loaded.ok || !(loaded.value === null || loaded.value instanceof PyDict)) return undefined;
  const root = loaded.value;
  for (const key of ['merge_how', 'merge_type']) {
    const origin = root?.originOf(key);
    if (!origin) continue;
    // A block value (list form) starts on the next line: the new one goes right after the colon.
    const keyEnd = origin.key?.end ?? origin.value.start;
    const colon = text.indexOf(':', keyEnd);
    const block = text.slice(colon + 1, origin.value.start).includes('\n');
    return block ? { span: { start: colon + 1, end: origin.value.end }, newText: ` '${spec}'` } : { span: origin.value, newText: `'${spec}'` };
  }
  const at = header[0].length;
  const newline = header[1] || (/\r\n/.test(text) ? '\r\n' : '\n');
  return { span: { start: at, end: at }, newText: `${cloudConfig && !header[1] ? newline : ''}merge_how: '${spec}'${newline}` };
}
