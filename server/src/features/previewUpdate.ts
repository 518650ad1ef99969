/**
 * The `cloudConfigMerge/previewUpdate` request: the preview (`preview.ts`), answered with what changed
 * since the answer the client holds. The server keeps its last answer for each of the last few previews
 * (by the client's id); when the client's `base` is that answer's version, the answer is a delta
 * (`previewDelta.ts`), else the whole preview. A client that cannot apply a delta (it holds another
 * version) asks again without `base`.
 */
import { PreviewUpdateParams, PreviewUpdateRequest, PreviewUpdateResult, PreviewResult } from '../protocol';
import { diffPreview } from '../previewDelta';
import { ServerContext } from './common/context';
import { guardRequest } from './common/guard';
import { type PartSets } from '../sets/partSets';
import { preview } from './preview';

/** Previews whose last answer is kept (each is one preview's text and line map). */
export const KEPT_PREVIEWS = 4;

interface Held {
  version: number;
  result: PreviewResult;
}

/** The last answers, least recently used first. */
const helds = new WeakMap<ServerContext, Map<string, Held>>();
/** Versions differ between servers too, so that no delta is applied to another server's answer. */
let nextVersion = 1 + Math.floor(Math.random() * 1e9);

export function registerPreviewUpdate(ctx: ServerContext, sets?: PartSets): void {
  ctx.connection.onRequest(
    PreviewUpdateRequest.method,
    guardRequest(ctx.log, 'preview', (params: PreviewUpdateParams) => previewUpdate(ctx, params, sets)),
  );
}

export async function previewUpdate(ctx: ServerContext, params: PreviewUpdateParams, sets?: PartSets): Promise<PreviewUpdateResult> {
  const { id, base, ...rest } = params ?? ({} as PreviewUpdateParams);
  const result = await preview(ctx, rest, sets);
  const version = nextVersion++;
  if (typeof id !== 'string') return { version, result };
  const kept = helds.get(ctx) ?? helds.set(ctx, new Map()).get(ctx)!;
  const held = kept.get(id);
  kept.delete(id);
  kept.set(id, { version, result });
  while (kept.size > KEPT_PREVIEWS) kept.delete(kept.keys().next().value!);
  if (!held || held.version !== base) return { version, result };
  return { version, base, delta: diffPreview(held.result, result) };
}
