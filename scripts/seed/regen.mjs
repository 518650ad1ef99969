// Regenerates server/src/engine/seed/data/metaDataKeys.json: for every cloud-init version the project reproduces,
// the meta-data keys its NoCloud datasource reads and the methods that read them (scripts/seed/extract.py run on
// that version's installed tree, from the oracle: `bash ../shared/oracle/setup.sh --all`). ORACLE_DIR overrides
// where the oracle is (default ../shared/oracle).
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const oracle = resolve(process.env.ORACLE_DIR || join(root, '..', 'shared', 'oracle'));
const versions = ['22.4', '23.4', '24.4', '25.1', 'current'];
const out = {};
for (const version of versions) {
  const tree = execFileSync('bash', [join(oracle, 'setup.sh'), '--where', version], { encoding: 'utf8' }).trim();
  if (!existsSync(join(tree, 'cloudinit', '__init__.py'))) throw new Error(`cloud-init ${version} is not installed at ${tree}: run setup.sh --version ${version}`);
  const text = execFileSync('/usr/bin/python3', [join(root, 'scripts/seed/extract.py')], { env: { ...process.env, PYTHONPATH: tree }, encoding: 'utf8', cwd: '/' });
  out[version] = JSON.parse(text).keys;
}
const file = join(root, 'server/src/engine/seed/data/metaDataKeys.json');
writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
console.log(`${file}: ${versions.length} versions`);
