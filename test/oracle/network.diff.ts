/**
 * Differential test of network-config validation (server/src/engine/network) against the real cloud-init:
 * ../shared/oracle/netcheck.py, every version (22.4 23.4 24.4 25.1 current) x every host (none: no netplan,
 * cli: netplan's command only, api: netplan's Python API) x both netplans of the api host (libnetplan 0.106
 * and netplan 1.1.2: `--netplan-version`).
 *
 *   node out/test/oracle/network.diff.js [--cases N] [--seed S] [--batch B] [--netplan-version 0.106|1.1|both]
 *                                        [--no-corpus] [--mutations M] [--verbose] [--oracle-cache DIR]
 *
 * The documents: the real-shaped files of test/oracle/network-corpus (SOURCES.md says where each shape was
 * seen), M mutations of each (default 2: misspelt keys, values of the wrong kind), then N generated ones (network.generate.ts: v1 and v2, valid and broken, wrapped in `network:` or
 * not), checked B at a time by one netcheck.py call per netplan version (with 1.1, the api host alone: the
 * other hosts do not use netplan). Compared, per file x version x host:
 * - the verdict of `cloud-init schema -t network-config` (valid true / false / null = not validated) and
 *   which validator ran (a JSON schema, netplan, none);
 * - where cloud-init's JSON schema speaks: the (path, message) errors and deprecations, in order;
 * - where netplan speaks: the verdict, and the (path, message) of its one error, word for word. Counted apart
 *   (listed with --verbose): the same verdict with another first error (netplan stopped earlier, at a value
 *   whose check the model leaves to netplan), and an error netplan finds in such a value (the model says
 *   which values it did not check: `unmodelled`);
 * - what cloud-init prints instead of validating (a skipped version, an empty config), and the "not a YAML
 *   dict" exception;
 * - what the boot does (engine/network/boot): fallback, disabled, the version applied, whether
 *   parse_net_config_data raises for want of a version, and what the renderer's parse raises on a host
 *   without netplan (engine/network/networkState: `Address IPADDR is not a valid ip address`, `No handler
 *   found for command 'tunnels'`...), word for word; a shape whose parse the model does not follow is
 *   counted apart.
 * Where the model finds no error but names values netplan checks and it does not (`unmodelled`), its verdict
 * is "not checked" (valid null): counted apart, never a pass or a fail. Corpus files are otherwise compared
 * strictly: another first error than netplan's is a difference there.
 * Needs `bash ../shared/oracle/setup.sh --all` and `setup.sh --netplan all`.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CLOUD_INIT_VERSIONS, type CloudInitVersion } from '../../server/src/engine/version/versions';
import { NETPLAN_HOSTS, NETPLAN_VERSIONS, type NetplanHost, type NetplanVersion } from '../../server/src/engine/version/target';
import { validateNetworkConfigText } from '../../server/src/engine/network/validate';
import { networkBoot } from '../../server/src/engine/network/boot';
import { jsonToPy } from '../../server/src/engine/schema/pyjsonschema';
import { dumpPyYaml, dumpPyYamlWithLines } from '../../server/src/engine/yaml/dump';
import { loadYaml } from '../../server/src/engine/yaml/load';
import { decodeUtf8Surrogateescape } from '../../server/src/engine/py/codecs';
import { PyDict, type PyValue } from '../../server/src/engine/py/values';
import { Rng } from './generate';
import { mutatedDocument, networkDocument } from './network.generate';

// ../shared/oracle beside the checkout (a worktree under ../wt/NAME: two levels up)
const NETCHECK = [resolve(__dirname, '../../../../shared/oracle/netcheck.py'), resolve(__dirname, '../../../../../shared/oracle/netcheck.py')].find((p) => existsSync(p)) ?? resolve(__dirname, '../../../../shared/oracle/netcheck.py');
const CORPUS = resolve(__dirname, '../../../test/oracle/network-corpus');

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
  /** What the renderer's parse raises (besides the RuntimeError of a config without a version), as `Type: message`. */
  parseError: string | null;
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

