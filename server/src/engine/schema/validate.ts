/**
 * cloud-init's schema validation of a cloud-config value, offline: `validate_cloudconfig_schema(config,
 * strict=True)` of the chosen version (`cloudinit/config/schema.py`), and what `cloud-init schema` adds
 * around it for one text (the "Ignored invalid user-data" lines of a merged cloud-config.txt, YAML errors,
 * a document that is not a mapping).
 *
 * Errors and deprecations come back as cloud-init prints them (`path`, `message`), in its order (sorted by
 * path, stable), with the spans of the key and value they are about where the loader recorded them.
 */
import { PyError } from '../py/errors';
import { pyStr } from '../py/repr';
import { comparePyStr } from '../py/str';
import { sharedExpansion, loadYaml, type YamlProblem } from '../yaml/load';
import { DEFAULT_LIMITS, LimitExceededError } from '../limits';
import { getListOrigins, PyDict, type PyValue, type TextSpan } from '../py/values';
import { comparePaths, pyRegex, type SchemaNode, ValidationError, Validator } from './pyjsonschema';
import type { TopLevelMemoUse } from './topLevelMemo';
import { schemaData, type SchemaVersion } from './data';
import { pushAll } from '../arrays';
import { atLeast } from '../version/versions';

export type { SchemaVersion } from './data';

export interface SchemaProblem {
  /** cloud-init's path: the keys and indices joined with '.' (`users.0.sudo`). */
  path: string;
  /** cloud-init's message, word for word. */
  message: string;
  /** The path as values (keys as loaded, list indices as ints). */
  segments: PyValue[];
  /** The JSON-schema keyword that failed (`type`, `additionalProperties`, `deprecated`, …). */
  keyword: string | null;
  /** Keys an `additionalProperties` error is about, at the object of `segments`. */
  unexpectedKeys?: PyValue[];
  /** For those: the keys the schema names at that object. */
  knownKeys?: string[];
  /**
   * The failing or deprecated schema is one alternative (`oneOf`/`anyOf`) of what the value may be: a
   * deprecation then concerns the value written (`sudo: false`), not the key.
   */
  viaAlternative: boolean;
}

export interface SchemaReport {
  errors: SchemaProblem[];
  deprecations: SchemaProblem[];
  /** Validation stopped at `maxProblems`: there may be more than these. */
  truncated?: boolean;
}

const validators = new Map<SchemaVersion, Validator>();

export function validatorFor(version: SchemaVersion): Validator {
  let v = validators.get(version);
  if (!v) {
    const data = schemaData(version);
    v = new Validator(data.schema, version, data['x-ccm'].validatesChanged);
    validators.set(version, v);
  }
  return v;
}

function pathString(segments: PyValue[]): string {
  return segments.map((s) => pyStr(s)).join('.');
}

/**
 * `validate_cloudconfig_schema(config, strict=True)`: the errors and deprecations cloud-init reports for
 * a loaded cloud-config mapping. Throws PyError where cloud-init's validator itself would raise.
 * @param maxProblems stop after this many (the editor's bound: a generated file can have 200,000, which
 *   take seconds to find and place); the report then says it is `truncated`.
 */
export function validateCloudConfig(config: PyValue, version: SchemaVersion, maxNodes: number = DEFAULT_LIMITS.maxExpandedNodes, maxProblems = Infinity, topLevel?: TopLevelMemoUse): SchemaReport {
  // The validator walks every alias where it is used, as Python's does: an alias bomb would never end
  // (cloud-init's own `schema` hangs on it). Refused, naming the limit, like other full expansions.
  if (sharedExpansion(config, maxNodes) > maxNodes) throw new LimitExceededError('maxExpandedNodes', maxNodes, 'Schema validation (aliases expanded)');
  return validateWith(config, validatorFor(version), maxProblems, topLevel);
}

/**
 * validateCloudConfig's walk with any of cloud-init's schemas (the network-config ones too): the
 * problems as `validate_cloudconfig_schema` of the validator's version collects them.
 */
