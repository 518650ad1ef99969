/**
 * Image profiles: the cloud-init an image runs, as one table. Each profile names the release the image
 * ships, the reproduced version it maps to (versions.ts), the distro `system_info.distro` names, the
 * cloud.cfg variant cloud-init's template renders for it, and the netplan host, with where each fact was
 * read and what could not be checked. `resolveTarget` combines a profile with the overrides
 * (`--cloud-init-version`, `--distro`, a netplan host); `knownDistros` are the names each version's
 * cloudinit/distros defines (data/distros.json, made by scripts/version/extract-distros.py).
 */
import { nearest } from '../findings/findings';
import type { NetplanHost, NetplanVersion, SubiquitySnapshot, Target } from './target';
import { CLOUD_INIT_VERSIONS, type CloudInitVersion } from './versions';

export interface ImageProfile {
  id: string;
  label: string;
  /** The reproduced version this image is checked against. */
  version: CloudInitVersion;
  /** The cloud-init package the image ships (what `cloud-init --version` prints there), as read in `sources`. */
  ships: string;
  distro: string;
  cloudCfgVariant: string;
  netplan: NetplanHost;
  /** The netplan the image ships, as the measured parser that answers for it (api host only). */
  netplanVersion?: NetplanVersion;
  /** Where the facts were read: distribution package pages, release notes. */
  sources: readonly string[];
  /** How the shipped release maps onto the reproduced version, when it is not the same release. */
  mapped?: string;
  /** What could not be verified. */
  unverified?: string;
  /** The Subiquity of the release's install images (autoinstall), with the cloud-init of its live system. */
  subiquity?: SubiquitySnapshot;
}

const UBUNTU_MAPPED = 'ships 26.1 through updates (SRU): checked against current (26.2), the nearest reproduced; what changed between 26.1 and 26.2 is not told apart';

