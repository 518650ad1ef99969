/**
 * `cloud-config-merge --check`: cloud-init's schema validation of each FILE and of the merged result, as
 * `cloud-init schema -c FILE` and `cloud-init schema --system` would report them (engine/schema).
 *
 * Formats: `text` (what `cloud-init schema` prints, per version; see formatText), `json` (the shape of
 * issue 12) and `sarif` (SARIF 2.1.0). Exit code 0 when cloud-init would accept everything, 1 when it would report schema errors.
 */
import { SarifResult, SarifRule, sarifLog } from './sarif';
import { LineIndex } from '../engine/text/lineIndex';
import { decodeUtf8Surrogateescape } from '../engine/py/codecs';
import type { UserDataRun } from '../engine/userdata/run';
import { userDataLocator } from '../engine/preview';
import { placeText } from '../engine/provenance';
import { validateMerged, type MergedProblem } from '../engine/schema/merged';
import { annotateCloudConfigFile, type AnnotateNames } from '../engine/schema/annotate';
import { sniffContentType, CLOUD_CONFIG_TYPE } from '../engine/userdata/sniff';
import { schemaCommandInput } from '../engine/schema/schemaCommand';
import { embeddedInArchive, embeddedInMime } from '../engine/schema/embedded';
import { detectDocument } from '../engine/lint/documentKind';
import { spanAt, validateCloudConfigText, type SchemaProblem, type SchemaVersion, type TextSchemaReport } from '../engine/schema/validate';
import { pushAll } from '../engine/arrays';
import { pyYamlErrorString, reportedMark } from '../engine/yaml/mark';

export type CheckFormat = 'text' | 'json' | 'sarif';

interface Located {
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** Set when line and column are in the text cloud-init decoded from the file, not in the file (SourceLocation.note). */
  note?: string;
}

interface FileResult {
  file: string;
  /** The MIME part or archive entry of `file` this is about. */
  part?: string;
  /** Why positions inside that part are not given (an encoded body, a folded archive content). */
  unmapped?: string;
  valid: boolean;
  errors: Located[];
  deprecations: Located[];
  /** Why nothing was validated (YAML error, validator failure), in words. */
  note?: string;
  /**
   * What cloud-init prints instead of a verdict line and schema problems: another user-data type or an
   * empty file (left alone), a document that is not a mapping (rejected).
   */
  said?: string;
  /** Rejected before cloud-init's validator ran (a header, YAML): 22.4 then prints no deprecations line. */
  unvalidated?: boolean;
}

export interface CheckResult {
  files: FileResult[];
  merged: { valid: boolean; errors: Located[]; deprecations: Located[]; note?: string } | null;
}

/** Where in `text` the problem's value (or unknown key) is written, as an offset. */
function offsetInText(report: TextSchemaReport, p: SchemaProblem): number | undefined {
  if (report.value === undefined) return undefined;
  const segments = p.unexpectedKeys?.length === 1 && p.keyword === 'additionalProperties' ? [...p.segments, p.unexpectedKeys[0]] : p.segments;
  const span = spanAt(report.value, segments, report.rootSpan ?? null);
  return span ? (span.key ?? span.value).start : undefined;
}

function locateInText(report: TextSchemaReport, text: string, p: SchemaProblem, toFile: (offset: number) => number | undefined = (o) => o, lines: LineIndex = new LineIndex(text)): Located {
  const out: Located = { path: p.path, message: p.message };
  const m = /^format-l(\d+)\.c(\d+)$/.exec(p.path);
  if (m) return { ...out, line: Number(m[1]), column: Number(m[2]) };
  const inText = offsetInText(report, p);
  const offset = inText === undefined ? undefined : toFile(inText);
  if (offset === undefined) return out;
  const at = lines.position(offset);
  return { ...out, line: at.line + 1, column: at.character + 1 };
}

function reportNote(r: TextSchemaReport): string | undefined {
  if (r.yamlError) return `not valid YAML: ${r.yamlError.message}`;
  if (r.crash) return `cloud-init's validator raises ${r.crash.pyType}: ${r.crash.message}`;
  if (r.notADict) return 'not a mapping: nothing to validate';
  return undefined;
}

/**
 * `cloud-init schema -c FILE` of one file. A MIME multipart or a `#cloud-config-archive` is validated
 * part by part (each cloud-config part and archive entry, as cloud-init will merge it), with positions
 * in the file where they can be mapped (engine/schema/embedded; the note says when not).
 */
