/**
 * Differential test of `cloud-config-merge --check` on one file (server/src/engine/outcome/check.ts: checkFile, render/checkText.ts:
 * formatText) against the real `cloud-init schema --config-file FILE [--instance-data F]`, on both
 * supported versions: what each version does before validating (22.4 wants `#cloud-config` first;
 * upstream sniffs the user-data type, renders a `## template: jinja` file with the instance data,
 * rejects an unknown header and leaves other types alone), then the validation itself.
 *
 *   node out/test/oracle/check.diff.js [--cases N] [--seed S] [--version V[,V...]] [--sampled N] [--verbose]
 *
 * Files: a fixed set (headers, templates with and without instance data, broken templates, broken
 * YAML) and N generated from each version's schema data (the generator of schema.diff.ts). Each is
 * checked by cloud-init (test/oracle/annotate_driver.py without --annotate, one process per version)
 * and by ours; ours printed as `--check` prints a file, which is cloud-init's stdout then its stderr.
 *
 * `oneOf` messages that quote schema prose are compared without it (see annotate.diff.ts).
 * Accepted difference (counted, and checked): where cloud-init prints nothing useful or stops the whole
 * command (a file that is not valid YAML or not a mapping, a template it cannot render), ours prints
 * a note instead of its words, and must then reject the file exactly when cloud-init exits 1.
 */
import { resolve } from 'node:path';
import { checkFile } from '../../server/src/engine/outcome/check';
import { formatText } from '../../server/src/engine/render/checkText';
import { schemaData, type SchemaVersion } from '../../server/src/engine/schema/data';
import { CLOUDINIT_TREES } from './cloudinitTrees';
import { Rng } from './generate';
import { LineOracle } from './lineOracle';
import { runPerVersion } from './perVersion';
import { atLeast } from '../../server/src/engine/version/versions';
import { Gen, render } from './schema.diff';
import { withoutProse } from './annotate.diff';

type Answer = { stdout: string; stderr: string; exit: number | string };
interface Case {
  text: string;
  instance_data?: string;
}

const DATA = JSON.stringify({ v1: { region: 'moon-1', local_hostname: 'box', availability_zone: 'moon-1a' }, ds: { meta_data: { n: 5 } } });

const FIXED: Case[] = [
  { text: '#cloud-config\nruncmd: 5\n' },
  { text: '#cloud-config\npackages: [curl]\n' },
  { text: '#cloud-config\napt_update: true\npackage_upgrade: 5\n' },
  { text: '' },
  { text: 'runcmd: [a]\n' },
  { text: '  #cloud-config\nruncmd: 5\n' },
  { text: '#Cloud-Config\nruncmd: 5\n' },
  { text: '#cloud-config-jsonp\n[]\n' },
  { text: '#!/bin/sh\necho hi\n' },
  { text: '#include\nhttp://example.com/x\n' },
  { text: '#cloud-boothook\necho hi\n' },
  { text: '#part-handler\ndef list_types(): pass\n' },
  { text: 'Content-Type: text/plain\n\nhello\n' },
  { text: '#cloud-config\na: [1\n' },
  { text: '#cloud-config\n- 1\n' },
  { text: '## template: jinja\n#cloud-config\nruncmd: 5\nhostname: {{ v1.local_hostname }}\n', instance_data: DATA },
  { text: '## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\nruncmd: [echo {{ v1.region }}]\n', instance_data: DATA },
  { text: '## template: jinja\n#cloud-config\nruncmd: {{ ds.meta_data.n }}\n', instance_data: DATA },
  { text: '## template: jinja\n#cloud-config\nruncmd: [{{ v1.missing }}]\n', instance_data: DATA },
  { text: '## template: jinja\nruncmd: [a]\n', instance_data: DATA },
  { text: '## template: jinja\n#!/bin/sh\necho {{ v1.region }}\n', instance_data: DATA },
  { text: '## template: jinja\n\n#cloud-config\nruncmd: 5\n', instance_data: DATA },
  { text: '## Template: Jinja\n#cloud-config\nruncmd: 5\n', instance_data: DATA },
  { text: '## template: jinja\n#cloud-config\nruncmd: [{{ v1.region ]\n', instance_data: DATA },
  { text: '## template: jinja\n#cloud-config\n{% if %}\n', instance_data: DATA },
  { text: '## template: jinja\n#cloud-config\nruncmd: 5\n' },
  { text: '## template: jinja\n#cloud-config\nruncmd: [{{ 1/0 }}]\n', instance_data: DATA },
  { text: '## template: jinja\n#cloud-config\na: {{ v1 }}\n', instance_data: DATA },
  { text: '## template: jinjax\n#cloud-config\nruncmd: 5\n', instance_data: DATA },
];

async function runVersion(version: SchemaVersion, cases: number, seed: number, verbose: boolean): Promise<number> {
  const oracle = new LineOracle('/usr/bin/python3', [resolve(__dirname, '../../../test/oracle/annotate_driver.py')], {
    env: { ...process.env, CLOUDINIT_PATH: CLOUDINIT_TREES[version] },
  });
  const r = new Rng(seed);
  const gen = new Gen(r, schemaData(version).schema);
  const all: Case[] = atLeast(version, '23.4') ? [...FIXED] : FIXED.map((c) => ({ text: c.text }));
  for (let i = 0; i < cases; i++) all.push({ text: render(gen.document(), r) });
  const answers = await Promise.all(all.map((c) => oracle.ask<Answer>({ ...c, annotate: false })));
  oracle.close();
  let mismatches = 0;
  let noted = 0;
  all.forEach((c, i) => {
    const theirs = answers[i];
    const files = checkFile('f', new TextEncoder().encode(c.text), version, c.instance_data);
    // (our own note under an error other versions accept, schema/acceptance: cloud-init prints no such line)
    const ours = formatText({ files, merged: null }, version).replace(/^ {2}.*: cloud-init \S+'s schema; .* accepts? .*\n/gm, '');
    const oursRejects = files.some((f) => !f.valid);
    const theirsRejects = theirs.exit !== 0;
    let same: boolean;
    if (files.some((f) => f.note)) {
      noted++;
      same = oursRejects === theirsRejects;
    } else same = withoutProse(ours) === withoutProse(theirs.stdout + theirs.stderr) && oursRejects === theirsRejects;
    if (same) return;
    mismatches++;
    if (mismatches <= 5 || verbose) console.error(`--- ${version} case ${i} differs\n${JSON.stringify(c)}\ncloud-init: ${JSON.stringify(theirs)}\nours:       ${JSON.stringify(ours)}\n`);
  });
  console.log(`${version}: ${all.length} files (${noted} answered with a note), ${mismatches} differences`);
  return mismatches;
}

if (require.main === module) void runPerVersion({ cases: 200, seed: 11 }, (version, a) => runVersion(version, a.cases, a.seed, a.verbose));
