/**
 * Which documents are ours (and how cloud-init will read them). Other YAML
 * files get nothing from us, so Red Hat's YAML extension keeps them. The
 * decision itself is common/detect.ts, the one the VS Code client makes too;
 * here it gets what only the server adds: whether a system file is a template.
 */
import { DocumentKind, detectCloudInitDocument } from '../../../../common/detect';
import { configFileIsTemplate } from '../userdata/templater';

export type { DocumentKind } from '../../../../common/detect';

export interface DocumentInfo {
  kind: DocumentKind;
  /** For jinja templates: what the rendered text will be. */
  renderedKind?: 'cloud-config' | 'cloud-config-archive';
  /**
   * cloud-init hands the document to Jinja: a user-data Jinja part, or a system config file whose
   * first line is a template header (read_conf renders it when instance data exists).
   */
  template?: true;
}

/** `path` is a file-system path or URI path; `languageId` the editor's language. */
export function detectDocument(text: string, path: string, languageId = 'yaml'): DocumentInfo | null {
  const found = detectCloudInitDocument(text, path, languageId);
  if (!found) return null;
  switch (found.kind) {
    case 'confd':
    case 'cloud-cfg':
      // A system config file: read_conf renders it when its first line is a template header.
      return configFileIsTemplate(text) ? { kind: found.kind, template: true } : { kind: found.kind };
    case 'jinja':
      return { kind: 'jinja', renderedKind: found.renderedKind, template: true };
    default:
      return { kind: found.kind };
  }
}
