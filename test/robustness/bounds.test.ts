// Issue 43: hostile inputs aimed at the surfaces added last (a seed's meta-data, network-config v1 and v2,
// drop-ins that merge `network:`, long module lists and the boot plan), each with its bounds: the CPU time
// and the heap the CLI may use (a child process under a CPU budget and `--max-old-space-size`: over either,
// the test fails, as a hang or "heap out of memory"), and what the editor's analysis shows within a time and
// heap budget (a worker with resource limits). Every input is generated here, at test time.
//
// The bounds are a small multiple of what the fixed code takes on a busy machine (CPU time, not wall time);
// each case says what it took before the fix. A limit that stops the work is named in the message, and it
// is the right one: a document without aliases never hears of aliases.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { EngineWorker, assertCleanRun, assertReturned, runCliChild, tempDir, type CliExpectation } from './harness';
import { billionLaughs, mergeKeyBomb } from './corpusKit';

interface BoundedCase {
  name: string;
  /** What the input is, and what it cost before issue 43. */
  about: string;
  /** Writes the input under `dir`; the CLI's arguments. */
  write: (dir: string) => string[];
  cli: CliExpectation & { notStderr?: RegExp[]; notStdout?: RegExp[] };
  /** CPU time (user + system) of the whole CLI process, and its V8 old-generation heap. */
  cpuMs: number;
  heapMb: number;
  /** The same document in the editor: its path (the document kind), the finding codes counted, one message. */
  editor?: { path: string; text: () => string; codes: Record<string, number>; message?: RegExp; notMessage?: RegExp; budgetMs: number };
}

const write = (dir: string, name: string, text: string): string => {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
};

const metaBomb = () => `${billionLaughs(8)}instance-id: *l8\nlocal-hostname: web-01\n`;
const metaMillion = () => `local-hostname: web-01\ninstance-id: [${Array(1_000_000).fill('ab').join(', ')}]\n`;
const metaMerges = () => `${mergeKeyBomb(30)}instance-id: iid-01\n`;
const v2Routes = (n: number) => `version: 2\nethernets:\n  eth0:\n    dhcp4: true\n    routes:\n${Array.from({ length: n }, (_, i) => `      - to: 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32\n        via: 192.168.0.1\n`).join('')}`;
const v1Subnets = (n: number) => `version: 1\nconfig:\n  - type: physical\n    name: eth0\n    subnets:\n${Array.from({ length: n }, (_, i) => `      - type: static\n        address: 10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32\n`).join('')}`;
const moduleLists = (n: number) =>
  `#cloud-config\ncloud_init_modules:\n${Array.from({ length: n }, (_, i) => `  - mod${i}\n`).join('')}cloud_config_modules:\n${Array.from({ length: n }, (_, i) => `  - [mod${i}, always]\n`).join('')}`;
const alwaysModules = (n: number) => `#cloud-config\nruncmd: [ls]\ncloud_final_modules:\n${Array.from({ length: n }, () => '  - [scripts_user, always]\n').join('')}`;

const LIMIT_WORDS = /maxExpandedNodes = 5000000/;
const NO_ALIAS_WORDS = /alias|shared references/;

