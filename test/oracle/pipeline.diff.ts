/**
 * Differential test of the pipeline features against the real cloud-init:
 *
 *   node out/test/oracle/pipeline.diff.js [--makemime N] [--terraform N] [--seed S] [--version V] [--regen]
 *
 * One cloud-init version per run (--version, default 22.4; scripts/test-oracle-modules.mjs runs all five).
 *
 * - make-mime: random sets of files (cloud-config with merge_how, scripts, archives, Jinja, empty,
 *   CRLF, CR, non-ASCII, BOM, long lines, invalid UTF-8; names with spaces, folders and non-ASCII;
 *   types given, given as text/..., capitalised, unknown or inferred; merge types). Each set goes
 *   through cloud-init's own `cloudinit.cmd.devel.make_mime` and through `cloud-config-merge
 *   make-mime`: with cloud-init's boundary the two texts must be identical; with our own boundary,
 *   our blob must give cloud-init the same cloud-config.txt as cloud-init's blob, and this engine
 *   the same again. Unknown types and unreadable files must fail on both sides.
 * - Terraform: random cloudinit_config parts (text/plain and other declared types, content types
 *   cloud-init cannot parse, merge types right and wrong, filenames, gzip and base64 combinations)
 *   rendered as the provider renders them: this engine and cloud-init must agree on each blob.
 * - The fixture plans and states of test/pipeline/fixtures: each config's cloud-config.txt from
 *   cloud-init must equal the committed `<fixture>.<n>.<version>.expected.txt` (`--regen` writes them).
 */
import { CLOUDINIT_TREES } from './cloudinitTrees';
import { CLOUD_INIT_VERSIONS, parseCloudInitVersion, type CloudInitVersion } from '../../server/src/engine/version/versions';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from '../../server/src/cli/main';
import { runUserData } from '../../server/src/engine/userdata/run';
import { TerraformPart, readTerraformJson, renderLikeTerraform, terraformUserData, wrapLikeTerraform } from '../../server/src/engine/userdata/terraform';
import { Rng, mapping, stringSpec } from './generate';
import { LineOracle } from './lineOracle';

const VERSION: CloudInitVersion = (() => {
  const i = process.argv.indexOf('--version');
  const version = i >= 0 ? parseCloudInitVersion(process.argv[i + 1]) : '22.4';
  if (!version) throw new Error(`--version takes ${CLOUD_INIT_VERSIONS.join(', ')}`);
  return version;
})();
const ORACLE_PATH = CLOUDINIT_TREES[VERSION];
const FIXTURES = resolve(__dirname, '../../../test/pipeline/fixtures');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const oracle = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/pipeline_driver.py')], { env: { ...process.env, CLOUDINIT_PATH: ORACLE_PATH }, timeoutMs: 60_000 });

interface UserDataAnswer {
  raw?: string | null;
  error?: string | null;
  driver_error?: string;
}

async function cloudInit(blob: Uint8Array): Promise<UserDataAnswer> {
  return oracle.ask<UserDataAnswer>({ kind: 'userdata', blobs: [Buffer.from(blob).toString('base64')] });
}

function ours(blob: Uint8Array): UserDataAnswer {
  const run = runUserData([{ name: 'blob0', bytes: blob }], { version: VERSION });
  return run.fatal ? { raw: null, error: run.fatal.pyType } : { raw: run.cloudConfigTxt, error: null };
}

function same(a: UserDataAnswer, b: UserDataAnswer): boolean {
  return !a.driver_error && !b.driver_error && (a.raw ?? null) === (b.raw ?? null) && !!a.error === !!b.error;
}

function cli(argv: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    const code = main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr };
  } finally {
    process.chdir(previous);
  }
}

/* ------------------------------------------------------------------ generators */

function cloudConfig(r: Rng): string {
  const body: Record<string, unknown> = mapping(r);
  if (r.chance(0.4)) body.merge_how = stringSpec(r);
  if (r.chance(0.2)) body.runcmd = ['echo ' + r.pick(['héllo', 'plain', '日本', 'tab\there'])];
  const text = JSON.stringify(body, null, r.chance(0.5) ? 1 : undefined);
  return r.pick(['#cloud-config\n', '#cloud-config\n', '#Cloud-Config\n', '\ufeff#cloud-config\n']) + text + '\n';
}

