/**
 * What `--check` knows: cloud-init's schema validation of each FILE and of the merged result, as
 * `cloud-init schema -c FILE` and `cloud-init schema --system` would report them (engine/schema), each
 * problem placed where the editor shows it. engine/render/checkText.ts writes it as text, JSON or SARIF.
 */
import { LineIndex } from '../text/lineIndex';
import { decodeUtf8Surrogateescape } from '../py/codecs';
import { loadYaml } from '../yaml/load';
import type { PyValue, TextSpan } from '../py/values';
import type { UserDataRun } from '../userdata/run';
import { locationJson, type Locator } from './locate';
import { validateMerged, type MergedProblem } from './mergedSchema';
import { schemaCommandInput } from '../schema/schemaCommand';
import { embeddedInArchive, embeddedInMime } from '../schema/embedded';
import { detectDocument } from '../lint/documentKind';
import type { Outcome } from './run';
import { acceptingVersions, problemAcceptance, withAcceptance, type AcceptedProblem } from '../schema/acceptance';
import { problemSpan, validateCloudConfigText, type SchemaProblem, type SchemaVersion, type TextSchemaReport } from '../schema/validate';
import { pyYamlErrorString, reportedMark } from '../yaml/mark';
import { SAMPLE_NAMES } from '../template/samples';
import type { NetworkSchemaResult } from '../network/validate';
import { validateNetworkConfigTextOnce } from '../network/validatedText';
import { describeBoot, networkBoot } from '../network/boot';
import { atLeast, type CloudInitVersion } from '../version/versions';
import type { NetplanHost, NetplanVersion } from '../version/target';

export interface Located {
  path: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** Set when line and column are in the text cloud-init decoded from the file, not in the file (SourceLocation.note). */
  note?: string;
  /** With `note`: the line and column of the file that stand for that text (a MIME part's Content-Type header). */
  anchor?: { line: number; column: number };
  /** An error only some versions raise: whose schema it is and which versions accept it (schema/acceptance). */
  accepted?: string;
}

export interface FileResult {
  file: string;
  /** The MIME part or archive entry of `file` this is about. */
  part?: string;
  /** Why positions inside that part are not given (an encoded body, a folded archive content). */
  unmapped?: string;
  /** null: the chosen cloud-init does not validate this file (a network-config it has no schema for). */
  valid: boolean | null;
  errors: Located[];
  deprecations: Located[];
  /** A network-config file (engine/network): validated as `cloud-init schema -t network-config`. */
  network?: { validator: string | null; boot: string; unmodelled?: string[] };
  /** Why nothing was validated (YAML error, validator failure), in words. */
  note?: string;
  /**
   * What cloud-init prints instead of a verdict line and schema problems: another user-data type or an
   * empty file (left alone), a document that is not a mapping (rejected).
   */
  said?: string;
  /** Rejected before cloud-init's validator ran (a header, YAML, a template it cannot render): 22.4 then prints no deprecations line. */
  unvalidated?: boolean;
}

export interface CheckResult {
  files: FileResult[];
  merged: { valid: boolean; errors: Located[]; deprecations: Located[]; note?: string } | null;
}

/** Where in `text` the problem is shown (the editor's place: schema/validate problemPlace), as an offset. */
function offsetInText(report: TextSchemaReport, p: SchemaProblem, deprecation: boolean): number | undefined {
  if (report.value === undefined) return undefined;
  return problemSpan(report.value, report.rootSpan ?? null, p, deprecation)?.start;
}

