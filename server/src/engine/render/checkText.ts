/**
 * `--check`'s answer (engine/outcome/check.ts) as each face writes it: `text` (what `cloud-init schema`
 * prints, per version), `json` and `sarif` (SARIF 2.1.0), and `--annotate` (cloud-init's annotated
 * files). Exit code 0 when cloud-init would accept everything, 1 when it would report schema errors.
 */
import type { AutoinstallJson } from '../autoinstall/report';
import { unmodelledWords } from '../network/netplan';
import { SARIF_LEVEL, SarifLevel, SarifResult, SarifRule, sarifLog } from './sarif';
import { severityOf, type FindingCode } from '../findings/codes';
import { decodeUtf8Surrogateescape } from '../py/codecs';
import type { UserDataRun } from '../userdata/run';
import { placeText } from '../outcome/locate';
import { annotateCloudConfigFile, type AnnotateNames } from '../schema/annotate';
import { sniffContentType, CLOUD_CONFIG_TYPE } from '../userdata/sniff';
import type { SchemaVersion } from '../schema/validate';
import { pushAll } from '../arrays';
import { CheckResult, FileResult, Located, isAccepted } from '../outcome/check';
import { atLeast } from '../version/versions';

export type CheckFormat = 'text' | 'json' | 'sarif';

/**
 * What `cloud-init schema -c FILE` prints for each file (stdout and stderr in order), then what `cloud-init
 * schema --system` prints for the merged result, in the chosen version's words:
 * - 22.4: `Cloud config schema deprecations: ...` when validation found anything (the list may be empty),
 *   then `Valid cloud-config: FILE`, or `Error:` and `Cloud config schema errors: path: message, ...` (with
 *   the deprecations again after a blank line); deprecations alone do not fail;
 * - 23.4 and later: deprecations first (`Cloud config schema deprecations: ...`), then `Valid schema FILE`, or
 *   `Invalid user-data FILE` and `Error: Cloud config schema errors: ...`, and at the end `Error: Invalid
 *   schema: user-data` when something failed.
 * Where cloud-init prints nothing useful (a file that is not valid YAML or not a mapping), our note says why.
 * Each problem of the merged result is followed by the file and line that wrote the value.
 */
export function formatText(result: CheckResult, version: SchemaVersion): string {
  const out: string[] = [];
  const typeName = typeNameFor(version);
  const list = (ps: Located[]) => ps.map((p) => `${p.path}: ${p.message}`).join(', ');
  const sources = (r: { errors: Located[]; deprecations: Located[] }) => {
    for (const p of [...r.errors, ...r.deprecations]) if (p.file && p.line) out.push(`  ${p.path}: written in ${placeText(p.file, p.line, p.column, p.note, p.anchor?.line)}`);
    // An error only some versions raise: whose schema it is and which versions accept it (schema/acceptance withAcceptance).
    for (const p of r.errors) if (p.accepted) out.push(`  ${p.path || '(top level)'}: ${p.accepted}`);
  };
  const one = (name: string, label22: string, r: { valid: boolean; errors: Located[]; deprecations: Located[]; note?: string; said?: string; unvalidated?: boolean }) => {
    if (r.said) {
      out.push(r.said);
      return;
    }
    if (r.note && !r.errors.length) {
      out.push(`${r.unvalidated ? 'Not validated' : r.valid ? 'Valid' : 'Invalid'} (${name}): ${r.note}`);
      return;
    }
    if (!atLeast(version, '23.4')) {
      // 22.4 prints the deprecations line whenever its strict validation raised, even with none in it.
      if ((r.errors.length || r.deprecations.length) && !r.unvalidated) out.push(`Cloud config schema deprecations: ${list(r.deprecations)}`);
      if (!r.errors.length) out.push(`Valid cloud-config: ${label22}`);
      else {
        const deprecations = r.deprecations.length ? `\n\nCloud config schema deprecations: ${list(r.deprecations)}` : '';
        out.push('Error:', `Cloud config schema errors: ${list(r.errors)}${deprecations}`);
      }
    } else {
      if (r.deprecations.length) out.push(`Cloud config schema deprecations: ${list(r.deprecations)}`);
      if (r.errors.length) out.push(`Invalid ${typeName(name)} ${name}`, `Error: Cloud config schema errors: ${list(r.errors)}`, '');
      else out.push(`Valid schema ${name}`);
    }
    sources(r);
  };
  for (const f of result.files) {
    if (f.network) networkText(f, list, out);
    else one(nameOf(f), nameOf(f), { ...f, valid: f.valid !== false });
  }
  if (result.merged) one(MERGED_NAME, MERGED_NAME, result.merged);
  // 23.4's command crashes (TypeError) instead of this line after a document that is not a mapping.
  const crashed = !atLeast(version, '24.4') && result.files.some((f) => f.said?.startsWith(INVALID_NONE));
  if (atLeast(version, '23.4') && !isAccepted(result) && !crashed) {
    const failed = result.files.filter((f) => f.valid === false).map((f) => (f.network ? 'network-config' : typeName(nameOf(f))));
    if (result.merged && !result.merged.valid) failed.push('user-data');
    out.push(`Error: Invalid schema: ${[...new Set(failed)].join(', ')}`, '');
  }
  return out.join('\n') + '\n';
}

