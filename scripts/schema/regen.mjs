// Regenerates server/src/engine/schema/data/<version>.json for the five cloud-init versions the project
// reproduces, each from its own install (`bash ../shared/oracle/setup.sh --all` installs them; `setup.sh
// --where V` says where). CLOUDINIT_PATH still overrides 22.4's tree and CLOUDINIT_UPSTREAM_PATH current's;
// `node scripts/schema/regen.mjs 24.4 25.1` regenerates only those.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ALL = ['22.4', '23.4', '24.4', '25.1', 'current'];
const OVERRIDE = { '22.4': process.env.CLOUDINIT_PATH, current: process.env.CLOUDINIT_UPSTREAM_PATH };
const where = (version) =>
  OVERRIDE[version] || execFileSync('bash', [join(root, '..', 'shared/oracle/setup.sh'), '--where', version], { encoding: 'utf8' }).trim().split('\n').pop();
const wanted = process.argv.slice(2);
for (const version of wanted.length ? wanted : ALL) {
  if (!ALL.includes(version)) throw new Error(`unknown version ${version}: one of ${ALL.join(' ')}`);
  const out = execFileSync('/usr/bin/python3', [join(root, 'scripts/schema/extract.py'), version], {
    env: { ...process.env, PYTHONPATH: where(version) },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const file = join(root, 'server/src/engine/schema/data', `${version}.json`);
  writeFileSync(file, out);
  console.log(`${file}: ${out.length} bytes`);
}
