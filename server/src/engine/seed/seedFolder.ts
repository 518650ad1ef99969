/**
 * A NoCloud seed folder as NoCloud takes it (`util.pathprefix2dict(path, required=["user-data",
 * "meta-data"], optional=["vendor-data", "network-config"])`): both required files or the folder is not
 * used at all (NoCloud moves on, and without another seed the instance boots with no datasource);
 * vendor-data and network-config when present. The files are named exactly so; an empty file counts.
 */
export const SEED_REQUIRED = ['user-data', 'meta-data'] as const;
export const SEED_OPTIONAL = ['vendor-data', 'network-config'] as const;
export type SeedFileName = (typeof SEED_REQUIRED)[number] | (typeof SEED_OPTIONAL)[number];

export interface SeedFolder {
  /** The folder as the user named it. */
  folder: string;
  /** The seed's files that exist, by name (paths as the caller gives them). */
  present: Partial<Record<SeedFileName, string>>;
  /** The required files that are missing: NoCloud does not use the folder. */
  missing: Array<(typeof SEED_REQUIRED)[number]>;
}

/** The seed folder `folder`, given which of its files exist (`exists(name)` returns its path, or undefined). */
export function seedFolder(folder: string, exists: (name: SeedFileName) => string | undefined): SeedFolder {
  const present: SeedFolder['present'] = {};
  for (const name of [...SEED_REQUIRED, ...SEED_OPTIONAL]) {
    const at = exists(name);
    if (at !== undefined) present[name] = at;
  }
  return { folder, present, missing: SEED_REQUIRED.filter((n) => present[n] === undefined) };
}

/** Why NoCloud does not use the folder, in words (undefined when it does). */
export function seedFolderProblem(seed: SeedFolder): string | undefined {
  if (!seed.missing.length) return undefined;
  return `${seed.folder} is not a seed NoCloud uses: it needs both user-data and meta-data (an empty file will do), and ${seed.missing.join(' and ')} ${seed.missing.length === 1 ? 'is' : 'are'} missing, so NoCloud skips the folder and, with no other datasource, the instance boots without this user-data`;
}

/**
 * What a seed NoCloud uses merges, as cloud-init merges it (boot mode): its user-data, laid over its
 * vendor-data (vendor-data is merged under user-data). Undefined for a folder NoCloud skips.
 */
export function seedMerge(seed: SeedFolder): { userData: string; vendorData?: string } | undefined {
  const userData = seed.present['user-data'];
  if (seed.missing.length || userData === undefined) return undefined;
  const vendorData = seed.present['vendor-data'];
  return { userData, ...(vendorData !== undefined ? { vendorData } : {}) };
}
