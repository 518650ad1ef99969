/**
 * The network-config JSON schemas of each cloud-init version, extracted by
 * `scripts/schema/extract_network.py` (regenerate with `node scripts/schema/regen-network.mjs`): facts
 * only, no description prose. 22.4 has none; 23.4 only v1; 24.4 and later v1 and v2.
 */
import type { SchemaNode } from './pyjsonschema';
import type { CloudInitVersion } from '../version/versions';

export type NetworkSchemaKind = 'v1' | 'v2';

interface NetworkData {
  versions: Record<CloudInitVersion, { cloudInit: string; v1: string | null; v2: string | null }>;
  schemas: Record<string, SchemaNode>;
}

// A type-only reference keeps the data file in the program (tsc copies it to out/); the value is required lazily.
type Data = typeof import('./data/network.json');

let data: NetworkData | undefined;

/** Read on first use: only a network-config needs it. */
function networkData(): NetworkData {
  return (data ??= require('./data/network.json') as Data as unknown as NetworkData);
}

/**
 * The schema `cloud-init schema -t network-config` of `version` validates a `kind` document with, and a
 * name for it that is the same object for the same schema (validators are cached by it); undefined when
 * that version has no such schema.
 */
export function networkSchema(version: CloudInitVersion, kind: NetworkSchemaKind): { id: string; schema: SchemaNode } | undefined {
  const d = networkData();
  const id = d.versions[version][kind];
  return id === null ? undefined : { id, schema: d.schemas[id] };
}

/** How hover and completion name a network-config schema (navigate.ts): `network:<id>`. */
export type NetworkSchemaSource = `network:${string}`;

export function networkSchemaSource(version: CloudInitVersion, kind: NetworkSchemaKind): NetworkSchemaSource | undefined {
  const found = networkSchema(version, kind);
  return found && `network:${found.id}`;
}

/** The schema a NetworkSchemaSource names. */
export function networkSchemaOf(source: NetworkSchemaSource): SchemaNode {
  const schema = networkData().schemas[source.slice('network:'.length)];
  if (!schema) throw new Error(`no network-config schema ${source}`);
  return schema;
}
