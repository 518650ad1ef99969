/**
 * Which documents are ours (and how cloud-init will read them). Other YAML
 * files get nothing from us, so Red Hat's YAML extension keeps them.
 */
import { pyLStrip } from '../py/str';
import { looksLikeChefFile } from '../chef/files';
import { sniffContentType } from '../userdata/sniff';
import { configFileIsTemplate, isJinjaPart } from '../userdata/templater';

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
  /**
   * cloud-init hands the document to Jinja: a user-data Jinja part, or a system config file whose
   * first line is a template header (read_conf renders it when instance data exists).
   */
  template?: true;
}

/** A system config file: read_conf renders it when its first line is a template header. */
function systemFile(kind: 'confd' | 'cloud-cfg', text: string): DocumentInfo {
  return configFileIsTemplate(text) ? { kind, template: true } : { kind };
}

const MIME_SNIFF = /^(?:mime-version\s*:|content-type\s*:\s*multipart\/)/im;

/** `path` is a file-system path or URI path; `languageId` the editor's language. */
export function detectDocument(text: string, path: string, languageId = 'yaml'): DocumentInfo | null {
  const head = text.slice(0, 4096);
  if (MIME_SNIFF.test(head) && /^[\w-]+\s*:/m.test(head.split(/\r?\n\r?\n/, 1)[0] ?? '')) return { kind: 'mime' };
  const normalized = path.replace(/\\/g, '/');
  if (/(^|\/)cloud\.cfg\.d\/[^/]+\.cfg$/.test(normalized)) return systemFile('confd', text);
  if (/(^|\/)cloud\.cfg$/.test(normalized)) return systemFile('cloud-cfg', text);
  if (languageId === 'json' || /\.json$/i.test(normalized)) return looksLikeChefFile(text) ? { kind: 'chef' } : null;
  // Everything else must be language yaml: users keep Red Hat's YAML extension beside ours.
  if (languageId !== 'yaml') return null;
  if (isJinjaPart(text)) {
    // What the rendered part will announce, guessed from the unrendered text after the header line.
    const lstripped = pyLStrip(text);
    const afterHeader = lstripped.slice(lstripped.indexOf('\n') + 1);
    const renderedType = sniffContentType(afterHeader);
    const renderedKind = renderedType === 'text/cloud-config-archive' ? 'cloud-config-archive' : renderedType === 'text/cloud-config' ? 'cloud-config' : 'unknown';
    return renderedKind === 'unknown' ? null : { kind: 'jinja', renderedKind, template: true };
  }
  const start = pyLStrip(text).toLowerCase();
  if (start.startsWith('#cloud-config-archive')) return { kind: 'cloud-config-archive' };
  if (start.startsWith('#cloud-config-jsonp')) return { kind: 'cloud-config-jsonp' };
  if (start.startsWith('#cloud-config')) return { kind: 'cloud-config' };
  if (start.startsWith('#include')) return { kind: 'include' };
  return null;
}
