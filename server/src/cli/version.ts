/**
 * This tool's version, as `--version` and SARIF's `driver.version` give it: read from this package's own
 * package.json, found from the running file's folder upward (tsc output at server/out/cli or
 * out/server/src/cli, the bundle at dist/, either one inside node_modules/cloud-config-merge/). Module
 * resolution is not used: from a bundle it finds the package.json of whatever project holds this one.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PACKAGE_NAME = 'cloud-config-merge';

/** The version of the nearest package.json above `from` that is this package's, or 'unknown'. */
export function packageVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const found = versionIn(join(dir, 'package.json'));
    if (found !== undefined) return found;
    if (dirname(dir) === dir) return 'unknown';
  }
}

/** The version a package.json gives, when it is this package's; undefined for no file, another package or no version. */
function versionIn(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = JSON.parse(text) as { name?: unknown; version?: unknown };
    return parsed.name === PACKAGE_NAME && typeof parsed.version === 'string' ? parsed.version : undefined;
  } catch {
    return undefined;
  }
}
