/**
 * The top-level keys of system config (`/etc/cloud/cloud.cfg`, `cloud.cfg.d/*.cfg`) each cloud-init
 * version knows, and where its code reads each: extracted from that version by scripts/system/extract_keys.py
 * (data/systemKeys.json: the keys of its builtin config and of every rendered cloud.cfg variant, and a few a
 * drop-in often sets, each with the modules of `cloudinit/` that name it). For the hover and completion of a
 * drop-in's keys that cloud-init's schema does not describe (`datasource_list`, `def_log_file`...).
 */
import type { CloudInitVersion } from '../version/versions';

type SystemKeyData = Record<CloudInitVersion, Record<string, string[]>>;
let data: SystemKeyData | undefined;
const load = (): SystemKeyData => (data ??= require('./data/systemKeys.json') as SystemKeyData);

/** The system config keys of `version`, sorted. Keys whose name starts with `_` are cloud-init's internals and left out. */
export function systemConfigKeys(version: CloudInitVersion): string[] {
  return Object.keys(load()[version]).filter((k) => !k.startsWith('_')).sort();
}

/** The modules of `version`'s code that read `key` (paths like `cloudinit/stages.py`), or undefined when it is not a system config key of that version. */
export function systemKeyReaders(version: CloudInitVersion, key: string): string[] | undefined {
  const keys = load()[version];
  return Object.hasOwn(keys, key) && !key.startsWith('_') ? keys[key] : undefined;
}
