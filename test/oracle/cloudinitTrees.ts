/**
 * Where the differential suites find the two cloud-init versions the project supports (installed by
 * `bash ../shared/oracle/setup.sh` and `setup.sh --upstream`); the environment overrides them.
 */
export type CloudInitVersion = '22.4' | 'current';

export const CLOUDINIT_TREES: Record<CloudInitVersion, string> = {
  '22.4': process.env.CLOUDINIT_PATH ?? '/opt/cloudinit-oracle/usr/lib/python3/dist-packages',
  current: process.env.CLOUDINIT_UPSTREAM_PATH ?? '/opt/cloudinit-upstream',
};
