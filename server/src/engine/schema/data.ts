/**
 * The schema facts of each supported cloud-init, extracted by `scripts/schema/extract.py` (regenerate with
 * `node scripts/schema/regen.mjs`): cloud-init's own JSON schema without its prose, plus the exact
 * deprecation messages that version prints.
 */
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

// Type-only references keep the data files in the program, so tsc copies them to out/ beside data.js;
// the values are still required lazily below.
type Data224 = typeof import('./data/22.4.json');
type DataCurrent = typeof import('./data/current.json');

/** Read on first use: most runs (the CLI without --check) never validate, and start-up need not build 80 KB of schema objects. */
export function schemaData(version: SchemaVersion): SchemaData {
  return (version === '22.4' ? (require('./data/22.4.json') as Data224) : (require('./data/current.json') as DataCurrent)) as unknown as SchemaData;
}
