/**
 * The `cloudConfigMerge/documentInfo` request, for the language status
 * items: what kind of part the document is, whether cloud-init merges it,
 * the spec cloud-init will use for it, in words, and the image it is
 * checked against (with the settings the server does not know).
 */
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentImage, DocumentInfoParams, DocumentInfoRequest, DocumentInfoResult } from '../protocol';
import { DEFAULT_IMAGE, unknownImageMessage } from '../engine/version/profiles';
import { CLOUD_INIT_VERSIONS } from '../engine/version/versions';
import type { ServerSettings } from './common/settings';
import { HEADER_LINES } from '../engine/spec/catalogue';
import { DEFAULT_PART_SPEC, DEFAULT_SYSTEM_SPEC } from '../engine/spec/defaults';
import { ServerContext } from './common/context';
import { DocumentState, analyze } from './common/analysisCache';
import { guardRequest } from './common/guard';
import { readOpenOrDisk } from './common/workspaceFiles';
import { readError } from './common/readFile';
import { SpecSummary, defaultSpecText, effectiveWords, roleOf, summarizeSite } from './common/specSummary';
import type { SpecSite } from '../engine/lint/analyzeDocument';
import { encodedPartSpecs } from './common/encodedSpecs';

export function registerDocumentInfo(ctx: ServerContext): void {
  ctx.connection.onRequest(
    DocumentInfoRequest.method,
    guardRequest(ctx.log, 'documentInfo', async (params: DocumentInfoParams): Promise<DocumentInfoResult> => {
      const uri = params?.uri;
      if (typeof uri !== 'string') return { kind: null, spec: null, summary: [], merged: false };
      // Its settings as they are now (asked again after a change), so that the image answered is the one checked.
      await ctx.settings(uri);
      const document = ctx.documents.get(uri);
      if (document) return documentInfo(ctx.state(document));
      // Not open: read it from disk (within maxFileBytes), analyse it once, keep nothing.
      if (!/^file:/i.test(uri)) return { kind: null, spec: null, summary: [], merged: false };
      const settings = await ctx.settings(uri);
      let text: string;
      try {
        text = new TextDecoder().decode(await readOpenOrDisk(ctx.documents, uri, settings.limits.maxFileBytes));
      } catch (e) {
        return { kind: null, spec: null, summary: [`The file cannot be read (${readError(e)}).`], merged: false };
      }
      return documentInfo(analyze(TextDocument.create(uri, 'yaml', 0, text), settings));
    }),
  );
}

const KIND_HEADER: Record<string, string> = {
  'cloud-config-archive': '#cloud-config-archive',
  'cloud-config-jsonp': '#cloud-config-jsonp',
  include: '#include',
};

/**
 * Most spec sites of a MIME document described one by one: the summary is the status item's
 * accessible label, and a generated multipart can hold thousands of parts.
 */
export const MAX_SUMMARIZED_SITES = 20;

/** The answer for one analysed version, computed once (the status item asks again on every focus change). */
export function documentInfo(state: DocumentState): DocumentInfoResult {
  return state.memo('documentInfo', () => {
    const computed = computeDocumentInfo(state);
    const withImage = computed.kind ? { ...computed, image: imageOf(state.settings) } : computed;
    return state.analysis.info?.template ? { ...withImage, template: true } : withImage;
  });
}

/**
 * The image the document's run is checked on (common/settings.ts resolved it: the set's, the folder's, the
 * default), and the settings the server does not know, whose defaults apply (named, not echoed: the
 * status item never shows a version that is not the one checked).
 */
function imageOf(settings: ServerSettings): DocumentImage {
  const { target } = settings;
  const ignored: string[] = [];
  if (settings.unknown?.image !== undefined) ignored.push(`cloudConfigMerge.image: ${unknownImageMessage(settings.unknown.image)}; the default image ${DEFAULT_IMAGE} is used`);
  if (settings.unknown?.cloudInitVersion !== undefined) ignored.push(`cloudConfigMerge.cloudInitVersion is not a version this extension reproduces (${CLOUD_INIT_VERSIONS.join(', ')}): the image's version is used`);
  return {
    id: settings.image || DEFAULT_IMAGE,
    version: target.version,
    distro: target.distro,
    versionOverride: settings.versionOverride !== undefined,
    ...(settings.imageFrom ? { set: settings.imageFrom.set, setFile: settings.imageFrom.setFile } : {}),
    isDefault: !settings.image,
    ...(ignored.length ? { ignored } : {}),
  };
}

