/**
 * The top-level meta-data keys NoCloud reads, and which of its methods read each (data/metaDataKeys.json,
 * extracted from each version's cloud-init by scripts/seed/extract.py: never written by hand), with our
 * words for what each of those reads is for. The editor's hover and completion on a `meta-data` file use them.
 */
import type { CloudInitVersion } from '../version/versions';

type Data = typeof import('./data/metaDataKeys.json');
let data: Data | undefined;

/** Key -> the methods of `DataSourceNoCloud` (as Python resolves them) that read it, on that version. */
export function metaDataKeyReaders(version: CloudInitVersion): Readonly<Record<string, readonly string[]>> {
  data ??= require('./data/metaDataKeys.json') as Data;
  return data[version];
}

/**
 * What a read is for, by `Class.method key` where one method reads several keys, else by `Class.method`.
 * A method the data names and this table does not is shown by its name only (a test keeps them in step).
 */
const READ_WORDS: Readonly<Record<string, string>> = {
  'DataSource.get_instance_id': 'the instance id (`str()` of the value): when it changes, cloud-init takes the machine for a new instance and runs its per-instance modules again',
  'DataSource.get_hostname': 'the hostname given to the modules that ask for one (set_hostname, update_hostname, update_etc_hosts): the text before the first dot, or `ip-a-b-c-d` for an IPv4 address; a value that is not a string raises',
  'DataSource.get_public_ssh_keys': 'the public SSH keys offered to the default user: a string (one key a line), a list, or a mapping of names to a key or a list of keys',
  'DataSource.launch_index': 'the launch index: user-data parts that name another launch index are dropped',
  'DataSource.availability_zone': 'the availability zone (instance data `v1.availability_zone`): `availability-zone`, else `availability_zone`, else `availability-zone` under `placement`',
  'DataSource.region': 'the region (instance data `v1.region`)',
  'DataSource.cloud_name': 'the cloud name (instance data `v1.cloud_name`), lower-cased, when it is a string',
  'DataSourceNoCloud._get_data dsmode': 'the boot stage that uses the seed: `local`, `net` (the default; any other value is logged and `net` used) or `disabled` (the seed is not used)',
  'DataSourceNoCloud._get_data seedfrom': 'where the seed is read from instead: a path or `file://` URL is read in the local stage; any other URL is left to the network stage',
  'DataSourceNoCloud._get_data network-interfaces': 'an ENI text (`/etc/network/interfaces` syntax) made into the network config when the seed has no network-config',
};

/** Our words for one method's read of `key` (undefined when there are none). */
export function readWords(method: string, key: string): string | undefined {
  return READ_WORDS[`${method} ${key}`] ?? READ_WORDS[method];
}

/** Every reader's words, for the test that keeps READ_WORDS in step with the data. */
export const READ_WORD_NAMES: readonly string[] = Object.keys(READ_WORDS);
