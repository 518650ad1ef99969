/**
 * Differential test of `cloud-config-merge --check --annotate` (server/src/engine/schema/annotate.ts)
 * against the real `cloud-init schema --config-file FILE --annotate`, on both supported versions.
 *
 *   node out/test/oracle/annotate.diff.js [--cases N] [--seed S] [--version 22.4|current] [--verbose]
 *
 * Documents: a fixed set (headers, broken YAML, documents that are not mappings, ignored-part comments,
 * block and flow layouts, deprecations) and N generated from each version's schema data (the generator of
 * schema.diff.ts). Each file is annotated by cloud-init (test/oracle/annotate_driver.py, one process per
 * version) and by annotateCloudConfigFile; stdout and stderr are compared byte for byte.
 *
 * Accepted differences (counted in the summary, each also checked):
 *  - cloud-init's command fails with a traceback (KeyError, where its line marks have no entry for a
 *    path): 22.4 names the paths inside lists with a line-based guess that is often wrong (`users.name.0`
 *    for `users.0`), upstream fails on a document that is not a mapping. We annotate instead; where we
 *    can tell (no line for the path), a note says that cloud-init fails.
 *  - 22.4 only: the same problems, but a label on another line of the value (its guess of a list item's
 *    line where the item starts on the line after its dash, `- \n    - x`).
 *  - `oneOf` messages that quote schema prose (see schema.diff.ts): compared without that prose.
 */
import { resolve } from 'node:path';
import { annotateCloudConfigFile } from '../../server/src/engine/schema/annotate';
import { schemaData, type SchemaVersion } from '../../server/src/engine/schema/data';
import { Rng } from './generate';
import { LineOracle } from './lineOracle';
import { Gen, render } from './schema.diff';

type Answer = { stdout: string; stderr: string; exit: number | string };

const PATHS: Record<SchemaVersion, string> = {
  '22.4': process.env.CLOUDINIT_PATH ?? '/opt/cloudinit-oracle/usr/lib/python3/dist-packages',
  current: process.env.CLOUDINIT_UPSTREAM_PATH ?? '/opt/cloudinit-upstream',
};

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
];

async function runVersion(version: SchemaVersion, cases: number, seed: number, verbose: boolean): Promise<number> {
  const oracle = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/annotate_driver.py')], {
    env: { ...process.env, CLOUDINIT_PATH: PATHS[version] },
  });
  const r = new Rng(seed);
  const gen = new Gen(r, schemaData(version).schema);
  const texts = [...FIXED];
  for (let i = 0; i < cases; i++) texts.push(render(gen.document(), r));
  const answers = await Promise.all(texts.map((text) => oracle.ask<Answer>({ text })));
  oracle.close();
  let mismatches = 0;
  let crashed = 0;
  let crashedNoted = 0;
  let annotated = 0;
  let otherLine = 0;
  texts.forEach((text, i) => {
    const theirs = answers[i];
    const ours = annotateCloudConfigFile(text, version, { path: 'f', valid: 'f' });
    if (typeof theirs.exit === 'string') {
      // cloud-init's command fails (accepted difference): ours must still answer, with a note or an annotation.
      crashed++;
      if (verbose) console.error(`--- ${version} case ${i}: cloud-init fails (${theirs.exit})\n${text}`);
      if (ours.note) crashedNoted++;
      if (!ours.note && !ours.stdout.includes('\t\t# ')) {
        mismatches++;
        console.error(`--- ${version} case ${i}: cloud-init fails (${theirs.exit}), ours neither annotates nor notes\n${text}`);
      }
      return;
    }
    if (theirs.stdout.includes('\t\t# ')) annotated++;
    if (version === '22.4' && withoutLabels(theirs.stdout) === withoutLabels(ours.stdout) && theirs.stderr === ours.stderr) {
      // 22.4's line guess puts a label on another line of the same value (accepted difference).
      if (theirs.stdout !== ours.stdout) {
        otherLine++;
        if (verbose) console.error(`--- ${version} case ${i}: labelled on another line\n${text}`);
        return;
      }
    }
    const same = withoutProse(theirs.stdout) === withoutProse(ours.stdout) && theirs.stderr === ours.stderr && !ours.note;
    if (!same) {
      mismatches++;
      if (mismatches <= 5 || verbose) {
        console.error(`--- ${version} case ${i} differs\n${JSON.stringify(text)}\ncloud-init: ${JSON.stringify(theirs)}\nours:       ${JSON.stringify(ours)}\n`);
      }
    }
  });
  console.log(`${version}: ${texts.length} files (${annotated} annotated by cloud-init; cloud-init's command fails on ${crashed}, ${crashedNoted} of them noted as such; ${otherLine} labelled on another line by 22.4's guess), ${mismatches} differences`);
  return mismatches;
}

/** The output with the `\t\t# E1,D1` labels taken off the lines (the footers stay). */
function withoutLabels(s: string): string {
  return s.replace(/\t\t# [ED]\d+(?:,[ED]\d+)*$/gm, '');
}

/** `oneOf` messages quoting schema prose (description, default), which our schema data does not carry. */
function withoutProse(s: string): string {
  return s.replace(/ is valid under each of .*$/gm, ' is valid under each of …');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const opt = (name: string, dflt: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const cases = Number(opt('--cases', '400'));
  const seed = Number(opt('--seed', '7'));
  const only = opt('--version', '');
  const verbose = args.includes('--verbose');
  let total = 0;
  for (const version of ['22.4', 'current'] as const) {
    if (only && only !== version) continue;
    total += await runVersion(version, cases, seed, verbose);
  }
  process.exit(total ? 1 : 0);
}

if (require.main === module) void main();
