/** Hover and completion text for a key of cloud-init's schema: facts of the schema, cloud-init's own notes. */
import { describeTypes, enumValues, notesOf, type NavSegment, type SchemaSource, type SchemaView } from '../../engine/schema/navigate';
import type { SchemaVersion } from '../../engine/schema/data';
import { KEY_DOCS } from '../../engine/schema/keyDocs';
import { networkSchemaForText } from '../../engine/network/kind';

const versionLabel = (version: SchemaVersion): string => (version === 'current' ? 'current cloud-init' : `cloud-init ${version}`);

export function pathLabel(path: NavSegment[]): string {
  return path.map((s) => (typeof s === 'string' ? s : '[]')).join('.').replace(/\.\[\]/g, '[]');
}

export function schemaKeyMarkdown(version: SchemaSource, path: NavSegment[], view: SchemaView): string {
  const network = version.startsWith('network:');
  const key = path[path.length - 1];
  const lines: string[] = [];
  const where = path.length > 1 ? ` in \`${pathLabel(path.slice(0, -1))}\`` : '';
  lines.push(`**${typeof key === 'string' ? key : 'item'}**${where}${view.module ? ` (module \`${view.module}\`)` : ''}`);
  const doc = !network && path.length === 1 && typeof key === 'string' ? KEY_DOCS[key] : undefined;
  if (doc) lines.push(doc);
  const types = describeTypes(view);
  if (types) lines.push(`Type: \`${types}\``);
  const values = enumValues(view).filter((v) => typeof v !== 'boolean');
  if (values.length) lines.push(`Values: ${values.map((v) => `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``).join(', ')}`);
  const notes = notesOf(view);
  if (notes.length) lines.push(`${network ? 'cloud-init' : versionLabel(version as SchemaVersion)} says:\n\n${notes.map((n) => `> ${n.replace(/\n+/g, ' ')}`).join('\n>\n')}`);
  return lines.join('\n\n');
}

/**
 * The schema hover and completion read a document with: cloud-init's cloud-config schema for a
 * cloud-config (or a template of one), the network-config schema its version declares for a
 * network-config (engine/network/kind), none for other kinds or when the schema check is off.
 */
export function documentSchema(kind: string | undefined, text: string, version: SchemaVersion, enabled: boolean): SchemaSource | null {
  if (!enabled) return null;
  if (kind === 'cloud-config' || kind === 'jinja') return version;
  if (kind === 'network-config') return networkSchemaForText(text, version) ?? null;
  return null;
}
