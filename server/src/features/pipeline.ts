/**
 * The pipeline requests: `cloudConfigMerge/makeMime` builds MIME user-data
 * from files as `cloud-config-merge make-mime` does, and
 * `cloudConfigMerge/pipelineSource` says what a Terraform / Pulumi JSON file
 * or a rendered blob holds, for the preview (whose `source` parameter then
 * turns that file into the user-data an instance receives, with findings that
 * name the part the author wrote). Nothing is fetched or executed.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MakeMimeParams, MakeMimeRequest, MakeMimeResult, PipelineSourceParams, PipelineSourceRequest, PipelineSourceResult, PreviewSource } from '../protocol';
import { MakeMimeError, MimeAttachment, attachmentText, inferSubtype, makeMime } from '../engine/userdata/makeMime';
import { TerraformInputError, looksLikeTerraformJson, readTerraformJson, terraformUserData, unwrapRendered, wrapLikeTerraform } from '../engine/userdata/terraform';
import { AuthoredPart, declaredParts } from '../engine/lint/partFindings';
import { InputFile as PreviewFile } from '../engine/outcome/run';
import { ServerContext } from './common/context';
import { readOpenOrDisk } from './common/workspaceFiles';
import { guardRequest } from './common/guard';

export function registerPipeline(ctx: ServerContext): void {
  ctx.connection.onRequest(MakeMimeRequest.method, guardRequest(ctx.log, 'makeMime', (params: MakeMimeParams) => buildMime(ctx, params)));
  ctx.connection.onRequest(PipelineSourceRequest.method, guardRequest(ctx.log, 'pipelineSource', (params: PipelineSourceParams) => pipelineSource(ctx, params)));
}

/** An open editor's text, else the file on disk (within maxFileBytes). */
async function readSource(ctx: ServerContext, uri: string): Promise<Uint8Array> {
  return readOpenOrDisk(ctx.documents, uri, (await ctx.settings(uri)).limits.maxFileBytes);
}

function fileName(uri: string): string {
  try {
    return path.basename(fileURLToPath(uri));
  } catch {
    return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
  }
}

async function buildMime(ctx: ServerContext, params: MakeMimeParams): Promise<MakeMimeResult> {
  const uris = Array.isArray(params?.files) ? params.files.filter((f): f is string => typeof f === 'string') : [];
  const problems: string[] = [];
  const attachments: MimeAttachment[] = [];
  const parts: MakeMimeResult['parts'] = [];
  if (!uris.length) problems.push('no file to build user-data from');
  for (const uri of uris) {
    const name = fileName(uri);
    try {
      const text = attachmentText(name, await readSource(ctx, uri));
      const subtype = inferSubtype(name, text);
      attachments.push({ filename: name, subtype, text });
      parts.push({ file: uri, filename: name, contentType: `text/${subtype}` });
    } catch (e) {
      problems.push(e instanceof MakeMimeError ? e.message : `${name}: cannot be read (${(e as Error).message})`);
    }
  }
  if (problems.length) return { text: '', problems, parts: [] };
  try {
    const text = makeMime(attachments, typeof params.boundary === 'string' ? params.boundary : undefined);
    const encoding = params.encoding ?? 'mime';
    if (encoding === 'mime') return { text, problems, parts };
    const wrapped = wrapLikeTerraform(new TextEncoder().encode(text), { gzip: encoding === 'gzip+base64', base64: true });
    return { text: String(wrapped), problems, parts };
  } catch (e) {
    if (!(e instanceof MakeMimeError)) throw e;
    return { text: '', problems: [e.message], parts: [] };
  }
}

async function pipelineSource(ctx: ServerContext, params: PipelineSourceParams): Promise<PipelineSourceResult> {
  let bytes: Uint8Array;
  try {
    bytes = await readSource(ctx, params?.uri);
  } catch (e) {
    return { kind: 'rendered', configs: [], problem: `cannot be read (${(e as Error).message})` };
  }
  const text = new TextDecoder().decode(bytes);
  if (!looksLikeTerraformJson(text)) return { kind: 'rendered', configs: [] };
  try {
    const configs = readTerraformJson(text);
    if (!configs.length) return { kind: 'terraform', configs: [], problem: 'no cloudinit_config data source or resource in it' };
    return {
      kind: 'terraform',
      configs: configs.map((c) => ({ address: c.address, parts: c.parts.length, origin: c.rendered !== null ? 'rendered' : c.parts.every((p) => p.content !== null) && c.parts.length ? 'parts' : 'unknown' })),
    };
  } catch (e) {
    if (!(e instanceof TerraformInputError)) throw e;
    return { kind: 'terraform', configs: [], problem: e.message };
  }
}

/**
 * The preview's input for a pipeline source: the user-data the instance receives, named by the
 * Terraform address (or the file), and its parts as the author wrote them (the preview says the
 * findings of its run of that user-data: engine/lint/partFindings labelledFindings).
 */
export function pipelineFiles(file: PreviewFile, source: PreviewSource): { files: PreviewFile[]; parts: AuthoredPart[]; failure?: string } {
  if (source.kind === 'terraform') {
    try {
      const config = readTerraformJson(new TextDecoder().decode(file.bytes)).find((c) => c.address === source.address);
      if (!config) return { files: [], parts: [], failure: `${file.name}: no cloudinit_config at ${source.address}` };
      return { files: [{ name: config.address, bytes: terraformUserData(config).bytes }], parts: declaredParts(config) };
    } catch (e) {
      if (!(e instanceof TerraformInputError)) throw e;
      return { files: [], parts: [], failure: `${file.name}: ${e.message}` };
    }
  }
  return { files: [{ name: file.name, bytes: unwrapRendered(file.bytes).bytes }], parts: [] };
}
