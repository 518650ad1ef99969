// Regenerates server/src/engine/plan/data/<version>.json, the boot-plan facts of every cloud-init version the
// project reproduces, with scripts/plan/extract.py run on each version's installed tree. The trees and the
// rendered cloud.cfg variants come from the oracle (`bash ../shared/oracle/setup.sh --all`; its cloudcfg/ is
// made by render-cloudcfg.sh). ORACLE_DIR overrides where the oracle is (default ../shared/oracle).
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const oracle = resolve(process.env.ORACLE_DIR || join(root, '..', 'shared', 'oracle'));
const versions = ['22.4', '23.4', '24.4', '25.1', 'current'];
for (const version of process.argv.slice(2).length ? process.argv.slice(2) : versions) {
  const tree = execFileSync('bash', [join(oracle, 'setup.sh'), '--where', version], { encoding: 'utf8' }).trim();
  if (!existsSync(join(tree, 'cloudinit', '__init__.py'))) throw new Error(`cloud-init ${version} is not installed at ${tree}: run setup.sh --version ${version}`);
  const args = [join(root, 'scripts/plan/extract.py'), version, join(oracle, 'cloudcfg', version)];
  // Debian 12's package (22.4) ships its own /etc/cloud; the oracle's plan.py uses it for --distro debian.
  if (version === '22.4') args.push(normalize(join(tree, '../../../../etc/cloud')));
  const out = execFileSync('/usr/bin/python3', args, { env: { ...process.env, PYTHONPATH: tree }, encoding: 'utf8', maxBuffer: 64 << 20, cwd: '/' });
  const file = join(root, 'server/src/engine/plan/data', `${version}.json`);
  writeFileSync(file, out);
  console.log(`${file}: ${out.length} bytes`);
}
