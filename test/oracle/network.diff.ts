/**
 * Differential test of network-config validation (server/src/engine/network) against the real cloud-init:
 * ../shared/oracle/netcheck.py, every version (22.4 23.4 24.4 25.1 current) x every host (none: no netplan,
 * cli: netplan's command only, api: netplan's Python API over libnetplan 0.106).
 *
 *   node out/test/oracle/network.diff.js [--cases N] [--seed S] [--batch B] [--verbose]
 *
 * N documents (network.generate.ts: v1 and v2, valid and broken, wrapped in `network:` or not) are written
 * to files and checked B at a time by one netcheck.py call. Compared, per file x version x host:
 * - the verdict of `cloud-init schema -t network-config` (valid true / false / null = not validated) and
 *   which validator ran (a JSON schema, netplan, none);
 * - where cloud-init's JSON schema speaks: the (path, message) errors and deprecations, in order;
 * - where netplan speaks: the verdict, and the (path, message) of its one error, word for word. Counted apart
 *   (listed with --verbose): the same verdict with another first error (netplan stopped earlier, at a value
 *   whose check the model leaves to netplan), and an error netplan finds in such a value (the model says
 *   which values it did not check: `unmodelled`);
 * - what cloud-init prints instead of validating (a skipped version, an empty config), and the "not a YAML
 *   dict" exception;
 * - what the boot does (engine/network/boot): fallback, disabled, the version applied, and whether
 *   parse_net_config_data raises for want of a version. Deeper v1 parse errors (a static subnet without an
 *   address...) are not modelled: counted apart.
 * Needs `bash ../shared/oracle/setup.sh --all` and `setup.sh --netplan`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLOUD_INIT_VERSIONS, type CloudInitVersion } from '../../server/src/engine/version/versions';
import { NETPLAN_HOSTS, type NetplanHost } from '../../server/src/engine/version/target';
import { validateNetworkConfigText } from '../../server/src/engine/network/validate';
import { networkBoot } from '../../server/src/engine/network/boot';
import { jsonToPy } from '../../server/src/engine/schema/pyjsonschema';
import { dumpPyYaml } from '../../server/src/engine/yaml/dump';
import { decodeUtf8Surrogateescape } from '../../server/src/engine/py/codecs';
import { PyDict, type PyValue } from '../../server/src/engine/py/values';
import { Rng } from './generate';
import { networkDocument } from './network.generate';

const NETCHECK = resolve(__dirname, '../../../../shared/oracle/netcheck.py');

type Pairs = Array<[string, string]>;
interface Verdict {
  valid: boolean | null;
  validator: string | null;
  errors: Pairs;
  deprecations: Pairs;
  said: string | null;
  exception: string | null;
}
interface Boot {
  result: string;
  version: unknown;
  runtimeError: boolean;
}

interface TheirSchema {
  valid: boolean | null;
  validator: string | null;
  errors: Pairs;
  deprecations: Pairs;
  exception: string | null;
  printed: string;
  unavailable?: string;
}

function theirVerdict(s: TheirSchema): Verdict {
  const validator = s.validator && (s.validator.startsWith('jsonschema:') || s.validator === 'netplan') ? s.validator : null;
  // (the deprecations line cloud-init prints beside a verdict is compared as the deprecations themselves)
  const said = s.printed.trim().startsWith('Cloud config schema deprecations: ') ? '' : s.printed.trim();
  return { valid: s.valid, validator, errors: s.errors, deprecations: s.deprecations, said: said || null, exception: s.exception };
}

function ourVerdict(text: string, version: CloudInitVersion, host: NetplanHost, file: string): Verdict {
  const r = validateNetworkConfigText(text, version, host, file);
  if (r.unsupported) return { valid: null, validator: null, errors: [], deprecations: [], said: 'unsupported', exception: null };
  if (r.crash) return { valid: false, validator: r.validator, errors: [], deprecations: [], said: null, exception: `crash ${r.crash.pyType}` };
  const errors: Pairs = r.yamlError ? [['yaml', 'error']] : r.errors.map((p) => [p.path, p.message]);
  return { valid: r.valid, validator: r.validator, errors, deprecations: r.deprecations.map((p) => [p.path, p.message]), said: r.said ?? null, exception: r.exception ? `RuntimeError: ${r.exception}` : null };
}

function ourBoot(text: string): Boot {
  const b = networkBoot(text);
  if (b.result !== 'applied') return { result: b.result, version: null, runtimeError: false };
  return { result: 'applied', version: asJson(b.version), runtimeError: b.error !== undefined };
}

/** A loaded value as the JSON netcheck.py prints of it. */
function asJson(v: PyValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(asJson);
  if (v instanceof PyDict) return Object.fromEntries(v.entryList().map((e) => [String(e.key), asJson(e.value)]));
  return v;
}

function theirBoot(b: { source?: string; disabled?: boolean; applied_version?: unknown; parse_error?: string | null }): Boot {
  if (b.source === 'fallback') return { result: 'fallback', version: null, runtimeError: false };
  if (b.disabled) return { result: 'disabled', version: null, runtimeError: false };
  return { result: 'applied', version: b.applied_version ?? null, runtimeError: (b.parse_error ?? '').startsWith('RuntimeError: No valid network_state') };
}

