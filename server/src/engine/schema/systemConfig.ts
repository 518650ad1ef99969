/**
 * How cloud-init holds system configuration (`/etc/cloud/cloud.cfg`, `cloud.cfg.d/*.cfg`) to its schema,
 * per version, as read from each version's code (cmd/main.py `main_init`, config/schema.py) and checked with
 * the oracles (../shared/oracle: `oracle.py --mode confd|boot|schema`):
 *
 * - No version rejects system config, and no version validates a drop-in on its own: `read_conf_d` merges
 *   the files unchecked, and `cloud-init schema -c FILE` refuses a drop-in without a `#cloud-config` line
 *   (22.4: `needs to begin with "#cloud-config"`; later: `Expected first line to be one of ...`).
 * - 22.4 validates `init.cfg` at boot (the init stage, once user-data was stored): the merged system config
 *   with the datasource's, vendor-data's and user-data's laid over it, `system_info` removed
 *   (`_extract_cfg("restricted")`), non-strict. An error logs one WARNING that names no key ("Invalid
 *   cloud-config provided: Please run 'sudo cloud-init schema --system' to see the schema errors."); a
 *   deprecation logs "Deprecated cloud-config provided:" with its key and message.
 * - 23.4 and later validate only the instance's cloud-config.txt (user-data) at boot: a schema problem in
 *   system config is reported nowhere.
 * - Either way the modules read the value as written (`preserve_hostname: flase` is read by
 *   `get_cfg_option_bool`, which takes it for false).
 *
 * What is validated: the keys the schema describes. `system_info` is the system-config key by design
 * (23.4's schema rejects it, 24.2+ deprecate it for user-data and vendor-data; 22.4's boot check removes
 * it), and the other keys only system config carries (`datasource_list`, `def_log_file`, `log_cfgs`...) are
 * not in the schema at all: the schema's "unexpected key" is about user-data, never said of system config.
 */
import { PyDict } from '../py/values';
import { atLeast, type CloudInitVersion } from '../version/versions';
import { schemaData, type SchemaVersion } from './data';

/** The mapping validated for system config: `root` with only the top-level keys the schema describes (no `system_info`). */
export function systemConfigForSchema(root: PyDict, version: SchemaVersion): PyDict {
  const known = schemaData(version).schema.properties as Record<string, unknown> | undefined;
  const validated = (key: unknown) => key !== 'system_info' && (!known || (typeof key === 'string' && Object.prototype.hasOwnProperty.call(known, key)));
  if (root.keys().every(validated)) return root;
  const kept = new PyDict();
  for (const e of root.items()) if (validated(e.key)) kept.set(e.key, e.value, e.origin);
  return kept;
}

/** Where cloud-init says it, for a problem of this kind in system config: one sentence, in that version's words. */
export function systemSchemaVerdict(version: CloudInitVersion, deprecation: boolean): string {
  if (atLeast(version, '23.4')) {
    return 'cloud-init checks only user-data against its schema: in system config this is reported nowhere (no warning at boot), and the modules read the value as written';
  }
  return deprecation
    ? 'cloud-init 22.4 checks the merged config, system config included, at boot: its log says "Deprecated cloud-config provided" with this key'
    : "cloud-init 22.4 checks the merged config, system config included, at boot: its log only says \"Invalid cloud-config provided: Please run 'sudo cloud-init schema --system' to see the schema errors.\", and the modules read the value as written";
}
