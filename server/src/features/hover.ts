/**
 * Hover: merger names and options inside a spec (what they really do, per
 * merger), the whole spec on its key or header name (the effective
 * settings in words), the header lines that decide how a part is read, and
 * the Merge-Type / X-Merge-Type header names of MIME parts; on a top-level key, which module of the
 * image reads it, in which stage and how often (the boot plan); on a key of a NoCloud meta-data file, what
 * NoCloud does with it (metaDataDocs.ts); on an autoinstall key, its type, values and place in Subiquity's
 * order (common/autoinstallDocs.ts).
 */
import { Hover, HoverParams } from 'vscode-languageserver';
import { HEADER_LINES, MERGE_HEADER_DOC } from '../engine/spec/catalogue';
import { TextSpan } from '../engine/py/values';
import { pyLStrip, pyRStrip, pyStrip } from '../engine/py/str';
import { SpecSite } from '../engine/lint/analyzeDocument';
import { MimeHeader } from '../engine/userdata/mime';
import { ServerContext } from './common/context';
import { DocumentState } from './common/analysisCache';
import { guardRequest } from './common/guard';
import { HEADER_PREFIXES, headerMarkdown, markup, mergerMarkdown, optionMarkdown } from './common/docs';
import { contains, mergerOf, optionOf, scanStringSpec, shownWord, writtenMergers } from './common/specText';
import { summarizeSite } from './common/specSummary';
import { documentSchema, isSystemKind, schemaKeyMarkdown, systemKeyMarkdown } from './common/schemaDocs';
import type { SchemaVersion } from '../engine/schema/data';
import { schemaAt } from '../engine/schema/navigate';
import { textCursorAt } from '../engine/schema/textPath';
import { jinjaHoverAt } from './jinjaHover';
import { instanceDataFor } from './common/instanceData';
import { planKeyMarkdown } from './common/planDocs';
import { planTargetOf } from './common/planTarget';
import { metaDataHover } from './metaDataDocs';
import { autoinstallHover } from './common/autoinstallDocs';

interface HoverText {
  markdown: string;
  span: TextSpan;
}

export function registerHover(ctx: ServerContext): void {
  ctx.connection.onHover(
    guardRequest(ctx.log, 'hover', (params: HoverParams): Hover | null => {
      const document = ctx.documents.get(params.textDocument.uri);
      if (!document) return null;
      const state = ctx.state(document);
      const offset = state.offsetAt(params.position);
      const found = jinjaHoverAt(state, offset, instanceDataFor(state.settings, document.uri, ctx.workspaceFolders())) ?? hoverAt(state, offset);
      return found ? { contents: markup(found.markdown, ctx.support.markdownHover), range: state.range(found.span) } : null;
    }),
  );
}

export function hoverAt(state: DocumentState, offset: number): HoverText | null {
  if (!state.analysis.info) return null;
  return specHover(state, offset) ?? mimeHeaderHover(state, offset) ?? headerLineHover(state, offset) ?? autoinstallHover(state, offset) ?? schemaHover(state, offset) ?? metaDataHover(state, offset);
}

/** A key cloud-init's schema knows: its module, type, values and cloud-init's deprecation notes. */
function schemaHover(state: DocumentState, offset: number): HoverText | null {
  const source = documentSchema(state.analysis.info?.kind, state.text, state.settings.cloudInitVersion, state.settings.schema.enable);
  if (!source) return null;
  const cursor = textCursorAt(state.text, offset);
  if (!cursor?.key || !cursor.key.text || offset < cursor.key.start || offset > cursor.key.end) return null;
  const path = [...cursor.parent, cursor.key.text];
  const view = schemaAt(source, path);
  if (!view.nodes.length) {
    // A system config key the schema does not describe (datasource_list, def_log_file...).
    const system = path.length === 1 && isSystemKind(state.analysis.info?.kind) && !source.startsWith('network:') ? systemKeyMarkdown(source as SchemaVersion, cursor.key.text) : undefined;
    return system ? { markdown: system, span: { start: cursor.key.start, end: cursor.key.end } } : null;
  }
  // The boot plan's word on a top-level key of a cloud-config (a network-config's keys are read by no module).
  const plan = path.length === 1 && state.analysis.info?.kind !== 'network-config' ? planKeyMarkdown(planTargetOf(state.settings), cursor.key.text) : '';
  return { markdown: schemaKeyMarkdown(source, path, view) + plan, span: { start: cursor.key.start, end: cursor.key.end } };
}

function specHover(state: DocumentState, offset: number): HoverText | null {
  for (const site of state.analysis.specs) {
    if (contains(site.keySpan, offset)) return { markdown: siteSummary(state, site), span: site.keySpan! };
    if (!contains(site.valueSpan, offset)) continue;
    for (const m of writtenMergers(site, state.text)) {
      const merger = mergerOf(m.name);
      if (contains(m.nameSpan, offset)) return { markdown: mergerHover(m.name, site, state.custom.descriptions), span: m.nameSpan };
      for (const o of m.options) {
        if (!contains(o.span, offset)) continue;
        const option = optionOf(o.word);
        if (option) return { markdown: optionMarkdown(option, merger), span: o.span };
        return { markdown: `**${shownWord(o.word)}** is not an option of any merger: cloud-init ignores it.`, span: o.span };
      }
    }
    return { markdown: siteSummary(state, site), span: site.valueSpan };
  }
  return null;
}