function content(r: Rng): { text: string | Buffer; type: string } {
  const roll = r.next();
  let text: string;
  let type: string;
  if (roll < 0.55) [text, type] = [cloudConfig(r), 'cloud-config'];
  else if (roll < 0.7) [text, type] = ['#!/bin/sh\necho ' + 'x'.repeat(r.int(120)) + '\n', 'x-shellscript'];
  else if (roll < 0.78) [text, type] = [`#cloud-config-archive\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    a: [${r.int(9)}]\n`, 'cloud-config-archive'];
  else if (roll < 0.84) [text, type] = [`## template: jinja\n#cloud-config\nb: {{ ${r.int(9)} + 1 }}\n`, 'jinja2'];
  else if (roll < 0.88) [text, type] = ['', 'cloud-config'];
  else if (roll < 0.92) [text, type] = ['plain words, no header\n', r.pick(['cloud-config', 'plain'])];
  else if (roll < 0.96) [text, type] = [cloudConfig(r), 'x-shellscript'];
  else return { text: Buffer.from([0x23, 0x63, 0xff, 0xfe, 0x0a]), type: 'cloud-config' };
  if (r.chance(0.15)) text = text.replace(/\n/g, '\r\n');
  else if (r.chance(0.05)) text = text.replace(/\n/g, '\r');
  return { text, type };
}

const NAMES = ['a.yaml', 'b.yaml', 'part two.yaml', 'sub/c.yaml', 'café.yaml', '日本.sh', 'x', 'user-data.txt', 'dir with space/é è.cfg', 'q"uote.yaml', 'semi;colon.yaml'];

interface MakeMimeCase {
  files: Array<{ name: string; data: string | Buffer; python: string; ours: string; merge: string | null }>;
}

function makeMimeCase(r: Rng): MakeMimeCase {
  const n = 1 + r.int(4);
  const used = new Set<string>();
  const files: MakeMimeCase['files'] = [];
  for (let i = 0; i < n; i++) {
    let name = r.pick(NAMES);
    while (used.has(name)) name = `${i}-${name.replace('/', '-')}`;
    used.add(name);
    const c = content(r);
    const roll = r.next();
    // What each tool is given: cloud-init's make-mime always needs a type (an empty one is inferred by the driver).
    let python = `${name}:${c.type}`;
    let ours = `${name}:${c.type}`;
    if (roll < 0.15) [python, ours] = [`${name}:`, name];
    else if (roll < 0.25) ours = `${name}:text/${c.type}`;
    else if (roll < 0.3) [python, ours] = [`${name}:${c.type.toUpperCase()}`, `${name}:${c.type.toUpperCase()}`];
    else if (roll < 0.33) [python, ours] = [`${name}: ${c.type} `, `${name}: ${c.type} `];
    else if (roll < 0.35) [python, ours] = [`${name}:x-unknown`, `${name}:x-unknown`];
    const merge = c.type === 'cloud-config' && r.chance(0.3) ? stringSpec(r) : null;
    if (merge !== null) ours = ours === name ? `${name}::${merge}` : `${ours}:${merge}`;
    files.push({ name, data: c.text, python, ours, merge });
  }
  return { files };
}

function terraformParts(r: Rng): { parts: TerraformPart[]; gzip: boolean; base64: boolean; boundary: string } {
  const parts: TerraformPart[] = Array.from({ length: 1 + r.int(4) }, () => {
    const c = content(r);
    const declared = r.pick([null, 'text/plain', 'text/cloud-config', 'text/x-shellscript', 'Text/Cloud-Config', 'cloud-config', 'text/cloud-config; charset=utf-8', `text/${c.type}`]);
    const text = typeof c.text === 'string' ? c.text : '#cloud-config\nz: 1\n';
    return {
      contentType: declared,
      content: text.length ? text : '#cloud-config\n',
      filename: r.pick([null, null, 'a.yaml', 'b.sh', 'with space.yaml', 'x.cfg']),
      mergeType: r.chance(0.4) ? stringSpec(r) : null,
    };
  });
  const mode = r.int(3);
  return { parts, gzip: mode === 0, base64: mode !== 2, boundary: r.pick(['MIMEBOUNDARY', 'MIMEBOUNDARY', '//', 'b-1.x', 'Zm9v']) };
}

/* ------------------------------------------------------------------ runs */

let failures = 0;
function fail(what: string, detail: unknown): void {
  failures++;
  console.error(`MISMATCH ${what}\n${JSON.stringify(detail, null, 1).slice(0, 6000)}`);
}