/** Every profile, oldest distribution release first within a distribution. */
export const IMAGE_PROFILES: readonly ImageProfile[] = [
  {
    id: 'debian-12',
    label: 'Debian 12 (bookworm)',
    version: '22.4',
    ships: '22.4.2 (22.4.2-1+deb12u4)',
    distro: 'debian',
    cloudCfgVariant: 'debian',
    netplan: 'none',
    sources: ['https://packages.debian.org/bookworm/cloud-init'],
    unverified: "Debian's package ships its own /etc/cloud/cloud.cfg, not the template's debian variant (compared: it keeps apt sources, names the default user debian, lists no ansible module); the variant is the nearest rendered file",
  },
  {
    id: 'debian-13',
    label: 'Debian 13 (trixie)',
    version: '25.1',
    ships: '25.1.4 (25.1.4-1+deb13u1)',
    distro: 'debian',
    cloudCfgVariant: 'debian',
    netplan: 'none',
    sources: ['https://packages.debian.org/trixie/cloud-init', 'https://sources.debian.org/src/cloud-init/25.1.4-1+deb13u1/'],
    unverified: "the package version was read in second-hand records (a project citing sources.debian.org, a Debian derivative's tags), not on packages.debian.org itself; Debian's own cloud.cfg not compared with the variant",
  },
  {
    id: 'rhel-8',
    label: 'Red Hat Enterprise Linux 8.10',
    version: '23.4',
    ships: '23.4 (cloud-init-23.4-7.el8_10)',
    distro: 'rhel',
    cloudCfgVariant: 'rhel',
    netplan: 'none',
    sources: ['https://gitlab.com/redhat/centos-stream/src/cloud-init/-/merge_requests/62', 'https://access.redhat.com/documentation/en-us/red_hat_enterprise_linux/8/html/configuring_and_managing_cloud-init_for_rhel_8/'],
    mapped: "Red Hat's 23.4 carries downstream patches and backports; checked against upstream 23.4.4",
    unverified: "the 8.10 package version was read from RHEL 8.10 rebuilds (Rocky Linux 23.4-7.el8_10.0.1, Oracle Linux 23.4-7.0.4.el8_10), not on Red Hat's pages; the rebase to 23.4 (RHEL-18313) does not say which stream it is for; Red Hat's cloud.cfg (its package patches the rhel variant) not compared",
  },
  {
    id: 'rhel-9',
    label: 'Red Hat Enterprise Linux 9.6 and later',
    version: '24.4',
    ships: '24.4 (cloud-init-24.4-7.el9_7)',
    distro: 'rhel',
    cloudCfgVariant: 'rhel',
    netplan: 'none',
    sources: ['https://gitlab.com/redhat/centos-stream/src/cloud-init/-/merge_requests/118'],
    mapped: "RHEL 9.0 to 9.5 shipped older releases (9.4 and 9.5: 23.4, as rhel-8 checks); c9s was rebased to 24.4 for rhel9 (a Red Hat QE test names 9.6). Red Hat's 24.4 reverts upstream's single-process boot and carries downstream patches; checked against upstream 24.4.1",
    unverified: "9.6 as the first release with 24.4 was read in a QE test's comment and records of installed systems (24.4-7.el9_7.1), not in Red Hat's release notes; Red Hat's cloud.cfg not compared",
  },
  {
    id: 'rhel-10',
    label: 'Red Hat Enterprise Linux 10',
    version: '24.4',
    ships: '24.4 (cloud-init-24.4-3.el10, 24.4-7.el10_0)',
    distro: 'rhel',
    cloudCfgVariant: 'rhel',
    netplan: 'none',
    sources: ['https://vault.almalinux.org/10.0/AppStream/x86_64_v2/os/Packages/', 'https://gitlab.com/redhat/centos-stream/src/cloud-init/-/merge_requests/74'],
    mapped: 'CentOS Stream 10 started on 24.1.4 (merge request 74); RHEL 10.0 ships 24.4; checked against upstream 24.4.1',
    unverified: "the versions were read in records of installed RHEL 10.0 systems and AlmaLinux 10.0's package, not in Red Hat's release notes; Red Hat's cloud.cfg not compared",
  },
  {
    id: 'ubuntu-22.04',
    label: 'Ubuntu 22.04 LTS (jammy), updated',
    version: 'current',
    ships: '26.1 (26.1-0ubuntu1~22.04.1 in jammy-updates)',
    distro: 'ubuntu',
    cloudCfgVariant: 'ubuntu',
    netplan: 'api',
    // jammy-updates' netplan.io 0.107.1 is checked with the measured 0.106 (the nearest measured netplan)
    netplanVersion: '0.106',
    sources: ['https://packages.ubuntu.com/source/jammy-updates/cloud-init', 'https://packages.ubuntu.com/jammy-updates/python3-netplan', 'https://cloudinit.readthedocs.io/en/latest/reference/ubuntu_stable_release_updates.html'],
    mapped: UBUNTU_MAPPED,
    unverified: "netplan: jammy-updates has netplan.io 0.107.1 with python3-netplan (netplan's Python API; the release pocket's 0.106.1 has none), but that the image installs python3-netplan (a dependency of netplan.io) was not seen: an image built without updates has the netplan command only (cli)",
  },
  {
    id: 'ubuntu-24.04',
    label: 'Ubuntu 24.04 LTS (noble), updated',
    version: 'current',
    ships: '26.1 (26.1-0ubuntu1~24.04.1 in noble-updates)',
    distro: 'ubuntu',
    cloudCfgVariant: 'ubuntu',
    netplan: 'api',
    // netplan 1.x (1.0 at release, 1.1 through updates): checked with the measured 1.1.2 of Debian 13
    netplanVersion: '1.1',
    // the installer of 24.04.3+ ISOs: Subiquity tag 24.04.4.1, its live system runs cloud-init 25.1
    subiquity: '24.04',
    sources: ['https://packages.ubuntu.com/source/noble-updates/cloud-init', 'https://packages.ubuntu.com/noble-updates/netplan.io', 'https://cloudinit.readthedocs.io/en/latest/reference/ubuntu_stable_release_updates.html'],
    mapped: UBUNTU_MAPPED,
    unverified: "netplan: which 1.x release noble-updates carries now was not read here; it is checked with Debian 13's netplan 1.1.2 (measured), and what differs between 1.x releases is not told apart",
  },
  {
    id: 'ubuntu-26.04',
    label: 'Ubuntu 26.04 LTS (resolute), updated',
    version: 'current',
    ships: '26.1 (26.1-0ubuntu3~26.04.1 in resolute-updates)',
    distro: 'ubuntu',
    cloudCfgVariant: 'ubuntu',
    netplan: 'api',
    // netplan 1.x (the 1.1 measured; later 1.x releases not told apart)
    netplanVersion: '1.1',
    // the installer of 26.04: Subiquity tag 26.04.1 (the same load and validation code as main)
    subiquity: '26.04',
    sources: ['https://packages.ubuntu.com/source/resolute-updates/cloud-init'],
    mapped: UBUNTU_MAPPED,
    unverified: "netplan: resolute's netplan.io page was not seen (25.10's and 24.04's netplan.io depend on python3-netplan)",
  },
  {
    id: 'raspios-13',
    label: 'Raspberry Pi OS (trixie, Debian 13 based)',
    version: 'current',
    ships: "cloud-init with Raspberry Pi's rpi-cloud-init-mods (pi-gen's stage2 installs both)",
    distro: 'raspberry-pi-os',
    cloudCfgVariant: 'raspberry-pi-os',
    netplan: 'api',
    sources: [
      'https://github.com/RPi-Distro/pi-gen/blob/311cb500fed760bb2ed55ed377c52cb8051464c5/stage2/04-cloud-init/00-packages',
      'https://github.com/RPi-Distro/pi-gen/blob/0164f4865eef51f14c83b7479c2499ee9362e0de/stage2/04-cloud-init/files/00-network-manager-all.yaml',
    ],
    mapped: "the raspberry-pi-os distro and the raspberry_pi module (rpi:) are in no reproduced release before current (25.1 has neither); Raspberry Pi's images add them with rpi-cloud-init-mods: checked against current (26.2), whose rendered raspberry-pi-os cloud.cfg names both",
    unverified: "the cloud-init package version of the images and what rpi-cloud-init-mods changes beside the distro and the module were not read; netplan: pi-gen writes a netplan file that hands the network to NetworkManager (00-network-manager-all.yaml), and Debian 13's netplan.io brings its Python API, but the installed packages were not seen",
  },
];

