/**
 * Subiquity's facts per snapshot, extracted by `scripts/autoinstall/extract.py` from canonical/subiquity
 * (GPL-3/AGPL-3: facts only, no text): the controllers in `SubiquityServer.controllers` order with their
 * autoinstall key, alias and default, the base schema, each section's schema without its prose, the
 * keyboard layouts and variants of `kbds/C.jsonl`, the reserved user names, and which load-time checks the
 * snapshot's code has. `timezones.json` is tzdata's Zone and Link names, as `timedatectl list-timezones`
 * lists them on the live installer.
 */
import type { CloudInitVersion } from '../version/versions';
import { SUBIQUITY_SNAPSHOTS, type SubiquitySnapshot } from '../version/target';

/** The Subiquity snapshots the check reproduces: the installers of Ubuntu 24.04 and 26.04. */
export const SUBIQUITY_PROFILES = SUBIQUITY_SNAPSHOTS;
export type SubiquityProfile = SubiquitySnapshot;

export type JsonSchema = { [key: string]: unknown };

export interface Controller {
  /** The controller's class name without `Controller` (`Identity`, `TimeZone`). */
  name: string;
  key: string | null;
  alias: string | null;
  default: unknown;
}

export interface SubiquityFacts {
  'x-ccm': { profile: SubiquityProfile; subiquity: string; commit: string; liveCloudInit: CloudInitVersion };
  controllers: Controller[];
  base: JsonSchema;
  sections: Record<string, JsonSchema>;
  keyboard: Record<string, string[]>;
  reserved: string[];
  defaultGroups: string[];
  checks: { usernames: boolean; groups: boolean; keyboard: boolean };
}

// Type-only references keep the data files in the program (tsc copies them); the literal paths let the bundler see them.
type DataFiles = [typeof import('./data/subiquity-24.04.json'), typeof import('./data/subiquity-26.04.json'), typeof import('./data/timezones.json')];

const LOADERS: Readonly<Record<SubiquityProfile, () => unknown>> = {
  '24.04': () => require('./data/subiquity-24.04.json') as DataFiles[0],
  '26.04': () => require('./data/subiquity-26.04.json') as DataFiles[1],
};

const loaded = new Map<SubiquityProfile, SubiquityFacts>();

/** The facts of one snapshot, read on first use. */
export function subiquityFacts(profile: SubiquityProfile): SubiquityFacts {
  let f = loaded.get(profile);
  if (!f) {
    f = LOADERS[profile]() as SubiquityFacts;
    loaded.set(profile, f);
  }
  return f;
}

let zones: ReadonlySet<string> | undefined;
/** The time zone names the live installer's `timedatectl list-timezones` lists. */
export function timezoneNames(): ReadonlySet<string> {
  zones ??= new Set((require('./data/timezones.json') as DataFiles[2]).zones);
  return zones;
}

/** Every top-level key Subiquity reads: each controller's key and alias, and the base schema's keys. */
export function autoinstallKeys(facts: SubiquityFacts): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const c of facts.controllers) {
    if (c.key !== null) keys.add(c.key);
    if (c.alias !== null) keys.add(c.alias);
  }
  for (const k of Object.keys((facts.base.properties ?? {}))) keys.add(k);
  return keys;
}

export function parseSubiquityProfile(text: string): SubiquityProfile | undefined {
  return (SUBIQUITY_PROFILES as readonly string[]).includes(text) ? (text as SubiquityProfile) : undefined;
}