async function checkMakeMime(r: Rng, count: number): Promise<{ cases: number; parts: number; refused: number }> {
  let parts = 0;
  let refused = 0;
  for (let i = 0; i < count && failures < 5; i++) {
    const c = makeMimeCase(r);
    const dir = mkdtempSync(join(tmpdir(), 'ccm-makemime-'));
    try {
      for (const f of c.files) {
        mkdirSync(join(dir, f.name, '..'), { recursive: true });
        writeFileSync(join(dir, f.name), f.data);
      }
      const py = await oracle.ask<{ text?: string; boundary?: string; errors?: string[]; error?: string; driver_error?: string }>({
        kind: 'makemime',
        dir,
        attach: c.files.map((f) => f.python),
        merge: c.files.map((f) => f.merge),
      });
      if (py.driver_error) {
        fail('driver', { case: c, py });
        continue;
      }
      const plain = cli(['make-mime', ...c.files.map((f) => f.ours)], dir);
      if (py.error !== undefined) {
        // cloud-init's make-mime raises (a file that is not UTF-8): ours refuses it too.
        if (plain.code !== 2) fail('make-mime should fail as cloud-init does', { case: c, py, ours: plain });
        refused++;
        continue;
      }
      const unknown = (py.errors ?? []).length > 0;
      if (unknown !== (plain.code === 2)) {
        fail('unknown content types: refused on one side only', { case: c, py, ours: plain });
        continue;
      }
      if (unknown) refused++;
      const force = unknown ? ['--force'] : [];
      const sameBoundary = cli(['make-mime', ...force, '--boundary', py.boundary as string, ...c.files.map((f) => f.ours)], dir);
      if (sameBoundary.stdout !== py.text) {
        fail('make-mime text differs from cloud-init make_mime', { case: c, python: py.text, ours: sameBoundary.stdout, stderr: sameBoundary.stderr });
        continue;
      }
      const ownBoundary = cli(['make-mime', ...force, ...c.files.map((f) => f.ours)], dir);
      const ciPython = await cloudInit(Buffer.from(py.text));
      const ciOurs = await cloudInit(Buffer.from(ownBoundary.stdout));
      const engine = ours(Buffer.from(ownBoundary.stdout));
      if (!same(ciPython, ciOurs)) fail('cloud-config.txt through cloud-init differs', { case: c, python: ciPython, ours: ciOurs });
      else if (!same(ciOurs, engine)) fail('this engine differs from cloud-init on a make-mime blob', { case: c, cloudInit: ciOurs, engine, blob: ownBoundary.stdout });
      parts += c.files.length;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return { cases: count, parts, refused };
}

async function checkTerraform(r: Rng, count: number): Promise<number> {
  let parts = 0;
  for (let i = 0; i < count && failures < 5; i++) {
    const t = terraformParts(r);
    const rendered = wrapLikeTerraform(new TextEncoder().encode(renderLikeTerraform(t.parts, t.boundary)), { gzip: t.gzip, base64: t.base64 });
    const config = { address: 'data.cloudinit_config.x', parts: t.parts, gzip: t.gzip, base64Encode: t.base64, boundary: t.boundary, rendered: typeof rendered === 'string' ? rendered : Buffer.from(rendered).toString('latin1') };
    const blob = terraformUserData(config).bytes;
    const ci = await cloudInit(blob);
    const engine = ours(blob);
    if (!same(ci, engine)) fail('Terraform-style blob: this engine differs from cloud-init', { config, cloudInit: ci, engine });
    parts += t.parts.length;
  }
  return parts;
}

async function checkFixtures(regen: boolean): Promise<number> {
  let checked = 0;
  for (const name of readdirSync(FIXTURES).filter((n) => n.endsWith('.json')).sort()) {
    const configs = readTerraformJson(readFileSync(join(FIXTURES, name), 'utf8'));
    for (const [i, config] of configs.entries()) {
      const blob = terraformUserData(config).bytes;
      const ci = await cloudInit(blob);
      const expectedPath = join(FIXTURES, `${name.replace(/\.json$/, '')}.${i + 1}.${VERSION}.expected.txt`);
      const text = ci.error ? `# cloud-init fails: ${ci.error}\n` : (ci.raw ?? '');
      if (regen) writeFileSync(expectedPath, text);
      else if (readFileSync(expectedPath, 'utf8') !== text) fail(`fixture ${name} config ${i + 1} (${config.address}): cloud-init's result is not the committed ${expectedPath}`, { cloudInit: text });
      if (!same(ci, ours(blob))) fail(`fixture ${name} config ${i + 1}: this engine differs from cloud-init`, { cloudInit: ci, engine: ours(blob) });
      checked++;
    }
  }
  return checked;
}

async function run(): Promise<void> {
  const seed = arg('--seed', 16);
  const r = new Rng(seed);
  const started = Date.now();
  const mm = await checkMakeMime(r, arg('--makemime', 300));
  const tfParts = await checkTerraform(r, arg('--terraform', 300));
  const fixtures = await checkFixtures(process.argv.includes('--regen'));
  oracle.close();
  console.log(
    `pipeline differential (cloud-init ${VERSION}, seed ${seed}): ${mm.cases} make-mime sets (${mm.parts} parts compared through cloud-init, ${mm.refused} refused on both sides), ` +
      `${arg('--terraform', 300)} Terraform-style blobs (${tfParts} parts), ${fixtures} fixture configs; ${failures} mismatches; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  process.exit(failures ? 1 : 0);
}

void run();
