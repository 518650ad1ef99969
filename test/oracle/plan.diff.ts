/**
 * Differential test of the boot plan (server/src/engine/plan) against cloud-init's own decisions, as the
 * oracle's plan.py records them (../shared/oracle/plan.py: the real `Modules.run_section` with only
 * `_run_modules` replaced by a recorder, and the real `Cloud.run` semaphores).
 *
 *   node out/test/oracle/plan.diff.js [--cases N] [--seed S] [--version V] [--verbose]
 *
 * Generates random merged cloud-configs (activation keys of many modules, the user's own
 * `cloud_*_modules` lists with dashed, `.py`, renamed, removed and unknown names, list and mapping entries
 * with valid, invalid and empty frequencies, `unverified_modules` as a list or a string), one in four over a
 * cloud.cfg of its own (`--cloud-cfg`), and plans each one
 * for several distros on every installed version: per stage the same modules in the same order with the
 * same frequency and run/skip decision, the same three boots, and the same cloud.cfg. plan.py's worker runs
 * in one process per version (test/oracle/plan_driver.py). A version that is not installed is skipped with a
 * note, except in CI (CI=true), where it fails the run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Rng } from './generate';
import { runSet, mergedValue } from '../../server/src/engine/outcome/run';
import { planBoot } from '../../server/src/engine/plan/plan';
import { defaultCloudCfgVariant } from '../../server/src/engine/plan/facts';
import { CLOUD_INIT_VERSIONS, CloudInitVersion } from '../../server/src/engine/version/versions';

const ORACLE = resolve(process.env.ORACLE_DIR ?? join(__dirname, '..', '..', '..', '..', 'shared', 'oracle'));
const DISTROS = ['ubuntu', 'debian', 'rhel', 'fedora', 'alpine', 'freebsd', 'opensuse', 'photon', 'raspberry-pi-os'];

/** Keys some module activates on (or reads), and keys of none. */
const KEYS = ['runcmd', 'bootcmd', 'packages', 'package_update', 'write_files', 'users', 'groups', 'yum_repos', 'apt', 'snap', 'ntp', 'power_state', 'chef', 'puppet', 'ansible', 'timezone', 'locale', 'ssh_import_id', 'disk_setup', 'fs_setup', 'mounts', 'phone_home', 'ca_certs', 'rh_subscription', 'zypper', 'apk_repos', 'keyboard', 'wireguard', 'lxd', 'ubuntu_pro', 'ubuntu_advantage', 'landscape', 'rpi', 'salt_minion', 'mcollective', 'rsyslog', 'spacewalk', 'resolv_conf', 'manage_resolv_conf', 'growpart', 'final_message', 'no_such_key'];
const MODULE_NAMES = ['runcmd', 'scripts-user', 'scripts_user', 'write-files', 'write_files_deferred', 'users-groups', 'bootcmd', 'package-update-upgrade-install', 'yum-add-repo', 'apt-configure', 'ntp', 'power-state-change', 'ubuntu-advantage', 'ubuntu_pro', 'migrator', 'rightscale_userdata', 'emit_upstart', 'no_such_module', 'final-message', 'ssh', 'snap', 'spacewalk', 'zypper-add-repo', 'apk-configure', 'runcmd.py', 'cc_runcmd', 'keys-to-console', 'rh_subscription', 'mounts', 'ansible', 'raspberry_pi'];
const FORCEABLE: ReadonlyArray<[string, string]> = [['spacewalk', 'spacewalk'], ['yum-add-repo', 'yum_repos'], ['zypper-add-repo', 'zypper'], ['apk-configure', 'apk_repos'], ['rh_subscription', 'rh_subscription'], ['snap', 'snap']];
const FREQS = ['always', 'once', 'once-per-instance', 'per-boot', 'instance', ''];

function moduleEntry(r: Rng): unknown {
  const name = r.pick(MODULE_NAMES);
  const roll = r.next();
  if (roll < 0.6) return name;
  if (roll < 0.85) return r.chance(0.8) ? [name, r.pick(FREQS)] : [name];
  return r.chance(0.8) ? { name, frequency: r.pick(FREQS) } : { name };
}

