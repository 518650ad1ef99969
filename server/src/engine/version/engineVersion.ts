/**
 * TEMPORARY: the one place a version of versions.ts is narrowed to the two the engine reproduces today
 * (spec/parse.ts `CloudInitVersion`). Deleted, with its callers passing the version through, when the
 * engine reproduces every version of CLOUD_INIT_VERSIONS.
 */
import type { CloudInitVersion as EngineVersion } from '../spec/parse';
import type { CloudInitVersion } from './versions';

/** 22.4 stays 22.4; 23.4, 24.4 and 25.1 are run as current until the engine reproduces them. */
export function engineVersion(version: CloudInitVersion): EngineVersion {
  return version === '22.4' ? '22.4' : 'current';
}