function locateInText(report: TextSchemaReport, text: string, p: AcceptedProblem, deprecation: boolean, toFile: (offset: number) => number | undefined = (o) => o, lines: LineIndex = new LineIndex(text)): Located {
  const out: Located = { path: p.path, message: p.message };
  if (p.accepted) out.accepted = p.accepted;
  const m = /^format-l(\d+)\.c(\d+)$/.exec(p.path);
  if (m) return { ...out, line: Number(m[1]), column: Number(m[2]) };
  const inText = offsetInText(report, p, deprecation);
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
export interface FileCheckOptions {
  /** Name the versions that accept an error (schema/acceptance: one more validation per version); default on. */
  acceptance?: boolean;
  /** Most problems looked for in each text (a verdict needs the first few); default: all of them. */
  maxProblems?: number;
}

export function checkFile(file: string, bytes: Uint8Array, version: SchemaVersion, instanceData?: unknown, options: FileCheckOptions = {}): FileResult[] {
  const text = decodeUtf8Surrogateescape(bytes);
  const kind = detectDocument(text, file)?.kind;
  if (kind === 'mime' || kind === 'cloud-config-archive') {
    const fileLines = new LineIndex(text);
    const embedded = kind === 'mime' ? embeddedInMime(text) : embeddedInArchive(text);
    return embedded.map((e) => {
      const r = accepted(validateCloudConfigText(e.text, version, { ...loadedOnce(e.text), maxProblems: options.maxProblems }), version, options);
      // Not mapped into the file: the position in the part's own text, said so, with the file's line that stands for it.
      const inside = e.unmapped ? { note: e.kind === 'mime-part' ? 'position in the decoded part' : "position in the entry's content", anchor: fileLines.position(e.anchor.start), lines: new LineIndex(e.text) } : undefined;
      const locate = (deprecation: boolean) => (p: SchemaProblem): Located => {
        if (!inside) return locateInText(r, text, p, deprecation, (o) => e.toDocument(o), fileLines);
        const located = locateInText(r, e.text, p, deprecation, undefined, inside.lines);
        return located.line === undefined ? located : { ...located, note: inside.note, anchor: { line: inside.anchor.line + 1, column: inside.anchor.character + 1 } };
      };
      return { file, part: e.label, valid: r.valid, errors: r.errors.map(locate(false)), deprecations: r.deprecations.map(locate(true)), note: reportNote(r), unmapped: e.unmapped };
    });
  }
  return [checkUserDataFile(file, text, version, instanceData, options)];
}

function accepted(report: TextSchemaReport, version: SchemaVersion, options: FileCheckOptions): TextSchemaReport {
  return options.acceptance === false ? report : withAcceptance(report, version);
}

/**
 * The YAML of a text the schema command validates, loaded once for every version that checks it (the load
 * does not depend on the version; the validation never changes the value): the last few texts are kept.
 */
const loads: Array<{ text: string; loaded: { value: PyValue; rootSpan: TextSpan | null } }> = [];
const KEPT_LOADS = 8;
function loadedOnce(text: string): { loaded?: { value: PyValue; rootSpan: TextSpan | null } } {
  const hit = loads.find((l) => l.text === text);
  if (hit) return { loaded: hit.loaded };
  const result = loadYaml(text);
  if (!result.ok) return {};
  const loaded = { value: result.value, rootSpan: result.rootSpan };
  loads.unshift({ text, loaded });
  if (loads.length > KEPT_LOADS) loads.pop();
  return { loaded };
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
function checkUserDataFile(file: string, text: string, version: SchemaVersion, instanceData: unknown, options: FileCheckOptions): FileResult {
  const input = schemaCommandInput(text, version, file, instanceData);
  switch (input.kind) {
    case 'header-error':
      return { file, valid: false, errors: [{ path: `format-l${input.line}.c1`, message: input.message, line: 1, column: 1 }], deprecations: [], unvalidated: true };
    case 'not-evaluated':
      return { file, valid: true, errors: [], deprecations: [], said: input.said };
    case 'unrendered':
      // The schema command stops there (exit 1): not validated, and why in one line.
      return {
        file,
        valid: false,
        errors: [],
        deprecations: [],
        unvalidated: true,
        note:
          input.words === null
            ? `needs instance data, as cloud-init renders a \`## template: jinja\` file before validating it (its own schema command fails without): pass --instance-data NAME (a sample: ${SAMPLE_NAMES.join(', ')}) or --instance-data FILE (JSON, as /run/cloud-init/instance-data.json on an instance)`
            : `cloud-init's schema command cannot render this template: ${input.words}`,
      };
    case 'validate':
      return validatedFile(file, text, input.content, version, options, input.toFile);
  }
}

/**
 * `content` (the file's text, or what cloud-init rendered from it) validated, with positions in the
 * file's `text`; YAML that does not load and a document that is not a mapping in cloud-init's words.
 */
function validatedFile(file: string, text: string, content: string, version: SchemaVersion, options: FileCheckOptions, toFile?: (offset: number) => number): FileResult {
  const r = accepted(validateCloudConfigText(content, version, { ...loadedOnce(content), maxProblems: options.maxProblems }), version, options);
  const lines = new LineIndex(text);
  const locate = (deprecation: boolean) => (p: SchemaProblem) => locateInText(r, text, p, deprecation, toFile, lines);
  const errors = r.errors.map(locate(false));
  if (r.yamlError) {
    const said = pyYamlErrorString(r.yamlError, content, atLeast(version, '23.4') ? '<unicode string>' : '<byte string>');
    if (said !== undefined) {
      const at = reportedMark(r.yamlError, content);
      errors.push({ path: `format-l${at.line + 1}.c${at.column + 1}`, message: `File ${file} is not valid ${atLeast(version, '23.4') ? 'YAML' : 'yaml'}. ${said}`, line: at.line + 1, column: at.column + 1 });
      return { file, valid: false, errors, deprecations: [], unvalidated: true };
    }
  } else if (r.notADict) {
    if (!atLeast(version, '23.4')) return { file, valid: false, errors, deprecations: [], said: 'Error:\nCloud-config is not a YAML dict.' };
    if (atLeast(version, '24.4')) return { file, valid: false, errors, deprecations: [], said: `Invalid user-data\nError: cloud-config ${file} is not a YAML dict.\n` };
    // 23.4 names no schema type for a -c FILE and then fails joining it (TypeError, a traceback).
    const note = "cloud-init 23.4's schema command then fails (TypeError) instead of printing its summary";
    return { file, valid: false, errors, deprecations: [], said: `Invalid None\nError: cloud-config ${file} is not a YAML dict.\n`, note };
  }
  return { file, valid: r.valid, errors, deprecations: r.deprecations.map(locate(true)), note: reportNote(r) };
}

export function checkMerged(run: UserDataRun, locate: Locator, version: SchemaVersion): NonNullable<CheckResult['merged']> {
  const m = validateMerged(run, version, locate);
  const accepting = m.report.value !== undefined ? acceptingVersions(m.report.value, version, m.report) : undefined;
  const place = (p: MergedProblem): Located => {
    const out: Located = { path: p.path, message: p.message };
    const accepted = accepting && problemAcceptance(p, version, accepting);
    if (accepted) out.accepted = accepted;
    return p.source ? { ...out, ...locationJson(p.source) } : out;
  };
  return { valid: m.valid, errors: m.errors.map(place), deprecations: m.deprecations.map(place), note: reportNote(m.report) };
}

export function isAccepted(result: CheckResult): boolean {
  return result.files.every((f) => f.valid !== false) && (result.merged?.valid ?? true);
}


/**
 * `cloud-init schema -t network-config -c FILE` of one network-config file on a host of kind `host`
 * (engine/network/validate), each problem placed where the editor shows it, and what a boot does with it.
 */
export function checkNetworkFile(file: string, bytes: Uint8Array, version: CloudInitVersion, host: NetplanHost, netplanVersion?: NetplanVersion): FileResult {
  const text = decodeUtf8Surrogateescape(bytes);
  const r = validateNetworkConfigTextOnce(text, version, host, file, netplanVersion);
  const network = { validator: r.validator, boot: describeBoot(networkBoot(text, r)), ...(r.unmodelled?.length ? { unmodelled: r.unmodelled } : {}) };
  const base = { file, valid: r.valid, deprecations: [] as Located[], network };
  if (r.unsupported) return { ...base, errors: [], note: r.unsupported };
  if (r.said) return { ...base, errors: [], said: r.said };
  if (r.yamlError) {
    const said = pyYamlErrorString(r.yamlError, text, '<unicode string>');
    const at = reportedMark(r.yamlError, text);
    const message = `File ${file} is not valid YAML. ${said ?? r.yamlError.message}`;
    return { ...base, errors: [{ path: `format-l${at.line + 1}.c${at.column + 1}`, message, line: at.line + 1, column: at.column + 1 }], unvalidated: true };
  }
  if (r.exception) return { ...base, errors: [], said: `Invalid network-config\nError: ${r.exception}\n` };
  if (r.crash) return { ...base, errors: [], note: `cloud-init's schema command raises ${r.crash.pyType}: ${r.crash.message}` };
  const report = networkReport(r);
  const lines = new LineIndex(text);
  const locate = (deprecation: boolean) => (p: SchemaProblem): Located => {
    // netplan's errors are at `format-l…c…` of cloud-init's dump of the config, not of the file: they keep
    // that path and message, placed where the key or value is written in the file.
    const netplan = /^format-l/.test(p.path) && (p.segments.length > 0 || p.unexpectedKeys !== undefined);
    const offset = netplan ? offsetInText(report, p, deprecation) : undefined;
    if (offset === undefined) return locateInText(report, text, p, deprecation, undefined, lines);
    const at = lines.position(offset);
    return { path: p.path, message: p.message, line: at.line + 1, column: at.character + 1 };
  };
  return { ...base, errors: r.errors.map(locate(false)), deprecations: r.deprecations.map(locate(true)) };
}

/** A network result as the text report locateInText reads (the value and its spans). */
function networkReport(r: NetworkSchemaResult): TextSchemaReport {
  return { valid: r.valid !== false, errors: r.errors, deprecations: r.deprecations, yamlError: null, notADict: false, value: r.value, rootSpan: r.rootSpan };
}


/**
 * cloud-init's own check of a user-data run for one version, as `--check` reports it: each FILE (its parts)
 * as `cloud-init schema -c` validates it, and the merged cloud-config.txt (`merged`: false leaves it out,
 * as `--check --each` does). `names`: the FILEs as the user named them. Undefined for a run that is not
 * user-data, or that processes nothing (`fatal`: then what cloud-init says).
 */
export function checkOutcome(outcome: Outcome, version: SchemaVersion, options: { names?: readonly string[]; merged?: boolean; fileCheck?: typeof checkFile } = {}): CheckResult | { fatal: NonNullable<UserDataRun['fatal']> } | undefined {
  if (outcome.kind !== 'user-data') return undefined;
  const run = outcome.run;
  if (run.fatal) return { fatal: run.fatal };
  const check = options.fileCheck ?? checkFile;
  const files = outcome.inputs.files.flatMap((f, i) => check(options.names?.[i] ?? f.name, f.bytes, version, outcome.options.instanceData));
  return { files, merged: options.merged === false ? null : checkMerged(run, outcome.locate, version) };
}
