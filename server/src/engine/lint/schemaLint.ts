/**
 * cloud-init's schema validation of one cloud-config body as findings: each error and deprecation that
 * `cloud-init schema` would print (engine/schema), placed on the key or value it is about. Unknown keys
 * are marked on the key itself (one finding per key), deprecations on the deprecated key and tagged as
 * deprecated, other errors on the value written.
 */
import { PyError } from '../py/errors';
import { LimitExceededError } from '../limits';
import { PyDict, type PyValue, type TextSpan } from '../py/values';
import { problemSpan, spanAt, validateCloudConfig, valueAt, type SchemaProblem, type SchemaReport, type SchemaVersion } from '../schema/validate';
import { nearest, shownElsewhere, type Finding, type Fix } from '../findings/findings';
import { loadYaml } from '../yaml/load';
import { LineIndex } from '../text/lineIndex';
import type { EmbeddedCloudConfig } from '../schema/embedded';
import { coded } from '../findings/codes';
import { systemConfigForSchema, systemSchemaVerdict } from '../schema/systemConfig';
import { schemaAt, type NavSegment } from '../schema/navigate';
import { acceptanceNote, acceptingVersions, type AcceptingVersions } from '../schema/acceptance';

/** How the finding that says the check stopped (SchemaBudget.problemsLeft) begins. */
const STOPPED = "The check against cloud-init's schema stopped";
const isStop = (f: Finding) => f.code === 'limit-exceeded' && f.message.startsWith(STOPPED);

/**
 * @param body the text the spans index (for fixes: a key is only renamed where it is written plainly).
 * @param budget near-miss fixes and problems left for the whole document (the parts of a MIME document share it).
 */
export function schemaFindings(root: PyDict, rootSpan: TextSpan | null, base: number, version: SchemaVersion, body?: string, budget: SchemaBudget = newSchemaBudget()): Finding[] {
  let report;
  try {
    report = validateCloudConfig(root, version, undefined, budget.problemsLeft);
  } catch (err) {
    const span = rootSpan ?? { start: 0, end: 0 };
    if (err instanceof LimitExceededError) {
      return [{ ...coded('limit-exceeded', 'warning'), span: { start: span.start + base, end: span.start + base }, message: `Not checked against cloud-init's schema: ${err.message}.` }];
    }
    if (!(err instanceof PyError)) throw err;
    return [{ ...coded('schema-validator-fails'), span: { start: span.start + base, end: span.start + base }, message: `cloud-init's schema validator itself fails on this document (${err.pyType}: ${err.message}): \`cloud-init schema\` reports nothing else.` }];
  }
  return reportFindings(root, rootSpan, base, report, budget, body, version, acceptingVersions(root, version, report));
}

/**
 * The findings of a schema report of `root` (cloud-config's, or a network-config's: engine/network), placed
 * on the key or value each problem is about. `version`: the cloud-config schema a deprecated key's rename
 * is checked against (no rename fix without it).
 */