/**
 * The profile used when none is chosen: the Ubuntu LTS most images run, whose cloud-init follows upstream
 * through updates. It checks against current cloud-init, as the tool did before profiles existed.
 */
export const DEFAULT_IMAGE = 'ubuntu-24.04';

export const IMAGE_IDS: readonly string[] = IMAGE_PROFILES.map((p) => p.id);

const BY_ID = new Map(IMAGE_PROFILES.map((p) => [p.id, p]));

/** The profile named `id` (any case, surrounding blanks ignored). */
export function imageProfile(id: string): ImageProfile | undefined {
  return BY_ID.get(id.trim().toLowerCase());
}

export function defaultProfile(): ImageProfile {
  return BY_ID.get(DEFAULT_IMAGE)!;
}

/** "unknown image 'rhel9' (did you mean rhel-9?; expected debian-12, ...)" */
export function unknownImageMessage(id: string): string {
  const guess = nearest(id.trim().toLowerCase(), IMAGE_IDS);
  return `unknown image '${id}'${guess ? ` (did you mean ${guess}?)` : ''}; the images: ${IMAGE_IDS.join(', ')}`;
}

interface DistroFacts {
  distros: string[];
  /** `distros.fetch` retries a name with its dashes as underscores (`raspberry-pi-os` finds raspberry_pi_os). */
  dashes: boolean;
  families: Record<string, string[]>;
  variants: string[];
}

let distroData: Record<CloudInitVersion, DistroFacts> | undefined;
function facts(version: CloudInitVersion): DistroFacts {
  distroData ??= require('./data/distros.json') as Record<CloudInitVersion, DistroFacts>;
  return distroData[version];
}

