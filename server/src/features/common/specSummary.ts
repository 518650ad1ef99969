/**
 * A spec site in plain words: what cloud-init parses, and what it does per
 * type; for MIME parts, together with the header spec it is combined with.
 * Shared by hover (on `merge_how`) and documentInfo (the language status).
 */
import { SpecSite, DocumentAnalysis } from '../../engine/lint/analyzeDocument';
import { explainSpec } from '../../engine/lint/explainSpec';
import { describeEffective, MERGE_HEADER_DOC } from '../../engine/spec/catalogue';
import { ParsedMerger, CloudInitVersion } from '../../engine/spec/parse';
import { constructMergers } from '../../engine/merge/construct';
import { DEFAULT_PART_SPEC, DEFAULT_PART_SPEC_TEXT, DEFAULT_SYSTEM_SPEC, DEFAULT_SYSTEM_SPEC_TEXT } from '../../engine/spec/defaults';
import { PyError } from '../../engine/py/errors';
import { formatSpec } from '../../engine/outcome/parts';

export type SpecRole = 'part' | 'system';

export function roleOf(analysis: DocumentAnalysis): SpecRole {
  const kind = analysis.info?.kind;
  return kind === 'confd' || kind === 'cloud-cfg' ? 'system' : 'part';
}

export function defaultSpecText(role: SpecRole): string {
  return role === 'system' ? DEFAULT_SYSTEM_SPEC_TEXT : DEFAULT_PART_SPEC_TEXT;
}

/** What a spec does, per type, as sentences; `null` when cloud-init cannot build it. */
export function effectiveWords(mergers: ParsedMerger[]): string[] | null {
  try {
    const root = constructMergers(mergers);
    return describeEffective({
      dict: root.handlerFor('dict')?.settings() ?? null,
      list: root.handlerFor('list')?.settings() ?? null,
      str: root.handlerFor('str')?.settings() ?? null,
    });
  } catch (e) {
    if (e instanceof PyError) return null;
    throw e;
  }
}

export interface SpecSummary {
  /** The key or header name as written. */
  name: string;
  /** What this spec decides, in a few words. */
  purpose: string;
  /** The spec cloud-init applies, in string form (null when it cannot be parsed). */
  spec: string | null;
  lines: string[];
}

export function summarizeSite(analysis: DocumentAnalysis, site: SpecSite, version: CloudInitVersion): SpecSummary {
  const role = roleOf(analysis);
  const name = site.headerName ?? site.source;
  if (!site.used) {
    return {
      name,
      purpose: 'not read here, because merge_how is present',
      spec: null,
      lines: [
        'cloud-init reads merge_how and leaves merge_type in the data as an ordinary key.',
        role === 'part'
          ? "It is written to cloud-config.txt and later used as that file's spec when user-data is combined with vendor and system config: a spec there without dict() makes all user-data disappear."
          : 'It ends up in the merged configuration and is used as its spec at the next merge: a spec there without dict() makes the settings it carries disappear.',
      ],
    };
  }
  const purpose = site.headerName
    ? MERGE_HEADER_DOC.summary.replace(/\.$/, '')
    : role === 'system'
      ? analysis.info?.kind === 'confd'
        ? 'how this drop-in merges into the drop-ins whose names sort after it'
        : 'how cloud.cfg merges into the merged drop-ins'
      : 'how this part merges into the parts before it';
  const explanation = explainSpec(site.value, { version });
  if (explanation.error) return { name, purpose, spec: null, lines: explanation.words };
  const parsed = site.lint?.spec?.mergers ?? null;
  let lines = explanation.words;
  let spec = parsed ? formatSpec(parsed) : null;
  if (explanation.defaultApplies) {
    const fallback = role === 'system' ? DEFAULT_SYSTEM_SPEC() : DEFAULT_PART_SPEC();
    spec = defaultSpecText(role);
    lines = [`An empty spec: the default ${spec} applies.`, ...(effectiveWords(fallback.mergers) ?? [])];
  }
  // In a MIME part, body and header specs are concatenated (body first): the combination is what applies.
  const companion = site.companion;
  const other = companion?.lint?.spec?.mergers;
  if (companion && other && parsed?.length) {
    const combined = site.headerName ? [...other, ...parsed] : [...parsed, ...other];
    const words = effectiveWords(combined);
    if (words) {
      spec = formatSpec(combined);
      lines = [`Together with ${companion.headerName ?? companion.source} (cloud-init puts the body's spec first, then the header's); for each type the first merger wins.`, ...words];
    }
  }
  return { name, purpose, spec, lines };
}
