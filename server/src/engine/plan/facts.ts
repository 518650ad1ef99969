/**
 * The boot-plan facts of each cloud-init version, extracted by `scripts/plan/extract.py` from that version's
 * own code and rendered cloud.cfg files (regenerate with `node scripts/plan/regen.mjs`): module metas,
 * renamed and removed modules, and the module lists of every cloud.cfg variant. Read on first use, one
 * version at a time: an editor or CLI run that never asks for a plan never parses them.
 */
import type { CloudInitVersion } from '../version/versions';
import type { Target } from '../version/target';
import { cloudCfgVariantFor } from '../version/profiles';

export interface ModuleMeta {
  /** `meta["frequency"]`: once-per-instance, always or once. */
  frequency: string;
  /** `meta["distros"]`; `[allDistros]` for every distro. */
  distros: string[];
  /** `meta["activate_by_schema_keys"]`, sorted; empty when the module always runs. */
  activate: string[];
}

/** The system config one cloud.cfg variant gives (builtin config + that cloud.cfg), as far as a plan reads it. */
export interface VariantFacts {
  /** `system_info.distro` the cloud.cfg names. */
  distro: string | null;
  /** `system_info.default_user.name`: the user `default` in `users` stands for. */
  defaultUser: string | null;
  /** Index in `keySets` of its top-level keys. */
  keys: number;
  /** Index in `lists` of the value of each key a plan reads (the module lists, unverified_modules, merge specs). */
  values: Record<string, number>;
}

export interface PlanFacts {
  version: string;
  /** `cloud-init --version` of the tree the facts come from. */
  cloudInit: string;
  frequencies: string[];
  allDistros: string;
  removed: string[];
  renamed: Record<string, string>;
  modules: Record<string, ModuleMeta>;
  /** Top-level key -> the modules whose schema or activation names it. */
  keyModules: Record<string, string[]>;
  /** The builtin config (`settings.CFG_BUILTIN`), under a cloud.cfg the user gives. */
  builtin: { keys: number; values: Record<string, number> };
  lists: unknown[];
  keySets: string[][];
  variants: Record<string, VariantFacts>;
}

// Type-only references keep the data files in the program, so tsc copies them to out/ beside facts.js;
// the values are still required lazily below.
type D224 = typeof import('./data/22.4.json');
type D234 = typeof import('./data/23.4.json');
type D244 = typeof import('./data/24.4.json');
type D251 = typeof import('./data/25.1.json');
type DCurrent = typeof import('./data/current.json');

const LOADERS: Record<CloudInitVersion, () => unknown> = {
  '22.4': () => require('./data/22.4.json') as D224,
  '23.4': () => require('./data/23.4.json') as D234,
  '24.4': () => require('./data/24.4.json') as D244,
  '25.1': () => require('./data/25.1.json') as D251,
  current: () => require('./data/current.json') as DCurrent,
};

export function planFacts(version: CloudInitVersion): PlanFacts {
  return LOADERS[version]() as PlanFacts;
}

/** The cloud.cfg variant a distribution package of Debian 12 ships (22.4 only): its own /etc/cloud. */
export const DEBIAN_PACKAGE_VARIANT = 'debian-package';

/**
 * The cloud.cfg an image of `distro` has, by default, for a version: for 22.4 and Debian the Debian package's
 * own; else the variant of the distro's name, else of its OS family (`cloudCfgVariantFor`).
 * Undefined when the version renders none for it.
 */
export function defaultCloudCfgVariant(version: CloudInitVersion, distro: string): string | undefined {
  const facts = planFacts(version);
  if (distro === 'debian' && facts.variants[DEBIAN_PACKAGE_VARIANT]) return DEBIAN_PACKAGE_VARIANT;
  const variant = cloudCfgVariantFor(version, distro);
  return variant !== undefined && Object.hasOwn(facts.variants, variant) ? variant : undefined;
}

/** The cloud.cfg variants a version has, sorted. */
export function cloudCfgVariants(version: CloudInitVersion): string[] {
  return Object.keys(planFacts(version).variants).sort();
}

/** The distro a plan is made for when nothing names one (no `--distro`, no image profile). */
export const DEFAULT_PLAN_DISTRO = 'ubuntu';

/**
 * The target of a plan from a version and a distro, with the distro's default cloud.cfg (the netplan host
 * is not read by a plan); a sentence when the version has no cloud.cfg for the distro.
 */
export function planTarget(version: CloudInitVersion, distro: string = DEFAULT_PLAN_DISTRO): Target | string {
  const variant = defaultCloudCfgVariant(version, distro);
  if (variant === undefined) return `cloud-init ${version} renders no cloud.cfg for distro '${distro}' or its family (it has ${cloudCfgVariants(version).join(', ')}); give --cloud-cfg FILE`;
  return { version, distro, cloudCfgVariant: variant, netplan: 'none' };
}