export function reportFindings(
  root: PyDict,
  rootSpan: TextSpan | null,
  base: number,
  report: SchemaReport,
  budget: SchemaBudget,
  body?: string,
  version?: SchemaVersion,
  accepting?: AcceptingVersions,
): Finding[] {
  budget.problemsLeft -= report.errors.length + report.deprecations.length;
  const at = (s: TextSpan): TextSpan => ({ start: s.start + base, end: s.end + base });
  const findings: Finding[] = [];
  // An error other versions accept names the version and those that accept it (schema/acceptance).
  const withVersions = (message: string, p: SchemaProblem, key?: PyValue) => {
    const versions = version !== undefined && accepting ? accepting(p, key) : [];
    const note = version !== undefined ? acceptanceNote(version, versions) : undefined;
    return note ? `${message} — ${note}` : message;
  };
  const place = (p: SchemaProblem, deprecation: boolean) => {
    // (23.4 and later name no path for two unknown top-level keys: no empty "path: " then)
    const message = shorten(`${p.path ? `${p.path}: ` : ''}${p.message.trim()}`);
    if (p.keyword === 'additionalProperties' && p.unexpectedKeys?.length) {
      const obj = valueAt(root, p.segments);
      let candidates: string[] | undefined;
      const known = () => (candidates ??= (p.knownKeys ?? []).filter((k) => !(obj instanceof PyDict && obj.has(k))));
      // A near miss is offered only where the value written fits the key (`package: [x]` is not `package_reboot_if_required`, a boolean).
      const fitting = (key: PyValue) => known().filter((k) => version === undefined || !(obj instanceof PyDict) || valueFitsKey(version, p.segments, k, obj.get(key)));
      for (const key of p.unexpectedKeys) {
        const origin = obj instanceof PyDict ? obj.originOf(key) : undefined;
        const span = origin?.key ?? origin?.value ?? spanAt(root, p.segments, rootSpan)?.value;
        if (!span) continue;
        const finding: Finding = { ...coded('schema-error'), span: at(span), message: withVersions(message, p, key) };
        // A generated file can have 100,000 unknown keys: near-miss fixes for the first ones only (at most 1,000 diagnostics are shown).
        const near = budget.nearMissLeft > 0 && typeof key === 'string' && origin?.key && body?.slice(origin.key.start, origin.key.end) === key ? (budget.nearMissLeft--, nearest(key, fitting(key))) : undefined;
        if (near) finding.fixes = [{ title: `Change to '${near}'`, edits: [{ span: at(origin!.key!), newText: near }], preferred: true }];
        findings.push(finding);
      }
      return;
    }
    const found = spanAt(root, p.segments, rootSpan);
    const span = problemSpan(root, rootSpan, p, deprecation);
    if (!found || !span) return;
    if (!deprecation) {
      findings.push({ ...coded('schema-error'), span: at(span), message: withVersions(message, p) });
      return;
    }
    const finding: Finding = { ...coded('schema-deprecated'), span: at(span), message, deprecated: true };
    // (a truncated report cannot tell whether a rename removes a problem)
    const fix = body !== undefined && version !== undefined && renames < MAX_RENAME_CHECKS && !report.truncated ? renameFix(root, p, found.key, body, version, report, at) : undefined;
    if (fix) finding.fixes = [fix];
    findings.push(finding);
  };
  let renames = 0;
  for (const p of report.errors) place(p, false);
  for (const p of report.deprecations) {
    place(p, true);
    renames++;
  }
  if (report.truncated && !budget.stopped) {
    budget.stopped = true;
    const span = at(rootSpan ?? { start: 0, end: 0 });
    findings.push({
      ...coded('limit-exceeded', 'warning'),
      span: { start: span.start, end: span.start },
      message: `${STOPPED} after ${budget.maxProblems} problems in this document: \`cloud-config-merge --check\` lists them all.`,
    });
  }
  return findings;
}

/**
 * Schema findings of a cloud-config carried inside a document (a MIME part, an archive entry), placed in
 * the document where its positions map; elsewhere on the part's or entry's first line, saying where the
 * problem is and why it is not shown in place (and without edits).
 */
export function embeddedSchemaFindings(embedded: EmbeddedCloudConfig, version: SchemaVersion, budget: SchemaBudget): Finding[] {
  // Found once per distinct text, as bodies are (an archive repeats the same few entries thousands of times).
  const key = `embedded\0${version}\0${embedded.text}`;
  let found = budget.findingsByBody?.get(key);
  if (found) found = again(found);
  else {
    found = findingsOfText(embedded.text, version, budget);
    budget.findingsByBody?.set(key, found);
  }
  let inside: Parameters<typeof shownElsewhere>[2] | undefined;
  const elsewhere = (f: Finding) => shownElsewhere(f, embedded.anchor, (inside ??= { lines: new LineIndex(embedded.text), label: embedded.label, why: embedded.unmapped ?? 'its position cannot be mapped' }));
  const place = (f: Finding): Finding => {
    const start = embedded.toDocument(f.span.start);
    const end = embedded.toDocument(f.span.end);
    if (start === undefined || end === undefined) return elsewhere(f);
    const fixes = f.fixes?.every((x) => x.edits.every((e) => embedded.toDocument(e.span.start) !== undefined && embedded.toDocument(e.span.end) !== undefined))
      ? f.fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ ...e, span: { start: embedded.toDocument(e.span.start)!, end: embedded.toDocument(e.span.end)! } })) }))
      : undefined;
    return { ...f, span: { start, end }, fixes };
  };
  return found.map(place);
}

