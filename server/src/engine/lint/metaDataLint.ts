/**
 * Findings of a NoCloud `meta-data` file: what NoCloud makes of it (engine/seed/metaData.ts), said where
 * it is written. The file has no schema in cloud-init: only what NoCloud reads and what it ignores.
 */
import { PyDict, type PyValue, type TextSpan } from '../py/values';
import { pyStr } from '../py/repr';
import { coded } from '../findings/codes';
import type { Finding } from '../findings/findings';
import { LimitExceededError } from '../limits';
import { readMetaData, type MetaDataReading } from '../seed/metaData';

/** Keys NoCloud never reads, and the key they were meant to be. */
const MEANT: Readonly<Record<string, string>> = {
  instance_id: 'instance-id',
  instanceid: 'instance-id',
  'instance-ID': 'instance-id',
  local_hostname: 'local-hostname',
  hostname: 'local-hostname',
  'local-host-name': 'local-hostname',
  public_keys: 'public-keys',
  'public-key': 'public-keys',
  public_ssh_keys: 'public-keys',
  network_interfaces: 'network-interfaces',
  seed_from: 'seedfrom',
  'seed-from': 'seedfrom',
  ds_mode: 'dsmode',
};

/**
 * The findings, and the reading (null when reproducing it is over one of our limits: the one finding says
 * which, and `limit` is that limit's message).
 */
export function metaDataFindings(text: string): { findings: Finding[]; reading: MetaDataReading | null; limit?: string } {
  const firstLine: TextSpan = { start: 0, end: Math.max(0, text.search(/\r|\n|$/)) };
  let reading: MetaDataReading;
  try {
    reading = readMetaData(new TextEncoder().encode(text));
  } catch (e) {
    if (!(e instanceof LimitExceededError)) throw e;
    return { findings: [{ ...coded('limit-exceeded'), span: firstLine, message: `Not read as NoCloud reads it: ${e.message.replace(/\.?$/, '.')}` }], reading: null, limit: e.message };
  }
  const findings: Finding[] = [];
  const md = reading.loaded;
  const keySpan = (key: string): TextSpan => md?.originOf(key)?.key ?? firstLine;
  const valueSpan = (key: string): TextSpan => md?.originOf(key)?.value ?? keySpan(key);
  const defaultId = "every instance seeded this way gets the same id 'nocloud', so a machine cloned from one that already booted is no new instance to cloud-init: its per-instance modules (users, SSH keys, runcmd...) do not run again";

  if (reading.loadProblem) {
    findings.push({ ...coded('meta-data-unread'), span: reading.loadProblem.span ?? firstLine, message: `cloud-init logs "Failed loading yaml blob" and reads this meta-data as empty (${reading.loadProblem.message}): ${defaultId}.` });
  }
  if (md) {
    for (const key of md.keys()) {
      if (typeof key !== 'string' || !(key in MEANT) || md.has(MEANT[key])) continue;
      const meant = MEANT[key];
      const why = meant === 'instance-id' ? `, so ${defaultId}` : '';
      const span = keySpan(key);
      findings.push({
        ...coded('meta-data-ignored-key'),
        span,
        message: `NoCloud reads ${meant}, not ${key}: this key is ignored${why}.`,
        fixes: text.slice(span.start, span.end) === key ? [{ title: `Change to '${meant}'`, edits: [{ span, newText: meant }], preferred: true }] : undefined,
      });
    }
  }
  if (reading.error) {
    const span = md?.has('seedfrom') ? valueSpan('seedfrom') : firstLine;
    findings.push({ ...coded('meta-data-fails'), span, message: `NoCloud raises ${reading.error} reading this seed: the datasource fails.` });
    return { findings, reading };
  }
  if (reading.notClaimed === 'seedfrom-remote') {
    findings.push({ ...coded('meta-data-not-used'), span: valueSpan('seedfrom'), message: `NoCloud's local stage only reads seeds at a path or file:// URL: it does not use this seed, and the network stage (NoCloud-net) fetches user-data and meta-data from ${pyStr(md?.get('seedfrom') ?? null)} instead (not reproduced here).` });
    return { findings, reading };
  }
  if (reading.seedfromLocal !== undefined) {
    findings.push({ ...coded('meta-data-seedfrom'), span: valueSpan('seedfrom'), message: `NoCloud reads user-data, meta-data and vendor-data from ${reading.seedfromLocal} instead of this folder (its meta-data merged under this file's keys): the seed there is not checked here.` });
    return { findings, reading };
  }
  if (reading.invalidDsmode !== undefined) {
    findings.push({ ...coded('meta-data-dsmode'), span: valueSpan('dsmode'), message: `cloud-init logs "invalid dsmode '${reading.invalidDsmode}', using default=net": dsmode is disabled, local or net (lower case).` });
  }
  if (reading.notClaimed === 'dsmode-disabled') {
    findings.push({ ...coded('meta-data-not-used'), span: valueSpan('dsmode'), message: 'dsmode: disabled: NoCloud does not claim this seed, so none of its files (user-data, vendor-data, network-config) is used.' });
    return { findings, reading };
  }
  if (reading.claimed && reading.instanceIdDefaulted && !findings.some((f) => f.code === 'meta-data-ignored-key' || f.code === 'meta-data-unread')) {
    findings.push({ ...coded('meta-data-default-id'), span: firstLine, message: `No instance-id: NoCloud does not require one, but ${defaultId}.` });
  }
  if (reading.hostnameError) {
    findings.push({ ...coded('meta-data-fails'), span: valueSpan('local-hostname'), message: `local-hostname must be a string: cloud-init raises ${reading.hostnameError} when a module (set_hostname, update_hostname, update_etc_hosts) asks for the hostname.` });
  } else if (typeof reading.localHostname === 'string' && md) {
    const written = md.get('local-hostname');
    if (typeof written === 'string' && written !== reading.localHostname) {
      const how = reading.localHostname === `ip-${written.replace(/\./g, '-')}` ? 'an IPv4 address made into a name' : 'the text before the first dot (the rest is the domain)';
      findings.push({ ...coded('meta-data-hostname'), span: valueSpan('local-hostname'), message: `The hostname NoCloud gives is '${reading.localHostname}': ${how}.` });
    }
  }
  const keys = md?.get('public-keys');
  if (md?.has('public-keys') && !keysAllUsed(keys ?? null, reading.publicSshKeys ?? [])) {
    findings.push({ ...coded('meta-data-public-keys'), span: valueSpan('public-keys'), message: `NoCloud offers ${reading.publicSshKeys?.length ?? 0} public key${reading.publicSshKeys?.length === 1 ? '' : 's'} from this value: public-keys is a string (one key a line), a list, or a mapping of names to a key or a list of keys; empty entries and values of other types give no usable key.` });
  }
  return { findings, reading };
}

/** Whether every key written in `public-keys` is offered (nothing dropped by normalize_pubkey_data). */
function keysAllUsed(written: PyValue, offered: PyValue[]): boolean {
  if (written === null || written === '') return true;
  if (typeof written === 'string') return true;
  if (Array.isArray(written)) return written.every((k) => typeof k === 'string' && k !== '');
  if (written instanceof PyDict) {
    let count = 0;
    for (const { value } of written.items()) {
      if (typeof value === 'string') count += value ? 1 : 0;
      else if (Array.isArray(value)) count += value.length;
      else return false;
    }
    return count === offered.length;
  }
  return offered.length > 0;
}
