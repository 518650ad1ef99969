// A preview read in a side column (issue 31, item 8): the header wraps to the width the client asks for,
// and folds by its sections (the parts, notes, what the merge lost, the schema) so "What this merge lost"
// can be read without maximizing; the merged data folds by its keys and items, a list under its key too.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HEADER_WIDTH, MAX_DATA_FOLDS, MAX_HEADER_WIDTH, MIN_HEADER_WIDTH, buildPreview, foldsOf, headerWidthOf, unwrapHeader } from '../../server/src/engine/render/previewText';
import { header } from '../support/previewHeader';
import { previewFolds } from '../../client/src/preview/folding';

const enc = (text: string) => new TextEncoder().encode(text);
const BASE = '#cloud-config\npackages: [curl, jq]\nruncmd:\n  - echo base\n  - [systemctl, enable, chrony]\nwrite_files:\n  - path: /etc/motd\n    content: |\n      Managed by cloud-init.\n      Local changes are overwritten.\n';
const WEB = '#cloud-config\nmerge_how: list(append)+dict(no_replace,recurse_lists)+str()\npackages: [nginx]\nhostname: web-01\n';
const SECRETS = '#cloud-config\nruncmd:\n  - echo secrets\nchpasswd: {expire: nope}\n';
const FILES = [
  { name: 'base.yaml', bytes: enc(BASE) },
  { name: '20-web.yaml', bytes: enc(WEB) },
  { name: '30-secrets.yaml', bytes: enc(SECRETS) },
];

/** The fold that starts on the line with this text. */
function foldAt(text: string, folds: number[], line: string): [number, number] | undefined {
  const at = text.split('\n').indexOf(line);
  assert.ok(at >= 0, `'${line}' in the preview`);
  for (let i = 0; i < folds.length; i += 2) if (folds[i] === at) return [folds[i], folds[i + 1]];
  return undefined;
}

describe('the header in a side column', () => {
  test('asked for 60 columns, every header line fits and says the same as at 100', () => {
    const wide = buildPreview('user-data', FILES, { schema: true });
    const narrow = buildPreview('user-data', FILES, { schema: true, headerWidth: 60 });
    assert.ok(header(wide.text).some((l) => l.length > 60), 'at 100 columns some lines are wider than a side column');
    for (const line of header(narrow.text)) assert.ok(line.length <= 60, `${line.length}: ${line}`);
    assert.equal(unwrapHeader(narrow.text), unwrapHeader(wide.text));
    assert.equal(narrow.body, wide.body);
    // The header's links still point at the words they name.
    const lines = narrow.text.split('\n');
    for (const l of narrow.headerLinks) assert.ok(l.target.file === lines[l.line].slice(l.character, l.endCharacter).replace(/:\d+$/, ''), JSON.stringify(l));
  });

  test('a width out of bounds or not a number is bounded, never a crash or a line per word', () => {
    assert.equal(headerWidthOf(undefined), HEADER_WIDTH);
    assert.equal(headerWidthOf('80'), HEADER_WIDTH);
    assert.equal(headerWidthOf(Number.NaN), HEADER_WIDTH);
    assert.equal(headerWidthOf(3), MIN_HEADER_WIDTH);
    assert.equal(headerWidthOf(-1), MIN_HEADER_WIDTH);
    assert.equal(headerWidthOf(72.9), 72);
    assert.equal(headerWidthOf(1e9), MAX_HEADER_WIDTH);
    for (const line of header(buildPreview('user-data', FILES, { headerWidth: 1 }).text)) assert.ok(line.length <= MIN_HEADER_WIDTH, line);
  });
});

