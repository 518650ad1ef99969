/**
 * What a check is run against: the cloud-init of an image. An image profile (profiles.ts) names one;
 * `--cloud-init-version`, `--distro` and `--netplan` override its parts.
 */
import type { CloudInitVersion } from './versions';

/** How the host hands a v2 network-config on: no netplan, netplan's command only, or netplan's Python API. */
export const NETPLAN_HOSTS = ['none', 'cli', 'api'] as const;
export type NetplanHost = (typeof NETPLAN_HOSTS)[number];

export interface Target {
  version: CloudInitVersion;
  /** `system_info.distro` as cloud-init names it (`ubuntu`, `debian`, `rhel`, ...). */
  distro: string;
  /** The cloud.cfg the image ships, as the name of the variant cloud-init's template renders (`ubuntu`, `rhel`...). */
  cloudCfgVariant: string;
  netplan: NetplanHost;
}
