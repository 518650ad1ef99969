/**
 * Findings on the parts of a user-data blob that the author wrote part by part (Terraform's or Pulumi's
 * cloudinit provider, a rendered blob): the editor's lint over the MIME text, placed in its part, and
 * where cloud-init treats a part differently from how its author declared it.
 */
import { UserDataRun, PartReport } from '../userdata/run';
import { UserDataPart } from '../userdata/parts';
import { CLOUD_CONFIG_TYPE, JINJA_TYPE, JSONP_TYPE, NOT_MULTIPART_TYPE } from '../userdata/sniff';
import { convertUserDataBlob } from '../userdata/mime';
import { CloudInitVersion } from '../spec/parse';
import type { FindingCode } from '../findings/codes';
import { analyzeDocument } from './analyzeDocument';
import type { TerraformConfig } from '../userdata/terraform';

export interface PartFinding {
  /** 0-based index of the MIME part (the Terraform `part` block) the finding is about. */
  part: number;
  severity: 'error' | 'warning' | 'info';
  code: FindingCode;
  message: string;
}

/** The MIME part a processed part came from (its first MIME step), if any. */
function leafOf(part: UserDataPart): number | null {
  const step = part.route.find((r) => r.via === 'mime');
  return step && step.via === 'mime' ? step.leaf : null;
}

const MERGEABLE = new Set([CLOUD_CONFIG_TYPE, JSONP_TYPE, JINJA_TYPE]);

/**
 * Where cloud-init treats a part differently from how its author wrote it: a
 * merge spec it rejects or reads otherwise, a header name in the wrong case, a
 * declared type it overrides or has no handler for, a part it skips or
 * discards. `declared` gives, per part, what the author wrote (Terraform's
 * content_type and merge_type) when known.
 */
export function partFindings(
  blob: Uint8Array,
  run: UserDataRun,
  declared: ReadonlyArray<{ contentType: string | null; mergeType: string | null }> = [],
  version: CloudInitVersion = 'current',
): PartFinding[] {
  const findings: PartFinding[] = [];
  const converted = convertUserDataBlob(blob);
  if (converted.kind === 'mime' && !converted.error) {
    // The editor's lint over the MIME text: spec and header findings, placed in their part.
    const ranges = converted.leaves.map((leaf) => ({ start: leaf.headers[0]?.span?.start ?? leaf.span?.start ?? -1, end: leaf.span?.end ?? leaf.headers[leaf.headers.length - 1]?.span?.end ?? -1 }));
    const analysis = analyzeDocument(converted.source, 'user-data.mime', { version });
    for (const f of analysis.findings) {
      if (f.severity !== 'error' && f.severity !== 'warning') continue;
      const leaf = ranges.findIndex((r) => r.start <= f.span.start && f.span.start <= r.end);
      if (leaf >= 0) findings.push({ part: leaf, severity: f.severity, code: f.code, message: f.message });
    }
    converted.leaves.forEach((leaf, i) => {
      const author = declared[i];
      const written = author?.contentType ?? null;
      if (written !== null && written.toLowerCase() !== leaf.contentType && !/^\s*$/.test(written)) {
        const effective = run.reports.find((r) => leafOf(r.part) === i)?.part.contentType;
        const then = effective && effective !== leaf.contentType ? `, then by its first line as ${effective}` : '';
        findings.push({ part: i, severity: 'warning', code: 'content-type-invalid', message: `content_type '${written}' is not a valid MIME type to cloud-init: it reads the part as ${leaf.contentType}${then}.` });
      }
    });
  }
  const seen = new Set<number>();
  for (const report of run.reports) {
    const leaf = leafOf(report.part);
    if (leaf === null) continue;
    const first = !seen.has(leaf);
    seen.add(leaf);
    const f = reportFinding(report, first);
    if (f) findings.push({ part: leaf, ...f });
    const mergeType = declared[leaf]?.mergeType;
    if (first && mergeType && !MERGEABLE.has(report.part.contentType) && !report.part.route.some((r) => r.via === 'include' || r.via === 'archive')) {
      findings.push({ part: leaf, severity: 'warning', code: 'merge-type-unused', message: `merge_type '${mergeType}' has no effect: cloud-init handles this part as ${report.part.contentType}, which is not merged.` });
    }
  }
  return findings.sort((a, b) => a.part - b.part);
}