function ourVerdict(text: string, version: CloudInitVersion, host: NetplanHost, file: string, np: NetplanVersion): Verdict {
  const r = validateNetworkConfigText(text, version, host, file, np);
  if (r.unsupported) return { valid: null, validator: null, errors: [], deprecations: [], said: 'unsupported', exception: null };
  if (r.crash) return { valid: false, validator: r.validator, errors: [], deprecations: [], said: null, exception: `crash ${r.crash.pyType}` };
  const errors: Pairs = r.yamlError ? [['yaml', 'error']] : r.errors.map((p) => [p.path, p.message]);
  return { valid: r.valid, validator: r.validator, errors, deprecations: r.deprecations.map((p) => [p.path, p.message]), said: r.said ?? null, exception: r.exception ? `RuntimeError: ${r.exception}` : null };
}

/** Our boot on a host without netplan (netcheck.py's `boot` parses with renderer None), and whether its parse was followed. */
function ourBoot(text: string, version: CloudInitVersion): Boot & { notFollowed: boolean } {
  const b = networkBoot(text, { version, host: 'none' });
  if (b.result !== 'applied') return { result: b.result, version: null, runtimeError: false, parseError: null, notFollowed: false };
  return { result: 'applied', version: asJson(b.version), runtimeError: b.error !== undefined, parseError: b.parseError ?? null, notFollowed: b.parseNotFollowed !== undefined };
}

/** A loaded value as the JSON netcheck.py prints of it. */
function asJson(v: PyValue): unknown {
  if (typeof v === 'bigint') return Number(v);
  if (Array.isArray(v)) return v.map(asJson);
  if (v instanceof PyDict) return Object.fromEntries(v.entryList().map((e) => [String(e.key), asJson(e.value)]));
  return v;
}

function theirBoot(b: { source?: string; disabled?: boolean; applied_version?: unknown; parse_error?: string | null }): Boot {
  if (b.source === 'fallback') return { result: 'fallback', version: null, runtimeError: false, parseError: null };
  if (b.disabled) return { result: 'disabled', version: null, runtimeError: false, parseError: null };
  const runtimeError = (b.parse_error ?? '').startsWith('RuntimeError: No valid network_state');
  return { result: 'applied', version: b.applied_version ?? null, runtimeError, parseError: runtimeError ? null : (b.parse_error ?? null) };
}

/**
 * Whether netplan's error (`format-lN.cM` of cloud-init's dump) is in a value the model names as not checked
 * (or in the list holding one): then "not checked" is the model's honest answer, not a miss.
 */
