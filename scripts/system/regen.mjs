// Regenerates server/src/engine/plan/data/systemKeys.json: for each cloud-init version, the top-level system
// config keys and the modules of its code that read each (scripts/system/extract_keys.py). A version's
// tree is where `setup.sh --where V` says; when it is not installed, its source tarball in ../shared/oracle.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const repo = new URL('..', new URL('..', import.meta.url)).pathname;
// ORACLE_DIR overrides where the oracle is (default ../shared/oracle), as for scripts/plan/regen.mjs.
const oracle = process.env.ORACLE_DIR || join(repo, '..', 'shared', 'oracle');
const VERSIONS = ['22.4', '23.4', '24.4', '25.1', 'current'];
const TARBALLS = { '23.4': 'versions/cloud-init-23.4.4.tar.gz', '24.4': 'versions/cloud-init-24.4.1.tar.gz', '25.1': 'versions/cloud-init-25.1.4.tar.gz' };

function sourceOf(version) {
  const tree = execFileSync('bash', [join(oracle, 'setup.sh'), '--where', version], { encoding: 'utf8' }).trim();
  if (existsSync(join(tree, 'cloudinit'))) return tree;
  if (TARBALLS[version]) return join(oracle, TARBALLS[version]);
  if (version === 'current') {
    const tarball = readdirSync(join(oracle, 'upstream')).find((f) => /^cloud-init-.*\.tar\.gz$/.test(f));
    if (tarball) return join(oracle, 'upstream', tarball);
  }
  throw new Error(`cloud-init ${version} is not installed and has no source tarball`);
}

const out = {};
for (const version of VERSIONS) {
  const json = execFileSync('python3', [join(repo, 'scripts/system/extract_keys.py'), version, sourceOf(version), join(repo, 'server/src/engine/plan/data', `${version}.json`)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  out[version] = JSON.parse(json).keys;
}
writeFileSync(join(repo, 'server/src/engine/plan/data/systemKeys.json'), JSON.stringify(out, null, 1) + '\n');
console.log('wrote server/src/engine/plan/data/systemKeys.json');
