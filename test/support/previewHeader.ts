/** Reading a preview's header in tests: its lines, and its sentences with wrapped lines joined again. */
import { PREVIEW_BODY_MARKER, unwrapHeader } from '../../server/src/engine/render/previewText';

/** The header's lines, the body marker included. */
export function header(text: string): string[] {
  const lines = text.split('\n');
  return lines.slice(0, lines.indexOf(PREVIEW_BODY_MARKER) + 1);
}

/** The header with wrapped lines joined again, for matching sentences. */
export function unwrapped(text: string): string {
  return header(unwrapHeader(text)).join('\n');
}

/** The whole text with wrapped header lines joined again (the body, cloud-init's own text, as it is). */
export function unwrappedText(text: string): string {
  return unwrapHeader(text);
}
