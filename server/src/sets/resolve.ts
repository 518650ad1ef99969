/**
 * The one resolver: what a run *is*, for every face. A request — a saved set of `cloud-config-merge.yaml`, a
 * NoCloud seed folder, a `cloud.cfg.d` folder, a lone MIME or archive, or files given by the user — becomes
 * one ResolvedRun: its mode, its inputs (user-data, vendor-data, drop-ins, cloud.cfg, the seed's meta-data and
 * network-config), its image and its options (include map, instance data). The CLI (`--set`, `--seed`, FILEs)
 * and the language server (a document's sets, the preview, the status item) both ask it, so they merge the same
 * files, in the same order, on the same image, with the same confinement: a file a run reads must resolve
 * inside the folders it may read (node/inside.ts; node/sets.ts and node/seed.ts apply it to set files and
 * seed files) unless the user allows more.
 *
 * Which image a run is checked on is decided here too (`runImage`): an image the user names for this request
 * (`--image`) over the set's own `image:`, the set's over the ambient default (`cloudConfigMerge.image`, the
 * default profile); engine/version/profiles.ts `resolveTarget` turns it into a version, distro and netplan.
 */
import * as path from 'node:path';
import type { SetMode } from '../engine/outcome/mode';
import type { PartSet } from '../engine/sets/setFile';
import { seedFolderProblem, seedMerge } from '../engine/seed/seedFolder';
import { type ResolvedSet, type SetReading } from '../node/sets';
import { readConfinedSeedFolder, type SeedConfinement } from '../node/seed';

/** A run, resolved: absolute paths in merge order, and what the run reads besides them. */
export interface ResolvedRun {
  mode: SetMode;
  /** Names in messages and in the merged text's provenance are relative to this folder. */
  folder: string;
  /** The user-data files (confd: the drop-ins; system: the layers), in merge order. */
  files: string[];
  /** The boot layers besides the user-data. */
  boot: { vendor?: string; vendor2?: string; cloudCfg?: string; dsConfig?: string; confd?: string[] };
  includeMap: Array<{ url: string; file: string }>;
  instanceData?: string;
  /** The run's own image (a set's `image:`); the request's or the ambient one otherwise (runImage). */
  image?: string;
  /** A NoCloud seed: its folder as written, and the files beside its user-data that are checked with it. */
  seed?: { folder: string; metaData?: string; networkConfig?: string };
  /** A lone MIME multipart or archive: a run of its own. */
  container?: true;
}

/** A saved set, resolved by node/sets.ts (its globs listed, its paths confined), as a run. */
export function savedSetRun(folder: string, resolved: ResolvedSet): ResolvedRun {
  const set: PartSet = resolved.set;
  return {
    mode: set.mode,
    folder,
    files: resolved.files,
    boot: resolved.boot,
    includeMap: resolved.includeMap,
    ...(resolved.instanceData ? { instanceData: resolved.instanceData } : {}),
    ...(set.image ? { image: set.image } : {}),
    ...(resolved.seed && set.seed ? { seed: { folder: set.seed, metaData: resolved.seed.present['meta-data'], networkConfig: resolved.seed.present['network-config'] } } : {}),
  };
}

/**
 * A NoCloud seed folder as the run cloud-init makes of it (boot mode): its user-data laid over its
 * vendor-data, its meta-data and network-config checked beside them. Only the seed files that resolve inside
 * the confinement's folders are read: each one left out is `refused`, in words. No run when NoCloud would not
 * use the folder (also `refused`) or its user-data or meta-data is left out.
 * @param shown the folder as the user wrote it (messages, the seed section)
 * @param folder the folder names are relative to
 */
export function seedRun(seedFolder: string, confine: SeedConfinement, shown: string, folder: string): { run?: ResolvedRun; refused: string[] } {
  const read = readConfinedSeedFolder(seedFolder, confine, shown);
  const problem = seedFolderProblem({ ...read.seed, folder: shown });
  const refused = [...(problem ? [problem] : []), ...read.refused];
  const merge = seedMerge(read.confined);
  const present = read.confined.present;
  if (problem || !merge || present['meta-data'] === undefined) return { refused };
  return {
    run: {
      mode: 'boot',
      folder,
      files: [merge.userData],
      boot: merge.vendorData ? { vendor: merge.vendorData } : {},
      includeMap: [],
      seed: { folder: shown, metaData: present['meta-data'], networkConfig: present['network-config'] },
    },
    refused,
  };
}

/** A `cloud.cfg.d` folder's drop-ins (`names`, sorted as cloud-init reads them), over its cloud.cfg when there is one. */
export function confdRun(confdFolder: string, names: readonly string[], cloudCfg: string | undefined): ResolvedRun {
  return { mode: 'confd', folder: path.dirname(confdFolder), files: names.map((n) => path.join(confdFolder, n)), boot: cloudCfg ? { cloudCfg } : {}, includeMap: [] };
}

/** A lone MIME multipart or archive: its parts merge with each other, a run of its own. */
export function containerRun(file: string): ResolvedRun {
  return { mode: 'user-data', folder: path.dirname(file), files: [file], boot: {}, includeMap: [], container: true };
}

/**
 * The image a run is checked on: the one the request names (`--image`), else the run's own (a set's
 * `image:`), else the ambient one (`cloudConfigMerge.image`, or undefined for the default profile).
 */
export function runImage(run: Pick<ResolvedRun, 'image'> | undefined, given: { requested?: string; ambient?: string }): string | undefined {
  return given.requested ?? run?.image ?? given.ambient;
}

/** Whether a run reads this file (absolute), as a user-data file or a boot layer. */
export function runReads(run: Pick<ResolvedRun, 'files' | 'boot'>, file: string): boolean {
  return run.files.includes(file) || Object.values(run.boot).flat().includes(file);
}

export type { SetReading };