/**
 * A network-config file as `cloud-init schema -t network-config -c FILE` prints it (23.4 and later: what it
 * says when it skips the file, `Valid schema FILE`, or `Invalid network-config FILE` and the errors), or why
 * the chosen cloud-init does not validate it; then what a boot does with it.
 */
function networkText(f: FileResult, list: (ps: Located[]) => string, out: string[]): void {
  if (f.said) out.push(f.said.replace(/\n$/, ''));
  else if (f.note && !f.errors.length) out.push(`${f.valid === null ? 'Not validated' : 'Invalid'} (${f.file}): ${f.note}`);
  else {
    if (f.deprecations.length) out.push(`Cloud config schema deprecations: ${list(f.deprecations)}`);
    if (f.errors.length) out.push(`Invalid network-config ${f.file}`, `Error: Cloud config schema errors: ${list(f.errors)}`, '');
    else if (f.valid === null && f.network?.unmodelled?.length) out.push(`Not checked (${f.file}): netplan checks ${unmodelledWords(f.network.unmodelled)}, which is not reproduced here; no error was found in the rest`);
    else out.push(`Valid schema ${f.file}`);
    for (const p of f.errors) if (p.line) out.push(`  ${p.path}: written in ${placeText(f.file, p.line, p.column)}`);
  }
  if (f.network) out.push(`  ${f.network.boot}`);
}

/**
 * What `cloud-init schema` calls a file in its `Invalid TYPE` lines: 'user-data', except that 23.4 (whose
 * `--schema-type` has no default) says UNKNOWN_CONFIG_HEADER for a `-c FILE` (the merged result is --system).
 */
function typeNameFor(version: SchemaVersion): (name: string) => string {
  return (name) => (atLeast(version, '24.4') || name === MERGED_NAME ? 'user-data' : 'UNKNOWN_CONFIG_HEADER');
}

/** 23.4 prints `Invalid None` (its schema type) before its crash on a document that is not a mapping. */
export const INVALID_NONE = 'Invalid None\n';

const MERGED_NAME = 'cloud-config.txt (the merged result)';

/** How `cloud-init schema --system` names the instance's cloud-config.txt, per version. */
const SYSTEM_NAMES: Record<SchemaVersion, AnnotateNames> = {
  '22.4': { path: 'None', valid: 'system userdata' },
  '23.4': { path: '/var/lib/cloud/instance/cloud-config.txt', valid: 'user-data' },
  '24.4': { path: '/var/lib/cloud/instance/cloud-config.txt', valid: 'user-data' },
  '25.1': { path: '/var/lib/cloud/instance/cloud-config.txt', valid: 'user-data' },
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
  const strip = (r: FileResult) => ({ file: r.file, ...(r.part ? { part: r.part } : {}), valid: r.valid, errors: r.errors.map(fileLoc), deprecations: r.deprecations.map(fileLoc), ...(r.note ? { note: r.note } : {}), ...(r.said ? { said: r.said } : {}), ...(r.network ? { kind: 'network-config', validator: r.network.validator, boot: r.network.boot, ...(r.network.unmodelled ? { unmodelled: r.network.unmodelled } : {}) } : {}) });
  const decoded = (p: Located) => ({ ...(p.note ? { note: p.note } : {}), ...(p.anchor ? { anchor: p.anchor } : {}) });
  const fileLoc = (p: Located) => ({ path: p.path, message: p.message, line: p.line ?? null, column: p.column ?? null, ...decoded(p) });
  const mergedLoc = (p: Located) => ({ path: p.path, message: p.message, file: p.file ?? null, line: p.line ?? null, column: p.column ?? null, ...decoded(p) });
  const out = {
    files: result.files.map(strip),
    merged: result.merged ? { valid: result.merged.valid, errors: result.merged.errors.map(mergedLoc), deprecations: result.merged.deprecations.map(mergedLoc) } : null,
  };
  return JSON.stringify(out, null, pretty ? 2 : undefined);
}

