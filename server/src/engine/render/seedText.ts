/**
 * A NoCloud seed folder previewed or checked as a set, in words: what NoCloud makes of its meta-data
 * (engine/seed/metaData.ts), that its user-data is laid over its vendor-data, and its network-config
 * beside them. The same lines in the preview's header (`seedSection`) and in `--check`'s text.
 */
import type { MetaDataReading } from '../seed/metaData';
import type { HeaderWriter } from './header';

export interface SeedSummary {
  folder: string;
  metaData: MetaDataReading;
  vendorData: boolean;
  networkConfig: boolean;
}

/** The lines (without comment marks): the first one what NoCloud makes of the seed. */
export function seedLines(seed: SeedSummary): string[] {
  const md = seed.metaData;
  const layers = seed.vendorData ? 'its user-data laid over its vendor-data (user-data wins key by key, as merged below)' : 'its user-data (no vendor-data)';
  const lines: string[] = [];
  if (md.error) lines.push(`NoCloud seed ${seed.folder}: NoCloud raises ${md.error} reading its meta-data: the datasource fails`);
  else if (md.notClaimed === 'dsmode-disabled') lines.push(`NoCloud seed ${seed.folder}: meta-data says dsmode: disabled, so NoCloud does not use this seed at all`);
  else if (md.notClaimed === 'seedfrom-remote') lines.push(`NoCloud seed ${seed.folder}: meta-data has a seedfrom NoCloud's local stage does not read: the network stage fetches the seed from there instead of using these files`);
  else if (md.seedfromLocal !== undefined) lines.push(`NoCloud seed ${seed.folder}: meta-data has seedfrom ${md.seedfromLocal}: NoCloud reads the seed from there instead of these files`);
  else {
    const id = md.instanceIdDefaulted ? `instance-id '${md.instanceId}' (the default: meta-data gives none)` : `instance-id '${md.instanceId}'`;
    const host = md.hostnameError ? 'a local-hostname that raises' : md.localHostname ? `hostname '${md.localHostname}'` : 'no hostname from meta-data';
    lines.push(`NoCloud seed ${seed.folder}: ${layers}; ${id}, ${host}, dsmode ${md.dsmode}`);
  }
  if (md.loadProblem) lines.push(`meta-data is read as empty (${md.loadProblem.message})`);
  if (seed.networkConfig) lines.push('network-config beside them: NoCloud hands it to the network stage (open it to check it)');
  return lines;
}

/** The preview header's seed lines. */
export function seedSection(w: HeaderWriter, seed: SeedSummary): void {
  seedLines(seed).forEach((line, i) => w.add(i ? `#   ${line}` : `# ${line}`));
}
