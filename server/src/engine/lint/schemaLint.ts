/**
 * cloud-init's schema validation of one cloud-config body as findings: each error and deprecation that
 * `cloud-init schema` would print (engine/schema), placed on the key or value it is about. Unknown keys
 * are marked on the key itself (one finding per key), deprecations on the deprecated key and tagged as
 * deprecated, other errors on the value written.
 */
import { PyError } from '../pyerrors';
import { PyDict, type PyValue, type TextSpan } from '../values';
import { spanAt, validateCloudConfig, valueAt, type SchemaProblem, type SchemaVersion } from '../schema/validate';
import type { Finding } from './findings';

export function schemaFindings(root: PyDict, rootSpan: TextSpan | null, base: number, version: SchemaVersion): Finding[] {
  let report;
  try {
    report = validateCloudConfig(root, version);
  } catch (err) {
    if (!(err instanceof PyError)) throw err;
    const span = rootSpan ?? { start: 0, end: 0 };
    return [{ code: 'schema-validator-fails', severity: 'warning', span: { start: span.start + base, end: span.start + base }, message: `cloud-init's schema validator itself fails on this document (${err.pyType}: ${err.message}): \`cloud-init schema\` reports nothing else.` }];
  }
  const at = (s: TextSpan): TextSpan => ({ start: s.start + base, end: s.end + base });
  const findings: Finding[] = [];
  const place = (p: SchemaProblem, deprecation: boolean) => {
    const message = `${p.path}: ${p.message.trim()}`;
    if (p.keyword === 'additionalProperties' && p.unexpectedKeys?.length) {
      const obj = valueAt(root, p.segments);
      for (const key of p.unexpectedKeys) {
        const origin = obj instanceof PyDict ? obj.originOf(key) : undefined;
        const span = origin?.key ?? origin?.value ?? spanAt(root, p.segments, rootSpan)?.value;
        if (span) findings.push({ code: 'schema-error', severity: 'error', span: at(span), message });
      }
      return;
    }
    const found = spanAt(root, p.segments, rootSpan);
    if (!found) return;
    const keyFirst = deprecation || p.keyword === 'required' || p.keyword === 'minProperties' || isEmptyContainer(valueAt(root, p.segments));
    const span = keyFirst ? found.key ?? found.value : found.value;
    findings.push(
      deprecation
        ? { code: 'schema-deprecated', severity: 'warning', span: at(span), message, deprecated: true }
        : { code: 'schema-error', severity: 'error', span: at(span), message },
    );
  };
  for (const p of report.errors) place(p, false);
  for (const p of report.deprecations) place(p, true);
  return findings;
}

function isEmptyContainer(v: PyValue | undefined): boolean {
  return v === null || v === undefined || (Array.isArray(v) && v.length === 0) || (v instanceof PyDict && v.size === 0);
}
