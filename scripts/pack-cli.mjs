// The CLI's own npm tarball (cloud-config-merge-VERSION.tgz), written beside the .vsix by `npm run
// package`: `npm install -g ./cloud-config-merge-VERSION.tgz` installs `cloud-config-merge` and
// `cloud-config-language-server` anywhere, offline (a CI image too). Both commands run from the esbuild
// bundles (dist/cli.js with its data files in dist/cli-data/, dist/server.js), which carry every module they use, so the tarball declares no
// dependencies and runs no install script: nothing is fetched, nothing is built on the user's machine.
// Usage: node scripts/pack-cli.mjs [--out DIR]   (after `npm run build`; prints the tarball's path)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repo = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const outAt = process.argv.indexOf('--out');
const out = resolve(outAt > 0 && process.argv[outAt + 1] ? process.argv[outAt + 1] : repo);

/** What the installed commands read: the two bundles (and the CLI's data files), the bins and the notes a package carries. */
const FILES = ['dist/cli.js', 'dist/cli-data', 'dist/server.js', 'bin/cloud-config-merge.js', 'bin/cloud-config-language-server.js', 'bin/compile-cache.js', 'README.md', 'LICENSE'];

for (const f of FILES) {
  if (!existsSync(join(repo, f))) {
    console.error(`pack-cli: ${f} is missing: run \`npm run build\` first`);
    process.exit(2);
  }
}
const manifest = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const stage = mkdtempSync(join(tmpdir(), 'ccm-pack-cli-'));
try {
  for (const f of FILES) {
    mkdirSync(join(stage, f, '..'), { recursive: true });
    cpSync(join(repo, f), join(stage, f), { recursive: true });
  }
  const cli = {
    name: manifest.name,
    version: manifest.version,
    description: 'What cloud-init really does with your #cloud-config parts, from a terminal or CI: merge, --check, --lint, --plan, and a stdio language server for any editor.',
    license: manifest.license,
    keywords: manifest.keywords,
    engines: { node: manifest.engines.node },
    bin: manifest.bin,
    files: ['bin/', 'dist/cli.js', 'dist/cli-data/', 'dist/server.js'],
  };
  writeFileSync(join(stage, 'package.json'), JSON.stringify(cli, null, 2) + '\n');
  mkdirSync(out, { recursive: true });
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', out], { cwd: stage, encoding: 'utf8' });
  if (pack.status !== 0) {
    console.error(pack.stderr || pack.stdout);
    process.exit(pack.status ?? 1);
  }
  console.log(join(out, JSON.parse(pack.stdout)[0].filename));
} finally {
  rmSync(stage, { recursive: true, force: true });
}
