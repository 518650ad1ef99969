/**
 * Where Jinja help applies in a document: everywhere in a `## template: jinja` document, and inside
 * the template parts (`## template: jinja` bodies) of a MIME multipart.
 */
import { isJinjaTemplate } from '../../engine/userdata/templater';
import type { DocumentState } from './analysisCache';

export function inTemplate(state: DocumentState, offset: number): boolean {
  const kind = state.analysis.info?.kind;
  if (kind === 'jinja') return true;
  if (kind !== 'mime') return false;
  return (state.analysis.mime?.leaves ?? []).some((leaf) => leaf.span && offset >= leaf.span.start && offset <= leaf.span.end && leaf.text !== null && isJinjaTemplate(leaf.text));
}
