/**
 * Which other cloud-init versions accept what one version's schema rejects: the same document validated
 * with each version's schema (schema/data, extracted per version), so that a finding only some images
 * raise says whose schema it is and where it is accepted (`write_files.0: Additional properties are not
 * allowed ('source' was unexpected)` on 23.4: 24.4 and later accept it). One function for every face: the
 * editor's findings (lint/schemaLint) and `--check` (`withAcceptance` on a text's report).
 */
import { PyError } from '../py/errors';
import { pyStr } from '../py/repr';
import { LimitExceededError } from '../limits';
import { expandedSize } from '../yaml/load';
import type { PyValue } from '../py/values';
import { atLeast, CLOUD_INIT_VERSIONS, type CloudInitVersion, versionInWords } from '../version/versions';
import { validateCloudConfig, type SchemaProblem, type SchemaReport, type SchemaVersion, type TextSchemaReport } from './validate';

/** Past this many errors a document is not validated again for every other version (a generated file can have 100,000). */
export const MAX_ACCEPTANCE_ERRORS = 200;
/** Nor past this many values: each keystroke would validate a generated file four more times. */
export const MAX_ACCEPTANCE_NODES = 50_000;

/**
 * For a problem of `report` (the report of `root` at `version`), the versions whose schema accepts what it
 * is about (for an unknown key: that key, `key`), oldest first; empty when every version rejects it or the
 * document was not checked again (more than MAX_ACCEPTANCE_ERRORS errors or MAX_ACCEPTANCE_NODES values, a
 * truncated report). Each other version validates `root` once, on the first question.
 */
export type AcceptingVersions = (p: SchemaProblem, key?: PyValue) => CloudInitVersion[];

export function acceptingVersions(root: PyValue, version: SchemaVersion, report: SchemaReport): AcceptingVersions {
  if (!report.errors.length || report.errors.length > MAX_ACCEPTANCE_ERRORS || report.truncated || expandedSize(root, MAX_ACCEPTANCE_NODES) > MAX_ACCEPTANCE_NODES) return () => [];
  let others: Array<{ version: CloudInitVersion; errors: SchemaProblem[] }> | undefined;
  const own = new Set(report.errors.map(problemId));
  const load = () =>
    (others ??= CLOUD_INIT_VERSIONS.filter((v) => v !== version).flatMap((v) => {
      try {
        const r = validateCloudConfig(root, v, undefined, MAX_ACCEPTANCE_ERRORS + 1);
        // A version whose check is cut short cannot be said to accept anything.
        return r.truncated ? [] : [{ version: v, errors: r.errors }];
      } catch (e) {
        if (e instanceof PyError || e instanceof LimitExceededError) return [];
        throw e;
      }
    }));
  return (p, key) => {
    const about = key === undefined ? p.segments : [...p.segments, key];
    // 22.4 checks no top-level key's name at all: it ignores an unknown one, it does not accept it.
    const topLevelName = p.keyword === 'additionalProperties' && p.segments.length === 0;
    return load()
      .filter((o) => !(topLevelName && !atLeast(o.version, '23.4')) && !o.errors.some((q) => rejects(q, p, about, own)))
      .map((o) => o.version);
  };
}

function problemId(p: SchemaProblem): string {
  return JSON.stringify([p.path, p.message]);
}

function sameSegment(a: PyValue, b: PyValue): boolean {
  return a === b || (typeof a === typeof b && typeof a === 'object' && a !== null && b !== null && pyStr(a) === pyStr(b));
}

/** `prefix` is the start of `path` (or all of it). */
function startsWith(path: readonly PyValue[], prefix: readonly PyValue[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => sameSegment(s, path[i]));
}

/**
 * Whether another version's error `q` rejects what `p` is about (the value at `about`): the same error; an
 * unknown key on the way to it; or any other error at it, inside it or around it, unless the own version
 * reports that very error too (then it is not what makes the versions differ).
 */
