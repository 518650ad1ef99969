// Runs every compiled test file (out/test/**/*.test.js) except the opt-in suites
// (oracle differential, e2e, web: the playground in a browser, `npm run test:web`), with node's built-in runner.
import { readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const testRoot = join(root, 'out', 'test');
const optIn = new Set(['oracle', 'e2e', 'web']);

function collect(dir, acc) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (dir === testRoot && optIn.has(name)) continue;
      collect(path, acc);
    } else if (name.endsWith('.test.js')) {
      acc.push(path);
    }
  }
  return acc;
}

if (!existsSync(testRoot)) {
  console.error('out/test is missing: run `npm run build` first');
  process.exit(2);
}
const files = collect(testRoot, []);
const args = ['--test', '--test-reporter=spec', ...process.argv.slice(2), ...files];
const result = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root });
process.exit(result.status ?? 1);
