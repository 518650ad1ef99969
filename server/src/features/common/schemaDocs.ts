/** Hover and completion text for a key of cloud-init's schema: facts of the schema, cloud-init's own notes. */
import { describeTypes, enumValues, notesOf, type NavSegment, type SchemaSource, type SchemaView } from '../../engine/schema/navigate';
import type { SchemaVersion } from '../../engine/schema/data';
import { KEY_DOCS } from '../../engine/schema/keyDocs';
import { networkSchemaForText } from '../../engine/network/kind';
import { systemConfigKeys, systemKeyReaders } from '../../engine/plan/systemKeys';
import { versionInWords } from '../../engine/version/versions';

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
  // System config (cloud.cfg, a cloud.cfg.d drop-in) holds cloud-config keys too: the modules read them from the merged config.
  if (kind === 'cloud-config' || kind === 'jinja' || isSystemKind(kind)) return version;
  if (kind === 'network-config') return networkSchemaForText(text, version) ?? null;
  return null;
}

/** A system config file: `/etc/cloud/cloud.cfg` or a `cloud.cfg.d` drop-in. */
export function isSystemKind(kind: string | undefined): boolean {
  return kind === 'confd' || kind === 'cloud-cfg';
}

/** cloud-init's own page on system config keys, where it documents them. */
export const BASE_CONFIG_DOCS = 'https://docs.cloud-init.io/en/latest/reference/base_config_reference.html';

/** Readers named in a hover, the others counted (`datasource` is read by every datasource). */
const MAX_READERS = 3;

/**
 * A top-level key of system config that cloud-init's schema does not describe (`datasource_list`,
 * `def_log_file`...): what it is, in our words, and where the version's code reads it (engine/plan/systemKeys).
 * Undefined when it is not a system config key of that version.
 */
export function systemKeyMarkdown(version: SchemaVersion, key: string): string | undefined {
  const readers = systemKeyReaders(version, key);
  if (!readers) return undefined;
  const lines = [`**${key}** (system config: cloud.cfg and cloud.cfg.d)`];
  const doc = KEY_DOCS[key];
  if (doc) lines.push(doc);
  // The core's readers first: a datasource's own reading of a key says less about it.
  const shown = [...readers.filter((r) => !/\/sources\/DataSource/.test(r)), ...readers.filter((r) => /\/sources\/DataSource/.test(r))];
  if (shown.length) {
    const more = shown.length > MAX_READERS ? ` and ${shown.length - MAX_READERS} more` : '';
    lines.push(`Read by cloud-init ${versionInWords(version)} in ${shown.slice(0, MAX_READERS).map((r) => `\`${r}\``).join(', ')}${more}.`);
  }
  lines.push(`Not checked by cloud-init's schema. cloud-init documents system config keys in its [base configuration reference](${BASE_CONFIG_DOCS}).`);
  return lines.join('\n\n');
}

/** The system config keys a drop-in's top level may have that the schema does not describe, for completion. */
export function systemOnlyKeys(version: SchemaVersion, schemaKeys: ReadonlySet<string>): string[] {
  return systemConfigKeys(version).filter((k) => !schemaKeys.has(k));
}
