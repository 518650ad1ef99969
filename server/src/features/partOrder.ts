/**
 * The `cloudConfigMerge/partOrder` request: what the client's order step shows before files given
 * together are merged or built into MIME. The files that are not user-data (a NoCloud seed's meta-data,
 * a network-config: cloud-init never merges them), left out with why; the saved set whose files are
 * exactly the others (its order is the one offered), else the NoCloud seed folder whose user-data and
 * vendor-data they are (merged as the seed: user-data over vendor-data); and each container among them (MIME multipart, `#cloud-config-archive`, gzip or
 * base64 of them) that already holds every part of other files given with it, compared by content
 * (engine/userdata/containers.ts), so that the step says it and leaves the container out by default.
 */
import * as path from 'node:path';
import { PartOrderParams, PartOrderRequest, PartOrderResult, type SetOfResult } from '../protocol';
import { processUserData } from '../engine/userdata/process';
import { UserDataPart } from '../engine/userdata/parts';
import { unwrapRendered } from '../engine/userdata/terraform';
import { containerSentence, containersAmong } from '../engine/userdata/containers';
import { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { PartSets, filePath } from '../sets/partSets';
import { readOpenOrDisk } from './common/workspaceFiles';
import { setResult } from './setRequests';
import { notUserDataKind, notUserDataSentence } from '../engine/seed/notUserData';

export function registerPartOrder(ctx: ServerContext, sets: PartSets): void {
  ctx.connection.onRequest(PartOrderRequest.method, guardRequest(ctx.log, 'partOrder', (params: PartOrderParams) => partOrder(ctx, sets, params)));
}

export async function partOrder(ctx: ServerContext, sets: PartSets, params: PartOrderParams): Promise<PartOrderResult> {
  const given = Array.isArray(params?.files) ? params.files.filter((f): f is string => typeof f === 'string') : [];
  // Each file as it is now; a seed's meta-data and a network-config are not user-data: left out, said why.
  const notUserData: NonNullable<PartOrderResult['notUserData']> = [];
  const read: Array<{ uri: string; bytes: Uint8Array | null }> = [];
  for (const uri of given) {
    const settings = await ctx.settings(uri);
    let bytes: Uint8Array | null;
    try {
      bytes = await readOpenOrDisk(ctx.documents, uri, settings.limits.maxFileBytes);
    } catch {
      bytes = null;
    }
    const kind = bytes ? notUserDataKind(filePath(uri) ?? uri, bytes) : undefined;
    if (kind) notUserData.push({ file: uri, kind, message: notUserDataSentence(lastSegment(uri), kind) });
    else read.push({ uri, bytes });
  }
  const uris = read.map((r) => r.uri);
  const paths = uris.map(filePath);
  const wanted = new Set(paths);
  const distinct = paths.every((p) => p !== null) && wanted.size === uris.length;
  const declared = distinct ? sets.declaredSets().find((s) => s.files.length === wanted.size && s.files.every((f) => wanted.has(f))) : undefined;
  const set = declared ? setResult(declared) : distinct ? seedOfExactly(sets, paths) : undefined;
  // Each file's parts, as user-data processing yields them from it alone (a base64 file decoded first).
  const parts: UserDataPart[] = [];
  for (const [i, { uri, bytes: raw }] of read.entries()) {
    if (!raw) continue;
    const settings = await ctx.settings(uri);
    const bytes = unwrapRendered(raw).bytes;
    const processed = processUserData([{ name: String(i), bytes }], { limits: settings.limits, version: settings.cloudInitVersion });
    for (const part of processed.parts) if (part.blob === 0) parts.push({ ...part, blob: i });
  }
  const names = displayNames(ctx.workspaceFolders(), uris, paths);
  const containers = containersAmong(parts, uris.length).map((c) => ({
    file: uris[c.container],
    contains: c.contains.map((i) => uris[i]),
    own: c.own,
    message: containerSentence(names[c.container], c.contains.map((i) => names[i]), c.own),
  }));
  return { ...(set ? { set } : {}), containers, ...(notUserData.length ? { notUserData } : {}) };
}

/** The NoCloud seed folder whose user-data (and vendor-data, when it has one) are exactly these files, as its set. */
function seedOfExactly(sets: PartSets, paths: string[]): SetOfResult | undefined {
  const seed = paths.length ? sets.seedSetOf(paths[0]) : undefined;
  if (!seed) return undefined;
  const members = [...seed.files, ...(seed.boot.vendor ? [seed.boot.vendor] : [])];
  return members.length === paths.length && members.every((m) => paths.includes(m)) ? setResult(seed) : undefined;
}

/** Base names, or workspace-relative paths where two of the files share a base name. */
function displayNames(folders: string[], uris: string[], paths: Array<string | null>): string[] {
  const base = uris.map((u, i) => (paths[i] ? path.basename(paths[i]) : lastSegment(u)));
  return base.map((name, i) => {
    const file = paths[i];
    if (base.indexOf(name) === base.lastIndexOf(name) || !file) return name;
    const folder = folders.find((f) => file.startsWith(f + path.sep));
    return folder ? path.relative(folder, file).split(path.sep).join('/') : file;
  });
}

/** An untitled editor's or another scheme's name: the URI's last segment, decoded when it can be. */
function lastSegment(uri: string): string {
  const segment = uri.slice(uri.lastIndexOf('/') + 1).replace(/^untitled:/, '');
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
