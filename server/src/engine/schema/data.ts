/**
 * The schema facts of each supported cloud-init, extracted by `scripts/schema/extract.py` (regenerate with
 * `node scripts/schema/regen.mjs`): cloud-init's own JSON schema without its prose, plus the exact
 * deprecation messages that version prints.
 */
import data224 from './data/22.4.json';
import dataCurrent from './data/current.json';
import type { SchemaNode } from './pyjsonschema';

export type SchemaVersion = '22.4' | 'current';

export interface SchemaData {
  'x-ccm': {
    cloudInitVersion: SchemaVersion;
    cloudInit: string;
    jsonschema: string;
    validatesChanged: boolean;
    deprecationInfoBoundary: string | null;
  };
  schema: SchemaNode;
}

export function schemaData(version: SchemaVersion): SchemaData {
  return (version === '22.4' ? data224 : dataCurrent) as unknown as SchemaData;
}
