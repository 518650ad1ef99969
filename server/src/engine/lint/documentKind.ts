/**
 * Which documents are ours (and how cloud-init will read them). Other YAML
 * files get nothing from us, so Red Hat's YAML extension keeps them.
 */
import { pyLStrip } from '../py/str';
import { looksLikeChefFile } from '../chef/files';

export type DocumentKind =
  | 'cloud-config'
  | 'cloud-config-archive'
  | 'cloud-config-jsonp'
  | 'jinja'
  | 'mime'
  | 'include'
  | 'confd'
  | 'cloud-cfg'
  | 'chef';

export interface DocumentInfo {
  kind: DocumentKind;
  /** For jinja templates: what the rendered text will be. */
  renderedKind?: 'cloud-config' | 'cloud-config-archive' | 'unknown';
}

const MIME_SNIFF = /^(?:mime-version\s*:|content-type\s*:\s*multipart\/)/im;

/** `path` is a file-system path or URI path; `languageId` the editor's language. */
export function detectDocument(text: string, path: string, languageId = 'yaml'): DocumentInfo | null {
  const head = text.slice(0, 4096);
  if (MIME_SNIFF.test(head) && /^[\w-]+\s*:/m.test(head.split(/\r?\n\r?\n/, 1)[0] ?? '')) return { kind: 'mime' };
  const normalized = path.replace(/\\/g, '/');
  if (/(^|\/)cloud\.cfg\.d\/[^/]+\.cfg$/.test(normalized)) return { kind: 'confd' };
  if (/(^|\/)cloud\.cfg$/.test(normalized)) return { kind: 'cloud-cfg' };
  if (languageId === 'json' || /\.json$/i.test(normalized)) return looksLikeChefFile(text) ? { kind: 'chef' } : null;
  // Everything else must be language yaml: users keep Red Hat's YAML extension beside ours.
  if (languageId !== 'yaml') return null;
  const start = pyLStrip(text).toLowerCase();
  if (start.startsWith('## template: jinja')) {
    const rest = start.slice(start.indexOf('\n') + 1).trimStart();
    const renderedKind = rest.startsWith('#cloud-config-archive') ? 'cloud-config-archive' : rest.startsWith('#cloud-config') ? 'cloud-config' : 'unknown';
    return renderedKind === 'unknown' ? null : { kind: 'jinja', renderedKind };
  }
  if (start.startsWith('#cloud-config-archive')) return { kind: 'cloud-config-archive' };
  if (start.startsWith('#cloud-config-jsonp')) return { kind: 'cloud-config-jsonp' };
  if (start.startsWith('#cloud-config')) return { kind: 'cloud-config' };
  if (start.startsWith('#include')) return { kind: 'include' };
  return null;
}