function reportFinding(report: PartReport, first: boolean): Omit<PartFinding, 'part'> | null {
  const { part, disposition } = report;
  const declaredType = part.declaredType ?? part.contentType;
  if (first && (declaredType === 'text/plain' || declaredType === NOT_MULTIPART_TYPE) && part.contentType === declaredType) {
    const start = (part.text ?? '').trimStart().split(/\r?\n/, 1)[0].slice(0, 40);
    return { severity: 'warning', code: 'text-plain-not-sniffed', message: `a ${declaredType} part is only used when its first line announces its type (#cloud-config, #!, ...); this one starts with '${start}', so cloud-init ignores it.` };
  }
  if (first && part.declaredType && part.declaredType !== 'text/plain' && part.declaredType !== NOT_MULTIPART_TYPE) {
    return { severity: 'warning', code: 'declared-type-overridden', message: `declared ${part.declaredType}, but its first line makes cloud-init handle it as ${part.contentType}.` };
  }
  if (disposition === 'unhandled') return { severity: 'warning', code: 'no-handler', message: report.note };
  if (disposition === 'failed') return { severity: 'error', code: 'part-skipped', message: report.note };
  if (disposition === 'jinja-ignored') return { severity: 'warning', code: 'jinja-ignored', message: report.note };
  if (disposition === 'merged' && report.handled?.discarded) return { severity: 'warning', code: 'part-discarded', message: report.note };
  return null;
}

/** A part as its author wrote it: how messages name it, and the type and merge type it was given. */
export interface AuthoredPart {
  label: string;
  contentType: string | null;
  mergeType: string | null;
}

/** `part 2 (filename "web.yaml")`: how the pipeline's findings name a part. */
export function partLabel(index: number, filename: string | null | undefined): string {
  return `part ${index + 1}${filename ? ` (filename "${filename}")` : ''}`;
}

/** The parts of a Terraform or Pulumi cloudinit config, as its author declared them. */
export function declaredParts(config: TerraformConfig): AuthoredPart[] {
  return config.parts.map((p, i) => ({ label: partLabel(i, p.filename), contentType: p.contentType, mergeType: p.mergeType }));
}

export interface LabelledFinding {
  /** The part, as its author names it. */
  label: string;
  severity: PartFinding['severity'];
  code: FindingCode;
  message: string;
}

/**
 * The findings of a pipeline blob (what the instance receives) on the run of that blob, each naming the
 * part as its author wrote it: the declared parts of a Terraform config, else the blob's own MIME parts.
 * The CLI's `--from-terraform` / `--rendered` and the editor's pipeline preview both say these.
 */
export function labelledFindings(blob: Uint8Array, run: UserDataRun, declared: readonly AuthoredPart[], version: CloudInitVersion, maxDecompressedBytes?: number): LabelledFinding[] {
  if (run.fatal) return [];
  let leaves: ReturnType<typeof convertUserDataBlob>['leaves'] | undefined;
  const label = (part: number) => declared[part]?.label ?? partLabel(part, (leaves ??= convertUserDataBlob(blob, { maxBytes: maxDecompressedBytes }).leaves)[part]?.filename);
  return partFindings(blob, run, declared, version).map((f) => ({ label: label(f.part), severity: f.severity, code: f.code, message: f.message }));
}

/** A finding as one line: `part 2 (filename "web.yaml"): warning: … [code]`. */
export function findingLine(f: LabelledFinding): string {
  return `${f.label}: ${f.severity}: ${f.message} [${f.code}]`;
}