describe('the header folds by its sections', () => {
  test('the parts, what the merge lost and the schema: each from its heading to its last line', () => {
    const model = buildPreview('user-data', FILES, { schema: true, headerWidth: 60 });
    const lines = model.text.split('\n');
    const byKind = new Map(model.headerSections.map((s) => [s.kind, s]));
    assert.deepEqual([...byKind.keys()], ['parts', 'lost', 'schema']);
    assert.equal(lines[byKind.get('parts')!.line], '# Parts, in the order cloud-init reads them:');
    assert.match(lines[byKind.get('lost')!.line], /^# What this merge lost \(/);
    assert.match(lines[byKind.get('schema')!.line], /^# Schema: cloud-init rejects the merged result/);
    // One after the other, together the whole header below its title (wrapped too, at 60 columns).
    assert.match(lines[model.headerSections[0].line - 1], /^# {4}cloud-init merges them$/);
    for (let i = 1; i < model.headerSections.length; i++) assert.equal(model.headerSections[i].line, model.headerSections[i - 1].endLine + 1);
    assert.equal(lines[model.headerSections[model.headerSections.length - 1].endLine + 1], '# ---- what cloud-init writes ----');
    // A wrapped line ends inside its section.
    const lost = byKind.get('lost')!;
    assert.match(lines[lost.endLine], /^# {4,}/, 'the lost section ends with a continuation line');
  });

  test('notes are a section; a preview that merged nothing has its parts and its reason', () => {
    const dropped = buildPreview('user-data', [{ name: 'bad.yaml', bytes: enc('#cloud-config\nmerge_how: [{name: list}, 7]\nx: [\n') }]);
    assert.deepEqual(dropped.headerSections.map((s) => s.kind), ['parts', 'notes', 'lost']);
    const note = dropped.headerSections[1];
    assert.match(dropped.text.split('\n')[note.line], /^# Note: Failed at merging in cloud config part from part-001/);
    const failed = buildPreview('user-data', [{ name: 'x.yaml', bytes: enc('#include\nhttp://example.com/x\n') }], { headerWidth: 60 });
    assert.ok(failed.failure);
    assert.deepEqual(failed.headerSections.map((s) => s.kind), ['parts', 'notes']);
    const lines = failed.text.split('\n');
    assert.equal(lines[failed.headerSections[1].endLine + 1], '# ---- what cloud-init writes ----');
    assert.deepEqual(failed.dataFolds, []);
  });
});

describe('the merged data folds by its keys and items', () => {
  const model = buildPreview('user-data', FILES);
  const text = model.text;

  test('a key folds what is under it, a list that cloud-init writes unindented too', () => {
    const runcmd = foldAt(text, model.dataFolds, 'runcmd:');
    const lines = text.split('\n');
    assert.ok(runcmd);
    assert.deepEqual(lines.slice(runcmd[0], runcmd[1] + 1), ['runcmd:', '- echo secrets']);
    const packages = foldAt(text, model.dataFolds, 'packages:')!;
    assert.deepEqual(lines.slice(packages[0], packages[1] + 1), ['packages:', '- curl', '- jq']);
  });

  test('an item with a multi-line value folds to its last line; the last key of the data folds to the end of the data', () => {
    const lines = text.split('\n');
    const files = foldAt(text, model.dataFolds, 'write_files:')!;
    assert.equal(lines[files[1] + 1], '...', 'up to the document end line');
    assert.match(lines[files[1]], /path: \/etc\/motd|Local changes/);
  });

  test('no fold of one line, folds nested in each other, in line order', () => {
    const f = model.dataFolds;
    const ranges = Array.from({ length: f.length / 2 }, (_, i) => [f[2 * i], f[2 * i + 1]]);
    for (const [a, b] of ranges) assert.ok(b > a);
    for (let i = 1; i < ranges.length; i++) {
      assert.ok(ranges[i][0] > ranges[i - 1][0], 'one fold per first line, in order');
      const [a, b] = ranges[i - 1];
      const [c, d] = ranges[i];
      assert.ok(c > b || d <= b, `[${a}, ${b}] and [${c}, ${d}] nest or follow`);
    }
  });

  test('a huge list keeps its outermost folds, at most MAX_DATA_FOLDS', () => {
    const lines = Array.from({ length: MAX_DATA_FOLDS + 10 }, (_, i) => ({ path: ['runcmd', i, 0], line: 2 + i * 2 }));
    const dumped = [{ path: ['runcmd'], line: 0 }, ...lines.flatMap((l) => [{ path: l.path.slice(0, 2), line: l.line }, l])];
    const folds = foldsOf(dumped, 10, 100_000);
    assert.equal(folds.length, MAX_DATA_FOLDS * 2);
    assert.deepEqual(folds.slice(0, 2), [10, 100_000], 'the outermost fold is kept');
  });
});

describe('the folds the editor shows', () => {
  const model = buildPreview('user-data', FILES, { schema: true });
  const result = { headerSections: model.headerSections, dataFolds: model.dataFolds };
  const lineCount = model.text.split('\n').length;

  test('the header sections, as regions, and the data', () => {
    const folds = previewFolds(result, lineCount);
    assert.deepEqual(folds.filter((f) => f.section).map((f) => f.section), ['parts', 'lost', 'schema']);
    assert.equal(folds.filter((f) => !f.section).length, model.dataFolds.length / 2);
  });

  test('a data-only view (Compare): no header, the data lines moved up under its title line', () => {
    const at = model.text.split('\n').indexOf('---');
    const shift = at - 1;
    const folds = previewFolds({ ...result, lineShift: shift }, lineCount - shift);
    assert.ok(folds.every((f) => !f.section && f.start >= 1));
    assert.deepEqual(folds.map((f) => [f.start + shift, f.end + shift]), previewFolds(result, lineCount).filter((f) => !f.section).map((f) => [f.start, f.end]));
  });

  test('what is not a fold of this text is left out (a stale or hand-made answer)', () => {
    assert.deepEqual(previewFolds({ headerSections: [{ kind: 'parts', line: 1, endLine: 1 }, { kind: 'lost', line: 2, endLine: 99 }], dataFolds: [3, 2, 4, 5.5, 6] }, 10), []);
  });
});
