/**
 * The cloud-init versions the project reproduces, oldest first. Every version-dependent behaviour is
 * decided from this one list: a behaviour that changed in a release is written `atLeast(version, '24.4')`,
 * its threshold found with the oracles (../shared/oracle), never guessed.
 *
 *   22.4     Debian 12's package cloud-init 22.4.2
 *   23.4     tag 23.4.4
 *   24.4     tag 24.4.1
 *   25.1     tag 25.1.4
 *   current  upstream main (26.2 and later)
 */
export const CLOUD_INIT_VERSIONS = ['22.4', '23.4', '24.4', '25.1', 'current'] as const;

export type CloudInitVersion = (typeof CLOUD_INIT_VERSIONS)[number];

/** The release each name reproduces exactly, as `cloud-init --version` prints it. */
export const VERSION_RELEASE: Readonly<Record<CloudInitVersion, string>> = {
  '22.4': '22.4.2',
  '23.4': '23.4.4',
  '24.4': '24.4.1',
  '25.1': '25.1.4',
  current: '26.2',
};

/**
 * A version as findings and headers name it: its release (`current` is `26.2`, the release upstream's main
 * was extracted just after; CURRENT_MEANS says so where the name `current` is shown).
 */
export function versionInWords(version: CloudInitVersion): string {
  return version === 'current' ? VERSION_RELEASE.current : version;
}

/** What the version named `current` is, in words (`cloud-init current (26.2: …)`). */
export const CURRENT_MEANS = `${VERSION_RELEASE.current}, upstream's main branch`;

/** Whether `version` is `min` or a later release. */
export function atLeast(version: CloudInitVersion, min: CloudInitVersion): boolean {
  return CLOUD_INIT_VERSIONS.indexOf(version) >= CLOUD_INIT_VERSIONS.indexOf(min);
}

/**
 * A version as a user writes it: a name of the list, a full release of it (`24.4.1`, `22.4.2`), or
 * `head`/`main`/`26.2` for current. Undefined for anything else.
 */
export function parseCloudInitVersion(text: string): CloudInitVersion | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'current' || t === 'head' || t === 'main') return 'current';
  // current's own release (26.2, 26.2.x) names it too
  if (t === VERSION_RELEASE.current || (t.startsWith(`${VERSION_RELEASE.current}.`) && /^\d+$/.test(t.slice(VERSION_RELEASE.current.length + 1)))) return 'current';
  for (const v of CLOUD_INIT_VERSIONS) {
    if (v === 'current') continue;
    if (t === v || t.startsWith(`${v}.`) && /^\d+$/.test(t.slice(v.length + 1))) return v;
  }
  return undefined;
}
