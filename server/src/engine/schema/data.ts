/**
 * The schema facts of each supported cloud-init, extracted by `scripts/schema/extract.py` (regenerate with
 * `node scripts/schema/regen.mjs`): cloud-init's own JSON schema without its prose, plus the exact
 * deprecation messages that version prints.
 */
import type { SchemaNode } from './pyjsonschema';
import type { CloudInitVersion } from '../version/versions';

/** The schema facts follow the one version type: every reproduced cloud-init has its own data file. */
export type SchemaVersion = CloudInitVersion;

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
// The literal paths let the bundler (scripts/bundle.mjs) see each file; only the chosen one is parsed.
type DataFiles = [typeof import('./data/22.4.json'), typeof import('./data/23.4.json'), typeof import('./data/24.4.json'), typeof import('./data/25.1.json'), typeof import('./data/current.json')];

const LOADERS: Readonly<Record<SchemaVersion, () => DataFiles[number]>> = {
  '22.4': () => require('./data/22.4.json') as DataFiles[0],
  '23.4': () => require('./data/23.4.json') as DataFiles[1],
  '24.4': () => require('./data/24.4.json') as DataFiles[2],
  '25.1': () => require('./data/25.1.json') as DataFiles[3],
  current: () => require('./data/current.json') as DataFiles[4],
};

/** Read on first use: most runs (the CLI without --check) never validate, and start-up need not build 80 KB of schema objects. */
export function schemaData(version: SchemaVersion): SchemaData {
  return LOADERS[version]() as unknown as SchemaData;
}