export const BOUNDED: BoundedCase[] = [
  {
    name: 'meta-data-instance-id-alias-bomb',
    about: 'instance-id an alias of 10^9 items: the editor published nothing (a stack in the log) and hover answered an error',
    write: (dir) => ['--check', write(dir, 'seed/meta-data', metaBomb())],
    cli: { code: 2, stderr: [/meta-data's instance-id is a list whose str\(\) \(shared references expanded\) would be longer than 5000000 characters/, LIMIT_WORDS] },
    cpuMs: 4000,
    heapMb: 256,
    editor: { path: '/seed/meta-data', text: metaBomb, codes: { 'limit-exceeded': 1 }, message: /^Not read as NoCloud reads it: meta-data's instance-id .*maxExpandedNodes = 5000000/, budgetMs: 10000 },
  },
  {
    name: 'meta-data-instance-id-million-items',
    about: 'instance-id a list of a million items (6 MB): the same; no alias in it, so the message speaks of none',
    write: (dir) => {
      write(dir, 'seed/user-data', '#cloud-config\na: 1\n');
      return ['--seed', path.dirname(write(dir, 'seed/meta-data', metaMillion())), '--check'];
    },
    cli: { code: 2, stderr: [/meta-data's instance-id is a list whose str\(\) would be longer than 5000000 characters: over the limit maxExpandedNodes = 5000000/], notStderr: [NO_ALIAS_WORDS] },
    cpuMs: 10000,
    heapMb: 768,
    editor: { path: '/seed/meta-data', text: metaMillion, codes: { 'limit-exceeded': 1 }, message: LIMIT_WORDS, notMessage: NO_ALIAS_WORDS, budgetMs: 20000 },
  },
  {
    name: 'meta-data-merge-key-bomb',
    about: 'merge keys that copy 2^30 pairs: read as "not YAML" (cloud-init never finishes loading it)',
    write: (dir) => ['--check', write(dir, 'seed/meta-data', metaMerges())],
    cli: { code: 2, stderr: [/meta-data: merge keys \(<<\) would copy more than 5000000 key\/value pairs/] },
    cpuMs: 6000,
    heapMb: 512,
    editor: { path: '/seed/meta-data', text: metaMerges, codes: { 'limit-exceeded': 1 }, message: /merge keys/, budgetMs: 15000 },
  },
  {
    name: 'network-config-v2-100k-routes',
    about: 'a v2 config of 100,000 routes (5 MB) on a netplan host: 22-60 s and about 2 GB at 500,000; every route checked as netplan checks it (addresses, families, what each route needs)',
    write: (dir) => ['--check', '--netplan', 'api', write(dir, 'seed/network-config', v2Routes(100_000))],
    cli: { code: 0, stdout: [/^Valid schema /m], notStdout: [/routes\.1\.to/, /Not checked/] },
    cpuMs: 8000,
    heapMb: 1024,
    // About 1 MB: diagnostics within a second of CPU on an idle machine.
    editor: { path: '/seed/network-config', text: () => v2Routes(20_000), codes: {}, budgetMs: 8000 },
  },
  {
    name: 'network-config-v1-100k-subnets',
    about: 'a v1 config of 100,000 subnets (5 MB)',
    write: (dir) => ['--check', write(dir, 'seed/network-config', v1Subnets(100_000))],
    cli: { code: 0, stdout: [/^Valid schema /m, /version 1/] },
    cpuMs: 8000,
    heapMb: 1024,
    editor: { path: '/seed/network-config', text: () => v1Subnets(20_000), codes: {}, budgetMs: 8000 },
  },
  {
    name: 'confd-10k-drop-ins-merging-network',
    about: '10,000 drop-ins that each add an interface under network: (quadratic: 40 s)',
    write: (dir) =>
      ['--mode', 'confd', '--check'].concat(
        Array.from({ length: 10_000 }, (_, i) => write(dir, `cloud.cfg.d/${String(i).padStart(5, '0')}-net.cfg`, `k${i}: ${i}\nnetwork:\n  version: 2\n  ethernets:\n    eth${i}:\n      dhcp4: true\n`)),
      ),
    cli: { code: 0, stdout: [/^Merge fates: none/m] },
    cpuMs: 6000,
    heapMb: 512,
  },
  {
    name: 'user-data-two-module-lists-100k',
    about: 'cloud_init_modules and cloud_config_modules of 100,000 unknown modules each (3.5 MB): 16.6 s and 1.1 GB to preview',
    write: (dir) => ['--format', 'preview', write(dir, 'user-data.yaml', moduleLists(100_000))],
    cli: { code: 0, stdout: [/^# Schema: cloud-init rejects the merged result \(200000 errors, 0 deprecations\)/m] },
    cpuMs: 25000,
    heapMb: 1536,
    editor: { path: '/w/user-data.yaml', text: () => moduleLists(15_000), codes: { 'schema-error': 1000 }, budgetMs: 10000 },
  },
  {
    name: 'user-data-100k-always-modules-plan',
    about: '100,000 scripts_user entries that run at every boot: --plan compared the boots\' lists with includes() (quadratic)',
    write: (dir) => ['--plan', write(dir, 'user-data.yaml', alwaysModules(100_000))],
    // (stdout keeps its start and its end: the reboot line lists 100,000 runs)
    cli: { code: 0, stdout: [/^Boot plan: /, /^new instance \(a new instance id\): 100\d\d\d modules run$/m] },
    cpuMs: 12000,
    heapMb: 1536,
  },
];

describe('issue 43: the new surfaces within their bounds', () => {
  const worker = new EngineWorker({ maxOldGenerationSizeMb: 1024 });
  after(() => worker.close());

  for (const c of BOUNDED) {
    test(`${c.name}: the CLI within ${c.cpuMs / 1000} s of CPU and ${c.heapMb} MB of heap`, async (t) => {
      const { dir, cleanup } = tempDir();
      try {
        const run = await runCliChild(c.write(dir), { cpuBudgetMs: c.cpuMs, wallCapMs: c.cpuMs * 20, nodeArgs: [`--max-old-space-size=${c.heapMb}`], cwd: dir });
        t.diagnostic(`${run.cpuMs} ms of CPU`);
        assertCleanRun(run, c.cli, `${c.name} (${c.about}); ${run.cpuMs} ms of CPU`);
        for (const re of c.cli.notStderr ?? []) assert.doesNotMatch(run.stderr, re, c.name);
        for (const re of c.cli.notStdout ?? []) assert.doesNotMatch(run.stdout, re, c.name);
      } finally {
        cleanup();
      }
    });
    const editor = c.editor;
    if (!editor) continue;
    test(`${c.name}: the editor's analysis within ${editor.budgetMs / 1000} s`, async (t) => {
      const outcome = await worker.run({ kind: 'analyze', text: editor.text(), path: editor.path, options: { schema: true, version: 'current', netplan: 'api', maxSchemaProblems: 1000 } }, editor.budgetMs);
      t.diagnostic(`${outcome.ms} ms`);
      assertReturned(outcome, c.name);
      const findings = outcome.analyze?.findings ?? [];
      const counts: Record<string, number> = {};
      for (const f of findings) counts[f.code] = (counts[f.code] ?? 0) + 1;
      for (const [code, n] of Object.entries(editor.codes)) assert.equal(counts[code] ?? 0, n, `${c.name}: ${code} (got ${JSON.stringify(counts)})`);
      const first = findings.find((f) => f.code === Object.keys(editor.codes)[0]);
      if (editor.message) assert.match(first?.message ?? '', editor.message, c.name);
      if (editor.notMessage) for (const f of findings) assert.doesNotMatch(f.message, editor.notMessage, c.name);
    });
  }
});
