// Diagnostics as an editor receives them from the built server: for every code the linter can
// emit, the code, the range it marks and its severity; and documents that must get none at all.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostic, DiagnosticSeverity, DiagnosticTag, Range } from 'vscode-languageserver-protocol';
import { LspClient, fixtureUri, rangeOf } from '../support/lspClient';
import { DEFAULT_LIMITS } from '../../server/src/engine/limits';
import { MAX_DIAGNOSTICS } from '../../server/src/features/diagnostics';
import { APPEND_LISTS, VALID_DOCUMENTS, WEB_SERVER, gzipBase64, mime } from './fixtures';

const { Error: E, Warning: W, Information: I, Hint: H } = DiagnosticSeverity;

interface Expected {
  code: string;
  severity: DiagnosticSeverity;
  /** The text the diagnostic marks: a needle, or [needle, occurrence], or an explicit range. */
  at: string | [string, number] | Range;
  unnecessary?: boolean;
  /** What the message must say (besides being a real explanation). */
  message?: RegExp;
}

interface Case {
  code: string;
  title: string;
  text: string;
  /** Fixture path (decides cloud.cfg.d / cloud.cfg detection). */
  path?: string;
  expect: Expected[];
  settings?: Record<string, unknown>;
}

const cc = (body: string) => `#cloud-config\n${body}`;

