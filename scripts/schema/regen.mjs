// Regenerates server/src/engine/schema/data/{22.4,current}.json from the two installed cloud-inits
// (`bash ../shared/oracle/setup.sh` and `setup.sh --upstream` install them). Paths can be overridden with
// CLOUDINIT_PATH (22.4) and CLOUDINIT_UPSTREAM_PATH (current).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const versions = {
  '22.4': process.env.CLOUDINIT_PATH || '/opt/cloudinit-oracle/usr/lib/python3/dist-packages',
  current: process.env.CLOUDINIT_UPSTREAM_PATH || '/opt/cloudinit-upstream',
};
for (const [version, path] of Object.entries(versions)) {
  const out = execFileSync('/usr/bin/python3', [join(root, 'scripts/schema/extract.py'), version], {
    env: { ...process.env, PYTHONPATH: path },
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  const file = join(root, 'server/src/engine/schema/data', `${version}.json`);
  writeFileSync(file, out);
  console.log(`${file}: ${out.length} bytes`);
}