export function checkFile(file: string, bytes: Uint8Array, version: SchemaVersion, instanceData?: unknown): FileResult[] {
  const text = decodeUtf8Surrogateescape(bytes);
  const kind = detectDocument(text, file)?.kind;
  if (kind === 'mime' || kind === 'cloud-config-archive') {
    const fileLines = new LineIndex(text);
    const embedded = kind === 'mime' ? embeddedInMime(text) : embeddedInArchive(text);
    return embedded.map((e) => {
      const r = validateCloudConfigText(e.text, version);
      const locate = (p: SchemaProblem) => locateInText(r, text, p, (o) => e.toDocument(o), fileLines);
      return { file, part: e.label, valid: r.valid, errors: r.errors.map(locate), deprecations: r.deprecations.map(locate), note: reportNote(r), unmapped: e.unmapped };
    });
  }
  return [checkUserDataFile(file, text, version, instanceData)];
}

/**
 * For a MIME multipart or a `#cloud-config-archive`, which `--check` validates part by part: what
 * cloud-init's own `schema -c` does with the file as a whole, in words (undefined for other files).
 */
export function wholeFileNote(file: string, bytes: Uint8Array, version: SchemaVersion): string | undefined {
  const text = decodeUtf8Surrogateescape(bytes);
  const kind = detectDocument(text, file)?.kind;
  if (kind !== 'mime' && kind !== 'cloud-config-archive') return undefined;
  const input = schemaCommandInput(text, version, file);
  // 22.4 takes an archive for a cloud-config (same first characters): a list, not a mapping.
  const whole =
    input.kind === 'header-error' ? `rejects it (${input.message.split('\n')[0]})` : input.kind === 'not-evaluated' ? `does not validate it (${input.said})` : 'rejects it (Cloud-config is not a YAML dict.)';
  return `${file}: cloud-init's own \`schema -c\` ${whole}; here each cloud-config ${kind === 'mime' ? 'part' : 'entry'} is checked as cloud-init will merge it`;
}

/** One user-data file as the chosen version's schema command reads it before validating (engine/schema/schemaCommand). */
function checkUserDataFile(file: string, text: string, version: SchemaVersion, instanceData: unknown): FileResult {
  const input = schemaCommandInput(text, version, file, instanceData);
  switch (input.kind) {
    case 'header-error':
      return { file, valid: false, errors: [{ path: `format-l${input.line}.c1`, message: input.message, line: 1, column: 1 }], deprecations: [], unvalidated: true };
    case 'not-evaluated':
      return { file, valid: true, errors: [], deprecations: [], said: input.said };
    case 'unrendered':
      // The schema command stops there (exit 1).
      return {
        file,
        valid: false,
        errors: [],
        deprecations: [],
        note:
          input.words === null
            ? 'a `## template: jinja` file: cloud-init renders it with the instance data before validating (on an instance, /run/cloud-init/instance-data.json; its schema command fails without it): give --instance-data FILE or NAME'
            : `cloud-init's schema command cannot render this template: ${input.words}`,
      };
    case 'validate':
      return validatedFile(file, text, input.content, version, input.toFile);
  }
}

/**
 * `content` (the file's text, or what cloud-init rendered from it) validated, with positions in the
 * file's `text`; YAML that does not load and a document that is not a mapping in cloud-init's words.
 */
function validatedFile(file: string, text: string, content: string, version: SchemaVersion, toFile?: (offset: number) => number): FileResult {
  const r = validateCloudConfigText(content, version);
  const lines = new LineIndex(text);
  const locate = (p: SchemaProblem) => locateInText(r, text, p, toFile, lines);
  const errors = r.errors.map(locate);
  if (r.yamlError) {
    const said = pyYamlErrorString(r.yamlError, content, version === '22.4' ? '<byte string>' : '<unicode string>');
    if (said !== undefined) {
      const at = reportedMark(r.yamlError, content);
      errors.push({ path: `format-l${at.line + 1}.c${at.column + 1}`, message: `File ${file} is not valid ${version === '22.4' ? 'yaml' : 'YAML'}. ${said}`, line: at.line + 1, column: at.column + 1 });
      return { file, valid: false, errors, deprecations: [], unvalidated: true };
    }
  } else if (r.notADict) {
    const said = version === '22.4' ? 'Error:\nCloud-config is not a YAML dict.' : `Invalid user-data\nError: cloud-config ${file} is not a YAML dict.\n`;
    return { file, valid: false, errors, deprecations: [], said };
  }
  return { file, valid: r.valid, errors, deprecations: r.deprecations.map(locate), note: reportNote(r) };
}

export function checkMerged(run: UserDataRun, version: SchemaVersion): NonNullable<CheckResult['merged']> {
  const m = validateMerged(run, version, userDataLocator(run));
  const place = (p: MergedProblem): Located => {
    const out: Located = { path: p.path, message: p.message };
    return p.source ? { ...out, file: p.source.file, line: p.source.line + 1, column: p.source.character + 1, ...(p.source.note ? { note: p.source.note } : {}) } : out;
  };
  return { valid: m.valid, errors: m.errors.map(place), deprecations: m.deprecations.map(place), note: reportNote(m.report) };
}

