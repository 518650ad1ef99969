/**
 * `cloudConfigMerge/renderedPart`: the "Show Rendered Part" view's text. The server renders (the
 * client only shows), with the instance data `cloudConfigMerge.instanceData` chooses, the open
 * editor's text (unsaved edits included) or the file on disk: a whole `## template: jinja`
 * document, or one `text/jinja2` part of a MIME multipart (the one under the cursor when the view
 * opens; the answer names it by index, so the view renders that part again after edits).
 */
import { RenderedPartRequest, type RenderedPartParams, type RenderedPartResult } from '../protocol';
import { renderedPart } from '../engine/template/rendered';
import type { InstanceDataChoice } from '../engine/template/instanceData';
import type { CloudInitVersion } from '../engine/spec/parse';
import { isJinjaTemplate } from '../engine/userdata/templater';
import { convertUserDataBlob, type MimeLeaf } from '../engine/userdata/mime';
import { JINJA_TYPE, leafPartType } from '../engine/userdata/sniff';
import type { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { instanceDataFor } from './common/instanceData';
import { readError } from './common/readFile';
import { readOpenOrDiskSync } from './common/workspaceFiles';

export function registerRenderedPart(ctx: ServerContext): void {
  ctx.connection.onRequest(RenderedPartRequest.method, guardRequest(ctx.log, 'renderedPart', (params: RenderedPartParams) => renderedPartOf(ctx, params)));
}

async function renderedPartOf(ctx: ServerContext, params: RenderedPartParams): Promise<RenderedPartResult> {
  const uri = typeof params?.uri === 'string' ? params.uri : '';
  const settings = await ctx.settings(uri);
  let text: string;
  try {
    text = new TextDecoder().decode(readOpenOrDiskSync(ctx.documents, uri, settings.limits.maxFileBytes));
  } catch (e) {
    return { text: `# The template cannot be read: ${readError(e)}\n` };
  }
  const choice = instanceDataFor(settings, uri, ctx.workspaceFolders());
  if (isJinjaTemplate(text)) return { text: renderedPart(text, choice, settings.cloudInitVersion).text };
  const blob = convertUserDataBlob(new TextEncoder().encode(text));
  if (blob.kind === 'mime' && !blob.error) return renderedMimePart(blob.leaves, blob.source, params, choice, settings.cloudInitVersion);
  return { text: '# This document does not start with "## template: jinja" and is no MIME multipart with a text/jinja2 part: cloud-init does not render it, it is used as written.\n' };
}

function renderedMimePart(leaves: MimeLeaf[], source: string, params: RenderedPartParams, choice: InstanceDataChoice, version: CloudInitVersion): RenderedPartResult {
  const templates = leaves.map((leaf, index) => ({ leaf, index })).filter(({ leaf }) => !leaf.container && leaf.text !== null && leafPartType(leaf) === JINJA_TYPE);
  if (!templates.length) return { text: '# This MIME multipart has no text/jinja2 part: cloud-init renders nothing in it.\n' };
  const lineOf = (leaf: MimeLeaf) => (leaf.span ? source.slice(0, leaf.span.start).split('\n').length : undefined);
  let chosen = typeof params.part === 'number' ? templates.find((t) => t.index === params.part) : undefined;
  if (!chosen && params.position && typeof params.position.line === 'number') {
    const offset = offsetAt(source, params.position);
    chosen = templates.find(({ leaf }) => leaf.span && offset >= leaf.span.start && offset <= leaf.span.end);
  }
  if (!chosen && templates.length === 1) chosen = templates[0];
  if (!chosen) {
    const starts = templates.map(({ leaf }) => lineOf(leaf)).filter((l) => l !== undefined);
    const reason = typeof params.part === 'number' ? 'The part shown before is no longer a text/jinja2 part of this multipart' : 'The cursor is not in a text/jinja2 part of this multipart';
    return { text: `# ${reason}: put the cursor in one (they start at line${starts.length === 1 ? '' : 's'} ${starts.join(', ')}) and show it again.\n` };
  }
  const line = lineOf(chosen.leaf);
  const where = `The text/jinja2 part${chosen.leaf.filename ? ` ${chosen.leaf.filename}` : ''} of this multipart${line !== undefined ? `, its body from line ${line}` : ''}`;
  return { text: renderedPart(chosen.leaf.text as string, choice, version, where).text, part: chosen.index };
}

function offsetAt(text: string, position: { line: number; character: number }): number {
  let offset = 0;
  for (let line = 0; line < position.line; line++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return offset + Math.max(0, position.character);
}
