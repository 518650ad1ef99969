/**
 * What a check is run against: the cloud-init of an image. An image profile (profiles.ts) names one;
 * `--cloud-init-version`, `--distro` and `--netplan` override its parts.
 */
import type { CloudInitVersion } from './versions';

/** How the host hands a v2 network-config on: no netplan, netplan's command only, or netplan's Python API. */
export const NETPLAN_HOSTS = ['none', 'cli', 'api'] as const;
export type NetplanHost = (typeof NETPLAN_HOSTS)[number];

/**
 * The netplan whose parser answers on the api host, as measured (scripts/netplan/probe.py): libnetplan 0.106
 * (Debian 12; the 0.10x of Ubuntu 22.04) or netplan 1.1 (Ubuntu 24.04 and later, Debian 13), which knows
 * keys 0.106 rejects and words some errors differently.
 */
export const NETPLAN_VERSIONS = ['0.106', '1.1'] as const;
export type NetplanVersion = (typeof NETPLAN_VERSIONS)[number];
/** The netplan of the default image (Ubuntu 24.04), when a target names none. */
export const DEFAULT_NETPLAN_VERSION: NetplanVersion = '1.1';

/** The Subiquity (Ubuntu's installer) snapshots reproduced: the installers of Ubuntu 24.04 and 26.04. */
export const SUBIQUITY_SNAPSHOTS = ['24.04', '26.04'] as const;
export type SubiquitySnapshot = (typeof SUBIQUITY_SNAPSHOTS)[number];

export interface Target {
  version: CloudInitVersion;
  /** `system_info.distro` as cloud-init names it (`ubuntu`, `debian`, `rhel`, ...). */
  distro: string;
  /** The cloud.cfg the image ships, as the name of the variant cloud-init's template renders (`ubuntu`, `rhel`...). */
  cloudCfgVariant: string;
  netplan: NetplanHost;
  /** The netplan the image ships (what the api host's parser is); DEFAULT_NETPLAN_VERSION when absent. */
  netplanVersion?: NetplanVersion;
  /** The installer of the image's release that reads autoinstall configs; absent for images without one. */
  subiquity?: SubiquitySnapshot;
}