export function isAccepted(result: CheckResult): boolean {
  return result.files.every((f) => f.valid) && (result.merged?.valid ?? true);
}

/**
 * What `cloud-init schema -c FILE` prints for each file (stdout and stderr in order), then what `cloud-init
 * schema --system` prints for the merged result, in the chosen version's words:
 * - 22.4: `Cloud config schema deprecations: ...` when validation found anything (the list may be empty),
 *   then `Valid cloud-config: FILE`, or `Error:` and `Cloud config schema errors: path: message, ...` (with
 *   the deprecations again after a blank line); deprecations alone do not fail;
 * - current: deprecations first (`Cloud config schema deprecations: ...`), then `Valid schema FILE`, or
 *   `Invalid user-data FILE` and `Error: Cloud config schema errors: ...`, and at the end `Error: Invalid
 *   schema: user-data` when something failed.
 * Where cloud-init prints nothing useful (a file that is not valid YAML or not a mapping), our note says why.
 * Each problem of the merged result is followed by the file and line that wrote the value.
 */
export function formatText(result: CheckResult, version: SchemaVersion): string {
  const out: string[] = [];
  const list = (ps: Located[]) => ps.map((p) => `${p.path}: ${p.message}`).join(', ');
  const sources = (r: { errors: Located[]; deprecations: Located[] }) => {
    for (const p of [...r.errors, ...r.deprecations]) if (p.file && p.line) out.push(`  ${p.path}: written in ${placeText(p.file, p.line, p.column, p.note)}`);
  };
  const one = (name: string, label22: string, r: { valid: boolean; errors: Located[]; deprecations: Located[]; note?: string; said?: string; unvalidated?: boolean }) => {
    if (r.said) {
      out.push(r.said);
      return;
    }
    if (r.note && !r.errors.length) {
      out.push(`${r.valid ? 'Valid' : 'Invalid'} (${name}): ${r.note}`);
      return;
    }
    if (version === '22.4') {
      // 22.4 prints the deprecations line whenever its strict validation raised, even with none in it.
      if ((r.errors.length || r.deprecations.length) && !r.unvalidated) out.push(`Cloud config schema deprecations: ${list(r.deprecations)}`);
      if (!r.errors.length) out.push(`Valid cloud-config: ${label22}`);
      else {
        const deprecations = r.deprecations.length ? `\n\nCloud config schema deprecations: ${list(r.deprecations)}` : '';
        out.push('Error:', `Cloud config schema errors: ${list(r.errors)}${deprecations}`);
      }
    } else {
      if (r.deprecations.length) out.push(`Cloud config schema deprecations: ${list(r.deprecations)}`);
      if (r.errors.length) out.push(`Invalid user-data ${name}`, `Error: Cloud config schema errors: ${list(r.errors)}`, '');
      else out.push(`Valid schema ${name}`);
    }
    sources(r);
  };
  for (const f of result.files) one(nameOf(f), nameOf(f), f);
  if (result.merged) one('cloud-config.txt (the merged result)', 'cloud-config.txt (the merged result)', result.merged);
  if (version !== '22.4' && !isAccepted(result)) out.push('Error: Invalid schema: user-data', '');
  return out.join('\n') + '\n';
}

/** How `cloud-init schema --system` names the instance's cloud-config.txt, per version. */
const SYSTEM_NAMES: Record<SchemaVersion, AnnotateNames> = {
  '22.4': { path: 'None', valid: 'system userdata' },
  current: { path: '/var/lib/cloud/instance/cloud-config.txt', valid: 'user-data' },
};

/**
 * `--check --annotate`: each file as `cloud-init schema -c FILE --annotate` prints it, then the merged
 * cloud-config.txt as `--system --annotate` prints it on the instance. One plain cloud-config file is
 * printed alone, exactly as cloud-init prints it; otherwise each section starts with `==> NAME <==`.
 * Where cloud-init's own command would fail, a note on stderr says so.
 */
export function formatAnnotated(files: Array<{ name: string; bytes: Uint8Array }>, run: UserDataRun, version: SchemaVersion): { stdout: string; stderr: string } {
  const sections = files.map((f) => ({ title: f.name, text: decodeUtf8Surrogateescape(f.bytes), names: { path: f.name, valid: f.name } }));
  const alone = sections.length === 1 && sniffContentType(sections[0].text) === CLOUD_CONFIG_TYPE;
  if (!alone && run.cloudConfigTxt) sections.push({ title: 'cloud-config.txt (the merged result)', text: run.cloudConfigTxt, names: SYSTEM_NAMES[version] });
  let stdout = '';
  let stderr = '';
  for (const s of sections) {
    const out = annotateCloudConfigFile(s.text, version, s.names);
    if (!alone) stdout += `${stdout ? '\n' : ''}==> ${s.title} <==\n`;
    stdout += out.stdout;
    stderr += out.stderr;
    if (out.note) stderr += `cloud-config-merge: note: ${s.title}: ${out.note}\n`;
  }
  return { stdout, stderr };
}

