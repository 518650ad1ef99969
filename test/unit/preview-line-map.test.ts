// The preview's line map travels in a compact form (issue 15): a table of files and numbers per line,
// each path after what it shares with the line before. Expanded by the client, it must say exactly
// what the engine's entries say, with the files' URIs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildPreview } from '../../server/src/engine/render/previewText';
import { InputFile as PreviewFile } from '../../server/src/engine/outcome/run';
import { LineProvenance as PreviewEntry } from '../../server/src/engine/outcome/provenance';
import { SourceLocation } from '../../server/src/engine/outcome/locate';
import { encodeLineMap } from '../../server/src/features/preview';
import { PreviewLineInfo, PreviewLocation, previewLines } from '../../server/src/protocol';

const file = (name: string, text: string): PreviewFile => ({ name, bytes: Buffer.from(text) });
const uriFor = (name: string) => (name === 'unnamed' ? undefined : `file:///ws/${name}`);

/** What the answer said before the compact form: an object per line, places with their URIs. */
function expected(entries: PreviewEntry[], shift: number): PreviewLineInfo[] {
  const place = (l: SourceLocation | null | undefined): PreviewLocation | null => {
    const uri = l ? uriFor(l.file) : undefined;
    return l && uri ? { uri, line: l.line, character: l.character, endLine: l.endLine, endCharacter: l.endCharacter, ...(l.note ? { note: l.note } : {}) } : null;
  };
  return entries.map((e) => ({ line: e.line + shift, path: e.path, source: place(e.source), history: e.history.map((h) => ({ what: h.what, reason: h.reason, from: place(h.from), at: place(h.at) })) }));
}

describe('the preview line map on the wire', () => {
  test("a merged preview's entries come back as they were, history and unnamed files included", () => {
    const model = buildPreview('user-data', [
      file('base.yaml', '#cloud-config\nruncmd: [one, two]\npackages: [git]\nusers: [{name: a, groups: [x, y]}]\nntp: {servers: [a.example]}\n'),
      file('app.yaml', '#cloud-config\nmerge_how: "list(append)+dict(recurse_array)+str()"\nruncmd: [three]\nntp: {servers: [b.example]}\nusers: [{name: b}]\n'),
      file('unnamed', '#cloud-config\nmerge_how: "dict(replace)+list(prepend)"\npackages: [vim, {nested: [1, 2]}]\nusers: [{name: c}]\n'),
    ]);
    assert.ok(model.entries.length > 10 && model.entries.some((e) => e.history.length), 'the case has history to carry');
    assert.ok(model.entries.some((e) => e.source?.file === 'unnamed'), 'and places in a file without a URI');
    for (const shift of [0, 3]) {
      const map = encodeLineMap(model.entries, shift, uriFor);
      assert.deepEqual(previewLines(JSON.parse(JSON.stringify(map))), expected(model.entries, shift), `shift ${shift}`);
      assert.deepEqual(map.files.map((f) => f.uri), ['file:///ws/base.yaml', 'file:///ws/app.yaml'], 'each file named once');
    }
  });

  test('notes, places before earlier ones, and paths that share nothing or everything', () => {
    const at = (file: string, line: number, character: number, endLine: number, endCharacter: number, note?: string): SourceLocation => ({ file, source: 0, line, character, endLine, endCharacter, ...(note ? { note } : {}) });
    const entries: PreviewEntry[] = [
      { line: 5, path: 'write_files', source: at('a.yaml', 9, 0, 12, 4), history: [] },
      { line: 6, path: 'write_files[0]', source: at('a.yaml', 2, 2, 2, 30, 'position in the decoded part part-001'), history: [] },
      { line: 6, path: 'write_files[0].content', source: null, history: [{ what: 'replaced', reason: 'replaced', from: at('b.yaml', 0, 1, 0, 2), at: null }] },
      { line: 9, path: 'write_files[0].content', source: at('b.yaml', 1, 0, 1, 3), history: [] },
      { line: 10, path: 'a', source: at('a.yaml', 0, 0, 0, 1), history: [] },
      { line: 11, path: 'ab[10]', source: at('unnamed', 4, 4, 4, 5), history: [] },
    ];
    const map = encodeLineMap(entries, 1, uriFor);
    assert.deepEqual(previewLines(map), expected(entries, 1));
    assert.deepEqual(map.files, [{ uri: 'file:///ws/a.yaml' }, { uri: 'file:///ws/a.yaml', note: 'position in the decoded part part-001' }, { uri: 'file:///ws/b.yaml' }]);
    assert.deepEqual(previewLines(undefined), []);
  });
});

describe('the place of each preview line', () => {
  test("an archive entry's `content: |` is placed on its own lines of the archive; an escaped one-line content in the decoded entry, with a note", () => {
    const archive = '#cloud-config-archive\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    packages: [git]\n    runcmd:\n      - echo one\n- content: "#cloud-config\\nntp: {enabled: true}"\n';
    const model = buildPreview('user-data', [file('archive.yaml', archive)]);
    const placed = (path: string) => {
      const s = model.entries.find((e) => e.path === path)?.source;
      return s ? [s.file, s.line, s.character, s.note] : null;
    };
    assert.deepEqual(placed('packages[0]'), ['archive.yaml', 4, 15, undefined]);
    assert.deepEqual(placed('runcmd[0]'), ['archive.yaml', 6, 8, undefined]);
    assert.deepEqual(placed('ntp.enabled'), ['archive.yaml', 1, 15, 'position in the decoded part part-002']);
  });

  test('a top-level key written with a dot is placed at its own value, not at a nested key of the same name', () => {
    const model = buildPreview('user-data', [file('dots.yaml', '#cloud-config\na.b: 1\na: {b: 2}\n')]);
    const at = (path: string) => model.entries.filter((e) => e.path === path).map((e) => `${model.text.split('\n')[e.line]} <- ${e.source?.line}:${e.source?.character}`);
    assert.deepEqual(at('a.b'), ['    b: 2 <- 2:7', 'a.b: 1 <- 1:5']);
  });
});