/** The SARIF rule of each kind of problem, at the severity the editor gives it (engine/findings/codes.ts). */
const RULE_OF = {
  error: { id: 'schema-error', code: 'schema-error', name: 'CloudConfigSchemaError', text: 'cloud-init reports a schema error for this value' },
  deprecation: { id: 'schema-deprecation', code: 'schema-deprecated', name: 'CloudConfigDeprecation', text: 'cloud-init reports this key or value as deprecated' },
  'merged-error': { id: 'merged-schema-error', code: 'merged-schema-error', name: 'MergedCloudConfigSchemaError', text: 'cloud-init reports a schema error in the merged cloud-config.txt for this value' },
  'merged-deprecation': { id: 'merged-schema-deprecation', code: 'merged-schema-deprecation', name: 'MergedCloudConfigDeprecation', text: 'cloud-init reports this key or value of the merged cloud-config.txt as deprecated' },
} as const satisfies Record<string, { id: string; code: FindingCode; name: string; text: string }>;

const level = (kind: keyof typeof RULE_OF): SarifLevel => SARIF_LEVEL[severityOf(RULE_OF[kind].code)];

const RULES: SarifRule[] = (Object.keys(RULE_OF) as Array<keyof typeof RULE_OF>).map((kind) => ({
  id: RULE_OF[kind].id,
  name: RULE_OF[kind].name,
  shortDescription: { text: RULE_OF[kind].text },
  defaultConfiguration: { level: level(kind) },
}));

/**
 * SARIF 2.1.0: one result per problem, at the file and line that wrote the value, at the editor's severity: a
 * problem of a file is an error (a deprecation a warning); one only the merged result has is a warning (a
 * deprecation a note), as the editor shows it on the part that wrote the value. `extra`: more rules and results
 * (the lint findings, the fates).
 */
export function formatSarif(result: CheckResult, version: SchemaVersion, toolVersion: string, extra?: { rules: SarifRule[]; results: SarifResult[] }): string {
  const results: SarifResult[] = [];
  const shown = new Set<string>();
  const add = (p: Located, file: string | undefined, deprecation: boolean, merged: boolean, part?: string) => {
    const said = `${p.path}: ${p.message.trim()}`;
    shown.add(said);
    const where = [merged ? 'in the merged cloud-config.txt' : part ? `in ${part}` : '', p.note && p.line ? `${p.note}: line ${p.line}${p.column ? `, column ${p.column}` : ''}` : ''].filter(Boolean).join(', ');
    const kind = merged ? (deprecation ? 'merged-deprecation' : 'merged-error') : deprecation ? 'deprecation' : 'error';
    results.push({
      ruleId: RULE_OF[kind].id,
      level: level(kind),
      message: `${said}${where ? ` (${where})` : ''}`,
      file,
      // A position in decoded text is not one in the file: the line that stands for it (a part's header), else the file as a whole.
      region: p.note ? (p.anchor ? { startLine: p.anchor.line, startColumn: p.anchor.column } : undefined) : p.line ? { startLine: p.line, startColumn: p.column ?? 1 } : undefined,
      properties: part ? { path: p.path, merged, part } : { path: p.path, merged },
    });
  };
  for (const f of result.files) {
    for (const p of f.errors) add(p, f.file, false, false, f.part);
    for (const p of f.deprecations) add(p, f.file, true, false, f.part);
    // Rejected with no schema problem to point at (not YAML, a template that cannot be rendered): the file itself.
    if (f.valid === false && !f.errors.length && (f.note || f.said)) {
      results.push({ ruleId: RULE_OF.error.id, level: level('error'), message: `${f.note ?? cloudInitWords(f.said as string)}${f.part ? ` (in ${f.part})` : ''}`, file: f.file, properties: f.part ? { path: '', merged: false, part: f.part } : { path: '', merged: false } });
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
  const rules = [...RULES, ...(extra?.rules ?? [])].filter((r, i, all) => all.findIndex((x) => x.id === r.id) === i);
  return JSON.stringify(sarifLog({ version: toolVersion, informationUri: 'https://cloudinit.readthedocs.io/', rules }, results, { cloudInitVersion: version }), null, 2);
}

/**
 * Subiquity's verdict on each autoinstall config, one line each, before cloud-init's report (its errors are among
 * the findings): `Valid autoinstall FILE (Subiquity 24.04, delivered as cloud-config)`, or `Invalid …: ` and the
 * error that stops the install.
 */
export function autoinstallVerdictText(verdicts: Iterable<[string, AutoinstallJson]>): string {
  let out = '';
  for (const [file, v] of verdicts) {
    if (v.verdict === 'no-autoinstall') continue;
    const stops = v.errors[0] ? `: ${v.errors[0].message.split('\n')[0]}` : v.applyTime[0] ? `, but applying it fails: ${v.applyTime[0].message.split('\n')[0]}` : '';
    out += `${v.valid ? 'Valid' : 'Invalid'} autoinstall ${file} (Subiquity ${v.subiquity}, ${v.delivery === 'autoinstall.yaml' ? 'as the install media carry it' : 'delivered as cloud-config'})${stops}\n`;
  }
  return out;
}