function makeConfig(r: Rng): Record<string, unknown> {
  const cfg: Record<string, unknown> = {};
  for (const k of KEYS) if (r.chance(0.12)) cfg[k] = k === 'users' ? (r.chance(0.5) ? ['default', 'bob'] : ['bob']) : ['x'];
  for (const k of ['cloud_init_modules', 'cloud_config_modules', 'cloud_final_modules']) {
    if (r.chance(0.2)) {
      // A name twice with two frequencies is left out: plan.py shows the first entry's for both rows.
      const seen = new Set<string>();
      cfg[k] = Array.from({ length: r.int(6) }, () => moduleEntry(r)).filter((e) => {
        const n = typeof e === 'string' ? e : Array.isArray(e) ? (e[0] as string) : (e as { name: string }).name;
        if (seen.has(n)) return false;
        seen.add(n);
        return true;
      });
    }
  }
  if (r.chance(0.25)) cfg.unverified_modules = r.chance(0.7) ? r.some(MODULE_NAMES, 4) : r.some(MODULE_NAMES, 3).join(' ');
  if (r.chance(0.3)) {
    // A module verified on some distros only, activated, and named in unverified_modules (forced elsewhere).
    const [name, key] = r.pick(FORCEABLE);
    const list = Array.isArray(cfg.cloud_config_modules) ? (cfg.cloud_config_modules as unknown[]) : [];
    if (!list.some((e) => e === name || (Array.isArray(e) && e[0] === name) || (e as { name?: string })?.name === name)) list.push(name);
    cfg.cloud_config_modules = list;
    cfg[key] = ['x'];
    cfg.unverified_modules = r.chance(0.7) ? [name, ...r.some(MODULE_NAMES, 2)] : `${r.pick(MODULE_NAMES)} ${name}`;
  }
  return cfg;
}

/** A cloud.cfg of the user's own (`--cloud-cfg`): its module lists, and keys modules activate on. */
function makeCloudCfg(r: Rng): Record<string, unknown> {
  const cfg: Record<string, unknown> = { system_info: { distro: 'debian', default_user: { name: 'admin' } } };
  for (const k of ['cloud_init_modules', 'cloud_config_modules', 'cloud_final_modules']) if (r.chance(0.8)) cfg[k] = [...new Set(r.some(MODULE_NAMES, 6))];
  for (const k of KEYS) if (r.chance(0.05)) cfg[k] = ['y'];
  if (r.chance(0.2)) cfg.unverified_modules = r.some(MODULE_NAMES, 3);
  return cfg;
}

interface OracleRow {
  module: string;
  frequency: string | null;
  decision: string;
  will_run: boolean;
}
interface OracleEntry {
  error?: string;
  cloud_cfg?: { source: string; variant: string | null };
  stages?: Record<string, OracleRow[]>;
  boots?: { first_boot: string[]; reboot: string[]; new_instance: string[] };
}

function installed(version: CloudInitVersion): string | null {
  const where = spawnSync('bash', [join(ORACLE, 'setup.sh'), '--where', version], { encoding: 'utf8' });
  const path = where.stdout.trim();
  return where.status === 0 && path && existsSync(join(path, 'cloudinit', '__init__.py')) ? path : null;
}

