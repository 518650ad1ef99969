/**
 * A NoCloud seed's `meta-data` read as cloud-init's NoCloud datasource reads it in the local stage
 * (`DataSourceNoCloud._get_data`, `_merge_new_seed`, `DataSource.get_instance_id`, `get_hostname`,
 * `normalize_pubkey_data`), with no kernel command line, DMI serial or labelled disk: the seed folder only.
 * The same on every version the project reproduces (checked with the oracle's `netcheck.py --mode meta-data`
 * on 22.4, 23.4, 24.4, 25.1 and current: test/oracle/metadata.diff.ts); only log wording differs.
 *
 * - The file is loaded with `util.load_yaml` (safe_load; anything but a mapping is logged and read as
 *   nothing), merged into `{}` with `util.mergemanydict`, then NoCloud's defaults `instance-id: nocloud`
 *   and `dsmode: net` fill what is missing (mergemanydict again: the file's own keys win).
 * - `seedfrom` is looked at before anything else: one that starts with `/` or `file://` makes NoCloud read
 *   the seed from there instead; any other (http...) is left to the network stage, and the local stage
 *   does not claim the seed; one that is not a string raises.
 * - `dsmode` must be `disabled`, `local` or `net` (anything else is logged and `net` used); `disabled`
 *   means NoCloud does not claim the seed.
 * - The instance id is `str()` of `instance-id` (so `instance-id: null` is the id `None`); NoCloud does not
 *   require one: without it every instance gets `nocloud`. `instance_id` is just another key.
 * - The hostname (`get_hostname(metadata_only=True)`): none when `local-hostname` is falsy; an IPv4
 *   address becomes `ip-10-0-0-1`; otherwise the text before the first dot. A value that is not a string
 *   raises when a module asks for the hostname.
 */
import { PyBytes, PyDict, PySet, pyClassName, pyTruthy, type PyValue, type TextSpan } from '../py/values';
import { PyError } from '../py/errors';
import { pyStr } from '../py/repr';
import { pySplitLines } from '../py/str';
import { loadYaml, mergeExpansionError } from '../yaml/load';
import { LimitExceededError } from '../limits';
import { mergeMany } from '../system/mergemany';

/** The dsmodes `_determine_dsmode` accepts (sources.VALID_DSMODES as NoCloud passes it). */
const VALID_DSMODES = ['disabled', 'local', 'net'];
/** NoCloud's `supported_seed_starts`: a seed it reads itself. */
const LOCAL_SEED_STARTS = ['/', 'file://'];

export interface MetaDataReading {
  /** What `util.load_yaml` made of the file: a mapping, or null (empty, not YAML, not a mapping). */
  loaded: PyDict | null;
  /** Why the file counts as nothing ("Failed loading yaml blob..." in cloud-init's log), with where. */
  loadProblem?: { message: string; span?: TextSpan };
  /** Whether NoCloud's local stage uses this seed; null when it raises (`error`) or reads the seed elsewhere (`seedfromLocal`). */
  claimed: boolean | null;
  /** The exception cloud-init raises reading the seed, as Python prints it (`AttributeError: ...`). */
  error?: string;
  /** Why the seed is not claimed (a `seedfrom` left to the network stage, `dsmode: disabled`). */
  notClaimed?: 'seedfrom-remote' | 'dsmode-disabled';
  /** A `seedfrom` NoCloud itself follows (a path or `file://`): the seed is read from there instead, and nothing more is said. */
  seedfromLocal?: string;
  /** With a claim: the meta-data after NoCloud's defaults. */
  metadata?: PyDict;
  instanceId?: string;
  /** The file gives no `instance-id`: the id is NoCloud's default. */
  instanceIdDefaulted?: boolean;
  dsmode?: string;
  /** The `dsmode` written, when `_determine_dsmode` rejects it (its WARNING) and uses `net`. */
  invalidDsmode?: string;
  /** The hostname NoCloud gives (null: none in the meta-data); undefined when asking for it raises (`hostnameError`). */
  localHostname?: string | null;
  hostnameError?: string;
  publicSshKeys?: PyValue[];
}

/**
 * `meta-data` as NoCloud reads it from a seed folder (the same on every version: no version to choose).
 * Throws LimitExceededError (maxExpandedNodes) where reproducing the reading is over our limits: a
 * merge-key bomb (cloud-init never finishes loading it), or a value NoCloud `str()`s (`instance-id`,
 * `dsmode`) whose text would be longer than the limit (an alias bomb, a list of millions of items). The
 * message says which key.
 */
