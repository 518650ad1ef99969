/**
 * `cloud-init schema --config-file FILE --annotate` (and `--system --annotate`), offline: what the chosen
 * version prints for one file, the file's lines with `# E1,D1` labels and the Errors / Deprecations
 * footers (`_Annotator` and `validate_cloudconfig_file` in cloudinit/config/schema.py, the line marks of
 * `safeyaml.load_with_marks`).
 *
 * The two versions differ: 22.4 wants the file to begin with `#cloud-config` byte for byte, prints
 * "Cloud-config is not a YAML dict." for other documents and ends with `Valid cloud-config: FILE` when
 * there are no errors; upstream reads the header as user-data (`## template: jinja`, other types only
 * named), says "Empty ... Nothing to validate" for an empty file, ends with `Valid schema FILE`, and
 * prints `Error: Invalid schema: user-data` on stderr when it found errors.
 *
 * cloud-init finds the line of each path with a line-based guess of each node's parent, reproduced in
 * schemaMarks.ts. Where that guess names a path wrongly (22.4 often inside lists: `users.name.0` for
 * `users.0`; upstream in JSON-style layouts) or a path has no line (upstream: a document that is not a
 * mapping), cloud-init's command stops with a KeyError traceback: here the problem is annotated on the
 * line where its value is written (writtenLines) and `note` says that cloud-init fails
 * (test/oracle/annotate.diff.ts checks both against the real command). A `## template: jinja` file is not
 * rendered here (its rendered result is checked as part of the merged result).
 */
import { pyStr } from '../py/repr';
import { pyYamlErrorString, reportedMark } from '../yaml/mark';
import { schemaCommandInput } from './schemaCommand';
import { getListOrigins, PyDict, type PyValue } from '../py/values';
import { validateCloudConfigText, type SchemaProblem, type SchemaVersion } from './validate';
import { atLeast } from '../version/versions';
import { cloudInitSchemaMarks, markTable, MarksFailure, MarksTooCostly } from './schemaMarks';

export interface AnnotatedFile {
  /** What cloud-init prints on stdout. */
  stdout: string;
  /** What cloud-init prints on stderr. */
  stderr: string;
  /** Where cloud-init's own command would not print this (it fails, or is not reproduced), in words. */
  note?: string;
}

export interface AnnotateNames {
  /** The path cloud-init names in its messages (`File f needs to begin with ...`). */
  path: string;
  /** The name in the final "valid" line (the path, or `system userdata` / `user-data` for `--system`). */
  valid: string;
}

/** `format-l3.c1` paths carry their own line (header and YAML problems, ignored parts). */
const FORMAT_PATH = /^format-l(\d+)\.c(\d+)/;

type Placed = [line: number | undefined, message: string];

/**
 * The line where each path's value is written, as `load_with_marks` means its marks (without its
 * guesses): a mapping entry at its key, a list item where it starts (1-based). A node reached again
 * through an alias keeps the lines of its anchor, as PyYAML builds it once.
 */
export function writtenLines(root: PyValue, text: string): Map<string, number> {
  const marks = new Map<string, number>();
  const at = markTable(text);
  const lineOf = (offset: number) => at(offset).line + 1;
  const seen = new Set<object>();
  const walk = (node: PyValue, prefix: string): void => {
    if (node instanceof PyDict) {
      if (seen.has(node)) return;
      seen.add(node);
      for (const e of node.items()) {
        const keyText = typeof e.key === 'string' || !e.origin?.key ? pyStr(e.key) : text.slice(e.origin.key.start, e.origin.key.end);
        const path = prefix + keyText;
        if (e.origin) marks.set(path, lineOf((e.origin.key ?? e.origin.value).start));
        walk(e.value, `${path}.`);
      }
    } else if (Array.isArray(node)) {
      if (seen.has(node)) return;
      seen.add(node);
      const origins = getListOrigins(node);
      node.forEach((item, i) => {
        const origin = origins?.[i];
        if (origin) marks.set(`${prefix}${i}`, lineOf(origin.value.start));
        walk(item, `${prefix}${i}.`);
      });
    }
  };
  walk(root, '');
  return marks;
}

