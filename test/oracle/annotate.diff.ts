/**
 * Differential test of `cloud-config-merge --check --annotate` (server/src/engine/schema/annotate.ts)
 * against the real `cloud-init schema --config-file FILE --annotate`, on both supported versions.
 *
 *   node out/test/oracle/annotate.diff.js [--cases N] [--seed S] [--version V[,V...]] [--sampled N] [--verbose]
 *
 * Documents: a fixed set (headers, broken YAML, documents that are not mappings, ignored-part comments,
 * block and flow layouts, deprecations) and N generated from each version's schema data (the generator of
 * schema.diff.ts). Each file is annotated by cloud-init (test/oracle/annotate_driver.py, one process per
 * version) and by annotateCloudConfigFile; stdout and stderr are compared byte for byte.
 *
 * Accepted difference (counted in the summary, and checked): where cloud-init's command fails with a
 * traceback (a KeyError where its line marks name a path wrongly or not at all: 22.4 often inside lists,
 * upstream on a document that is not a mapping and in JSON-style layouts; reproduced in
 * engine/schema/schemaMarks.ts), ours annotates where each value is written and must say in its note
 * that cloud-init fails; where cloud-init does not fail, ours must not say so. Also `oneOf` messages that
 * quote schema prose (see schema.diff.ts) are compared without that prose.
 */
import { CLOUDINIT_TREES } from './cloudinitTrees';
import { resolve } from 'node:path';
import { annotateCloudConfigFile } from '../../server/src/engine/schema/annotate';
import { schemaData, type SchemaVersion } from '../../server/src/engine/schema/data';
import { Rng } from './generate';
import { LineOracle } from './lineOracle';
import { runPerVersion } from './perVersion';
import { Gen, render } from './schema.diff';

type Answer = { stdout: string; stderr: string; exit: number | string };

const PATHS: Readonly<Record<SchemaVersion, string>> = CLOUDINIT_TREES;

const FIXED = [
  '#cloud-config\nruncmd: 5\n',
  '#cloud-config\napt_update: true\nruncmd: [ls]\n',
  '#cloud-config\napt_update: true\npackage_upgrade: 5\n',
  '#cloud-config\n',
  '',
  'hello: 1\n',
  '#!/bin/sh\necho hi\n',
  '#include\nhttp://example.com/x\n',
  '#cloud-config\na: [1\n',
  '#cloud-config\nruncmd:\n  - ls\n bad\n',
  '#cloud-config\n\tfoo: 1\n',
  '#cloud-config\nkey: "unclosed\n',
  '#cloud-config\n- 1\n',
  '#cloud-config\njust text\n',
  '#cloud-config\npackages: [curl]\n',
  '#cloud-config\npackage: [curl]\npackages: curl\n',
  '#cloud-config\nwrite_files:\n- path: /a\n  permissions: 644\n  content: {x: 1}\n',
  '#cloud-config\nruncmd:\n  - 5\n  - [ls, 1]\n',
  '#cloud-config\nusers:\n  - name: a\n    sudo: 5\n',
  '#cloud-config\nusers: [{name: a, sudo: 5}]\n',
  '#cloud-config\nntp: {enabled: maybe, servers: [1]}\n',
  '#cloud-config\r\nruncmd: 5\r\nbootcmd: 6\r\n',
  '#cloud-config\n# a comment\nruncmd: 5 # trailing\n\n\nbootcmd: x\n',
  '#cloud-config\nruncmd: &r 5\nbootcmd: *r\n',
  '#cloud-config\nchpasswd: {list: "a:b", expire: 1}\n',
  '#cloud-config\n1: 2\ntrue: 3\n',
  '#cloud-config\n"runcmd": 5\n',
  '#cloud-config\n# Cloud-config part ignored SCHEMA_ERROR: bad part\nruncmd: 5\n',
  '#cloud-config\n# Cloud-config part ignored SCHEMA_ERROR: bad part\nruncmd: [ls]\n',
  '#cloud-config\nruncmd: 5\nx: ' + 'y'.repeat(120) + ' [\n',
  '#Cloud-Config\nruncmd: 5\n',
  '  #cloud-config\nruncmd: 5\n',
  '#cloud-config\nruncmd: "\x07"\n',
  '#cloud-config\nusers:\n  - name: a\n    sudo: 5\n  - default\n',
  '#cloud-config\n{"runcmd": 5, "users": [{"name": "a", "sudo": 5}]}\n',
  '#cloud-config\nwrite_files:\n  -\n    path: /a\n    permissions: 644\n',
  '#cloud-config\nbase: &b {permissions: 644, path: /x}\nwrite_files: [*b]\n',
  '#cloud-config\nruncmd:\n- - ls\n  - 1\n- [a, {b: 1}]\n',
  '## template: jinjax\n#cloud-config\nruncmd: 5\n',
  // merge keys: the merged entries are marked where the merged mapping is written
  '#cloud-config\nbase: &b\n  name: x\n  groups: 5\nusers:\n  - <<: *b\n    shell: 7\n  - name: y\n    <<: {lock_passwd: maybe}\n',
  '#cloud-config\nbase: &b\n  path: /a\n  permissions: 644\n  owner: 5\nwrite_files:\n  - <<: *b\n    content: hi\n    defer: maybe\n  - path: /b\n    <<: {append: sometimes}\nntp:\n  <<: {enabled: 3}\n  servers: [a]\n',
  '#cloud-config\n<<: {runcmd: 5}\nbootcmd: 6\n',
  '#cloud-config\n<<:\n  runcmd: 5\n  bootcmd: [ls]\napt_update: 1\n',
  '#cloud-config\na: &a {enabled: 1}\nb: &b {servers: 2}\nntp:\n  <<: [*a, *b]\n  pools: 3\n',
  '#cloud-config\nx: &x\n  <<: {enabled: 1}\n  servers: [a]\nntp: *x\nchrony:\n  <<: *x\n',
  '#cloud-config\nntp:\n  !!merge <<: {enabled: 1}\n  servers: 2\n',
  '#cloud-config\nntp:\n  "<<": {enabled: 1}\n  servers: 2\n',
  '#cloud-config\nd: &d {runcmd: 5}\n<<: *d\npackages: 7\n',
  // chained: every merged entry is marked again on the lines of the first mappings
  ['#cloud-config', 'x:', '  - a0: &a0 {k0: 0}', ...Array.from({ length: 30 }, (_, i) => `  - a${i + 1}: &a${i + 1} {<<: *a${i}, k${i + 1}: ${i + 1}}`), 'runcmd: 5', ''].join('\n'),
];

