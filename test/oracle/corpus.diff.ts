/**
 * What the real cloud-init does with the hostile corpus (test/robustness/corpus.ts), recorded in
 * test/robustness/corpus-cloud-init.json so that `npm test` can hold the CLI, the preview and the editor
 * to it without the oracle:
 *
 *   node out/test/oracle/corpus.diff.js            # runs the oracle, fails where the record differs
 *   node out/test/oracle/corpus.diff.js --write    # writes the record anew (review the diff)
 *
 * Each case's inputs go through ../shared/oracle/oracle.py --report (its mode: user-data, confd,
 * mergemany or spec) with the current cloud-init (`setup.sh --where current`; CLOUDINIT_UPSTREAM_PATH
 * overrides). Left out: the cases over one of our limits (the CLI exits 2 or 4; cloud-init runs until
 * memory is exhausted, reads forever or renders 10^10 loop iterations), and the alias bombs (cloud-init
 * copes, but the oracle's JSON report expands them), and the anchor used inside itself (a documented
 * difference: our value model has no cycles, see README.md).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { CLOUDINIT_TREES } from './cloudinitTrees';
import { CORPUS, HostileCase, materialise } from '../robustness/corpus';
import { CloudInitRecord, CORPUS_RECORD_PATH, CorpusRecord } from '../robustness/cloudInitRecord';
import { tempDir } from '../robustness/harness';

const ORACLE = resolve(__dirname, '../../../../shared/oracle/oracle.py');
const CLOUDINIT_PATH = CLOUDINIT_TREES.current;

/** Cases the oracle cannot answer (see the header), by name. */
export function oracleCanRun(c: HostileCase): boolean {
  return c.cli.code !== 2 && c.cli.code !== 4 && !/billion-laughs/.test(c.name) && !['include-device', 'recursive-anchor'].includes(c.name);
}

function oracleArgs(c: HostileCase, inputs: string[]): string[] {
  const args = c.args ?? [];
  const value = (flag: string) => args[args.indexOf(flag) + 1];
  if (args.includes('--mode') && value('--mode') === 'confd') return ['--mode', 'confd', '--report', ...inputs];
  if (args.includes('--mode') && value('--mode') === 'system') return ['--mode', 'mergemany', '--report', ...inputs];
  if (args.includes('--spec')) return ['--spec', value('--spec'), '--report', '--json', ...inputs];
  return ['--report', ...(args.includes('--include-missing') ? ['--include-missing', value('--include-missing')] : []), ...inputs];
}

interface OracleReport {
  cloud_config_txt?: string | null;
  error?: { type: string; message: string } | null;
  parts?: Array<{ filename: string; content_type: string; merged?: boolean; mergers?: Array<[string, string[]]> }>;
  warnings?: Array<{ level: string; logger: string; message: string }>;
  result?: unknown;
}

