/**
 * `cloudConfigMerge/renderedPart`: the "Show Rendered Part" view's text. The server renders (the
 * client only shows), with the instance data `cloudConfigMerge.instanceData` chooses, the open
 * editor's text (unsaved edits included) or the file on disk.
 */
import { fileURLToPath } from 'node:url';
import { RenderedPartRequest, type RenderedPartParams, type RenderedPartResult } from '../protocol';
import { renderedPart } from '../engine/template/rendered';
import { isJinjaTemplate } from '../engine/userdata/templater';
import type { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { instanceDataFor } from './common/instanceData';
import { readError, readRegularFileSync } from './common/readFile';

export function registerRenderedPart(ctx: ServerContext): void {
  ctx.connection.onRequest(RenderedPartRequest.method, guardRequest(ctx.log, 'renderedPart', (params: RenderedPartParams) => renderedPartOf(ctx, params)));
}

async function renderedPartOf(ctx: ServerContext, params: RenderedPartParams): Promise<RenderedPartResult> {
  const uri = typeof params?.uri === 'string' ? params.uri : '';
  const settings = await ctx.settings(uri);
  let text: string;
  const open = ctx.documents.get(uri);
  if (open) text = open.getText();
  else {
    try {
      text = new TextDecoder().decode(readRegularFileSync(fileURLToPath(uri), settings));
    } catch (e) {
      return { text: `# The template cannot be read: ${readError(e)}\n` };
    }
  }
  if (!isJinjaTemplate(text)) return { text: '# This document does not start with "## template: jinja": cloud-init does not render it, it is used as written.\n' };
  return { text: renderedPart(text, instanceDataFor(settings, ctx.workspaceFolders()), settings.cloudInitVersion).text };
}
