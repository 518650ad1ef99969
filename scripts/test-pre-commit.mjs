// `npm run test:pre-commit`: the hook of .pre-commit-hooks.yaml, run by the real pre-commit (Debian's
// package, installed with apt-get when missing, as on a fresh CI machine) in a scratch repository that
// adds this repository as a hook repo at a commit, as a user's .pre-commit-config.yaml would. The hook
// repository is a copy of this working tree (what is tested is what is here, committed or not, and a
// CI checkout need not be a git repository).
// The first run builds the hook's environment (npm install, npm pack, about 2 minutes).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';

const repo = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const sh = (cmd, args, opts = {}) => spawnSync(cmd, args, { encoding: 'utf8', ...opts });

if (sh('pre-commit', ['--version']).status !== 0) {
  console.log('pre-commit is missing: apt-get install -y pre-commit');
  const apt = sh('apt-get', ['install', '-y', '-qq', 'pre-commit'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (apt.status !== 0) {
    sh('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    if (sh('apt-get', ['install', '-y', '-qq', 'pre-commit'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status !== 0) {
      console.error('cannot install pre-commit');
      process.exit(1);
    }
  }
}
const scratch = mkdtempSync(join(tmpdir(), 'ccm-pre-commit-'));
const work = join(scratch, 'project');
const env = { ...process.env, PRE_COMMIT_HOME: join(scratch, 'cache'), GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };
const git = (...args) => execFileSync('git', args, { cwd: work, env, encoding: 'utf8' });
const write = (name, text) => writeFileSync(join(work, name), text);
const preCommit = (...args) => sh('pre-commit', args, { cwd: work, env });

let passed = 0;
let failed = 0;
function check(name, fn) {
  try {
    fn();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}\n${e instanceof Error ? e.message : e}`);
  }
}

try {
  // The hook repository: this tree without what .gitignore keeps out, committed once.
  const hooks = join(scratch, 'hooks');
  execFileSync('mkdir', ['-p', hooks]);
  execFileSync('bash', ['-c', 'tar -C "$0" -cf - --exclude=./.git --exclude=./node_modules --exclude=./out --exclude=./server/out --exclude=./client/out --exclude=./dist --exclude=./.vscode-test --exclude=./.tmp --exclude="*.vsix" --exclude=./test/e2e/.artifacts . | tar -C "$1" -xf -', repo, hooks]);
  execFileSync('git', ['init', '-q', hooks]);
  execFileSync('git', ['add', '-A'], { cwd: hooks, env });
  execFileSync('git', ['commit', '-qm', 'cloud-config-merge under test'], { cwd: hooks, env });
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: hooks, encoding: 'utf8' }).trim();
  execFileSync('git', ['init', '-q', work]);
  write('.pre-commit-config.yaml', `repos:\n  - repo: ${hooks}\n    rev: ${head}\n    hooks:\n      - id: cloud-config-merge\n`);
  write('user-data.yaml', '#cloud-config\nmerge_how: list(append)+str()\npackages: [nginx]\n');
  write('other.yaml', 'just: yaml\nmerge_how: not-ours\n');
  write('base.yaml', '#cloud-config\npackages: [curl]\n');
  git('add', '-A');

  const first = preCommit('run', '--all-files');
  check('the hook fails on a merge spec cloud-init reads differently, naming file, line and finding', () => {
    assert.equal(first.status, 1, first.stdout + first.stderr);
    assert.match(first.stdout, /cloud-config-merge .*Failed/);
    assert.match(first.stdout, /user-data\.yaml:2:12: error: No dict\(\) merger: .* \[no-dict-merger\]/);
    assert.doesNotMatch(first.stdout, /other\.yaml|base\.yaml:/, 'a YAML file that is not cloud-config, and a clean part, say nothing');
  });

  preCommit('install');
  check('installed as a git hook, it stops the commit', () => {
    const commit = sh('git', ['commit', '-qm', 'parts'], { cwd: work, env });
    assert.notEqual(commit.status, 0, 'the commit is refused');
    assert.match(commit.stdout + commit.stderr, /no-dict-merger/);
  });

  write('user-data.yaml', '#cloud-config\nmerge_how: list(append)+dict(recurse_array)+str()\npackages: [nginx]\n');
  write('runcmd.yaml', '#cloud-config\nruncmd: 5\n');
  git('add', '-A');
  check("a schema error fails the hook too (cloud-init's own words, the file named)", () => {
    const run = preCommit('run', '--all-files');
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /Invalid user-data runcmd\.yaml/);
    assert.match(run.stdout, /runcmd: 5 is not of type 'array'/);
  });
  rmSync(join(work, 'runcmd.yaml'));
  git('add', '-A');
  check('once the spec is fixed the hook passes and the commit goes through', () => {
    const run = preCommit('run', '--all-files');
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /cloud-config-merge .*Passed/);
    const commit = sh('git', ['commit', '-qm', 'parts'], { cwd: work, env });
    assert.equal(commit.status, 0, commit.stdout + commit.stderr);
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
