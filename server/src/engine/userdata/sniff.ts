/** Content sniffing by prefix (spec §3.2 step 3): a pure, case-insensitive prefix test, shared with the client (common/detect.ts). */
import { JINJA_CONTENT_TYPE, typeFromStartsWith } from '../../../../common/detect';

export { CONTENT_TYPES_BY_PREFIX, JINJA_CONTENT_TYPE } from '../../../../common/detect';

/**
 * `type_from_starts_with`: the content type a payload announces, or
 * `fallback`. Bytes that are not valid UTF-8 never match.
 */
export function sniffContentType(payload: string | Uint8Array, fallback: string | null = null): string | null {
  let text: string;
  if (typeof payload === 'string') text = payload;
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload);
    } catch {
      return fallback;
    }
  }
  return typeFromStartsWith(text) ?? fallback;
}

/**
 * The type a MIME leaf is handled as: its declared type, except that a `text/plain` or
 * `text/x-shellscript` leaf is sniffed (as cloud-init's user-data processing does).
 */
export function leafPartType(leaf: { contentType: string; text: string | null; payload: Uint8Array }): string {
  if (leaf.contentType !== 'text/plain' && leaf.contentType !== 'text/x-shellscript') return leaf.contentType;
  return sniffContentType(leaf.text ?? leaf.payload) ?? leaf.contentType;
}

export const CLOUD_CONFIG_TYPE = 'text/cloud-config';
export const JSONP_TYPE = 'text/cloud-config-jsonp';
export const ARCHIVE_TYPE = 'text/cloud-config-archive';
export const JINJA_TYPE = JINJA_CONTENT_TYPE;
export const INCLUDE_TYPES = new Set(['text/x-include-url', 'text/x-include-once-url']);
export const NOT_MULTIPART_TYPE = 'text/x-not-multipart';
export const SHELL_TYPES = new Set(['text/x-shellscript', 'text/x-shellscript-per-boot', 'text/x-shellscript-per-instance', 'text/x-shellscript-per-once']);
export const GZIP_TYPES = new Set([
  'application/gzip',
  'application/gzip-compressed',
  'application/gzipped',
  'application/x-compress',
  'application/x-compressed',
  'application/x-gunzip',
  'application/x-gzip',
  'application/x-gzip-compressed',
]);
