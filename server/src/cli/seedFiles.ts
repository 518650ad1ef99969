/**
 * The one rule for "this FILE is a NoCloud seed file, not user-data": a seed's meta-data (a file named
 * meta-data, or `--type meta-data`) or its network-config (named network-config or network-config.yaml,
 * YAML whose top level is a network config, or `--type network-config`). cloud-init never merges either
 * into user-data: `--check` reads each as NoCloud does (metaData.ts, and main.ts's networkFiles for
 * network-config), and the modes that speak of user-data (a merge, `--plan`, the JSON, report and preview,
 * `--check --image`, `--check --annotate`) refuse them in words instead of dropping them as unhandled parts.
 */
import { detectCloudInitDocument, detectionTextOfBytes, isNetworkConfigName } from '../../../common/detect';
import type { SetInputs } from '../engine/outcome/run';
import type { MetaDataFoundBy } from '../engine/render/seedText';
import { UsageError, type CliOptions } from './args';

/** The modes whose FILEs are user-data: there a seed's other files are given by mistake. */
const USER_DATA_MODES: ReadonlyArray<CliOptions['mode']> = ['user-data', 'handler', 'boot'];

/** A FILE that is a seed file other than user-data, and how it is known to be one. */
export type SeedFile = { kind: 'meta-data'; by: MetaDataFoundBy } | { kind: 'network-config'; by: 'name' | 'content' | 'type' };

/**
 * What the FILE is when it is a seed's meta-data or network-config, or undefined (user-data, merged as such).
 * A network-config is found by its name or content where FILEs are user-data parts (user-data and boot modes):
 * a handler-mode FILE is a cloud-config part's payload, which cloud-init merges whatever it holds.
 */
export function seedFileOf(o: CliOptions, path: string, bytes: Uint8Array): SeedFile | undefined {
  if (o.type === 'meta-data' && !USER_DATA_MODES.includes(o.mode)) throw new UsageError(`--type meta-data reads FILEs given as user-data (the user-data, handler and boot modes), not ${o.mode} FILEs`);
  if (o.type === 'meta-data' || o.type === 'network-config') return { kind: o.type, by: 'type' };
  if (o.type === 'autoinstall') return undefined;
  if (!USER_DATA_MODES.includes(o.mode)) return undefined;
  const kind = detectCloudInitDocument(detectionTextOfBytes(bytes), path)?.kind;
  if (kind === 'meta-data') return { kind, by: 'name' };
  if (kind === 'network-config' && o.mode !== 'handler') return { kind, by: isNetworkConfigName(path) ? 'name' : 'content' };
  return undefined;
}

/** How the refusals name the way a FILE was found. */
function how(file: SeedFile): string {
  if (file.by === 'type') return `--type ${file.kind}`;
  return file.by === 'name' ? `it is named ${file.kind}` : 'its top level is a network config';
}

/** The first FILE that is a seed file other than user-data, with its path. */
function firstSeedFile(o: CliOptions, inputs: SetInputs & { paths: string[] }): { path: string; file: SeedFile } | undefined {
  for (const [i, f] of inputs.files.entries()) {
    const path = inputs.paths[i] ?? f.name;
    const file = seedFileOf(o, path, f.bytes);
    if (file) return { path, file };
  }
  return undefined;
}

/** A merge, `--plan` or the preview: a FILE that is meta-data or network-config is refused, said in the user's terms. */
export function refuseSeedFiles(o: CliOptions, inputs: SetInputs & { paths: string[] }): void {
  const found = firstSeedFile(o, inputs);
  if (!found) return;
  const { path, file } = found;
  if (file.kind === 'meta-data') {
    throw new UsageError(
      `${path} is a NoCloud seed's meta-data (${how(file)}), not user-data: cloud-init never merges it. ` +
        `See what NoCloud makes of it with --check ${path}, or give its seed folder with --seed DIR (its user-data merged, its meta-data read beside it)`,
    );
  }
  throw new UsageError(
    `${path} is a network-config (${how(file)}), not user-data: cloud-init never merges network-config into user-data, its network stage reads it. ` +
      `Validate it with --check ${path} (--check --type network-config reads any FILE as one), or give its seed folder with --seed DIR (its user-data merged, its network-config beside it)`,
  );
}

/** `--check --image` and `--check --annotate` speak of user-data only: a FILE that is meta-data or network-config is refused with them. */
export function refuseSeedFilesInCheck(o: CliOptions, inputs: SetInputs & { paths: string[] }): void {
  if (!o.images && !o.annotate) return;
  const found = firstSeedFile(o, inputs);
  if (!found) return;
  const { path, file } = found;
  const what = file.kind === 'meta-data' ? 'NoCloud meta-data' : 'a network-config';
  if (o.images) {
    if (file.kind === 'meta-data') throw new UsageError(`--image ${o.image} gives each image's verdict on user-data; NoCloud reads meta-data the same way on every version: check ${path} without --image`);
    throw new UsageError(`--image ${o.image} gives each image's verdict on user-data: ${path} is a network-config (${how(file)}); check it for one image at a time: --check --image ID ${path}`);
  }
  throw new UsageError(`--annotate prints user-data with its problems: ${path} is ${what}, check it without --annotate`);
}