function inUnmodelled(text: string, errorPath: string, unmodelled: string[]): boolean {
  const loaded = loadYaml(text);
  const line = /^format-l(\d+)\.c\d+$/.exec(errorPath);
  if (!loaded.ok || !(loaded.value instanceof PyDict) || !line) return false;
  const doc = loaded.value.has('network') ? loaded.value : PyDict.from([['network', loaded.value]]);
  const at = dumpPyYamlWithLines(doc).lines.find((l) => l.line === Number(line[1]) - 1);
  if (!at) return false;
  const where = at.path.join('.');
  return unmodelled.some((u) => u === where || u.startsWith(`${where}.`) || where.startsWith(`${u}.`) || u.replace(/\.\d+$/, '') === where.replace(/\.\d+$/, ''));
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
  const npChoice = opt('--netplan-version', 'both');
  const netplans: NetplanVersion[] = npChoice === 'both' ? [...NETPLAN_VERSIONS] : NETPLAN_VERSIONS.filter((v) => v === npChoice);
  if (!netplans.length) throw new Error(`--netplan-version takes 0.106, 1.1 or both, not '${npChoice}'`);
  // --oracle-cache DIR: netcheck.py's answers kept by the files' names and bytes (the files written to DIR/files, so
  // the names in cloud-init's messages stay the same from run to run): a second run re-checks the model only
  const cacheDir = argv.includes('--oracle-cache') ? resolve(opt('--oracle-cache', '')) : undefined;
  const dir = cacheDir ? join(cacheDir, 'files') : mkdtempSync(join(tmpdir(), 'network-diff-'));
  if (cacheDir) mkdirSync(dir, { recursive: true });
  const counts = new Map<string, { cases: number; diffs: number; netplanExact: number; wording: number; unmodelled: number; deeperParse: number; oracleSkipped: number }>();
  const count = (v: string, h: string) => {
    const k = `${v} ${h}`;
    let c = counts.get(k);
    if (!c) counts.set(k, (c = { cases: 0, diffs: 0, netplanExact: 0, wording: 0, unmodelled: 0, deeperParse: 0, oracleSkipped: 0 }));
    return c;
  };
  let failures = 0;
  const started = Date.now();
  // the corpus first (real shapes, compared strictly), then the generated documents
  const corpus = argv.includes('--no-corpus') ? [] : readdirSync(CORPUS).filter((n) => /\.(ya?ml|cfg)$/.test(n)).sort();
  const all: Array<{ path: string; text: string; real: boolean }> = [];
  for (const name of corpus) {
    const bytes = readFileSync(join(CORPUS, name));
    const path = join(dir, name);
    writeFileSync(path, bytes);
    all.push({ path, text: decodeUtf8Surrogateescape(bytes), real: true });
  }
  // each corpus file broken the ways files break (misspelt keys, values of the wrong kind), M times
  const mutations = Number(opt('--mutations', '2'));
  for (const real of [...all]) {
    const loaded = loadYaml(real.text);
    for (let m = 0; loaded.ok && m < mutations; m++) {
      const text = mutatedDocument(rng, asJson(loaded.value), block);
      if (text === undefined) break;
      const path = join(dir, `${m}-${real.path.split('/').pop()!.replace(/\.cfg$/, '.yaml')}`);
      writeFileSync(path, text);
      all.push({ path, text: decodeUtf8Surrogateescape(Buffer.from(text)), real: false });
    }
  }
  for (let i = 0; i < cases; i++) {
    const text = networkDocument(rng, block);
    const path = join(dir, `nc${i}.yaml`);
    writeFileSync(path, text);
    all.push({ path, text: decodeUtf8Surrogateescape(Buffer.from(text)), real: false });
  }
  try {
    for (const np of netplans) {
      // 1.1 changes only what the api host's netplan says: the other hosts and the boot are compared once
      const hosts: readonly NetplanHost[] = np === netplans[0] ? NETPLAN_HOSTS : ['api'];
      for (let done = 0; done < all.length; done += batch) {
        const files = all.slice(done, done + batch);
        const args = [NETCHECK, '--cloud-init-version', 'all', '--netplan', hosts.join(','), '--netplan-version', np, ...files.map((f) => f.path)];
        const key = cacheDir && createHash('sha256').update(JSON.stringify([args, files.map((f) => f.text)])).digest('hex');
        const cached = key ? join(cacheDir, `${key}.json`) : undefined;
        let stdout: string;
        if (cached && existsSync(cached)) stdout = readFileSync(cached, 'utf8');
        else {
          const run = spawnSync('/usr/bin/python3', args, { encoding: 'utf8', maxBuffer: 1 << 30 });
          if (run.status !== 0) throw new Error(`netcheck.py exited ${run.status}: ${run.stderr.slice(-2000)}`);
          stdout = run.stdout;
          if (cached) writeFileSync(cached, stdout);
        }
        const results = JSON.parse(stdout) as Array<Record<string, { schema: Record<string, TheirSchema> & { supported?: boolean }; boot: Parameters<typeof theirBoot>[0] }>>;
        results.forEach((entry, i) => {
          const f = files[i];
          for (const version of CLOUD_INIT_VERSIONS) {
            const theirs = entry[version];
            for (const host of hosts) {
              const label = host === 'api' ? `api/${np}` : host;
              const c = count(version, label);
              c.cases++;
              const s = theirs.schema;
              if (s.supported === false) {
                const ours = ourVerdict(f.text, version, host, f.path, np);
                if (ours.valid !== null || ours.said !== 'unsupported') report(c, f, version, label, 'unsupported', ours);
              } else {
                const t = s[host];
                if (t.unavailable) throw new Error(`netcheck.py: the api host is unavailable (${t.unavailable}): run bash ../shared/oracle/setup.sh --netplan all`);
                const want = theirVerdict(t);
                const got = ourVerdict(f.text, version, host, f.path, np);
                if (want.errors.some(([p, m]) => p.startsWith('format-l') && m.startsWith('File '))) want.errors = [['yaml', 'error']];
                const same = JSON.stringify(want) === JSON.stringify(got);
                if (same && want.validator === 'netplan' && want.valid === false) c.netplanExact++;
                // "not checked": the model found no error but names values netplan checks and it does not (`unmodelled`)
                const unmodelled = validateNetworkConfigText(f.text, version, host, f.path, np).unmodelled ?? [];
                const notChecked = !same && got.valid === null && got.validator === 'netplan' && want.validator === 'netplan' && got.errors.length === 0 && (want.valid === true || (want.valid === false && want.errors.length === 1 && inUnmodelled(f.text, want.errors[0][0], unmodelled)) || (want.valid === false && (want.exception ?? '').startsWith('NetplanValidationException')));
                if (notChecked) {
                  c.unmodelled++;
                  if (verbose) console.log(`netplan: not checked ${version} ${label} ${f.path} (netplan: ${want.valid ? 'valid' : JSON.stringify(want.errors)}; unmodelled ${JSON.stringify(unmodelled)})`);
                } else if (!same) {
                  // generated documents only: the same netplan verdict with another first error
                  const verdictSame = !f.real && want.valid === got.valid && want.validator === got.validator && want.validator === 'netplan';
                  if (verdictSame) {
                    c.wording++;
                    if (verbose) console.log(`netplan: same verdict, another first error ${version} ${label} ${f.path}\n  theirs ${JSON.stringify(want.errors)}\n  ours   ${JSON.stringify(got.errors)}`);
                  } else report(c, f, version, label, want, got);
                }
              }
            }
            if (np !== netplans[0]) continue;
            const c = count(version, 'boot');
            // netcheck.py's boot of 23.4 fails where cloud-init logs a deprecation (its LOG.deprecated is set up by cloud-init's own logging, not there)
            if (((theirs.boot as { error?: string }).error ?? '').includes("no attribute 'deprecated'")) {
              c.oracleSkipped++;
              continue;
            }
            c.cases++;
            const { notFollowed, ...bootOurs } = ourBoot(f.text, version);
            const bootTheirs = theirBoot(theirs.boot);
            // a shape whose parse the model does not follow: counted apart (the rest of the boot still compared)
            if (notFollowed) {
              c.deeperParse++;
              if (verbose) console.log(`boot: parse not followed ${version} ${f.path} (cloud-init: ${bootTheirs.parseError ?? 'no error'})`);
              bootTheirs.parseError = null;
            }
            if (JSON.stringify(bootOurs) !== JSON.stringify(bootTheirs)) report(c, f, version, 'boot', bootTheirs, bootOurs);
          }
        });
      }
    }
  } finally {
    if (!cacheDir) rmSync(dir, { recursive: true, force: true });
  }
  function report(c: { diffs: number }, f: { path: string; text: string }, version: string, host: string, want: unknown, got: unknown): void {
    c.diffs++;
    failures++;
    if (failures <= 15 || verbose) console.log(`DIFF ${version} ${host} ${f.path}\n${f.text}\n  cloud-init: ${JSON.stringify(want)}\n  ours:       ${JSON.stringify(got)}`);
  }
  for (const [k, c] of counts) console.log(`${k.padEnd(14)} ${c.cases} cases, ${c.diffs} differences${c.netplanExact ? ` (${c.netplanExact} netplan errors word for word)` : ''}${c.wording ? `, ${c.wording} same netplan verdict with another first error` : ''}${c.unmodelled ? `, ${c.unmodelled} not checked (netplan checks a value the model does not)` : ''}${c.deeperParse ? `, ${c.deeperParse} renderer parses of a shape not followed (counted apart)` : ''}${c.oracleSkipped ? `, ${c.oracleSkipped} not compared (the oracle's boot fails on a deprecation log)` : ''}`);
  console.log(`network-config differential: ${corpus.length} corpus files, ${all.length - corpus.length - cases} mutations of them and ${cases} generated documents, netplan ${netplans.join(' and ')}, ${failures} differences (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  process.exit(failures ? 1 : 0);
}

void main();
