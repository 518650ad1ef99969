// Hostile inputs (corpus.ts) through the CLI as a child process (no hang, no stack trace, the
// right exit code and message, and where the real cloud-init answers, its cloud-config.txt: recorded in
// corpus-cloud-init.json), through the CLI's other formats in-process, and through analyzeDocument
// and buildPreview in-process under a time budget: the findings a user sees (each code, counted), and
// a preview that tells cloud-init's story (each part merged with cloud-init's mergers or dropped, its
// warnings, its failure) and writes its cloud-config.txt.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { CORPUS, Materialised, materialise } from './corpus';
import { EngineWorker, assertCleanRun, assertReturned, runCliChild, tempDir } from './harness';
import { cloudConfigTxtMismatch, cloudInitRecord, previewStoryProblems, writesCloudConfigTxt } from './cloudInitRecord';

/** Wall-time budget of one in-process call (generous: CI machines are busy; a hang is forever). */
const IN_PROCESS_BUDGET_MS = 60_000;

const cases = CORPUS;
let root: { dir: string; cleanup: () => void };
const made = new Map<string, Materialised>();
const worker = new EngineWorker();

before(() => {
  root = tempDir();
  for (const c of cases) made.set(c.name, materialise(c, root.dir));
});
after(async () => {
  await worker.close();
  root.cleanup();
});

describe('hostile inputs: the CLI as a child process', { concurrency: 2 }, () => {
  for (const c of cases) {
    test(`${c.name}: ${c.about}`, async () => {
      const m = made.get(c.name)!;
      const run = await runCliChild([...(c.args ?? []), ...m.inputs], { cpuBudgetMs: c.cpuBudgetMs ?? 20_000 });
      const what = `cloud-config-merge ${[...(c.args ?? []), ...m.inputs].join(' ')}`;
      assertCleanRun(run, c.cli, what);
      const record = cloudInitRecord(c.name);
      if (record) {
        // What cloud-init writes, byte for byte; where it writes nothing, exit 3 ("cloud-init would fail").
        assert.equal(run.code === 3, !writesCloudConfigTxt(record), `${what}: exit ${run.code}; cloud-init ${record.error ?? (writesCloudConfigTxt(record) ? 'writes cloud-config.txt' : 'writes no cloud-config.txt')}`);
        if (writesCloudConfigTxt(record)) assert.equal(cloudConfigTxtMismatch(run.stdoutSha256, run.stdout, record), null, what);
        // Each warning of cloud-init's part handlers, in cloud-init's words (up to the start of a quoted value); where
        // cloud-config.txt is not written, exit 3 says so instead.
        const handlerWarnings = writesCloudConfigTxt(record) ? record.warnings.filter((x) => x.logger.startsWith('cloudinit.handlers')) : [];
        for (const w of handlerWarnings) {
          assert.ok(run.stderr.includes(`cloud-init WARNING: ${w.message.split(/['"]/)[0].trim()}`), `${what}: cloud-init warns "${w.message}"; stderr:\n${run.stderr.slice(0, 2000)}`);
        }
      }
    });
  }
});

describe('hostile inputs: the CLI in-process, every output format', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const m = made.get(c.name)!;
      // Big inputs: the child-process test covers the default format; here only the formats they list.
      const formats = c.cpuBudgetMs ? (Object.keys(c.formats ?? {}) as Array<'json' | 'report' | 'preview'>) : (['yaml', 'json', 'report', 'preview'] as const);
      for (const format of formats) {
        const expected = format === 'yaml' ? c.cli : (c.formats?.[format] ?? { code: c.cli.code });
        const argv = ['--format', format, ...(c.args ?? []), ...m.inputs];
        const outcome = await worker.run({ kind: 'cli', argv }, (c.cpuBudgetMs ?? 0) > 0 ? 180_000 : IN_PROCESS_BUDGET_MS);
        assertReturned(outcome, `main(${argv.join(' ')})`);
        assertCleanRun({ ...outcome.cli!, code: outcome.cli!.code }, expected, `in-process main ${argv.join(' ')}`);
      }
    });
  }
});

describe('hostile inputs: analyzeDocument returns the findings a user reads', () => {
  for (const c of cases) {
    const expected = c.analyze;
    if (expected === false) continue;
    test(c.name, async () => {
      const m = made.get(c.name)!;
      const input = m.files.find((f) => path.join(m.dir, f.name) === m.inputs[0]) ?? m.files[0];
      const text = new TextDecoder().decode(input.bytes);
      const budget = (c.cpuBudgetMs ?? 0) > 0 ? 180_000 : IN_PROCESS_BUDGET_MS;
      const outcome = await worker.run({ kind: 'analyze', text, path: path.join(m.dir, input.name), options: expected.maxBytes ? { maxBytes: expected.maxBytes } : {} }, budget);
      assertReturned(outcome, `analyzeDocument(${c.name})`);
      const findings = outcome.analyze!.findings;
      const messages = findings.slice(0, 20).map((f) => `${f.code}: ${f.message.slice(0, 300)}`);
      const counts: Record<string, number> = {};
      for (const f of findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
      assert.deepEqual(counts, expected.codes, `findings:\n${messages.join('\n')}`);
      if (expected.finding) assert.ok(findings.some((f) => expected.finding!.test(`${f.code}: ${f.message}`)), `no finding matching ${expected.finding} in:\n${messages.join('\n')}`);
    });
  }
});

describe('hostile inputs: buildPreview returns, and says what cloud-init does and why', () => {
  for (const c of cases) {
    if (c.preview === false) continue;
    const expected = c.preview ?? {};
    test(c.name, async () => {
      const m = made.get(c.name)!;
      const files = m.inputs.map((p) => ({ name: path.basename(p), bytes: m.files.find((f) => path.join(m.dir, f.name) === p)!.bytes }));
      const outcome = await worker.run({ kind: 'preview', mode: 'user-data', files, includeDir: m.dir }, (c.cpuBudgetMs ?? 0) > 0 ? 180_000 : IN_PROCESS_BUDGET_MS);
      assertReturned(outcome, `buildPreview(${c.name})`);
      const p = outcome.preview!;
      const where = `preview:\n${p.text.slice(0, 3000)}`;
      for (const re of expected.text ?? []) assert.match(p.text, re, where);
      if (expected.failure) assert.match(p.failure ?? '', expected.failure, where);
      const record = cloudInitRecord(c.name);
      if (record) {
        assert.deepEqual(previewStoryProblems(p.header, p.failure, record), [], where);
        if (!p.failure) assert.equal(cloudConfigTxtMismatch(p.bodySha256, p.bodyStart, record), null, `the preview's body: ${where}`);
      } else if (!expected.failure) {
        assert.equal(p.failure, undefined, where);
      }
      if (expected.dropped) {
        const dropped = p.parts.filter((x) => x.status === 'dropped');
        assert.ok(dropped.length > 0, `no part listed as dropped: ${where}`);
        for (const d of dropped) assert.ok(d.reason && d.reason.length > 10, `a dropped part without a reason: ${JSON.stringify(d)}`);
      }
    });
  }
});