function rejects(q: SchemaProblem, p: SchemaProblem, about: readonly PyValue[], own: ReadonlySet<string>): boolean {
  if (q.path === p.path && q.message === p.message) return true;
  if (q.keyword === 'additionalProperties' && q.unexpectedKeys) {
    return about.length > q.segments.length && startsWith(about, q.segments) && q.unexpectedKeys.some((k) => sameSegment(k, about[q.segments.length]));
  }
  if (own.has(problemId(q))) return false;
  return startsWith(about, q.segments) || startsWith(q.segments, about);
}

/** The versions in words: `24.4 and later`, `22.4 and 23.4`, `22.4, 24.4 and later`, `22.4, 23.4 and 26.2`. */
export function versionRange(versions: readonly CloudInitVersion[]): string {
  const sorted = CLOUD_INIT_VERSIONS.filter((v) => versions.includes(v));
  // The newest versions, when two or more in a row up to the newest: `X and later`.
  let tail = 0;
  while (tail < sorted.length && sorted[sorted.length - 1 - tail] === CLOUD_INIT_VERSIONS[CLOUD_INIT_VERSIONS.length - 1 - tail]) tail++;
  const names = sorted.map(versionInWords);
  if (tail >= 2) return [...names.slice(0, sorted.length - tail), `${sorted[sorted.length - tail]} and later`].join(', ');
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names.join('');
}

/**
 * What a finding adds when other versions accept it: `cloud-init 23.4's schema; 24.4 and later accept it`
 * (`accept 'source'` when naming the key). Undefined when no other version accepts it.
 */
/** Between a finding's message and its acceptance note, in the editor's words: `withoutAcceptance` takes it off. */
export const ACCEPTANCE_SEPARATOR = ' — ';

/** A finding's message without the acceptance note (the problem as the merged result's check words it). */
export function withoutAcceptance(message: string): string {
  const at = message.lastIndexOf(`${ACCEPTANCE_SEPARATOR}cloud-init `);
  return at < 0 ? message : message.slice(0, at);
}

export function acceptanceNote(version: SchemaVersion, accepting: readonly CloudInitVersion[], what = 'it'): string | undefined {
  if (!accepting.length) return undefined;
  return `cloud-init ${versionInWords(version)}'s schema; ${versionRange(accepting)} accept${accepting.length === 1 ? 's' : ''} ${what}`;
}

/** A problem with what other versions accept of it (withAcceptance). */
export interface AcceptedProblem extends SchemaProblem {
  /** acceptanceNote: the versions that accept it, in words; per unexpected key when only some are accepted. */
  accepted?: string;
}

/** A problem's note: for an unknown-key error, each key other versions accept is named (`accept 'source'`). */
export function problemAcceptance(p: SchemaProblem, version: SchemaVersion, accepting: AcceptingVersions): string | undefined {
  if (p.keyword !== 'additionalProperties' || !p.unexpectedKeys?.length) return acceptanceNote(version, accepting(p));
  const byRange = new Map<string, { versions: CloudInitVersion[]; keys: string[] }>();
  for (const key of p.unexpectedKeys) {
    const versions = accepting(p, key);
    if (!versions.length) continue;
    const range = versions.join(',');
    const entry = byRange.get(range) ?? byRange.set(range, { versions, keys: [] }).get(range)!;
    entry.keys.push(`'${pyStr(key)}'`);
  }
  if (!byRange.size) return undefined;
  const [first, ...rest] = [...byRange.values()].map((e) => acceptanceNote(version, e.versions, e.keys.join(', '))!);
  return [first, ...rest.map((n) => n.replace(/^cloud-init [^;]*; /, ''))].join('; ');
}

/** `report` (of a text, at `version`) with each error that other versions accept saying which (AcceptedProblem.accepted): for `--check`. */
export function withAcceptance<R extends TextSchemaReport>(report: R, version: SchemaVersion): Omit<R, 'errors'> & { errors: AcceptedProblem[] } {
  if (report.value === undefined || !report.errors.length) return report;
  const accepting = acceptingVersions(report.value, version, report);
  return {
    ...report,
    errors: report.errors.map((p): AcceptedProblem => {
      const accepted = problemAcceptance(p, version, accepting);
      return accepted ? { ...p, accepted } : p;
    }),
  };
}