/** The findings of a cloud-config text, at its own offsets: cloud-init's YAML error, or its schema problems. */
function findingsOfText(text: string, version: SchemaVersion, budget: SchemaBudget): Finding[] {
  const loaded = loadYaml(text);
  if (!loaded.ok) return [{ ...coded('yaml-invalid'), span: loaded.error.span, message: `cloud-init cannot load this YAML: ${loaded.error.message}. It skips this cloud-config.` }];
  if (!(loaded.value instanceof PyDict)) return [];
  return schemaFindings(loaded.value, loaded.rootSpan, 0, version, text, budget);
}

/**
 * The schema problems of a system config file (cloud.cfg, a cloud.cfg.d drop-in): the same problems as
 * for user-data, without `system_info`, each saying where cloud-init reports it on that version (never an
 * error: cloud-init does not reject system config; schema/systemConfig.ts).
 */
export function systemSchemaFindings(root: PyDict, rootSpan: TextSpan | null, base: number, version: SchemaVersion, body: string, budget: SchemaBudget): Finding[] {
  return schemaFindings(systemConfigForSchema(root, version), rootSpan, base, version, body, budget).map((f) => {
    if (f.code === 'schema-error') return { ...f, ...coded('schema-error', 'warning'), message: `${f.message} — ${systemSchemaVerdict(version, false)}.` };
    if (f.code === 'schema-deprecated') return { ...f, message: `${f.message} — ${systemSchemaVerdict(version, true)}.` };
    return f;
  });
}

/** The JSON-schema types a Python value is an instance of (an int is a number too, as jsonschema says). */
function jsonTypesOf(v: PyValue | undefined): string[] | undefined {
  if (v === null) return ['null'];
  if (typeof v === 'boolean') return ['boolean'];
  if (typeof v === 'bigint') return ['integer', 'number'];
  if (typeof v === 'number') return Number.isInteger(v) ? ['integer', 'number'] : ['number'];
  if (typeof v === 'string') return ['string'];
  if (Array.isArray(v)) return ['array'];
  if (v instanceof PyDict) return ['object'];
  return undefined;
}

/**
 * Whether the schema lets `key` (at the object of `segments`) hold a value of this type: a key whose
 * alternatives name no type, or a value of a type JSON schema has no name for, fits.
 */
function valueFitsKey(version: SchemaVersion, segments: readonly PyValue[], key: string, value: PyValue | undefined): boolean {
  const types = jsonTypesOf(value);
  if (!types) return true;
  const path: NavSegment[] = [];
  for (const s of segments) {
    if (typeof s === 'string') path.push(s);
    else if (typeof s === 'bigint') path.push({ item: true });
    else return true;
  }
  path.push(key);
  const named = new Set<string>();
  for (const n of schemaAt(version, path).nodes) {
    if (typeof n.type === 'string') named.add(n.type);
    else if (Array.isArray(n.type)) for (const t of n.type) if (typeof t === 'string') named.add(t);
  }
  return !named.size || types.some((t) => named.has(t));
}

/** Unknown keys per document for which a near-miss key is looked for (an edit distance to every known key). */
const MAX_NEAR_MISS_FIXES = 1000;

/** What the schema check of one document may still spend: shared by its parts, as they are one document's diagnostics. */
export interface SchemaBudget {
  /** Unknown keys for which a near-miss key may still be looked for. */
  nearMissLeft: number;
  /** Problems that may still be found (validation stops past them: see validateCloudConfig). */
  problemsLeft: number;
  readonly maxProblems: number;
  /** The document already has the finding that says its check stopped. */
  stopped?: boolean;
  /**
   * Findings of bodies (and of embedded cloud-configs, under their own keys) already validated in this
   * document, by version and text, at offset 0: a generated multipart or archive repeats the same few
   * bodies thousands of times, and the same text always loads to the same value, so it is validated once.
   */
  findingsByBody?: Map<string, Finding[]>;
}

/** @param maxProblems the most problems looked for in the document (the editor bounds them; a command line does not). */
export function newSchemaBudget(maxProblems = Infinity): SchemaBudget {
  return { nearMissLeft: MAX_NEAR_MISS_FIXES, problemsLeft: maxProblems, maxProblems, findingsByBody: new Map() };
}

