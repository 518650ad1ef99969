/**
 * Where Jinja help applies in a document: everywhere in a document cloud-init renders with Jinja
 * (a `## template: jinja` part, a templated cloud.cfg.d file), and inside the template parts (`## template: jinja` bodies) of a MIME multipart.
 */
import { isJinjaTemplate } from '../../engine/userdata/templater';
import type { DocumentState } from './analysisCache';

export function inTemplate(state: DocumentState, offset: number): boolean {
  const info = state.analysis.info;
  if (info?.template) return true;
  if (info?.kind !== 'mime') return false;
  return (state.analysis.mime?.leaves ?? []).some((leaf) => leaf.span && offset >= leaf.span.start && offset <= leaf.span.end && leaf.text !== null && isJinjaTemplate(leaf.text));
}
