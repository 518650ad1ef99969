// `npm ci` / `npm install` in a checkout: build everything (what `prepare` used to do). In an install
// of the packed tarball (pre-commit's node hook, `npm install -g`), the build is already inside and
// the compiler is not installed: nothing to do. Not `prepare`: npm prints lifecycle banners on stdout
// during `npm pack`, and pre-commit reads the tarball's name from that stdout.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(`${root}tsconfig.json`) || !existsSync(`${root}node_modules/typescript`)) process.exit(0);
const run = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