/** `_Annotator.annotate`: the labelled lines and the footers (without print's final newline). */
export function annotateLines(content: string, errors: Placed[], deprecations: Placed[]): string {
  const byLine = (problems: Placed[]) => {
    const m = new Map<number, string[]>();
    for (const [line, message] of problems) {
      if (line === undefined) continue;
      const list = m.get(line) ?? [];
      list.push(message);
      m.set(line, list);
    }
    return m;
  };
  const errorsByLine = byLine(errors);
  const deprecationsByLine = byLine(deprecations);
  const out: string[] = [];
  const errorFooter: string[] = [];
  const deprecationFooter: string[] = [];
  content.split('\n').forEach((line, i) => {
    const labels: string[] = [];
    for (const message of errorsByLine.get(i + 1) ?? []) {
      labels.push(`E${errorFooter.length + 1}`);
      errorFooter.push(`# ${labels[labels.length - 1]}: ${message}`);
    }
    for (const message of deprecationsByLine.get(i + 1) ?? []) {
      labels.push(`D${deprecationFooter.length + 1}`);
      deprecationFooter.push(`# ${labels[labels.length - 1]}: ${message}`);
    }
    out.push(labels.length ? `${line}\t\t# ${labels.join(',')}` : line);
  });
  if (errorFooter.length) out.push(footer('Errors', errorFooter));
  if (deprecationFooter.length) out.push(footer('Deprecations', deprecationFooter));
  return out.join('\n');
}

function footer(title: string, body: string[]): string {
  return `# ${title}: -------------\n${body.join('\n')}\n\n`;
}

/** What `cloud-init schema -c FILE --annotate` (or `--system --annotate`) of `version` prints for `text`. */
export function annotateCloudConfigFile(text: string, version: SchemaVersion, names: AnnotateNames): AnnotatedFile {
  return atLeast(version, '23.4') ? annotateUpstream(text, names, version) : annotate224(text, names);
}

function annotate224(text: string, names: AnnotateNames): AnnotatedFile {
  const printed = (body: string) => ({ stdout: `${body}\n`, stderr: '' });
  const input = schemaCommandInput(text, '22.4', names.path);
  if (input.kind === 'header-error') return printed(annotateLines(text, [[input.line, input.message]], []));
  const report = validateCloudConfigText(text, '22.4');
  if (report.yamlError) {
    const said = pyYamlErrorString(report.yamlError, text, '<byte string>');
    if (said === undefined) return failing(`cloud-init 22.4's schema command fails on this file (${report.yamlError.pyException ?? 'loading'}: ${report.yamlError.message})`);
    return printed(annotateLines(text, [[reportedMark(report.yamlError, text).line + 1, `File ${names.path} is not valid yaml. ${said}`]], []));
  }
  if (report.notADict) return printed(`${text}\n${footer('Errors', ['# E1: Cloud-config is not a YAML dict.'])}`);
  if (report.crash) return failing(`cloud-init 22.4's validator raises ${report.crash.pyType}: ${report.crash.message}`);
  const valid = `Valid cloud-config: ${names.valid}\n`;
  if (!report.errors.length && !report.deprecations.length) return { stdout: valid, stderr: '' };
  const placed = placeAll(report.value as PyValue, text, report.errors, report.deprecations, '22.4');
  const out = printed(annotateLines(text, placed.errors, placed.deprecations));
  // 22.4 prints the annotation and stops on errors (exit code 0 all the same); deprecations alone still pass.
  if (!report.errors.length) out.stdout += valid;
  return placed.note ? { ...out, note: placed.note } : out;
}

const INVALID_SUMMARY = 'Error: Invalid schema: user-data\n\n';