export function readMetaData(bytes: Uint8Array): MetaDataReading {
  const text = new TextDecoder().decode(bytes);
  const loaded = loadYaml(text);
  const expansion = mergeExpansionError(loaded);
  if (expansion) throw new LimitExceededError(expansion.limit, expansion.value, '', `meta-data: ${expansion.message}`);
  let parsed: PyDict | null = null;
  let loadProblem: MetaDataReading['loadProblem'];
  if (!loaded.ok) loadProblem = { message: `not YAML: ${loaded.error.message}`, span: loaded.error.span };
  else if (loaded.value instanceof PyDict) parsed = loaded.value;
  else if (loaded.value !== null) loadProblem = { message: `its top level is a ${pyClassName(loaded.value)}, not a mapping`, span: loaded.rootSpan ?? undefined };
  const reading: MetaDataReading = { loaded: parsed, claimed: null, ...(loadProblem ? { loadProblem } : {}) };
  try {
    const md = mergeMany([new PyDict(), parsed]).value;
    if (md.has('seedfrom')) {
      const seedfrom = md.get('seedfrom') as PyValue;
      if (typeof seedfrom !== 'string') throw startswithError(seedfrom);
      if (!LOCAL_SEED_STARTS.some((s) => seedfrom.startsWith(s))) {
        reading.claimed = false;
        reading.notClaimed = 'seedfrom-remote';
        return reading;
      }
      // NoCloud reads user-data, meta-data and vendor-data from there instead (read_seeded): not this file's say.
      reading.seedfromLocal = seedfrom;
      return reading;
    }
    const metadata = mergeMany([md, PyDict.from([['instance-id', 'nocloud'], ['dsmode', 'net']])]).value;
    const candidate = metadata.get('dsmode');
    let dsmode = 'net';
    if (candidate !== undefined && candidate !== null) {
      if (typeof candidate === 'string' && VALID_DSMODES.includes(candidate)) dsmode = candidate;
      else reading.invalidDsmode = strOfKey('dsmode', candidate);
    }
    if (dsmode === 'disabled') {
      reading.claimed = false;
      reading.notClaimed = 'dsmode-disabled';
      return reading;
    }
    reading.claimed = true;
    reading.metadata = metadata;
    reading.instanceId = metadata.has('instance-id') ? strOfKey('instance-id', metadata.get('instance-id') as PyValue) : 'iid-datasource';
    reading.instanceIdDefaulted = !(parsed?.has('instance-id') ?? false);
    reading.dsmode = dsmode;
    const host = hostnameOf(metadata.get('local-hostname'));
    if ('error' in host) reading.hostnameError = host.error;
    else reading.localHostname = host.hostname;
    reading.publicSshKeys = normalizePubkeyData(metadata.get('public-keys') ?? null);
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    reading.claimed = null;
    reading.error = `${e.pyType}: ${e.message}`;
  }
  return reading;
}

/** `str()` of a meta-data value NoCloud converts; over maxExpandedNodes characters, our limit naming the key. */
function strOfKey(key: string, value: PyValue): string {
  try {
    return pyStr(value);
  } catch (e) {
    if (!(e instanceof LimitExceededError)) throw e;
    const shared = e.message.includes('(shared references expanded)') ? ' (shared references expanded)' : '';
    const what = `meta-data's ${key} is a ${pyClassName(value)} whose str()${shared} would be longer than ${e.value} characters`;
    throw new LimitExceededError(e.limit, e.value, '', `${what}: over the limit ${e.limit} = ${e.value}`);
  }
}

/** `seedfrom.startswith(proto)` on something that is not a str. */
function startswithError(value: PyValue): PyError {
  if (value instanceof PyBytes) return new PyError('TypeError', 'startswith first arg must be bytes or a tuple of bytes, not str');
  return new PyError('AttributeError', `'${pyClassName(value)}' object has no attribute 'startswith'`);
}

/** `get_hostname(metadata_only=True).hostname` for the meta-data's `local-hostname`. */
function hostnameOf(lhost: PyValue | undefined): { hostname: string | null } | { error: string } {
  if (lhost === undefined || !pyTruthy(lhost)) return { hostname: null };
  if (typeof lhost !== 'string') {
    // ipaddress.IPv4Address takes an int (a bool is one) as an address: then `.replace` fails; anything else fails at `.split`.
    const asAddress = typeof lhost === 'bigint' ? lhost >= 0n && lhost < 2n ** 32n : typeof lhost === 'boolean';
    return { error: `AttributeError: '${pyClassName(lhost)}' object has no attribute '${asAddress ? 'replace' : 'split'}'` };
  }
  if (isIPv4Address(lhost)) return { hostname: `ip-${lhost.replace(/\./g, '-')}` };
  return { hostname: lhost.split('.')[0] };
}

/** Python's `ipaddress.IPv4Address(text)` accepts it: four decimal octets of 0-255, no leading zeros. */
export function isIPv4Address(text: string): boolean {
  const octets = text.split('.');
  if (octets.length !== 4) return false;
  return octets.every((o) => /^[0-9]{1,3}$/.test(o) && (o === '0' || o[0] !== '0') && Number(o) <= 255);
}

/** `normalize_pubkey_data`: the public keys NoCloud offers from `public-keys`. */
export function normalizePubkeyData(data: PyValue): PyValue[] {
  if (!pyTruthy(data)) return [];
  if (typeof data === 'string') return pySplitLines(data);
  if (Array.isArray(data)) return [...data];
  if (data instanceof PySet) return [...data.values()];
  if (data instanceof PyDict) {
    const keys: PyValue[] = [];
    for (const { value } of data.items()) {
      const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : value instanceof PySet ? [...value.values()] : null;
      if (list) for (const key of list) if (pyTruthy(key)) keys.push(key);
    }
    return keys;
  }
  return [];
}