export function validateWith(config: PyValue, validator: Validator, maxProblems = Infinity, topLevel?: TopLevelMemoUse): SchemaReport {
  const all: ValidationError[] = [];
  let truncated = false;
  validator.topLevel = topLevel;
  try {
    for (const e of validator.iterErrors(config, validator.root)) {
      if (all.length === maxProblems) {
        truncated = true;
        break;
      }
      all.push(e);
    }
  } finally {
    validator.topLevel = undefined;
    topLevel?.memo.endRun();
  }
  const sorted = all.map((e, i) => ({ e, i })).sort((a, b) => comparePaths(a.e.path, b.e.path) || a.i - b.i).map((x) => x.e);
  const errors: SchemaProblem[] = [];
  const deprecations: SchemaProblem[] = [];
  for (const e of sorted) {
    const keyword = typeof e.validator === 'string' ? e.validator : null;
    let path = pathString(e.path);
    const problem: SchemaProblem = { path, message: e.message, segments: [...e.path], keyword, viaAlternative: viaAlternative(e.schemaPath) };
    if (keyword === 'additionalProperties' && config instanceof PyDict) {
      const at = valueAt(config, e.path);
      if (at instanceof PyDict) {
        problem.unexpectedKeys = unexpectedKeys(at, e.schema as SchemaNode);
        problem.knownKeys = Object.keys((e.schema as SchemaNode).properties ?? {});
      }
    }
    if (atLeast(validator.version, '23.4') && !path && keyword === 'additionalProperties' && e.schema === validator.root) {
      // 23.4 and later name the key of an unknown top-level property as the path
      const m = /^.*\('(.*)' was unexpected\)/s.exec(e.message);
      if (m) {
        path = m[1];
        problem.path = path;
      }
    }
    (e.deprecation ? deprecations : errors).push(problem);
  }
  const report: SchemaReport = atLeast(validator.version, '23.4') ? { errors: uniqueSorted(errors), deprecations: uniqueSorted(deprecations) } : { errors, deprecations };
  // (23.4 and later's SchemaValidationError keeps `sorted(set(problems))`: unique (path, message) pairs in order)
  if (truncated) report.truncated = true;
  return report;
}

function uniqueSorted(problems: SchemaProblem[]): SchemaProblem[] {
  // Grouped by path, then compared: no key string made of each message (100,000 unknown modules each
  // quote the list of every module: a key of each would be hundreds of megabytes).
  const byPath = new Map<string, SchemaProblem[]>();
  const unique: SchemaProblem[] = [];
  for (const p of problems) {
    const same = byPath.get(p.path);
    if (!same) byPath.set(p.path, [p]);
    else if (same.some((q) => q.message === p.message)) continue;
    else same.push(p);
    unique.push(p);
  }
  return unique.sort((a, b) => comparePyStr(a.path, b.path) || comparePyStr(a.message, b.message));
}

function viaAlternative(schemaPath: Array<string | number>): boolean {
  let last = -1;
  schemaPath.forEach((s, i) => {
    if (s === 'properties' || s === 'patternProperties' || s === 'additionalProperties' || s === 'items') last = i;
  });
  return schemaPath.slice(last + 1).some((s) => s === 'oneOf' || s === 'anyOf');
}

function unexpectedKeys(obj: PyDict, schema: SchemaNode): PyValue[] {
  const props = schema.properties ?? {};
  const patterns = Object.keys(schema.patternProperties ?? {});
  return obj.keys().filter((k) => {
    if (typeof k !== 'string') return true;
    if (Object.prototype.hasOwnProperty.call(props, k)) return false;
    return !patterns.some((p) => pyRegex(p).test(k));
  });
}

