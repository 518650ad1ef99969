/** Hover and completion text for a key of cloud-init's schema: facts of the schema, cloud-init's own notes. */
import { describeTypes, enumValues, notesOf, type NavSegment, type SchemaView } from '../../engine/schema/navigate';
import type { SchemaVersion } from '../../engine/schema/data';
import { KEY_DOCS } from '../../engine/schema/keyDocs';

const versionLabel = (version: SchemaVersion): string => (version === 'current' ? 'current cloud-init' : `cloud-init ${version}`);

export function pathLabel(path: NavSegment[]): string {
  return path.map((s) => (typeof s === 'string' ? s : '[]')).join('.').replace(/\.\[\]/g, '[]');
}

export function schemaKeyMarkdown(version: SchemaVersion, path: NavSegment[], view: SchemaView): string {
  const key = path[path.length - 1];
  const lines: string[] = [];
  const where = path.length > 1 ? ` in \`${pathLabel(path.slice(0, -1))}\`` : '';
  lines.push(`**${typeof key === 'string' ? key : 'item'}**${where}${view.module ? ` (module \`${view.module}\`)` : ''}`);
  const doc = path.length === 1 && typeof key === 'string' ? KEY_DOCS[key] : undefined;
  if (doc) lines.push(doc);
  const types = describeTypes(view);
  if (types) lines.push(`Type: \`${types}\``);
  const values = enumValues(view).filter((v) => typeof v !== 'boolean');
  if (values.length) lines.push(`Values: ${values.map((v) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``).join(', ')}`);
  const notes = notesOf(view);
  if (notes.length) lines.push(`${versionLabel(version)} says:\n\n${notes.map((n) => `> ${n.replace(/\n+/g, ' ')}`).join('\n>\n')}`);
  return lines.join('\n\n');
}
