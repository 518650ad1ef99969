// The one install path for the CLI outside this clone (issue 42): the tarball `npm run package` writes
// beside the .vsix (scripts/pack-cli.mjs) installs offline into an empty prefix, and its commands run
// from an unrelated folder: `--help`, a `--check` of a user's file, and the stdio language server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

test('the packed CLI installs without a network and runs from a temporary folder', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ccm-cli-package-'));
  try {
    const pack = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'pack-cli.mjs'), '--out', dir], { encoding: 'utf8', cwd: ROOT });
    assert.equal(pack.status, 0, pack.stderr);
    const tarball = pack.stdout.trim();
    assert.equal(path.basename(tarball), `cloud-config-merge-${(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}.tgz`);

    const project = path.join(dir, 'project');
    const prefix = path.join(dir, 'prefix');
    mkdirSync(project);
    // --offline: nothing may be fetched (a CI image without the registry); a fresh cache proves it.
    const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, tarball, '--offline', '--no-audit', '--no-fund', '--cache', path.join(dir, 'npm-cache')], { encoding: 'utf8', cwd: project });
    assert.equal(install.status, 0, install.stderr + install.stdout);

    const bin = (name: string) => path.join(prefix, 'bin', name);
    const help = spawnSync(bin('cloud-config-merge'), ['--help'], { encoding: 'utf8', cwd: project });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /^Usage:\n {2}cloud-config-merge /);

    writeFileSync(path.join(project, 'user-data.yaml'), '#cloud-config\nmerge_how: list(append)+str()\npackages: [nginx]\n');
    const check = spawnSync(bin('cloud-config-merge'), ['--lint', 'user-data.yaml'], { encoding: 'utf8', cwd: project });
    assert.equal(check.status, 1, check.stderr);
    assert.match(check.stdout, /^user-data\.yaml:2:12: error: No dict\(\) merger: .*\[no-dict-merger\]$/m);

    // The language server answers `initialize` over stdio (what Neovim, Helix or Emacs would send).
    const server = spawn(bin('cloud-config-language-server'), [], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
      server.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      const answer = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no answer to initialize: ${out}`)), 20000);
        server.stdout.on('data', (d: Buffer) => {
          out += d.toString('utf8');
          if (/"id":1/.test(out) && /\}\s*$/.test(out)) {
            clearTimeout(timer);
            resolve(out);
          }
        });
        server.on('exit', (code) => reject(new Error(`the server exited (${code}) before answering`)));
      });
      assert.match(answer, /"capabilities"/);
      assert.match(answer, /"hoverProvider":true/);
    } finally {
      server.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