function block(v: unknown): string {
  return dumpPyYaml(jsonToPy(v), { explicitStart: false, explicitEnd: false, indent: 2 });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
  const cases = Number(opt('--cases', '120'));
  const batch = Number(opt('--batch', '120'));
  const rng = new Rng(Number(opt('--seed', '30')));
  const verbose = argv.includes('--verbose');
  const dir = mkdtempSync(join(tmpdir(), 'network-diff-'));
  const counts = new Map<string, { cases: number; diffs: number; netplanExact: number; wording: number; unmodelled: number; deeperParse: number; oracleSkipped: number }>();
  const count = (v: string, h: string) => {
    const k = `${v} ${h}`;
    let c = counts.get(k);
    if (!c) counts.set(k, (c = { cases: 0, diffs: 0, netplanExact: 0, wording: 0, unmodelled: 0, deeperParse: 0, oracleSkipped: 0 }));
    return c;
  };
  let failures = 0;
  const started = Date.now();
  try {
    for (let done = 0; done < cases; done += batch) {
      const files: Array<{ path: string; text: string }> = [];
      for (let i = done; i < Math.min(cases, done + batch); i++) {
        const text = networkDocument(rng, block);
        const path = join(dir, `nc${i}.yaml`);
        writeFileSync(path, text);
        files.push({ path, text: decodeUtf8Surrogateescape(Buffer.from(text)) });
      }
      const run = spawnSync('/usr/bin/python3', [NETCHECK, '--cloud-init-version', 'all', '--netplan', NETPLAN_HOSTS.join(','), ...files.map((f) => f.path)], { encoding: 'utf8', maxBuffer: 1 << 30 });
      if (run.status !== 0) throw new Error(`netcheck.py exited ${run.status}: ${run.stderr.slice(-2000)}`);
      const results = JSON.parse(run.stdout) as Array<Record<string, { schema: Record<string, TheirSchema> & { supported?: boolean }; boot: Parameters<typeof theirBoot>[0] }>>;
      results.forEach((entry, i) => {
        const f = files[i];
        for (const version of CLOUD_INIT_VERSIONS) {
          const theirs = entry[version];
          const bootOurs = ourBoot(f.text);
          const bootTheirs = theirBoot(theirs.boot);
          for (const host of NETPLAN_HOSTS) {
            const c = count(version, host);
            c.cases++;
            const s = theirs.schema;
            if (s.supported === false) {
              const ours = ourVerdict(f.text, version, host, f.path);
              if (ours.valid !== null || ours.said !== 'unsupported') report(c, f, version, host, 'unsupported', ours);
            } else {
              const t = s[host];
              if (t.unavailable) throw new Error(`netcheck.py: the api host is unavailable (${t.unavailable}): run bash ../shared/oracle/setup.sh --netplan`);
              const want = theirVerdict(t);
              const got = ourVerdict(f.text, version, host, f.path);
              if (want.errors.some(([p, m]) => p.startsWith('format-l') && m.startsWith('File '))) want.errors = [['yaml', 'error']];
              const same = JSON.stringify(want) === JSON.stringify(got);
              if (same && want.validator === 'netplan' && want.valid === false) c.netplanExact++;
              if (!same) {
                const verdictSame = want.valid === got.valid && want.validator === got.validator && want.validator === 'netplan';
                // netplan rejected a value whose check the model leaves to netplan (it says so: `unmodelled`)
                const unmodelled = want.validator === 'netplan' && want.valid === false && got.valid === true && (validateNetworkConfigText(f.text, version, host, f.path).unmodelled ?? []).length > 0;
                if (verdictSame || unmodelled) {
                  if (verdictSame) c.wording++;
                  else c.unmodelled++;
                  if (verbose) console.log(`${verdictSame ? 'netplan: same verdict, another first error' : 'netplan: an unmodelled value check'} ${version} ${host} ${f.path}\n  theirs ${JSON.stringify(want.errors)}\n  ours   ${JSON.stringify(got.errors)}`);
                } else report(c, f, version, host, want, got);
              }
            }
          }
          const c = count(version, 'boot');
          // netcheck.py's boot of 23.4 fails where cloud-init logs a deprecation (its LOG.deprecated is set up by cloud-init's own logging, not there)
          if (((theirs.boot as { error?: string }).error ?? '').includes("no attribute 'deprecated'")) {
            c.oracleSkipped++;
            continue;
          }
          c.cases++;
          const parseError = (theirs.boot.parse_error ?? '') !== '' && !bootTheirs.runtimeError;
          if (parseError) c.deeperParse++;
          if (JSON.stringify(bootOurs) !== JSON.stringify(bootTheirs)) report(c, f, version, 'boot', bootTheirs, bootOurs);
        }
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  function report(c: { diffs: number }, f: { path: string; text: string }, version: string, host: string, want: unknown, got: unknown): void {
    c.diffs++;
    failures++;
    if (failures <= 15 || verbose) console.log(`DIFF ${version} ${host} ${f.path}\n${f.text}\n  cloud-init: ${JSON.stringify(want)}\n  ours:       ${JSON.stringify(got)}`);
  }
  for (const [k, c] of counts) console.log(`${k.padEnd(14)} ${c.cases} cases, ${c.diffs} differences${c.netplanExact ? ` (${c.netplanExact} netplan errors word for word)` : ''}${c.wording ? `, ${c.wording} same netplan verdict with another first error` : ''}${c.unmodelled ? `, ${c.unmodelled} netplan value checks not modelled` : ''}${c.deeperParse ? `, ${c.deeperParse} deeper v1 parse errors (not modelled)` : ''}${c.oracleSkipped ? `, ${c.oracleSkipped} not compared (the oracle's boot fails on a deprecation log)` : ''}`);
  console.log(`network-config differential: ${cases} documents, ${failures} differences (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exit(failures ? 1 : 0);
}

void main();