async function runVersion(version: SchemaVersion, cases: number, seed: number, verbose: boolean): Promise<number> {
  const oracle = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/annotate_driver.py')], {
    env: { ...process.env, CLOUDINIT_PATH: PATHS[version] },
  });
  const r = new Rng(seed);
  const gen = new Gen(r, schemaData(version).schema);
  const texts = [...FIXED];
  for (let i = 0; i < cases; i++) texts.push(r.chance(0.25) ? renderWithMergeKeys(gen.document(), r) : render(gen.document(), r));
  const answers = await Promise.all(texts.map((text) => oracle.ask<Answer>({ text })));
  oracle.close();
  let mismatches = 0;
  let crashed = 0;
  let crashedNoted = 0;
  let annotated = 0;
  texts.forEach((text, i) => {
    const theirs = answers[i];
    const ours = annotateCloudConfigFile(text, version, { path: 'f', valid: 'f' });
    if (typeof theirs.exit === 'string') {
      // cloud-init's command fails (accepted difference): ours must still answer, with a note or an annotation.
      crashed++;
      if (verbose) console.error(`--- ${version} case ${i}: cloud-init fails (${theirs.exit})\n${text}`);
      if (ours.note) crashedNoted++;
      else {
        mismatches++;
        console.error(`--- ${version} case ${i}: cloud-init fails (${theirs.exit}), ours does not say so\n${text}`);
      }
      return;
    }
    if (theirs.stdout.includes('\t\t# ')) annotated++;
    const same = withoutProse(theirs.stdout) === withoutProse(ours.stdout) && theirs.stderr === ours.stderr && !ours.note;
    if (!same) {
      mismatches++;
      if (mismatches <= 5 || verbose) {
        console.error(`--- ${version} case ${i} differs\n${JSON.stringify(text)}\ncloud-init: ${JSON.stringify(theirs)}\nours:       ${JSON.stringify(ours)}\n`);
      }
    }
  });
  console.log(`${version}: ${texts.length} files (${annotated} annotated by cloud-init; cloud-init's command fails on ${crashed}, ${crashedNoted} of them noted as such), ${mismatches} differences`);
  return mismatches;
}

/**
 * The block form, with the first entries of some mappings merged in with `<<` (one flow mapping, or a
 * list of two, whose later one PyYAML puts first), the top level included: cloud-init's line marks of
 * merged entries, and where its command then fails.
 */
function renderWithMergeKeys(doc: unknown, r: Rng): string {
  const scalar = (v: unknown): string => (typeof v === 'string' || v === null || typeof v !== 'object' ? JSON.stringify(v) : Array.isArray(v) ? '[]' : '{}');
  const isCollection = (x: unknown) => !!x && typeof x === 'object' && Object.keys(x).length > 0;
  const block = (v: unknown, indent: number): string => {
    const pad = ' '.repeat(indent);
    if (Array.isArray(v)) return v.map((x) => `${pad}- ` + (isCollection(x) ? '\n' + block(x, indent + 2) : scalar(x))).join('\n');
    const entries = Object.entries(v as object);
    const lines: string[] = [];
    let own = entries;
    if (entries.length >= 2 && r.chance(0.5)) {
      const k = 1 + r.int(entries.length - 1);
      const merged = entries.slice(0, k);
      own = entries.slice(k);
      const flow = (es: Array<[string, unknown]>) => JSON.stringify(Object.fromEntries(es));
      lines.push(`${pad}<<: ` + (k >= 2 && r.chance(0.5) ? `[${flow(merged.slice(1))}, ${flow(merged.slice(0, 1))}]` : flow(merged)));
    }
    for (const [k, x] of own) lines.push(`${pad}${JSON.stringify(k)}:` + (isCollection(x) ? '\n' + block(x, indent + 2) : ' ' + scalar(x)));
    return lines.join('\n');
  };
  return '#cloud-config\n' + (isCollection(doc) ? block(doc, 0) : scalar(doc)) + '\n';
}

/** `oneOf` messages quoting schema prose (description, default), which our schema data does not carry. */
export function withoutProse(s: string): string {
  return s.replace(/ is valid under each of .*$/gm, ' is valid under each of …');
}

if (require.main === module) void runPerVersion({ cases: 400, seed: 7 }, (version, a) => runVersion(version, a.cases, a.seed, a.verbose));