const short = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}...` : s);

/** The record of one case: what cloud-init writes, which parts it merged with which mergers, what it warns. */
function record(c: HostileCase, root: string): CloudInitRecord {
  const m = materialise(c, root);
  const run = spawnSync('bash', ['-c', 'ulimit -v 6000000; exec /usr/bin/python3 "$@"', 'oracle', ORACLE, ...oracleArgs(c, m.inputs)], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    timeout: 900_000,
    env: { ...process.env, CLOUDINIT_PATH },
  });
  if (run.status !== 0 && run.status !== 3) throw new Error(`${c.name}: the oracle exited ${run.status} ${run.signal ?? ''}\n${run.stderr.slice(-2000)}`);
  const report = JSON.parse(run.stdout) as OracleReport;
  // Paths of the materialised inputs are the only thing that depends on where the cases were written.
  const unplace = (s: string) => s.split(m.dir).join('{dir}');
  const warnings = (report.warnings ?? []).filter((w) => w.level === 'WARNING');
  const out: CloudInitRecord = { exit: run.status, warningsCount: warnings.length, warnings: [] };
  if (report.error) out.error = short(unplace(`${report.error.type}: ${report.error.message}`), 300);
  const text = report.cloud_config_txt;
  if (typeof text === 'string') {
    if (text.length <= 2000) out.cloudConfigTxt = text;
    else out.cloudConfigTxtSha256 = createHash('sha256').update(text).digest('hex');
    out.cloudConfigTxtLength = text.length;
  } else if (report.result !== undefined && !report.parts) {
    // confd, mergemany and spec modes: the merged value, as canonical JSON.
    const json = JSON.stringify(report.result);
    if (json.length <= 2000) out.result = report.result;
    else out.resultSha256 = createHash('sha256').update(json).digest('hex');
  }
  if (report.parts) {
    out.partsCount = report.parts.length;
    out.parts = report.parts.slice(0, 20).map((p) => ({
      filename: p.filename,
      contentType: p.content_type,
      merged: p.merged ?? null,
      // Cut at 200 characters (a spec of 200,000 mergers in the corpus): the preview must start with what is kept.
      ...(p.mergers ? { spec: short(p.mergers.map(([name, options]) => `${name}(${options.join(',')})`).join('+'), 200) } : {}),
    }));
  }
  out.warnings = warnings.slice(0, 10).map((w) => ({ logger: w.logger, message: short(unplace(w.message), 300) }));
  return out;
}

function cloudInitVersion(): string {
  const run = spawnSync('/usr/bin/python3', ['-c', 'from cloudinit import version; print(version.version_string())'], { encoding: 'utf8', env: { ...process.env, PYTHONPATH: CLOUDINIT_PATH } });
  if (run.status !== 0) throw new Error(`cannot read the version of the cloud-init at ${CLOUDINIT_PATH}: ${run.stderr}`);
  return run.stdout.trim();
}

/** Writes the record, its cases in corpus order. */
function save(r: CorpusRecord): void {
  const cases: CorpusRecord['cases'] = {};
  for (const c of CORPUS) if (r.cases[c.name]) cases[c.name] = r.cases[c.name];
  writeFileSync(CORPUS_RECORD_PATH, JSON.stringify({ ...r, cases }, null, 1) + '\n');
}

function main(): number {
  const write = process.argv.includes('--write');
  const only = process.argv.includes('--only') ? new RegExp(process.argv[process.argv.indexOf('--only') + 1]) : null;
  const previous = JSON.parse(readFileSync(CORPUS_RECORD_PATH, 'utf8')) as CorpusRecord;
  const next: CorpusRecord = { cloudInit: cloudInitVersion(), regenerate: 'node out/test/oracle/corpus.diff.js --write', cases: { ...previous.cases } };
  const root = tempDir('ccm-corpus-oracle-');
  let differences = 0;
  try {
    for (const c of CORPUS) {
      if (!oracleCanRun(c) || (only && !only.test(c.name))) continue;
      const started = Date.now();
      const got = record(c, root.dir);
      next.cases[c.name] = got;
      const same = isDeepStrictEqual(got, previous.cases[c.name]);
      if (!same) differences++;
      console.log(`${same ? 'same' : 'DIFFERENT'} ${c.name} (${Date.now() - started} ms)`);
      if (!same && !write) console.log(`  recorded: ${JSON.stringify(previous.cases[c.name])}\n  oracle:   ${JSON.stringify(got)}`);
      if (write) save(next);
    }
  } finally {
    root.cleanup();
  }
  for (const name of Object.keys(next.cases)) if (!CORPUS.some((c) => c.name === name && oracleCanRun(c))) delete next.cases[name];
  if (write) {
    save(next);
    console.log(`wrote ${CORPUS_RECORD_PATH} (${Object.keys(next.cases).length} cases, cloud-init ${next.cloudInit})`);
    return 0;
  }
  console.log(`${differences} difference(s) from the record (cloud-init ${next.cloudInit})`);
  return differences ? 1 : 0;
}

process.exitCode = main();
