/**
 * The one place the plan narrows the five versions to the two the merge engine's spec parser knows today
 * (engine/spec/parse.ts): releases before 23.4 read specs as 22.4 does, later ones as today's cloud-init.
 * Goes away once the spec parser takes every version of versions.ts.
 */
import type { CloudInitVersion as SpecVersion } from '../spec/parse';
import type { CloudInitVersion } from '../version/versions';

export function specVersion(version: CloudInitVersion): SpecVersion {
  return version === '22.4' ? '22.4' : 'current';
}