/** The value at a path of a loaded document, or undefined. */
export function valueAt(root: PyValue, segments: PyValue[]): PyValue | undefined {
  let node: PyValue | undefined = root;
  for (const seg of segments) {
    if (node instanceof PyDict) node = node.get(seg);
    else if (Array.isArray(node) && typeof seg === 'bigint') node = node[Number(seg)];
    else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/**
 * Where a problem is shown, the same in every face (the editor's diagnostics, `--check`'s positions, the
 * merged result's problems): the node's path, and whether on its key or on its value. An unknown key is
 * marked on the key itself; a deprecated key, a missing property and an empty container on the key
 * that holds them; every other problem on the value that fails.
 */
export function problemPlace(root: PyValue, p: SchemaProblem, deprecation: boolean): { segments: PyValue[]; on: 'key' | 'value' } {
  if (p.keyword === 'additionalProperties' && p.unexpectedKeys?.length === 1) return { segments: [...p.segments, p.unexpectedKeys[0]], on: 'key' };
  const keyFirst = (deprecation && !p.viaAlternative) || p.keyword === 'required' || p.keyword === 'minProperties' || isEmptyContainer(valueAt(root, p.segments));
  return { segments: p.segments, on: keyFirst ? 'key' : 'value' };
}

/** The span problemPlace chooses: the key where it says so and there is one, else the value. */
export function problemSpan(root: PyValue, rootSpan: TextSpan | null, p: SchemaProblem, deprecation: boolean): TextSpan | null {
  const { segments, on } = problemPlace(root, p, deprecation);
  const found = spanAt(root, segments, rootSpan);
  if (!found) return null;
  return on === 'key' ? (found.key ?? found.value) : found.value;
}

function isEmptyContainer(v: PyValue | undefined): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (v instanceof PyDict && v.size === 0);
}

/** Where a path is written: the key (for mapping entries) and the value. */
export function spanAt(root: PyValue, segments: PyValue[], rootSpan: TextSpan | null): { key?: TextSpan; value: TextSpan } | null {
  let node: PyValue | undefined = root;
  let found: { key?: TextSpan; value: TextSpan } | null = rootSpan ? { value: rootSpan } : null;
  for (const seg of segments) {
    if (node instanceof PyDict) {
      const origin = node.originOf(seg);
      node = node.get(seg);
      if (!origin) return found;
      found = { key: origin.key, value: origin.value };
    } else if (Array.isArray(node) && typeof seg === 'bigint') {
      const origin = getListOrigins(node)?.[Number(seg)];
      node = node[Number(seg)];
      if (!origin) return found;
      found = { value: origin.value };
    } else return found;
    if (node === undefined) return found;
  }
  return found;
}

export interface TextSchemaReport extends SchemaReport {
  /** cloud-init would accept the text: no errors (deprecations do not count). */
  valid: boolean;
  /** The YAML error that stops validation (cloud-init prints its own wording; this is the loader's). */
  yamlError: YamlProblem | null;
  /** The document is not a mapping: nothing is validated (and cloud-init reports nothing). */
  notADict: boolean;
  /** The loaded value, for spans. */
  value?: PyValue;
  rootSpan?: TextSpan | null;
  /** A Python exception cloud-init's validator itself would raise on this value. */
  crash?: PyError;
}

const SCHEMA_ERROR_PREFIX = '# Cloud-config part ignored SCHEMA_ERROR: ';

export interface TextValidationOptions {
  /** Stop after this many problems (see validateCloudConfig). */
  maxProblems?: number;
  /**
   * Keep where each value is written in the text (default): off for a merged cloud-config.txt, whose
   * problems are placed through the merged value's own origins instead.
   */
  spans?: boolean;
  /** The text as loaded by an earlier check of this very text (another version's): not loaded again. */
  loaded?: { value: PyValue; rootSpan?: TextSpan | null };
  /** The errors of top-level keys kept from the last validation (with `loaded`: see TopLevelMemo). */
  topLevel?: TopLevelMemoUse;
}

/** The problem 23.4 and later report for a part the merge skipped (`Ignored invalid user-data: part-001`). */
export function isIgnoredPartProblem(p: { path: string; message: string }): boolean {
  return /^format-l\d+\.c1$/.test(p.path) && p.message.startsWith(IGNORED_PART);
}

const IGNORED_PART = 'Ignored invalid user-data: ';

/**
 * What `cloud-init schema` reports for one cloud-config text (the oracle's `--mode schema` of one file):
 * upstream first lists the "Ignored invalid user-data" lines a merged cloud-config.txt carries.
 */
export function validateCloudConfigText(text: string, version: SchemaVersion, options: TextValidationOptions = {}): TextSchemaReport {
  const errors: SchemaProblem[] = [];
  if (atLeast(version, '23.4') && text.includes(SCHEMA_ERROR_PREFIX)) {
    pySplitLinesForSchema(text).forEach((line, i) => {
      if (line.startsWith(SCHEMA_ERROR_PREFIX)) {
        errors.push({
          path: `format-l${i + 1}.c1`,
          message: line.replace(SCHEMA_ERROR_PREFIX, IGNORED_PART),
          segments: [],
          keyword: null,
          viaAlternative: false,
        });
      }
    });
  }
  const loaded = options.loaded ? { ok: true as const, value: options.loaded.value, rootSpan: options.loaded.rootSpan ?? null } : loadYaml(text, options.spans === false ? { originKeys: [] } : {});
  if (!loaded.ok) return { valid: false, errors, deprecations: [], yamlError: loaded.error, notADict: false };
  const value = loaded.value;
  if (!(value instanceof PyDict)) {
    return { valid: errors.length === 0, errors, deprecations: [], yamlError: null, notADict: true, value, rootSpan: loaded.rootSpan };
  }
  try {
    const report = validateCloudConfig(value, version, undefined, options.maxProblems, options.topLevel?.root === value ? options.topLevel : undefined);
    pushAll(errors, report.errors);
    const out: TextSchemaReport = { valid: errors.length === 0, errors, deprecations: report.deprecations, yamlError: null, notADict: false, value, rootSpan: loaded.rootSpan };
    if (report.truncated) out.truncated = true;
    return out;
  } catch (err) {
    if (err instanceof PyError) {
      return { valid: false, errors, deprecations: [], yamlError: null, notADict: false, value, rootSpan: loaded.rootSpan, crash: err };
    }
    throw err;
  }
}

/** Python's str.splitlines() (the line numbers cloud-init gives SCHEMA_ERROR lines). */
function pySplitLinesForSchema(text: string): string[] {
  return text.split(/\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/);
}