function annotateUpstream(text: string, names: AnnotateNames, version: SchemaVersion): AnnotatedFile {
  // 23.4 swallows every schema error under --annotate (exit 0, no summary line); 24.4 and later end with INVALID.
  const INVALID = atLeast(version, '24.4') ? INVALID_SUMMARY : '';
  // Without instance data here: a template is not rendered.
  const input = schemaCommandInput(text, version, names.path);
  if (input.kind === 'unrendered') {
    return { stdout: '', stderr: '', note: 'a `## template: jinja` file is rendered with the instance data before cloud-init annotates it: not annotated here (its rendered result is checked in the merged result)' };
  }
  // An unknown header: upstream's message is only shown without --annotate.
  if (input.kind === 'header-error') return { stdout: '', stderr: INVALID };
  if (input.kind === 'not-evaluated') return { stdout: `${input.said}\n`, stderr: '' };
  const report = validateCloudConfigText(text, version);
  const ignoredParts = report.errors.filter((p) => FORMAT_PATH.test(p.path)).map((p): Placed => [formatLine(p.path), p.message]);
  if (report.yamlError) {
    const said = pyYamlErrorString(report.yamlError, text, '<unicode string>');
    if (said === undefined) return failing(`cloud-init's schema command fails on this file (${report.yamlError.pyException ?? 'loading'}: ${report.yamlError.message})`);
    const errors: Placed[] = [...ignoredParts, [reportedMark(report.yamlError, text).line + 1, `File ${names.path} is not valid YAML. ${said}`]];
    return { stdout: `${annotateLines(text, errors, [])}\n`, stderr: INVALID };
  }
  // 23.4 annotates a document that is not a mapping as 22.4 does; 24.4 and later fail on it.
  if (report.notADict && !atLeast(version, '24.4')) return { stdout: `${text}\n${footer('Errors', ['# E1: Cloud-config is not a YAML dict.'])}\n`, stderr: '' };
  if (report.notADict) return failing("cloud-init's schema command fails on a document that is not a mapping (KeyError: '')");
  if (report.crash) return failing(`cloud-init's validator raises ${report.crash.pyType}: ${report.crash.message}`);
  const schemaErrors = report.errors.filter((p) => !FORMAT_PATH.test(p.path));
  const valid = `Valid schema ${names.valid}\n`;
  // The ignored parts are only printed when the schema itself reports something (upstream's flow).
  if (!schemaErrors.length && !report.deprecations.length) return { stdout: valid, stderr: '' };
  const placed = placeAll(report.value as PyValue, text, schemaErrors, report.deprecations, version);
  const body = `${annotateLines(text, [...ignoredParts, ...placed.errors], placed.deprecations)}\n`;
  const out = report.errors.length ? { stdout: body, stderr: INVALID } : { stdout: body + valid, stderr: '' };
  return placed.note ? { ...out, note: placed.note } : out;
}

function formatLine(path: string): number | undefined {
  const m = FORMAT_PATH.exec(path);
  return m ? Number(m[1]) : undefined;
}

/**
 * Each problem on the line cloud-init's marks give its path (schemaMarks.ts). Where cloud-init has no
 * line for a path (its command then fails with a KeyError) or its loader raises, the problem goes where
 * the value is written (or its nearest written parent) and the note says that cloud-init fails.
 */
function placeAll(root: PyValue, text: string, errors: SchemaProblem[], deprecations: SchemaProblem[], version: SchemaVersion) {
  const written = writtenLines(root, text);
  let theirs: Map<string, number> | undefined;
  let loaderFails: string | undefined;
  let tooCostly: string | undefined;
  try {
    theirs = cloudInitSchemaMarks(text, version);
  } catch (e) {
    if (e instanceof MarksTooCostly) tooCostly = e.message;
    else if (e instanceof MarksFailure) loaderFails = e.message;
    else throw e;
  }
  const missing = new Set<string>();
  const whereWritten = (path: string): number => {
    let at = path;
    for (;;) {
      const line = written.get(at);
      if (line !== undefined) return line;
      if (!at.includes('.')) return 1;
      at = at.slice(0, at.lastIndexOf('.'));
    }
  };
  const place = (p: SchemaProblem): Placed => {
    const line = (theirs ?? written).get(p.path);
    if (line !== undefined && !loaderFails) return [line, p.message];
    if (!loaderFails) missing.add(p.path);
    return [whereWritten(p.path), p.message];
  };
  const placed = { errors: errors.map(place), deprecations: deprecations.map(place) };
  const who = version === 'current' ? "cloud-init's" : `cloud-init ${version}'s`;
  let note: string | undefined;
  if (tooCostly) note = `${who} schema command may take minutes or more to find this file's lines (reproducing them takes ${tooCostly}); annotated here where each value is written`;
  else if (loaderFails) note = `${who} schema command fails on this file while reading its lines (${loaderFails}); annotated here where each value is written`;
  else if (missing.size) note = `${who} schema command has no line for ${quotedList([...missing], 10)} and fails (KeyError); annotated here where the value is written`;
  return { ...placed, note };
}

/** The first `most` paths, quoted, and how many more: a long list can miss thousands of lines. */
function quotedList(paths: string[], most: number): string {
  const shown = paths.slice(0, most).map((m) => `'${m}'`).join(', ');
  return paths.length > most ? `${shown} and ${paths.length - most} more` : shown;
}

/** A file on which cloud-init's own command fails: the note says so, nothing is annotated. */
function failing(why: string): AnnotatedFile {
  return { stdout: '', stderr: '', note: why };
}