/** The documents cloud-init reads but never merges, in words: they have no spec and no merge preview. */
const NOT_MERGED: Readonly<Record<string, string>> = {
  'meta-data': "A NoCloud seed's meta-data: NoCloud reads it (instance-id, hostname); cloud-init never merges it, so it has no merge spec and no merge preview.",
  'network-config': "A network-config: cloud-init's network stage reads it; it is never merged into user-data, so it has no merge spec and no merge preview.",
  autoinstall: "An autoinstall.yaml: Ubuntu's installer (Subiquity) reads it from the install media as it is; cloud-init never merges it, so it has no merge spec and no merge preview.",
};

function computeDocumentInfo(state: DocumentState): DocumentInfoResult {
  const kind = state.analysis.info?.kind;
  if (!kind) return { kind: null, spec: null, summary: [], merged: false };
  if (NOT_MERGED[kind]) return { kind, spec: null, summary: [NOT_MERGED[kind]], merged: false };
  // Every other kind is merged: as user-data, as system config, or as Chef attributes.
  return { ...mergedDocumentInfo(state, kind), merged: true };
}

function mergedDocumentInfo(state: DocumentState, kind: string): Omit<DocumentInfoResult, 'merged'> {
  const analysis = state.analysis;
  if (KIND_HEADER[kind]) return { kind, spec: null, summary: [HEADER_LINES[KIND_HEADER[kind]].summary] };
  if (analysis.findings.some((f) => f.code === 'too-large')) return { kind, spec: null, summary: ['Too large: not analysed (setting cloudConfigMerge.limits.maxFileBytes).'] };
  const role = roleOf(analysis);
  const sites = analysis.specs.filter((s) => s.used);
  const version = state.settings.cloudInitVersion;
  if (kind === 'mime') {
    if (!sites.length) {
      // Parts encoded as Build MIME writes them carry their specs inside: read from the decoded parts.
      const encoded = encodedPartSpecs(state.text, version, MAX_SUMMARIZED_SITES);
      if (!encoded.length) return { kind, spec: null, summary: [`No part has a spec: each cloud-config part uses the default ${defaultSpecText('part')}.`] };
      return { kind, spec: encoded.every((e) => e.spec === encoded[0].spec) ? encoded[0].spec : null, summary: encoded.map((e) => e.line) };
    }
    // Parts of one document mostly repeat the same specs: each distinct pair is summarised once.
    const summaries = new Map<string, SpecSummary>();
    const summaryOf = (site: SpecSite) => {
      const { companion } = site;
      // A summary depends on the site's name and value and on its companion's (list forms are not keyed).
      const keyed = typeof site.value === 'string' && (!companion || typeof companion.value === 'string');
      const key = keyed ? JSON.stringify([site.headerName ?? site.source, site.value, companion ? [companion.headerName ?? companion.source, companion.value] : null]) : '';
      let summary = keyed ? summaries.get(key) : undefined;
      if (!summary) {
        summary = summarizeSite(analysis, site, version);
        if (keyed) summaries.set(key, summary);
      }
      return summary;
    };
    const summary = sites.slice(0, MAX_SUMMARIZED_SITES).map((s) => `${s.headerName ?? s.source} at line ${state.positionAt(s.valueSpan.start).line + 1}: ${summaryOf(s).spec ?? 'rejected by cloud-init'}`);
    if (sites.length > MAX_SUMMARIZED_SITES) summary.push(`… and ${sites.length - MAX_SUMMARIZED_SITES} more specs.`);
    // One spec for the whole document only when every site applies the same one.
    const first = summaryOf(sites[0]).spec;
    const same = sites.every((s) => summaryOf(s).spec === first);
    return { kind, spec: same ? first : null, summary };
  }
  const site = sites[0];
  if (!site) {
    const fallback = role === 'system' ? DEFAULT_SYSTEM_SPEC() : DEFAULT_PART_SPEC();
    const where = role === 'system' ? 'this file merges with the default' : 'this part merges with the default';
    return { kind, spec: defaultSpecText(role), summary: [`No merge_how: ${where} ${defaultSpecText(role)}.`, ...(effectiveWords(fallback.mergers) ?? [])] };
  }
  const summary = summarizeSite(analysis, site, version);
  return { kind, spec: summary.spec, summary: [`${summary.name}: ${summary.purpose}.`, ...summary.lines] };
}
