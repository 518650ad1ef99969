/**
 * A fleet of files (`npm run bench -- --only fleet`): 1,000 real-sized cloud-config files (generated as in
 * the language-server section, 20 to 120 lines each, one in 25 with a schema error) checked by
 * `cloud-config-merge --check --each` in one process, side by side with cloud-init's own schema check run
 * file by file (`cloud-init schema -c FILE`, through the oracle's schema mode: one Python process per file, as
 * a CI job or a pre-commit hook would run it). cloud-init is timed on a sample of the files and its median
 * per file scaled to the fleet; the verdicts of the sample are compared (valid or not, file by file).
 */
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateDocument, rng } from './generate.mjs';

export const FLEET_TARGETS = { files: 1000, ratio: 100 };

const ORACLE = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..', 'shared', 'oracle', 'oracle.py');

export async function benchFleet({ root, work, quick, progress }) {
  const files = quick ? 100 : FLEET_TARGETS.files;
  const sample = quick ? 5 : 25;
  const dir = path.join(work, 'fleet');
  mkdirSync(dir, { recursive: true });
  const r = rng(1000);
  const names = [];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const lines = 20 + Math.floor(r() * 100);
    let text = generateDocument(lines, i + 1).replace(/\n?$/, '\n');
    if (i % 25 === 7) text += 'runcmd: 5\n';
    const name = path.join(dir, `host-${String(i).padStart(4, '0')}.yaml`);
    writeFileSync(name, text);
    bytes += Buffer.byteLength(text);
    names.push(name);
  }
  const row = { files, bytes, sample };
  progress(`fleet: --check --each on ${files} files`);
  const cli = path.join(root, 'bin', 'cloud-config-merge.js');
  const ours = [];
  let verdicts;
  for (let i = 0; i < (quick ? 1 : 3); i++) {
    const t0 = performance.now();
    const out = spawnSync(process.execPath, [cli, '--check', '--each', '--format', 'json', ...names], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
    ours.push(performance.now() - t0);
    if (out.status !== 0 && out.status !== 1) return { ...row, error: `--check --each exited ${out.status}: ${out.stderr.slice(-400)}` };
    const parsed = JSON.parse(out.stdout).files;
    // cloud-init's own verdict as --check reproduces it (the file's schema report), beside the whole check's.
    verdicts = parsed.map((f) => (f.check?.files ?? []).every((r) => r.valid !== false));
    row.failing = parsed.filter((f) => f.failing).length;
  }
  row.oursMs = ours;
  row.invalid = verdicts.filter((v) => !v).length;
  if (!existsSync(ORACLE)) return { ...row, error: `cloud-init's oracle is not there (${ORACLE})` };
  progress(`fleet: cloud-init schema -c, file by file, on ${sample} of them`);
  const theirs = [];
  let agree = 0;
  for (let i = 0; i < sample; i++) {
    const k = Math.floor((i * files) / sample) + 7 - (i % 2) * 7;
    const t0 = performance.now();
    // The cloud-init --check --each checks against by default (ubuntu-24.04's: current).
    const out = spawnSync('python3', [ORACLE, '--mode', 'schema', '--cloudinit-path', process.env.CLOUDINIT_UPSTREAM_PATH ?? '/opt/cloudinit-upstream', names[k]], { encoding: 'utf8', env: { ...process.env } });
    theirs.push(performance.now() - t0);
    if (out.status !== 0) return { ...row, error: `the oracle failed: ${out.stderr.slice(-400)}` };
    const parsed = JSON.parse(out.stdout);
    const valid = (Array.isArray(parsed) ? parsed[0] : (parsed.files?.[0] ?? parsed)).valid;
    if (valid === verdicts[k]) agree++;
  }
  row.theirsMs = theirs;
  row.agree = agree;
  return row;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

export function fleetTargets(row, fmt) {
  const target = `${FLEET_TARGETS.files} real-sized files checked ≥ ${FLEET_TARGETS.ratio}× faster than \`cloud-init schema -c\` file by file`;
  if (row.error) return [{ area: 'Fleet', target, measured: `failed: ${row.error}`, met: false, gap: row.error }];
  const ours = median(row.oursMs);
  const theirs = median(row.theirsMs) * row.files;
  const ratio = theirs / ours;
  return [
    {
      area: 'Fleet',
      target,
      measured: `${row.files} files: --check --each ${fmt(ours)} wall (one process); cloud-init ${fmt(median(row.theirsMs))} per file, ${fmt(theirs)} for the fleet: ${ratio.toFixed(0)}×; cloud-init's verdicts agree on ${row.agree} of ${row.sample} sampled`,
      met: row.files >= FLEET_TARGETS.files ? ratio >= FLEET_TARGETS.ratio && row.agree === row.sample : null,
      gap: ratio >= FLEET_TARGETS.ratio ? (row.agree === row.sample ? '' : 'a sampled verdict differs from cloud-init\'s') : `${ratio.toFixed(0)}× only.`,
    },
  ];
}

export function fleetMarkdown(row, { fmtMs, fmtBytes }) {
  const L = ['## 3d. A fleet: `--check --each` against `cloud-init schema -c` file by file', ''];
  L.push(
    `${row.files} generated cloud-config files (${row.error ? '' : fmtBytes(row.bytes)}; 20 to 120 lines each, one in 25 with \`runcmd: 5\`; scripts/bench/fleet.mjs), checked by \`cloud-config-merge --check --each --format json\` in one process (worker threads, one per core), and by cloud-init's own schema check one Python process per file (the oracle's schema mode, \`cloud-init schema -c FILE\`), timed on ${row.sample} of the files and scaled to the fleet.`,
    '',
  );
  if (row.error) return [...L, `Failed: ${row.error}`, ''];
  const ours = median(row.oursMs);
  const perFile = median(row.theirsMs);
  L.push(`- --check --each: median ${fmtMs(ours)} for ${row.files} files (${fmtMs(ours / row.files)} per file); cloud-init's schema rejects ${row.invalid}, and ${row.failing} fail the whole check (its findings too: lint warnings, error pitfalls)`);
  L.push(`- cloud-init schema -c: median ${fmtMs(perFile)} per file, ${fmtMs(perFile * row.files)} for the fleet: ${(perFile * row.files / ours).toFixed(0)}× our time`);
  L.push(`- cloud-init's schema verdict on the ${row.sample} sampled files: ${row.agree} the same as cloud-init's own`);
  L.push('');
  return L;
}