/** cloud-init's error in `said`, without its `Invalid ...` and `Error:` line heads. */
function cloudInitWords(said: string): string {
  return said.split('\n').filter((l) => l && !l.startsWith('Invalid ')).map((l) => l.replace(/^Error:\s*/, '')).filter(Boolean).join(' ');
}

function nameOf(f: FileResult): string {
  return f.part ? `${f.file} (${f.part})` : f.file;
}

export function formatJson(result: CheckResult, pretty: boolean): string {
  const strip = (r: FileResult) => ({ file: r.file, ...(r.part ? { part: r.part } : {}), valid: r.valid, errors: r.errors.map(fileLoc), deprecations: r.deprecations.map(fileLoc), ...(r.note ? { note: r.note } : {}), ...(r.said ? { said: r.said } : {}) });
  const fileLoc = (p: Located) => ({ path: p.path, message: p.message, line: p.line ?? null, column: p.column ?? null });
  const mergedLoc = (p: Located) => ({ path: p.path, message: p.message, file: p.file ?? null, line: p.line ?? null, column: p.column ?? null, ...(p.note ? { note: p.note } : {}) });
  const out = {
    files: result.files.map(strip),
    merged: result.merged ? { valid: result.merged.valid, errors: result.merged.errors.map(mergedLoc), deprecations: result.merged.deprecations.map(mergedLoc) } : null,
  };
  return JSON.stringify(out, null, pretty ? 2 : undefined);
}

const RULES: SarifRule[] = [
  { id: 'schema-error', name: 'CloudConfigSchemaError', shortDescription: { text: 'cloud-init reports a schema error for this value' }, defaultConfiguration: { level: 'error' } },
  { id: 'schema-deprecation', name: 'CloudConfigDeprecation', shortDescription: { text: 'cloud-init reports this key or value as deprecated' }, defaultConfiguration: { level: 'warning' } },
];

/** SARIF 2.1.0: one result per problem, at the file and line that wrote the value. */
export function formatSarif(result: CheckResult, version: SchemaVersion, toolVersion: string, extra?: { rules: SarifRule[]; results: SarifResult[] }): string {
  const results: SarifResult[] = [];
  const shown = new Set<string>();
  const add = (p: Located, file: string | undefined, deprecation: boolean, merged: boolean, part?: string) => {
    const said = `${p.path}: ${p.message.trim()}`;
    shown.add(said);
    results.push({
      ruleId: deprecation ? 'schema-deprecation' : 'schema-error',
      level: deprecation ? 'warning' : 'error',
      message: `${said}${merged ? ' (in the merged cloud-config.txt)' : part ? ` (in ${part})` : ''}`,
      file,
      // A position in decoded text is not one in the file: the result is for the file as a whole.
      region: p.line && !p.note ? { startLine: p.line, startColumn: p.column ?? 1 } : undefined,
      properties: part ? { path: p.path, merged, part } : { path: p.path, merged },
    });
  };
  for (const f of result.files) {
    for (const p of f.errors) add(p, f.file, false, false, f.part);
    for (const p of f.deprecations) add(p, f.file, true, false, f.part);
    // Rejected with no schema problem to point at (not YAML, a template that cannot be rendered): the file itself.
    if (!f.valid && !f.errors.length && (f.note || f.said)) {
      results.push({ ruleId: 'schema-error', level: 'error', message: `${f.note ?? cloudInitWords(f.said as string)}${f.part ? ` (in ${f.part})` : ''}`, file: f.file, properties: f.part ? { path: '', merged: false, part: f.part } : { path: '', merged: false } });
    }
  }
  if (result.merged) {
    // A problem a file already reports is not repeated for the merged result.
    const byFiles = new Set(shown);
    for (const [list, dep] of [[result.merged.errors, false], [result.merged.deprecations, true]] as const) {
      for (const p of list) {
        if (!byFiles.has(`${p.path}: ${p.message.trim()}`)) add(p, p.file, dep, true);
      }
    }
  }
  if (extra) pushAll(results, extra.results);
  return JSON.stringify(sarifLog({ version: toolVersion, informationUri: 'https://cloudinit.readthedocs.io/', rules: [...RULES, ...(extra?.rules ?? [])] }, results, { cloudInitVersion: version }), null, 2);
}