const CASES: Case[] = [
  // ---- the string form: why a spec does not parse
  { code: 'plus-in-options', title: "'+' between options", text: cc("merge_how: 'list(append+prepend)+dict(no_replace,recurse_list)'\nruncmd: [ls]\n"), expect: [{ code: 'plus-in-options', severity: E, at: 'list(append+prepend)' }] },
  {
    code: 'newline-in-spec',
    title: 'a line break inside the parentheses (block scalar: the whole value is marked)',
    text: cc('merge_how: |\n  list(append,\n  prepend)+dict(no_replace,recurse_list)\nruncmd: [ls]\n'),
    expect: [{ code: 'newline-in-spec', severity: E, at: { start: { line: 1, character: 11 }, end: { line: 3, character: 40 } } }],
  },
  { code: 'missing-parentheses', title: 'a merger without ()', text: cc(`merge_how: list(append)+dict(no_replace,recurse_list)+str\npackages: [git]\n`), expect: [{ code: 'missing-parentheses', severity: E, at: ['str', 0] }] },
  { code: 'space-before-paren', title: "a space before '('", text: cc('merge_how: list (append)+dict(no_replace,recurse_list)+str()\n'), expect: [{ code: 'space-before-paren', severity: E, at: 'list (append)' }] },
  { code: 'trailing-text', title: "text after ')'", text: cc('merge_how: list(append)s+dict(no_replace,recurse_list)+str()\n'), expect: [{ code: 'trailing-text', severity: E, at: 'list(append)s' }] },
  { code: 'unclosed-parenthesis', title: "no closing ')'", text: cc('merge_how: list(append)+dict(no_replace,recurse_list\nruncmd: [ls]\n'), expect: [{ code: 'unclosed-parenthesis', severity: E, at: 'dict(no_replace,recurse_list' }] },
  { code: 'invalid-merger-name', title: 'a name with a dot', text: cc('merge_how: cloudinit.list(append)+dict()\n'), expect: [{ code: 'invalid-merger-name', severity: E, at: 'cloudinit.list(append)' }] },
  { code: 'missing-plus', title: "two mergers without '+'", text: cc('merge_how: list(append)dict(no_replace,recurse_list)\n'), expect: [{ code: 'missing-plus', severity: E, at: 'append)dict(no_replace' }] },
  // ---- the string form: words cloud-init accepts but that do not do what was meant
  { code: 'unknown-option', title: 'a misspelt option', text: cc(`merge_how: list(apend)+dict(no_replace,recurse_list)+str()\n`), expect: [{ code: 'unknown-option', severity: W, at: 'apend', message: /ignores it silently, so lists are overwritten item by item \(item i replaces item i, and new items past the old list's end are dropped\)\. Did you mean 'append'\?/ }] },
  { code: 'option-ignored', title: 'an option the merger never reads', text: cc('merge_how: list(append)+dict(no_replace,recurse_list,append)+str()\n'), expect: [{ code: 'option-ignored', severity: W, at: ['append', 1], unnecessary: true, message: /never reads 'append': it has no effect here, so mappings keep the existing value of a key on both sides \(nested mappings still merge, and lists too\)\./ }] },
  { code: 'duplicate-option', title: 'an option given twice', text: cc('merge_how: list(append,append)+dict(no_replace,recurse_list)+str()\n'), expect: [{ code: 'duplicate-option', severity: H, at: ['append', 1], unnecessary: true }] },
  { code: 'conflicting-options', title: 'prepend loses to append', text: cc('merge_how: list(prepend,append)+dict(no_replace,recurse_list)+str()\n'), expect: [{ code: 'conflicting-options', severity: W, at: 'prepend', unnecessary: true }] },
  { code: 'unknown-merger', title: 'a merger cloud-init does not have', text: cc('merge_how: lists(append)+dict(no_replace,recurse_list)+str()\n'), expect: [{ code: 'unknown-merger', severity: E, at: 'lists' }] },
  { code: 'duplicate-merger', title: 'dict() twice', text: cc('merge_how: dict(replace)+list()+dict(no_replace)+str()\n'), expect: [{ code: 'duplicate-merger', severity: W, at: 'dict(no_replace)', unnecessary: true }] },
  { code: 'no-dict-merger', title: 'no dict(): the part is discarded', text: cc('merge_how: list(append)+str()\nruncmd:\n  - echo hi\n'), expect: [{ code: 'no-dict-merger', severity: E, at: 'list(append)+str()' }] },
  {
    code: 'merger-unreachable',
    title: 'dict(replace) never lets list(append) run',
    text: cc('merge_how: dict(replace)+list(append)+str()\n'),
    expect: [{ code: 'merger-unreachable', severity: W, at: 'list(append)' }],
  },
  { code: 'list-merger-unreachable', title: 'list(append) without recurse_list', text: cc('merge_how: list(append)+dict(no_replace)+str()\npackages: [vim]\n'), expect: [{ code: 'list-merger-unreachable', severity: W, at: 'list(append)' }] },
  { code: 'str-append-unreachable', title: 'str(append) without recurse_str', text: cc('merge_how: dict(no_replace,recurse_list)+list(append)+str(append)\n'), expect: [{ code: 'str-append-unreachable', severity: W, at: 'str(append)' }] },
  { code: 'empty-spec', title: 'an empty string', text: cc("merge_how: ''\nruncmd: [ls]\n"), expect: [{ code: 'empty-spec', severity: I, at: "''" }] },
  // ---- the list form
  { code: 'merge-how-mapping', title: 'one mapping instead of a list', text: cc('merge_how:\n  name: list\n  settings: [append]\n'), expect: [{ code: 'merge-how-mapping', severity: E, at: 'name: list\n  settings: [append]' }] },
  { code: 'merge-how-not-list', title: 'a number', text: cc('merge_how: 1\n'), expect: [{ code: 'merge-how-not-list', severity: E, at: ['1', 0] }] },
  {
    code: 'string-element',
    title: 'string-form specs as list items',
    text: cc('merge_how:\n  - list(append)\n  - dict(no_replace,recurse_list)\n'),
    expect: [
      { code: 'string-element', severity: E, at: 'list(append)' },
      { code: 'string-element', severity: E, at: 'dict(no_replace,recurse_list)' },
    ],
  },
  {
    code: 'extra-key',
    title: 'a key cloud-init ignores',
    text: cc('merge_how:\n  - name: list\n    settings: [append]\n    comment: keep package order\n  - name: dict\n    settings: [no_replace, recurse_list]\n'),
    expect: [{ code: 'extra-key', severity: W, at: 'comment', unnecessary: true }],
  },
  { code: 'missing-name', title: 'an entry without name', text: cc('merge_how:\n  - settings: [append]\n  - name: dict\n    settings: []\n'), expect: [{ code: 'missing-name', severity: E, at: 'settings: [append]' }] },
  { code: 'missing-settings', title: 'an entry without settings', text: cc('merge_how:\n  - name: list\n  - name: dict\n    settings: [no_replace]\n'), expect: [{ code: 'missing-settings', severity: E, at: 'name: list' }] },
  { code: 'name-not-string', title: 'a number as name', text: cc('merge_how:\n  - name: 7\n    settings: []\n'), expect: [{ code: 'name-not-string', severity: E, at: '7' }] },
  {
    code: 'name-not-lowercase',
    title: 'List in the list form',
    text: cc('merge_how:\n  - name: List\n    settings: [append]\n  - name: dict\n    settings: [no_replace, recurse_list]\n'),
    expect: [{ code: 'name-not-lowercase', severity: E, at: 'List' }],
  },
  { code: 'settings-not-list', title: 'settings: null', text: cc('merge_how:\n  - name: dict\n    settings: null\n'), expect: [{ code: 'settings-not-list', severity: E, at: 'null' }] },
  {
    code: 'settings-is-string',
    title: 'settings as a string (substring matching)',
    text: cc('merge_how:\n  - name: list\n    settings: no_replace\n  - name: dict\n    settings: [no_replace, recurse_list]\n'),
    expect: [{ code: 'settings-is-string', severity: W, at: ['no_replace', 0] }],
  },
  {
    code: 'option-not-string',
    title: 'a number among the settings',
    text: cc('merge_how:\n  - name: list\n    settings: [append, 2]\n  - name: dict\n    settings: [no_replace, recurse_list]\n'),
    expect: [{ code: 'option-not-string', severity: W, at: '2', unnecessary: true }],
  },
  { code: 'spec-rejected', title: 'a list element cloud-init cannot index', text: cc('merge_how: [5]\n'), expect: [{ code: 'spec-rejected', severity: E, at: '[5]' }] },
  // ---- the document
  { code: 'yaml-invalid', title: 'broken indentation', text: cc('runcmd:\n  - echo one\n packages:\n  - git\n'), expect: [{ code: 'yaml-invalid', severity: E, at: { start: { line: 3, character: 1 }, end: { line: 3, character: 2 } } }] },
  { code: 'limit-exceeded', title: 'nesting deeper than the limit', text: cc(`deep: ${'['.repeat(5100)}${']'.repeat(5100)}\n`), expect: [{ code: 'limit-exceeded', severity: E, at: { start: { line: 1, character: 5 + DEFAULT_LIMITS.maxDepth }, end: { line: 1, character: 6 + DEFAULT_LIMITS.maxDepth } } }] },
  { code: 'duplicate-key', title: 'packages twice', text: cc('packages: [nginx]\nruncmd: [ls]\npackages: [git]\n'), expect: [{ code: 'duplicate-key', severity: W, at: ['packages', 1] }] },
  { code: 'second-header', title: 'two parts pasted into one file', text: cc('packages: [nginx]\n\n#cloud-config\nruncmd: [ls]\n'), expect: [{ code: 'second-header', severity: W, at: ['#cloud-config', 1] }] },
  { code: 'include-in-body', title: '#include inside a cloud-config', text: cc('#include https://example.com/common.yaml\npackages: [nginx]\n'), expect: [{ code: 'include-in-body', severity: W, at: '#include https://example.com/common.yaml' }] },
  { code: 'empty-cloud-config', title: 'only the header', text: cc('# TODO: fill in\n'), expect: [{ code: 'empty-cloud-config', severity: W, at: '#cloud-config' }] },
  { code: 'root-not-mapping', title: 'a list at the top', text: cc('- apt-get update\n- apt-get install -y nginx\n'), expect: [{ code: 'root-not-mapping', severity: E, at: '- apt-get update\n- apt-get install -y nginx' }] },
  {
    code: 'leftover-merge-type',
    title: 'merge_type next to merge_how',
    text: cc(`merge_how: dict(replace)+list()+str()\nmerge_type: ${APPEND_LISTS}\nruncmd: [ls]\n`),
    expect: [{ code: 'leftover-merge-type', severity: W, at: 'merge_type' }],
  },
  { code: 'nested-merge-how', title: 'merge_how inside write_files', text: cc('write_files:\n  - path: /etc/app.conf\n    content: x\n    merge_how: list(append)\n'), expect: [{ code: 'nested-merge-how', severity: W, at: 'merge_how' }] },
  {
    code: 'confd-merge-how',
    title: 'a spec in a cloud.cfg.d drop-in',
    path: 'etc/cloud/cloud.cfg.d/99-runcmd.cfg',
    text: `merge_how: ${APPEND_LISTS}\nruncmd:\n  - echo from the image\n`,
    expect: [{ code: 'confd-merge-how', severity: I, at: 'merge_how' }],
  },
  {
    code: 'no-dict-merger',
    title: 'no dict() in a drop-in is a warning there',
    path: 'etc/cloud/cloud.cfg.d/50-lists.cfg',
    text: 'merge_how: list(append)\nruncmd: [ls]\n',
    expect: [
      { code: 'no-dict-merger', severity: W, at: 'list(append)' },
      { code: 'confd-merge-how', severity: I, at: 'merge_how' },
    ],
  },
  {
    code: 'too-large',
    title: 'over the setting limits.maxFileBytes',
    text: WEB_SERVER,
    settings: { limits: { maxFileBytes: 64 } },
    expect: [{ code: 'too-large', severity: W, at: '#cloud-config', message: /over the limit maxFileBytes = 64: it is not analysed\. \(setting cloudConfigMerge\.limits\.maxFileBytes\)$/ }],
  },
  {
    code: 'limit-exceeded',
    title: 'nesting deeper than the setting limits.maxDepth (dotted keys, as other editors send them)',
    text: cc(`deep: ${'['.repeat(40)}${']'.repeat(40)}\n`),
    settings: { 'limits.maxDepth': 30 },
    expect: [{ code: 'limit-exceeded', severity: E, at: { start: { line: 1, character: 5 + 30 }, end: { line: 1, character: 5 + 31 } }, message: /nesting deeper than 30 levels \(maxDepth\).*\(setting cloudConfigMerge\.limits\.maxDepth\)$/ }],
  },
  // ---- MIME multipart
  {
    code: 'header-case',
    title: 'a lower-case merge-type header',
    path: 'mime/header-case.txt',
    text: mime([{ headers: [`merge-type: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd: [ls]\n' }]),
    expect: [{ code: 'header-case', severity: W, at: 'merge-type' }],
  },
  {
    code: 'gzip-headers-dropped',
    title: 'Merge-Type on a gzip part',
    path: 'mime/gzip.txt',
    text: mime([{ type: 'application/gzip', headers: ['Content-Disposition: attachment; filename="part.gz"', `Merge-Type: ${APPEND_LISTS}`], body: gzipBase64('#cloud-config\nruncmd: [ls]\n') }]).replace('Content-Transfer-Encoding: 7bit', 'Content-Transfer-Encoding: base64'),
    expect: [{ code: 'gzip-headers-dropped', severity: W, at: 'Merge-Type' }],
  },
  {
    code: 'body-overrides-header',
    title: 'body and header both name list()',
    path: 'mime/body-header.txt',
    text: mime([{ headers: [`Merge-Type: ${APPEND_LISTS}`], body: '#cloud-config\nmerge_how: dict(replace)+list()+str()\nruncmd: [ls]\n' }]),
    expect: [{ code: 'body-overrides-header', severity: I, at: `Merge-Type: ${APPEND_LISTS}` }],
  },
  {
    code: 'x-merge-type-ignored',
    title: 'X-Merge-Type shadowed by a different Merge-Type',
    path: 'mime/x-merge.txt',
    text: mime([{ headers: [`Merge-Type: ${APPEND_LISTS}`, 'X-Merge-Type: dict(replace)+list()+str()'], body: '#cloud-config\nruncmd: [ls]\n' }]),
    expect: [{ code: 'x-merge-type-ignored', severity: W, at: 'X-Merge-Type', unnecessary: true }],
  },
  {
    code: 'no-dict-merger',
    title: 'a header spec without dict()',
    path: 'mime/header-no-dict.txt',
    text: mime([{ headers: ['Merge-Type: list(append)+str()'], body: '#cloud-config\nruncmd: [ls]\n' }]),
    expect: [{ code: 'no-dict-merger', severity: E, at: 'list(append)+str()' }],
  },
  {
    code: 'yaml-invalid',
    title: 'a broken part body points into the multipart file',
    path: 'mime/broken-body.txt',
    text: mime([{ body: '#cloud-config\nruncmd:\n  - echo one\n packages: [git]\n' }]),
    expect: [{ code: 'yaml-invalid', severity: E, at: { start: { line: 11, character: 1 }, end: { line: 11, character: 2 } } }],
  },
  {
    code: 'mime-boundary',
    title: 'multipart without a boundary parameter',
    path: 'mime/no-boundary.txt',
    text: 'Content-Type: multipart/mixed\nMIME-Version: 1.0\n\n--x\nContent-Type: text/cloud-config\n\n#cloud-config\nruncmd: [ls]\n--x--\n',
    expect: [{ code: 'mime-boundary', severity: E, at: '--x\nContent-Type: text/cloud-config\n\n#cloud-config\nruncmd: [ls]\n--x--\n' }],
  },
  {
    code: 'mime-invalid',
    title: 'message/rfc822 nested beyond recursion',
    path: 'mime/nested.txt',
    text: `MIME-Version: 1.0\n${'Content-Type: message/rfc822\n\n'.repeat(1000)}Content-Type: text/cloud-config\n\n#cloud-config\nruncmd: [ls]\n`,
    expect: [{ code: 'mime-invalid', severity: E, at: 'MIME-Version: 1.0' }],
  },
];

function toRange(text: string, at: Expected['at']): Range {
  if (typeof at === 'string') return rangeOf(text, at);
  if (Array.isArray(at)) return rangeOf(text, at[0], at[1]);
  return at;
}

function shape(d: Diagnostic) {
  return { code: d.code, severity: d.severity, range: d.range };
}

const order = (a: { range: Range; code?: unknown }, b: { range: Range; code?: unknown }) =>
  a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || String(a.code).localeCompare(String(b.code));

describe('diagnostics', () => {
  let client: LspClient;
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });

  CASES.forEach((c, i) => {
    test(`${c.code}: ${c.title}`, async () => {
      client.settings = c.settings ?? {};
      const uri = fixtureUri(`case-${i}/${c.path ?? 'user-data.yaml'}`);
      // The table pins the merge-spec findings; cloud-init's schema findings (many of these specs are
      // also schema errors) have their own tests in schema-diagnostics.test.ts.
      // So have the findings of a multipart's own run (its fates, the merged result's schema, the plan).
      const schemaExpected = c.expect.some((e) => e.code.startsWith('schema-'));
      const runExpected = c.expect.some((e) => /^(fate-|merged-schema-|plan-)/.test(e.code));
      const diagnostics = (await client.open(uri, c.text)).filter((d) => (schemaExpected || !String(d.code).startsWith('schema-')) && (runExpected || !/^(fate-|merged-schema-|plan-)/.test(String(d.code))));
      client.close(uri);
      const expected = c.expect.map((e) => ({ code: e.code, severity: e.severity, range: toRange(c.text, e.at) })).sort(order);
      assert.deepEqual(diagnostics.map(shape).sort(order), expected);
      for (const d of diagnostics) {
        assert.equal(d.source, 'cloud-config-merge');
        assert.ok(typeof d.message === 'string' && d.message.length > 20, `a real explanation for ${d.code}`);
        const unnecessary = c.expect.find((e) => e.code === d.code)?.unnecessary ?? false;
        assert.equal(d.tags?.includes(DiagnosticTag.Unnecessary) ?? false, unnecessary, `Unnecessary tag on ${d.code}`);
        const message = c.expect.find((e) => e.code === d.code)?.message;
        if (message) assert.match(d.message, message);
      }
    });
  });

  test('every code the table names is exercised exactly as listed', () => {
    const codes = new Set(CASES.flatMap((c) => c.expect.map((e) => e.code)));
    assert.ok(codes.size >= 48, `${codes.size} codes`);
  });

  describe('valid documents get no diagnostics at all', () => {
    VALID_DOCUMENTS.forEach((doc, i) => {
      test(doc.name, async () => {
        client.settings = doc.settings ?? {};
        const uri = fixtureUri(`valid-${i}/${doc.path}`);
        const diagnostics = await client.open(uri, doc.text, doc.languageId ?? 'yaml');
        client.close(uri);
        assert.deepEqual(diagnostics, []);
      });
    });
  });

  test('past MAX_DIAGNOSTICS findings, the most severe are published and one more says how many were left out', async () => {
    // 1,500 duplicate keys (warnings) before one malformed spec (an error) at the very end.
    const text = cc('a: 1\n'.repeat(1501) + "merge_how: 'list(append+prepend)+dict()'\n");
    const uri = fixtureUri('many/user-data.yaml');
    client.settings = { schema: { enable: false } }; // only the duplicate keys and the spec: a known count
    const diagnostics = await client.open(uri, text);
    client.settings = {};
    client.close(uri);
    assert.equal(diagnostics.length, MAX_DIAGNOSTICS + 1);
    assert.ok(diagnostics.some((d) => d.code === 'plus-in-options'), 'the error is kept');
    const last = diagnostics[diagnostics.length - 1];
    assert.equal(last.code, 'too-many-problems');
    assert.equal(last.severity, I);
    assert.equal(last.message, `501 more problems in this document are not shown (at most ${MAX_DIAGNOSTICS}, the most severe first).`);
    const shown = diagnostics.slice(0, -1);
    assert.deepEqual(shown.map((d) => d.range.start.line), shown.map((d) => d.range.start.line).sort((a, b) => a - b), 'in document order');
  });

  test('messages follow the configured cloud-init version', async () => {
    const text = cc('merge_how: list(append)+dict(no_replace,recurse_list)+str\n');
    const uri = fixtureUri('version/user-data.yaml');
    client.settings = { cloudInitVersion: '22.4' };
    const diagnostics = await client.open(uri, text);
    client.close(uri);
    client.settings = {};
    assert.deepEqual(diagnostics.map((d) => d.code), ['missing-parentheses']);
  });

  test('validation.enable = false publishes nothing, and turning it back on restores the diagnostics', async () => {
    const uri = fixtureUri('toggle/user-data.yaml');
    await client.changeSettings({ validation: { enable: false } });
    const off = await client.open(uri, cc('merge_how: list(append)+str()\n'));
    assert.deepEqual(off, []);
    const since = client.diagnosticsLog(uri).length;
    await client.changeSettings({ validation: { enable: true } });
    const on = await client.waitForDiagnostics(uri, since);
    assert.deepEqual(on.diagnostics.map((d) => d.code), ['no-dict-merger']);
    client.close(uri);
  });

  test('dotted setting keys (as non-VS Code editors send them) are understood', async () => {
    const uri = fixtureUri('dotted/user-data.yaml');
    client.settings = { 'validation.enable': false };
    const diagnostics = await client.open(uri, cc('merge_how: list(append)+str()\n'));
    client.close(uri);
    client.settings = {};
    assert.deepEqual(diagnostics, []);
  });
});

test('Chef role files: knockouts that cannot work are diagnosed; other JSON gets nothing', async () => {
  const client = await LspClient.start();
  try {
    const text = '{\n  "chef_type": "role",\n  "default_attributes": {\n    "ports": ["!merge:8080"],\n    "web": "!merge:"\n  }\n}\n';
    const diagnostics = await client.open('file:///work/roles/web.json', text, 'json');
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.severity, text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character)]),
      [
        ['knockout-number', 2, '"!merge:8080"'],
        ['knockout-in-mapping', 2, '"!merge:"'],
      ],
    );
    assert.deepEqual(await client.open('file:///work/package.json', '{"name": "x", "default_attributes": {}}\n', 'json'), []);
  } finally {
    await client.stop();
  }
});
