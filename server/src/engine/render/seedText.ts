/**
 * A NoCloud seed folder previewed or checked as a set, in words: what NoCloud makes of its meta-data
 * (engine/seed/metaData.ts), that its user-data is laid over its vendor-data, and its network-config
 * beside them. The same lines in the preview's header (`seedSection`) and in `--check`'s text.
 */
import type { MetaDataReading } from '../seed/metaData';
import type { HeaderWriter } from './header';
import { toCanonicalJson } from '../py/json';

export interface SeedSummary {
  folder: string;
  metaData: MetaDataReading;
  vendorData: boolean;
  networkConfig: boolean;
}

/**
 * What NoCloud makes of a meta-data file, in a few words: the id, hostname and dsmode it reads, or why it
 * does not use the seed. The one wording of a seed's line and of a meta-data FILE's line under --check.
 */
export function metaDataVerdict(md: MetaDataReading): string {
  if (md.error) return `NoCloud raises ${md.error} reading its meta-data: the datasource fails`;
  if (md.notClaimed === 'dsmode-disabled') return 'meta-data says dsmode: disabled, so NoCloud does not use this seed at all';
  if (md.notClaimed === 'seedfrom-remote') return "meta-data has a seedfrom NoCloud's local stage does not read: the network stage fetches the seed from there instead of using these files";
  if (md.seedfromLocal !== undefined) return `meta-data has seedfrom ${md.seedfromLocal}: NoCloud reads the seed from there instead of these files`;
  const id = md.instanceIdDefaulted ? `instance-id '${md.instanceId}' (the default: meta-data gives none)` : `instance-id ${shortened(md.instanceId ?? '')}`;
  const host = md.hostnameError ? 'a local-hostname that raises' : md.localHostname ? `hostname '${md.localHostname}'` : 'no hostname from meta-data';
  return `${id}, ${host}, dsmode ${md.dsmode}`;
}

/** Longest instance id written whole in a line. */
const MAX_SHOWN_ID = 200;

/** An instance id in quotes, or its start and its length when it is longer than MAX_SHOWN_ID. */
function shortened(id: string): string {
  if (id.length <= MAX_SHOWN_ID) return `'${id}'`;
  return `'${id.slice(0, MAX_SHOWN_ID)}'... (${id.length.toLocaleString('en-US')} characters)`;
}

/** The line a meta-data file that was read empty adds (undefined when it was read). */
function loadProblemLine(md: MetaDataReading): string | undefined {
  return md.loadProblem && `meta-data is read as empty (${md.loadProblem.message})`;
}

/** The lines (without comment marks): the first one what NoCloud makes of the seed. */
export function seedLines(seed: SeedSummary): string[] {
  const md = seed.metaData;
  const layers = seed.vendorData ? 'its user-data laid over its vendor-data (user-data wins key by key, as merged below)' : 'its user-data (no vendor-data)';
  const verdict = metaDataVerdict(md);
  const lines: string[] = [md.claimed ? `NoCloud seed ${seed.folder}: ${layers}; ${verdict}` : `NoCloud seed ${seed.folder}: ${verdict}`];
  const empty = loadProblemLine(md);
  if (empty) lines.push(empty);
  if (seed.networkConfig) lines.push('network-config beside them: NoCloud hands it to the network stage (open it to check it)');
  return lines;
}

/** How a FILE given to --check was known to be meta-data: its name (what NoCloud looks for), or `--type meta-data`. */
export type MetaDataFoundBy = 'name' | 'type';

/**
 * The lines of a meta-data FILE checked on its own (without comment marks): that it was read as NoCloud
 * reads a seed's meta-data, not as user-data, and what NoCloud makes of it.
 */
export function metaDataFileLines(file: string, md: MetaDataReading, by: MetaDataFoundBy): string[] {
  const how = by === 'name' ? 'named meta-data' : '--type meta-data';
  const lines = [`NoCloud meta-data ${file} (${how}): checked as NoCloud reads a seed's meta-data, not as user-data (cloud-init never merges it): ${metaDataVerdict(md)}`];
  const empty = loadProblemLine(md);
  if (empty) lines.push(empty);
  return lines;
}

/** What NoCloud makes of a meta-data file, as JSON (--check --format json): the reading's facts, and its line in words. */
export function metaDataJson(file: string, md: MetaDataReading, by: MetaDataFoundBy | 'seed'): Record<string, unknown> {
  return {
    file,
    foundBy: by,
    claimed: md.claimed,
    ...(md.error ? { error: md.error } : {}),
    ...(md.notClaimed ? { notClaimed: md.notClaimed } : {}),
    ...(md.seedfromLocal !== undefined ? { seedfrom: md.seedfromLocal } : {}),
    ...(md.loadProblem ? { readAsEmpty: md.loadProblem.message } : {}),
    ...(md.claimed
      ? {
          instanceId: md.instanceId,
          instanceIdDefaulted: md.instanceIdDefaulted,
          dsmode: md.dsmode,
          ...(md.invalidDsmode !== undefined ? { invalidDsmode: md.invalidDsmode } : {}),
          ...(md.hostnameError ? { hostnameError: md.hostnameError } : { localHostname: md.localHostname ?? null }),
          publicKeys: JSON.parse(toCanonicalJson(md.publicSshKeys ?? []).text) as unknown,
        }
      : {}),
    summary: metaDataVerdict(md),
  };
}

/** The preview header's seed lines. */
export function seedSection(w: HeaderWriter, seed: SeedSummary): void {
  seedLines(seed).forEach((line, i) => w.add(i ? `#   ${line}` : `# ${line}`));
}