function main(): void {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const cases = Number(opt('--cases', '30'));
  const seed = Number(opt('--seed', '29'));
  const only = opt('--version', '');
  const verbose = argv.includes('--verbose');
  const r = new Rng(seed);
  const dir = mkdtempSync(join(tmpdir(), 'ccm-plan-diff-'));
  const configs = Array.from({ length: cases }, (_, i) => {
    const file = join(dir, `c${i}.yaml`);
    const text = `#cloud-config\n${JSON.stringify(makeConfig(r))}\n`;
    writeFileSync(file, text);
    let cloudCfg: { file: string; text: string } | undefined;
    if (i % 4 === 3) {
      cloudCfg = { file: join(dir, `c${i}.cfg`), text: JSON.stringify(makeCloudCfg(r)) };
      writeFileSync(cloudCfg.file, cloudCfg.text);
    }
    return { file, text, cloudCfg, distro: DISTROS[i % DISTROS.length], distro2: r.pick(DISTROS) };
  });
  const work = configs.flatMap((c) => [c.distro, c.distro2].filter((d, i, a) => a.indexOf(d) === i).map((distro) => ({ ...c, distro })));
  let differences = 0;
  let compared = 0;
  let missing = 0;
  try {
    for (const version of CLOUD_INIT_VERSIONS) {
      if (only && only !== version) continue;
      const path = installed(version);
      if (!path) {
        missing++;
        console.log(`plan.diff: cloud-init ${version} is not installed (bash ${ORACLE}/setup.sh --version ${version})${process.env.CI === 'true' ? ': FAIL in CI' : ': skipped'}`);
        continue;
      }
      const started = Date.now();
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'PYTHONPATH'));
      const run = spawnSync('/usr/bin/python3', [join(__dirname, '..', '..', '..', 'test', 'oracle', 'plan_driver.py'), ORACLE, version, path], { input: JSON.stringify(work.map((w) => ({ config: w.file, distro: w.distro, ...(w.cloudCfg ? { cloud_cfg: w.cloudCfg.file } : {}) }))), encoding: 'utf8', env, maxBuffer: 256 << 20 });
      if (run.status !== 0) throw new Error(`plan_driver.py ${version} failed: ${run.stderr}`);
      const oracle = JSON.parse(run.stdout) as OracleEntry[];
      let versionDiffs = 0;
      const decisions = new Map<string, number>();
      for (const entry of oracle) for (const rows of Object.values(entry.stages ?? {})) for (const row of rows) decisions.set(row.decision, (decisions.get(row.decision) ?? 0) + 1);
      work.forEach((w, i) => {
        const diff = compare(version, w.text, w.distro, oracle[i], w.cloudCfg?.text);
        compared++;
        if (diff.length) {
          versionDiffs++;
          if (versionDiffs <= 5 || verbose) console.log(`DIFF ${version} ${w.distro} ${w.file}\n${w.text}  ${diff.join('\n  ')}`);
        }
      });
      differences += versionDiffs;
      console.log(`plan.diff ${version}: ${work.length} plans (${cases} configs x ${DISTROS.length} distros, 1-2 each), ${versionDiffs} differences (${((Date.now() - started) / 1000).toFixed(1)} s; decisions seen: ${[...decisions].map(([d, n]) => `${d} ${n}`).join(', ')})`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`plan.diff: ${compared} plans compared, ${differences} differences`);
  process.exit(differences || (missing && process.env.CI === 'true') ? 1 : 0);
}

function compare(version: CloudInitVersion, text: string, distro: string, oracle: OracleEntry, cloudCfg?: string): string[] {
  const variant = cloudCfg !== undefined ? 'given' : defaultCloudCfgVariant(version, distro);
  if (oracle.error) return variant === undefined ? [] : [`oracle fails (${oracle.error}), we plan with variant ${variant}`];
  if (variant === undefined) return [`we find no cloud.cfg variant, the oracle uses ${JSON.stringify(oracle.cloud_cfg)}`];
  const theirVariant = oracle.cloud_cfg?.source === 'debian-package' || oracle.cloud_cfg?.source === 'given' ? oracle.cloud_cfg.source : oracle.cloud_cfg?.variant;
  const out: string[] = [];
  if (theirVariant !== variant) out.push(`cloud.cfg: ours ${variant}, theirs ${theirVariant}`);
  const outcome = runSet('user-data', { files: [{ name: 'user-data', bytes: Buffer.from(text) }] }, { version, detail: 'value' });
  const given = cloudCfg === undefined ? undefined : { name: 'cloud.cfg', value: mergedValue(runSet('system', { files: [{ name: 'cloud.cfg', bytes: Buffer.from(cloudCfg) }] }, { detail: 'value' })) };
  const result = planBoot(mergedValue(outcome), { version, distro, cloudCfgVariant: variant, netplan: 'none' }, given ? { cloudCfg: given } : {});
  if (!result.ok) return [...out, `we fail: ${result.error}`];
  const plan = result.plan;
  for (const stage of ['init', 'config', 'final'] as const) {
    const ours = plan.stages[stage].rows.map((row) => `${row.module} ${row.frequency} ${row.decision}`);
    const theirs = (oracle.stages?.[stage] ?? []).map((row) => `${row.module} ${row.frequency} ${row.decision}`);
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) out.push(`${stage}: ours ${JSON.stringify(ours)}\n    theirs ${JSON.stringify(theirs)}`);
  }
  const boots: Array<[keyof typeof plan.boots, 'first_boot' | 'reboot' | 'new_instance']> = [['first', 'first_boot'], ['reboot', 'reboot'], ['newInstance', 'new_instance']];
  for (const [ours, theirs] of boots) {
    if (JSON.stringify(plan.boots[ours]) !== JSON.stringify(oracle.boots?.[theirs])) out.push(`boot ${ours}: ours ${JSON.stringify(plan.boots[ours])}\n    theirs ${JSON.stringify(oracle.boots?.[theirs])}`);
  }
  return out;
}

main();
