/**
 * Who can read a value of the user-data on a booted instance: one table, each fact with its source. The
 * cloud's metadata service is per cloud (`cloudConfigMerge.cloud`, `--cloud`); what cloud-init itself keeps
 * is the same on every cloud. A value a later part replaces is still in the blob, so it is read just the same.
 */
import type { CloudName } from '../delivery/limits';

export interface Reader {
  /** Who, and how, in words for a message. */
  text: string;
  /** Where the fact comes from (cloud-init's code, or the provider's documentation). */
  source: string;
}

/** What cloud-init keeps of the user-data on every cloud (the same in 22.4, 23.4, 24.4, 25.1 and current). */
export const KEPT_BY_CLOUD_INIT: readonly Reader[] = [
  { text: 'root, in /var/lib/cloud/instance/user-data.txt (the blob as delivered, mode 0600)', source: 'cloudinit/stages.py, Init._store_rawdata: write_file(..., 0o600)' },
  { text: 'root, with `cloud-init query userdata` (other users get it redacted)', source: 'cloudinit/cmd/query.py, _read_instance_data' },
];

/** The metadata service (or disk) each cloud serves the user-data from. */
export const METADATA_SERVICE: Readonly<Record<CloudName, Reader>> = {
  aws: {
    text: 'any process on the instance, from the instance metadata service (http://169.254.169.254/latest/user-data: one GET with IMDSv1; with IMDSv2 after a PUT for a session token, which any local process can make)',
    source: 'AWS EC2 User Guide, "Instance metadata and user data" and "Use the Instance Metadata Service to access instance metadata" (IMDSv2)',
  },
  azure: {
    text: 'root, in /var/lib/waagent/ovf-env.xml (mode 0600; Azure does not serve customData from its instance metadata service)',
    source: 'cloudinit/sources/DataSourceAzure.py, write_files(..., mode=0o600); Microsoft Learn, "Custom data and cloud-init on Azure Virtual Machines"',
  },
  gcp: {
    text: 'any process on the instance, from the metadata server (http://metadata.google.internal/computeMetadata/v1/instance/attributes/user-data with the header Metadata-Flavor: Google)',
    source: 'Google Cloud documentation, "About VM metadata"',
  },
  openstack: {
    text: 'any process on the instance, from the metadata service (http://169.254.169.254/openstack/latest/user_data), and root from the config drive when there is one',
    source: 'OpenStack Nova documentation, "Metadata" (metadata service and config drive)',
  },
  hetzner: {
    text: 'any process on the instance, from the metadata service (http://169.254.169.254/hetzner/v1/userdata)',
    source: 'Hetzner Cloud documentation, "Server metadata"',
  },
  digitalocean: {
    text: 'any process on the instance, from the metadata service (http://169.254.169.254/metadata/v1/user-data)',
    source: 'DigitalOcean documentation, "Metadata API"',
  },
  oracle: {
    text: 'any process on the instance, from the instance metadata service (http://169.254.169.254/opc/v2/instance/metadata/user_data, with the header Authorization: Bearer Oracle)',
    source: 'Oracle Cloud Infrastructure documentation, "Getting Instance Metadata"',
  },
};

/** When no cloud is chosen. */
export const ANY_METADATA_SERVICE: Reader = {
  text: "any process on the instance, on most clouds, from the cloud's metadata service (choose the cloud to see which)",
  source: 'the per-cloud rows of METADATA_SERVICE',
};

/** Where a value goes beyond the user-data itself, by the key that holds it. */
export const WRITTEN_BY_MODULE = {
  runcmd: {
    text: 'root, in /var/lib/cloud/instance/scripts/runcmd (mode 0700), and every local user, in the process list while a command runs with it as an argument',
    source: 'cloudinit/config/cc_runcmd.py: write_file(out_fn, content, 0o700); /proc/PID/cmdline is world-readable unless /proc is mounted with hidepid',
  },
  bootcmd: {
    text: 'every local user, in the process list while a command runs with it as an argument',
    source: '/proc/PID/cmdline is world-readable unless /proc is mounted with hidepid',
  },
  lxdTrustPassword: {
    text: "root and the log file's group (adm on Ubuntu, whose default user is in it), in /var/log/cloud-init.log (mode 0640): cloud-init logs the `lxd init --trust-password=...` command it runs",
    source: 'cloudinit/config/cc_lxd.py handle_init_cfg: subp.subp(cmd) without logstring; cloudinit/subp.py: LOG.debug("Running command %s ..."); cloudinit/stages.py: the log file gets mode 0o640 and the owner of syslog_fix_perms',
  },
  mergedConfig: {
    text: 'root, in /var/lib/cloud/instance/cloud-config.txt (the merged cloud-config, mode 0600)',
    source: 'cloudinit/handlers/cloud_config.py: write_file(self.cloud_fn, ..., 0o600)',
  },
} as const satisfies Record<string, Reader>;

/** The sentence every secret finding ends with: who reads the value once the instance has booted. */
export function exposureSentence(cloud: CloudName | undefined, extra: readonly Reader[] = []): string {
  const readers = [cloud ? METADATA_SERVICE[cloud] : ANY_METADATA_SERVICE, ...KEPT_BY_CLOUD_INIT, ...extra];
  return `Who reads it on the booted instance: ${readers.map((r) => r.text).join('; ')}. A later part that replaces this value does not remove it: the user-data keeps it.`;
}