/** schemaFindings of `body` (the text `root` was loaded from) at `base`, computed once per distinct text. */
export function schemaFindingsOfBody(root: PyDict, rootSpan: TextSpan | null, base: number, version: SchemaVersion, body: string, shared: SchemaBudget): Finding[] {
  const memo = shared.findingsByBody;
  if (!memo) return schemaFindings(root, rootSpan, base, version, body, shared);
  const key = `${version}\0${body}`;
  let found = memo.get(key);
  if (found) found = again(found);
  else memo.set(key, (found = schemaFindings(root, rootSpan, 0, version, body, shared)));
  return base ? found.map((f) => shiftFinding(f, base)) : found.slice();
}

/** The findings of a text seen before in the document: where the check stopped was said the first time. */
function again(found: Finding[]): Finding[] {
  return found.some(isStop) ? found.filter((f) => !isStop(f)) : found;
}

function shiftFinding(f: Finding, base: number): Finding {
  const at = (s: TextSpan): TextSpan => ({ start: s.start + base, end: s.end + base });
  const shifted: Finding = { ...f, span: at(f.span) };
  if (f.fixes) shifted.fixes = f.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((e) => ({ ...e, span: at(e.span) })) }));
  return shifted;
}

/** Re-validations spent on offering renames (each validates the whole document again). */
const MAX_RENAME_CHECKS = 20;

/** The replacement a deprecation message names: upstream `Use **name** instead`, 22.4 `Use ``name```. */
function replacementIn(message: string): string | undefined {
  return (/Use \*\*([A-Za-z0-9_-]+)\*\*/.exec(message) ?? /Use ``([A-Za-z0-9_-]+)``/.exec(message))?.[1];
}

/**
 * A deprecated key renamed to the key its message names, offered only when cloud-init would then report
 * one deprecation less and no new error (so `chpasswd.list` -> `users`, whose format differs, is not).
 */
function renameFix(
  root: PyDict,
  p: SchemaProblem,
  keySpan: TextSpan | undefined,
  body: string,
  version: SchemaVersion,
  report: { errors: SchemaProblem[]; deprecations: SchemaProblem[] },
  at: (s: TextSpan) => TextSpan,
): Fix | undefined {
  const key = p.segments[p.segments.length - 1];
  const replacement = replacementIn(p.message);
  if (typeof key !== 'string' || !replacement || replacement === key || !keySpan || body.slice(keySpan.start, keySpan.end) !== key) return undefined;
  const parentPath = p.segments.slice(0, -1);
  const parent = valueAt(root, parentPath);
  if (!(parent instanceof PyDict) || parent.has(replacement)) return undefined;
  const renamed = withRenamedKey(root, parentPath, key, replacement);
  let after;
  try {
    after = validateCloudConfig(renamed, version);
  } catch {
    return undefined;
  }
  if (after.errors.length > report.errors.length || after.deprecations.length >= report.deprecations.length) return undefined;
  return { title: `Change to '${replacement}'`, edits: [{ span: at(keySpan), newText: replacement }], preferred: true };
}

/** A copy of `root` where the mapping at `path` has `from` renamed to `to`, in place. */
function withRenamedKey(root: PyValue, path: PyValue[], from: string, to: string): PyDict {
  const copy = (node: PyValue, i: number): PyValue => {
    if (i === path.length && node instanceof PyDict) {
      const d = new PyDict();
      for (const e of node.items()) d.set(e.key === from ? to : e.key, e.value, e.origin);
      return d;
    }
    const seg = path[i];
    if (node instanceof PyDict) {
      const d = node.copy();
      d.set(seg, copy(node.get(seg) as PyValue, i + 1), node.originOf(seg));
      return d;
    }
    if (Array.isArray(node) && typeof seg === 'bigint') {
      const list = node.slice();
      list[Number(seg)] = copy(node[Number(seg)], i + 1);
      return list;
    }
    return node;
  };
  return copy(root, 0) as PyDict;
}

/** Messages quote whole values (`{...} is not of type 'array'`): a diagnostic shows at most this much. */
const MAX_MESSAGE = 1000;

function shorten(message: string): string {
  if (message.length <= MAX_MESSAGE) return message;
  return `${message.slice(0, MAX_MESSAGE)}… (${message.length} characters in all; \`cloud-config-merge --check\` prints it whole)`;
}

