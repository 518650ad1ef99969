// Hostile inputs (corpus.ts) through the CLI as a child process (no hang, no stack trace, the
// right exit code and message), through the CLI's other formats in-process, and through
// analyzeDocument and buildPreview in-process under a time budget (they must return).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, ftruncateSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { CORPUS, HostileCase } from './corpus';
import { EngineWorker, assertCleanRun, assertReturned, runCliChild, tempDir } from './harness';

/** Wall-time budget of one in-process call (generous: CI machines are busy; a hang is forever). */
const IN_PROCESS_BUDGET_MS = 60_000;

interface Materialised {
  dir: string;
  inputs: string[];
  files: Array<{ name: string; bytes: Uint8Array }>;
}

function materialise(c: HostileCase, root: string): Materialised {
  const dir = path.join(root, c.name);
  mkdirSync(dir, { recursive: true });
  const generated = c.files();
  const files: Materialised['files'] = [];
  for (const [name, content] of Object.entries(generated)) {
    const bytes = typeof content === 'string' ? Buffer.from(content.split('{dir}').join(dir), 'utf8') : content;
    writeFileSync(path.join(dir, name), bytes);
    files.push({ name, bytes });
  }
  if (c.name === 'file-100MB-sparse') {
    // A hole, not 100 MB of data: the CLI must refuse it from its size alone.
    const fd = openSync(path.join(dir, 'big.yaml'), 'w');
    ftruncateSync(fd, 100 * 1024 * 1024);
    closeSync(fd);
  }
  const names = c.inputs ?? [files[0].name];
  return { dir, inputs: names.map((n) => path.join(dir, n)), files };
}

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
      assertCleanRun(run, c.cli, `cloud-config-merge ${[...(c.args ?? []), ...m.inputs].join(' ')}`);
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

describe('hostile inputs: analyzeDocument returns, with findings naming the problem', () => {
  for (const c of cases) {
    if (c.analyze === false) continue;
    test(c.name, async () => {
      const m = made.get(c.name)!;
      const input = m.files.find((f) => path.join(m.dir, f.name) === m.inputs[0]) ?? m.files[0];
      const text = new TextDecoder().decode(input.bytes);
      const expected = c.analyze || {};
      const budget = (c.cpuBudgetMs ?? 0) > 0 ? 180_000 : IN_PROCESS_BUDGET_MS;
      const outcome = await worker.run({ kind: 'analyze', text, path: path.join(m.dir, input.name), options: expected.maxBytes ? { maxBytes: expected.maxBytes } : {} }, budget);
      assertReturned(outcome, `analyzeDocument(${c.name})`);
      if (expected.finding) {
        const messages = outcome.analyze!.findings.map((f) => `${f.code}: ${f.message}`);
        assert.ok(messages.some((msg) => expected.finding!.test(msg)), `no finding matching ${expected.finding} in:\n${messages.join('\n')}`);
      }
    });
  }
});

describe('hostile inputs: buildPreview returns, and says what was dropped and why', () => {
  for (const c of cases) {
    if (c.preview === false) continue;
    test(c.name, async () => {
      const m = made.get(c.name)!;
      const files = m.inputs.map((p) => ({ name: path.basename(p), bytes: m.files.find((f) => path.join(m.dir, f.name) === p)!.bytes }));
      const outcome = await worker.run({ kind: 'preview', mode: 'user-data', files, includeDir: m.dir }, (c.cpuBudgetMs ?? 0) > 0 ? 180_000 : IN_PROCESS_BUDGET_MS);
      assertReturned(outcome, `buildPreview(${c.name})`);
      const expected = c.preview || {};
      const p = outcome.preview!;
      const where = `preview:\n${p.text.slice(0, 3000)}`;
      for (const re of expected.text ?? []) assert.match(p.text, re, where);
      if (expected.failure) assert.match(p.failure ?? '', expected.failure, where);
      else assert.equal(p.failure, undefined, where);
      if (expected.dropped) {
        const dropped = p.parts.filter((x) => x.status === 'dropped');
        assert.ok(dropped.length > 0, `no part listed as dropped: ${where}`);
        for (const d of dropped) assert.ok(d.reason && d.reason.length > 10, `a dropped part without a reason: ${JSON.stringify(d)}`);
      }
    });
  }
});