/**
 * The names `system_info.distro` may take in `version`: the modules of its cloudinit/distros, and where
 * `distros.fetch` retries a dashed name with underscores, each of them written with dashes
 * (`raspberry-pi-os`, as its cloud.cfg, OSFAMILIES and the modules' `distros` spell it).
 */
export function knownDistros(version: CloudInitVersion): readonly string[] {
  const { distros, dashes } = facts(version);
  if (!dashes) return distros;
  return [...new Set([...distros, ...distros.filter((d) => d.includes('_')).map((d) => d.replace(/_/g, '-'))])].sort();
}

/** Whether cloud-init's `distros.fetch` finds a Distro class for `distro` in `version`. */
export function isKnownDistro(version: CloudInitVersion, distro: string): boolean {
  const { distros, dashes } = facts(version);
  return distros.includes(distro) || (dashes && distros.includes(distro.replace(/-/g, '_')));
}

/** The cloud.cfg variants `version`'s template renders. */
export function cloudCfgVariants(version: CloudInitVersion): readonly string[] {
  return facts(version).variants;
}

/**
 * The cloud.cfg variant `version`'s template renders for a distro: the distro's own, else its OS family's
 * (cloud-init's `distros.OSFAMILIES`); undefined when the template has neither.
 */
export function cloudCfgVariantFor(version: CloudInitVersion, distro: string): string | undefined {
  const { variants, families } = facts(version);
  if (variants.includes(distro)) return distro;
  const family = Object.entries(families).find(([, members]) => members.includes(distro))?.[0];
  return family !== undefined && variants.includes(family) ? family : undefined;
}

/** "unknown distro 'redhat' for cloud-init 24.4 (did you mean rhel?); ..." */
export function unknownDistroMessage(distro: string, version: CloudInitVersion): string {
  const known = knownDistros(version);
  const guess = nearest(distro, known);
  return `cloud-init ${version} knows no distro '${distro}'${guess ? ` (did you mean ${guess}?)` : ''}; it knows ${known.join(', ')}`;
}

/** A bad image or distro name: the message says what is known. */
export class TargetError extends Error {}

export interface TargetChoice {
  /** A profile id; the default profile when absent or empty. */
  image?: string;
  /** Overrides the profile's version. */
  version?: CloudInitVersion;
  /** Overrides the profile's distro (a name the version knows). */
  distro?: string;
  netplan?: NetplanHost;
  netplanVersion?: NetplanVersion;
}

/** What a check runs against: the profile chosen (or the default) with the overrides; TargetError on a name it does not know. */
export function resolveTarget(choice: TargetChoice = {}): Target {
  const profile = choice.image?.trim() ? imageProfile(choice.image) : defaultProfile();
  if (!profile) throw new TargetError(unknownImageMessage(choice.image ?? ''));
  const version = choice.version ?? profile.version;
  const distro = choice.distro?.trim() || profile.distro;
  // A profile's own version and distro are known (test/unit/image-profiles.test.ts): the distro facts are read
  // only for a choice of the user's, so a plain run starts without them (issue 44).
  if ((version !== profile.version || distro !== profile.distro) && !isKnownDistro(version, distro)) throw new TargetError(unknownDistroMessage(distro, version));
  // A distro of the user's own gets the cloud.cfg the template renders for it ('' when it renders none).
  const cloudCfgVariant = distro === profile.distro ? profile.cloudCfgVariant : (cloudCfgVariantFor(version, distro) ?? '');
  const netplanVersion = choice.netplanVersion ?? profile.netplanVersion;
  return { version, distro, cloudCfgVariant, netplan: choice.netplan ?? profile.netplan, ...(netplanVersion ? { netplanVersion } : {}), ...(profile.subiquity ? { subiquity: profile.subiquity } : {}) };
}

/** The versions the profiles name, oldest first (each is checked once for all the profiles naming it). */
export function profileVersions(profiles: readonly ImageProfile[] = IMAGE_PROFILES): CloudInitVersion[] {
  return CLOUD_INIT_VERSIONS.filter((v) => profiles.some((p) => p.version === v));
}
