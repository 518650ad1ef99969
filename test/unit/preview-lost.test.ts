// The preview header as a user reads it: what the merge lost (by part, with file:line, the part and the
// spec that displaced it, and what an ignored option made the merger do instead), in lines of at most
// 100 characters; the same in the CLI's --format preview and --format report.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { HEADER_WIDTH, PREVIEW_BODY_MARKER, buildPreview, unwrapHeader, wrapHeaderLine } from '../../server/src/engine/render/previewText';
import { runCli } from '../support/cli';
import { header, unwrapped } from '../support/previewHeader';

const BASE = '#cloud-config\npackages: [curl, vim]\nruncmd:\n  - echo base\nwrite_files:\n  - path: /etc/motd\n    content: hi\n';
const APP = '#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_list)+str()\npackages: [nginx]\nruncmd:\n  - echo app\n';
const TYPO = '#cloud-config\nmerge_how: list(apend)+dict(no_replace,recurse_list)+str()\npackages: [htop]\nruncmd:\n  - echo typo\nwrite_files:\n  - path: /etc/issue\n    content: x\n';
const enc = (text: string) => new TextEncoder().encode(text);

describe('what this merge lost', () => {
  const files = [
    { name: 'parts/01-base.yaml', bytes: enc(BASE) },
    { name: 'parts/02-app.yaml', bytes: enc(APP) },
    { name: 'parts/03-typo.yaml', bytes: enc(TYPO) },
  ];

  test('a typo in list(): the values it overwrote, grouped by part, with places, the displacing part and its spec', () => {
    const model = buildPreview('user-data', files);
    const text = unwrapped(model.text);
    assert.match(text, /^# What this merge lost \(3 values, 1 ignored option\), by the part that had it:$/m);
    assert.match(
      text,
      /^# {3}Ignored option in part-003 \(parts\/03-typo\.yaml\), list\(apend\): 'apend' is not an option of list\(\): ignored, so lists are overwritten item by item \(item i replaces item i, and new items past the old list's end are dropped\)\.$/m,
    );
    assert.match(text, /^# {3}From part-001 \(parts\/01-base\.yaml\), displaced by part-003 \(parts\/03-typo\.yaml\), merged with list\(apend\)\+dict\(no_replace,recurse_list\)\+str\(\) \(merge_how\):$/m);
    assert.match(text, /^# {5}packages\[0\] 'curl' at parts\/01-base\.yaml:2: replaced by parts\/03-typo\.yaml:3 \(list\(replace\) overwrites the item at the same index\)$/m);
    assert.match(text, /^# {5}runcmd\[0\] 'echo base' at parts\/01-base\.yaml:4: replaced by parts\/03-typo\.yaml:5 /m);
    assert.match(text, /^# {5}write_files\[0\] \{'path': '\/etc\/motd', 'content': 'hi'\} at parts\/01-base\.yaml:6: replaced by parts\/03-typo\.yaml:7 /m);
    assert.equal(model.losses?.total, 3);
    assert.deepEqual(model.losses?.groups.map((g) => [g.owner, g.by, g.values.map((v) => v.path)]), [[0, 2, ['packages[0]', 'runcmd[0]', 'write_files[0]']]]);
  });

  test('the merge result itself is what cloud-init writes, unchanged by the section', () => {
    const model = buildPreview('user-data', files);
    assert.equal(runCli(['--format', 'yaml', ...['01-base.yaml', '02-app.yaml', '03-typo.yaml'].map((f) => path.join(dir, f))]).stdout, model.body);
  });

  test('values a part brought that the merge rejected or dropped are grouped under that part', () => {
    const keep = '#cloud-config\nmerge_how: dict(no_replace)+list(no_replace)+str()\nhostname: second\npackages: [a, b, c]\n';
    const model = buildPreview('user-data', [
      { name: 'first.yaml', bytes: enc('#cloud-config\nhostname: first\npackages: [x]\n') },
      { name: 'second.yaml', bytes: enc(keep) },
    ]);
    const text = unwrapped(model.text);
    assert.match(text, /^# {3}From part-002 \(second\.yaml\), merged with dict\(no_replace\)\+list\(no_replace\)\+str\(\) \(merge_how\):$/m);
    assert.match(text, /^# {5}hostname 'second' at second\.yaml:3: lost, first\.yaml:2 kept \(dict\(no_replace\) keeps the existing value; a string is only merged with recurse_str\)$/m);
    assert.match(text, /^# {5}packages \['a', 'b', 'c'\] at second\.yaml:4: lost, first\.yaml:3 kept /m);
  });

  test('index-wise list items past the end are dropped, and said so', () => {
    const model = buildPreview('user-data', [
      { name: 'a.yaml', bytes: enc('#cloud-config\nruncmd: [one]\n') },
      { name: 'b.yaml', bytes: enc('#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list()+str()\nruncmd: [two, three]\n') },
    ]);
    const text = unwrapped(model.text);
    assert.match(text, /^# {5}runcmd\[0\] 'one' at a\.yaml:2: replaced by b\.yaml:3 /m);
    assert.match(text, /^# {5}runcmd \['three'\] at b\.yaml:3: lost \(1 item\(s\) dropped: list\(replace\) is index-wise: items beyond the existing list's length are dropped\)$/m);
  });

  test('a part dropped whole is listed; an option a merger never reads says what it did instead', () => {
    const model = buildPreview('user-data', [
      { name: 'a.yaml', bytes: enc('#cloud-config\nruncmd: [one]\n') },
      { name: 'oops.yaml', bytes: enc('#cloud-config\nmerge_how: list(append)+str()\nruncmd: [two]\n') },
      { name: 'c.yaml', bytes: enc('#cloud-config\nmerge_how: dict(no_replace,append)+list(append)+str()\nruncmd: [three]\n') },
    ]);
    const text = unwrapped(model.text);
    assert.match(text, /^# What this merge lost \(1 value, 1 whole part, 1 ignored option\), by the part that had it:$/m);
    assert.match(text, /^# {5}runcmd \['three'\] at c\.yaml:3: lost, a\.yaml:2 kept \(dict\(no_replace\) keeps the existing value; a list is only merged with recurse_list\)$/m);
    assert.match(text, /^# {3}part-002 \(oops\.yaml\): all of it \(DROPPED, see its line above\)\.$/m);
    assert.match(text, /^# {3}Ignored option in part-003 \(c\.yaml\), dict\(no_replace,append\): dict\(\) never reads 'append': ignored, so mappings keep the existing value of a key on both sides \(nested mappings still merge\)\.$/m);
  });

  test('many lost values: the header lists the first 100 and counts the rest', () => {
    const items = Array.from({ length: 150 }, (_, i) => `  - old-${i}`).join('\n');
    const news = Array.from({ length: 150 }, (_, i) => `  - new-${i}`).join('\n');
    const model = buildPreview('user-data', [
      { name: 'a.yaml', bytes: enc(`#cloud-config\nruncmd:\n${items}\n`) },
      { name: 'b.yaml', bytes: enc(`#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list()+str()\nruncmd:\n${news}\n`) },
    ]);
    assert.equal(model.losses?.total, 150);
    const text = unwrapped(model.text);
    assert.equal(text.match(/^# {5}runcmd\[\d+\] /gm)?.length, 100);
    assert.match(text, /^# {3}… and 50 more \(--format report lists up to 1000\)$/m);
  });

  test('boot mode: what the user-data layer\'s own merge lost, under the layers', () => {
    const model = buildPreview('boot', files, { layers: { cloudCfg: { name: 'cloud.cfg', bytes: enc('runcmd: [from-image]\n') } } });
    const text = unwrapped(model.text);
    assert.match(text, /^# What this user-data merge lost \(3 values, 1 ignored option\), by the part that had it:$/m);
    assert.match(text, /^# {5}packages\[0\] 'curl' at parts\/01-base\.yaml:2: replaced by parts\/03-typo\.yaml:3 /m);
    for (const line of header(model.text)) assert.ok(line.length <= HEADER_WIDTH, line);
  });

  test('nothing lost is said too', () => {
    const model = buildPreview('user-data', [{ name: 'a.yaml', bytes: enc('#cloud-config\nruncmd: [one]\n') }]);
    assert.match(model.text, /^# What this merge lost: nothing \(no value of a part was replaced, deleted, lost or dropped\)$/m);
  });

  test('the same value written again is not a loss', () => {
    const model = buildPreview('user-data', [
      { name: 'a.yaml', bytes: enc('#cloud-config\ntimezone: UTC\n') },
      { name: 'b.yaml', bytes: enc('#cloud-config\ntimezone: UTC\n') },
    ]);
    assert.equal(model.losses?.total, 0);
  });

  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ccm-lost-'));
    writeFileSync(path.join(dir, '01-base.yaml'), BASE);
    writeFileSync(path.join(dir, '02-app.yaml'), APP);
    writeFileSync(path.join(dir, '03-typo.yaml'), TYPO);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('--format preview prints the section, every header line at most 100 characters', () => {
    const { code, stdout } = runCli(['--format', 'preview', ...['01-base.yaml', '02-app.yaml', '03-typo.yaml'].map((f) => path.join(dir, f))]);
    assert.equal(code, 0);
    const lines = header(stdout);
    for (const line of lines) assert.ok(line.length <= HEADER_WIDTH, `${line.length} characters: ${line}`);
    assert.ok(lines.some((l) => l.length > 90), 'long lines are filled, not cut short');
    const text = unwrapHeader(stdout);
    assert.match(text, /packages\[0\] 'curl' at .*01-base\.yaml:2: replaced by .*03-typo\.yaml:3/);
    assert.match(text, /'apend' is not an option of list\(\): ignored, so lists are overwritten item by item/);
    assert.match(text, /DROPPED|merged with list\(apend\)/);
  });

  test('--format report has the same losses as data', () => {
    const { code, stdout } = runCli(['--format', 'report', ...['01-base.yaml', '02-app.yaml', '03-typo.yaml'].map((f) => path.join(dir, f))]);
    assert.equal(code, 0);
    const lost = JSON.parse(stdout).lost;
    assert.equal(lost.total, 3);
    assert.deepEqual(lost.values[0], {
      part: 1,
      by_part: 3,
      path: 'packages[0]',
      value: "'curl'",
      what: 'replaced',
      reason: 'list(replace) overwrites the item at the same index',
      at: { file: path.join(dir, '01-base.yaml'), line: 2, column: 12 },
      by: { file: path.join(dir, '03-typo.yaml'), line: 3, column: 12 },
    });
    assert.deepEqual(lost.ignored_options.map((i: { part: number; option: string }) => [i.part, i.option]), [[3, 'apend']]);
    assert.deepEqual(lost.dropped_parts, []);
  });
});

describe('header lines wrap at 100 characters', () => {
  test('a short line is kept as it is', () => {
    assert.deepEqual(wrapHeaderLine('# Note: short'), ['# Note: short']);
  });

  test('a long line breaks at spaces, continuations indented deeper than the item', () => {
    const line = `#   1. part-001 (text/cloud-config) from ${'very/'.repeat(8)}long.yaml: DROPPED. ${'word '.repeat(30).trim()}`;
    const wrapped = wrapHeaderLine(line);
    assert.ok(wrapped.length > 1);
    for (const l of wrapped) assert.ok(l.length <= 100, l);
    assert.equal(wrapped[0].slice(0, 7), '#   1. ');
    for (const l of wrapped.slice(1)) assert.match(l, /^# {9}\S/);
    assert.equal(wrapped.map((l, i) => (i ? l.slice(10) : l)).join(' '), line);
    assert.equal(unwrapHeader(['# Title', line, '#     an item', line.replace('#   1.', '#   2.'), PREVIEW_BODY_MARKER, '#     body'].join('\n').replace(line, wrapped.join('\n'))), ['# Title', line, '#     an item', line.replace('#   1.', '#   2.'), PREVIEW_BODY_MARKER, '#     body'].join('\n'));
  });

  test('a word longer than a line is cut, nothing is lost', () => {
    const word = 'x'.repeat(250);
    const wrapped = wrapHeaderLine(`# Note: ${word} end`);
    for (const l of wrapped) assert.ok(l.length <= 100, `${l.length}`);
    assert.equal(wrapped.map((l, i) => (i ? l.replace(/^# +/, '') : l.slice('# Note: '.length))).join(''), word + ' end');
  });

  test('every preview header fits, whatever its notes', () => {
    const long = `#cloud-config\nmerge_how: ${'list(append)+'.repeat(20)}dict(no_replace)\nx: 1\n`;
    const model = buildPreview('user-data', [{ name: `${'deep/'.repeat(30)}file.yaml`, bytes: enc(long) }]);
    for (const line of header(model.text)) assert.ok(line.length <= HEADER_WIDTH, `${line.length}: ${line}`);
  });
});

test('an option repeated thousands of times is listed once; at most 20 distinct ignored options per merger (a 23 KB spec made a 106 MB header)', () => {
  const settings = ['no_replace', 'recurse_list', ...Array.from({ length: 3000 }, () => 're'), ...Array.from({ length: 30 }, (_, i) => `opt${i}`)];
  const part = `#cloud-config\nmerge_how:\n  - name: list\n    settings: [append]\n  - name: dict\n    settings: [${settings.join(', ')}]\nruncmd: [two]\n`;
  const { text } = buildPreview('user-data', [
    { name: 'a.yaml', bytes: enc('#cloud-config\nruncmd: [one]\n') },
    { name: 'b.yaml', bytes: enc(part) },
  ]);
  const lines = unwrapped(text).split('\n').filter((l) => l.startsWith('#   Ignored option'));
  assert.equal(lines.length, 20);
  assert.equal(lines.filter((l) => l.includes("'re' is not an option of dict()")).length, 1);
  assert.ok(lines.every((l) => l.includes('dict(no_replace,recurse_list,re,re,') && l.includes('…): ')), 'the spec as written, cut short');
  assert.ok(text.length < 20_000, `${text.length} characters`);
});
