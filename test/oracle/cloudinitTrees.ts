/**
 * Where the differential suites find the five cloud-init versions the project reproduces: each install's
 * path as `bash ../shared/oracle/setup.sh --where V` prints it (`setup.sh --version V` or `--all` installs
 * them). CLOUDINIT_PATH overrides 22.4's tree, CLOUDINIT_UPSTREAM_PATH current's, and
 * CLOUDINIT_RELEASES_DIR (holding 23.4/ 24.4/ 25.1/) the others, as setup.sh itself reads it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { CLOUD_INIT_VERSIONS, type CloudInitVersion } from '../../server/src/engine/version/versions';

export type { CloudInitVersion };

const SETUP = resolve(__dirname, '../../../../shared/oracle/setup.sh');

function where(version: CloudInitVersion): string {
  if (version === '22.4' && process.env.CLOUDINIT_PATH) return process.env.CLOUDINIT_PATH;
  if (version === 'current' && process.env.CLOUDINIT_UPSTREAM_PATH) return process.env.CLOUDINIT_UPSTREAM_PATH;
  if (existsSync(SETUP)) {
    try {
      const out = execFileSync('bash', [SETUP, '--where', version], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (out) return out.split('\n').pop()!;
    } catch {
      // fall back to the default locations below
    }
  }
  const releases = process.env.CLOUDINIT_RELEASES_DIR ?? '/opt/cloudinit-releases';
  if (version === '22.4') return '/opt/cloudinit-oracle/usr/lib/python3/dist-packages';
  if (version === 'current') return '/opt/cloudinit-upstream';
  return `${releases}/${version}`;
}

export const CLOUDINIT_TREES: Readonly<Record<CloudInitVersion, string>> = Object.fromEntries(CLOUD_INIT_VERSIONS.map((v) => [v, where(v)])) as Record<CloudInitVersion, string>;

/** Whether version's tree is installed. */
export function installed(version: CloudInitVersion): boolean {
  return existsSync(`${CLOUDINIT_TREES[version]}/cloudinit`);
}