function mergerHover(written: string, site: SpecSite, custom: ReadonlyMap<string, string>): string {
  const merger = mergerOf(written);
  const name = pyStrip(written);
  const customName = name.toLowerCase().replace(/-/g, '_').replace(/^m_/, '');
  if (!merger && custom.has(customName)) return `**${customName}()** (custom merger, declared in cloudConfigMerge.customMergers): ${custom.get(customName)}`;
  if (!merger) return `**${shownWord(written)}**: cloud-init has no merger by this name (only list, dict and str), so it rejects the whole spec.`;
  const note = site.form === 'list' && name.replace(/-/g, '_') !== name.toLowerCase().replace(/-/g, '_') ? '\n\nIn the list form names are not lower-cased: cloud-init looks this one up as written and fails.' : '';
  return mergerMarkdown(merger, name) + note;
}

function siteSummary(state: DocumentState, site: SpecSite): string {
  const summary = summarizeSite(state.analysis, site, state.settings.cloudInitVersion);
  const spec = summary.spec ? `\n\n\`${summary.spec}\`` : '';
  const header = site.headerName ? `\n\n${MERGE_HEADER_DOC.detail}` : '';
  return `**${summary.name}**: ${summary.purpose}.${spec}\n\n${summary.lines.map((l) => `- ${l}`).join('\n')}${header}`;
}

/** `Merge-Type` / `X-Merge-Type` header names in any spelling, and the values of headers cloud-init does not read. */
function mimeHeaderHover(state: DocumentState, offset: number): HoverText | null {
  for (const leaf of state.analysis.mime?.leaves ?? []) {
    const merges = leaf.headers.filter((h) => /^(x-)?merge-type$/i.test(h.name));
    for (const h of merges) {
      if (!h.span) continue;
      const nameSpan = { start: h.span.start, end: h.span.start + h.name.length };
      const read = readHeader(leaf.headerDict, h);
      if (contains(nameSpan, offset)) return { markdown: `**${h.name}**: ${MERGE_HEADER_DOC.summary}${read ? '' : `\n\n${headerNotRead(leaf.headerDict, h)}`}\n\n${MERGE_HEADER_DOC.detail}`, span: nameSpan };
      if (h.valueStart === undefined || read || !contains(h.span, offset)) continue;
      // A header cloud-init ignores still gets names and options explained (its own sites are handled above).
      for (const m of scanStringSpec(state.text.slice(h.valueStart, h.span.end), h.valueStart)) {
        if (contains(m.nameSpan, offset)) {
          const merger = mergerOf(m.name);
          return { markdown: merger ? mergerMarkdown(merger, m.name) : `**${shownWord(m.name)}**: no merger by this name.`, span: m.nameSpan };
        }
        const o = m.options.find((x) => contains(x.span, offset));
        const option = o && optionOf(o.word);
        if (o && option) return { markdown: optionMarkdown(option, mergerOf(m.name)), span: o.span };
      }
    }
  }
  return null;
}

function readHeader(dict: Record<string, string>, h: MimeHeader): boolean {
  if (h.name === 'Merge-Type') return !!dict['Merge-Type'];
  if (h.name === 'X-Merge-Type') return !dict['Merge-Type'] && !!dict['X-Merge-Type'];
  return false;
}

function headerNotRead(dict: Record<string, string>, h: MimeHeader): string {
  if (h.name !== 'Merge-Type' && h.name !== 'X-Merge-Type') return `cloud-init ignores '${h.name}': header names are matched case-sensitively.`;
  if (h.name === 'X-Merge-Type' && dict['Merge-Type']) return 'cloud-init ignores this header here: Merge-Type is present and not empty.';
  return 'This header is empty, so it gives no spec.';
}

/** `#cloud-config`, `#include`, `## template: jinja`, `#!` … where cloud-init reads them as a part's header line. */
function headerLineHover(state: DocumentState, offset: number): HoverText | null {
  const line = state.lineAt(offset);
  const lead = line.text.length - pyLStrip(line.text).length;
  const lower = line.text.slice(lead).toLowerCase();
  const prefix = HEADER_PREFIXES.find((p) => lower.startsWith(p));
  if (!prefix || !isHeaderPosition(state, line.start, line.start + lead, prefix)) return null;
  const end = prefix === '#!' ? line.start + pyRStrip(line.text).length : line.start + lead + prefix.length;
  const span = { start: line.start + lead, end };
  if (offset < span.start || offset > line.start + line.text.length) return null;
  return { markdown: headerMarkdown(HEADER_LINES[prefix]), span };
}

/** Whether a line sits where cloud-init looks for a header: the start of a file or part, after a jinja line, or an include directive. */
function isHeaderPosition(state: DocumentState, lineStart: number, tokenStart: number, prefix: string): boolean {
  const text = state.text;
  const onlyBlankBefore = (from: number) => pyStrip(text.slice(from, lineStart)) === '';
  if (onlyBlankBefore(0)) return true;
  const kind = state.analysis.info?.kind;
  if (kind === 'include' && prefix.startsWith('#include') && tokenStart === lineStart) return true;
  if (kind === 'jinja') {
    // The header line Jinja's part starts after: the first line once leading blanks are stripped.
    const headerEnd = text.indexOf('\n', text.length - pyLStrip(text).length);
    if (headerEnd >= 0 && onlyBlankBefore(headerEnd + 1)) return true;
  }
  for (const leaf of state.analysis.mime?.leaves ?? []) {
    if (leaf.span && leaf.span.start <= lineStart && lineStart < leaf.span.end && pyStrip(text.slice(leaf.span.start, lineStart)) === '') return true;
  }
  return false;
}
