// Regenerates server/src/engine/schema/data/network.json: the network-config JSON schemas of every
// cloud-init version the project reproduces (scripts/schema/extract_network.py), each distinct schema
// stored once. Install the versions with `bash ../shared/oracle/setup.sh --all`; their paths come from
// `setup.sh --where V` (or CLOUDINIT_ORACLE_SETUP=path/to/setup.sh).
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const setup = process.env.CLOUDINIT_ORACLE_SETUP || join(root, '..', 'shared', 'oracle', 'setup.sh');
const versions = ['22.4', '23.4', '24.4', '25.1', 'current'];
const schemas = {};
const byVersion = {};
for (const version of versions) {
  const path = execFileSync('bash', [setup, '--where', version], { encoding: 'utf8' }).trim();
  const out = JSON.parse(
    execFileSync('/usr/bin/python3', [join(root, 'scripts/schema/extract_network.py'), version], {
      env: { ...process.env, PYTHONPATH: path },
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    }),
  );
  const entry = { cloudInit: out.cloudInit };
  for (const kind of ['v1', 'v2']) {
    if (!out[kind]) {
      entry[kind] = null;
      continue;
    }
    const text = JSON.stringify(out[kind]);
    let id = Object.keys(schemas).find((k) => JSON.stringify(schemas[k]) === text);
    if (!id) schemas[(id = `${kind}@${version}`)] = out[kind];
    entry[kind] = id;
  }
  byVersion[version] = entry;
}
const data = { note: 'Facts extracted by scripts/schema/extract_network.py from cloud-init\'s network-config schemas; no description prose.', versions: byVersion, schemas };
const file = join(root, 'server/src/engine/schema/data/network.json');
writeFileSync(file, JSON.stringify(data) + '\n');
console.log(`${file}: ${Object.keys(schemas).length} distinct schemas`);
