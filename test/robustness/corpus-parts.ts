/** Hostile containers: gzip, MIME, #include, Jinja templates, #cloud-config-archive (see corpus.ts). */
import { gzipSync } from 'node:zlib';
import { CC, HostileCase, gzipBomb, mime } from './corpusKit';

export const PART_CASES: HostileCase[] = [
  /* ---------------------------------------------------------------- gzip */
  {
    name: 'gzip-bomb-blob',
    about: 'user-data that is gzip of 100 MB (100 KB compressed)',
    files: () => ({ 'user-data.gz': gzipBomb(100 * 1024 * 1024, CC + 'a: ') }),
    cli: { code: 2, stderr: [/limit maxDecompressedBytes = 67108864/] },
    formats: { preview: { code: 2, stdout: [/over a limit of this tool \(maxDecompressedBytes\)/] } },
    analyze: false,
    preview: { failure: /maxDecompressedBytes/ },
    editor: {
      kind: null,
      codes: {},
      // The editor holds the gzip bytes decoded as UTF-8 (U+FFFD for most): no longer gzip, an unhandled part.
      preview: { text: [/part-001 \(text\/x-not-multipart\) from \S+: DROPPED\. No handler for text\/x-not-multipart/] },
    },
  },
  {
    name: 'gzip-bomb-part',
    about: 'an application/gzip MIME part that inflates to 100 MB',
    files: () => ({ 'user-data.mime': mime([{ headers: 'Content-Type: application/gzip\nContent-Transfer-Encoding: base64', body: Buffer.from(gzipBomb(100 * 1024 * 1024)).toString('base64').replace(/.{76}/g, '$&\n') }]) }),
    cli: { code: 2, stderr: [/decompresses to more than 67108864 bytes \(limit maxDecompressedBytes\)/] },
    analyze: { codes: {} },
    preview: { failure: /maxDecompressedBytes/ },
    editor: { kind: 'mime', codes: {} },
  },
  {
    name: 'gzip-multi-member-bomb',
    about: 'a gzip file of 40 members of 2 MB each (80 MB in all)',
    files: () => {
      const one = gzipBomb(2 * 1024 * 1024);
      return { 'user-data.gz': Buffer.concat(Array(40).fill(Buffer.from(one))) };
    },
    cli: { code: 2, stderr: [/maxDecompressedBytes/] },
    analyze: false,
    preview: { failure: /maxDecompressedBytes/ },
    editor: {
      kind: null,
      codes: {},
      // The editor holds the gzip bytes decoded as UTF-8 (U+FFFD for most): no longer gzip, an unhandled part.
      preview: { text: [/part-001 \(text\/x-not-multipart\) from \S+: DROPPED\. No handler for text\/x-not-multipart/] },
    },
  },
  {
    name: 'gzip-truncated-blob',
    about: 'a truncated gzip blob: cloud-init leaves it as it is (binary), an unhandled part',
    files: () => ({ 'user-data.gz': gzipSync(Buffer.from(CC + 'a: 1\n')).subarray(0, 20) }),
    cli: { code: 0, stderr: [/Unhandled non-multipart/] },
    analyze: false,
    preview: { text: [/DROPPED/] },
    editor: { kind: null, codes: {} },
  },
  {
    name: 'gzip-part-corrupt',
    about: 'an application/gzip part that is not gzip: a user-data failure, fatal in cloud-init',
    files: () => ({ 'user-data.mime': mime([{ headers: 'Content-Type: application/gzip', body: 'not gzip at all' }]) }),
    cli: { code: 3, stderr: [/cloud-init would fail: RuntimeError: Failed decompressing payload from application\/gzip/] },
    analyze: { codes: {} },
    preview: { failure: /Failed decompressing/ },
    editor: { kind: 'mime', codes: {} },
  },

  /* ---------------------------------------------------------------- MIME */
  {
    name: 'mime-5000-parts',
    about: '5,000 cloud-config parts: all merged',
    files: () => ({ 'user-data.mime': mime(Array.from({ length: 5000 }, (_, i) => ({ body: `${CC}k${i}: ${i}` }))) }),
    cli: { code: 0, stdout: [/# from 5000 files/, /^k4999: 4999$/m] },
    cpuBudgetMs: 60_000,
    analyze: { codes: {} },
    preview: {},
    editor: { kind: 'mime', codes: { 'schema-error': 1000, 'too-many-problems': 1 }, first: { message: /^k0: Additional properties are not allowed \('k0' was unexpected\)/, range: [7, 0, 7, 2] } },
  },
  {
    name: 'mime-20000-parts',
    about: '20,000 parts: over maxParts',
    files: () => ({ 'user-data.mime': mime(Array.from({ length: 20_000 }, (_, i) => ({ body: `${CC}k${i}: ${i}` }))) }),
    cli: { code: 2, stderr: [/more than 10000 user-data parts \(limit maxParts = 10000\)/] },
    cpuBudgetMs: 60_000,
    analyze: { codes: {} },
    preview: { failure: /maxParts/ },
    editor: { kind: 'mime', codes: { 'schema-error': 999, 'limit-exceeded': 1, 'too-many-problems': 1 }, first: { message: /^k0: Additional properties are not allowed/, range: [7, 0, 7, 2] } },
  },
  {
    name: 'mime-nested-100',
    about: '100 nested multiparts: fine',
    files: () => {
      let body = `Content-Type: text/cloud-config\n\n${CC}a: 1\n`;
      for (let i = 0; i < 100; i++) body = `Content-Type: multipart/mixed; boundary="B${i}"\nMIME-Version: 1.0\n\n--B${i}\n${body}--B${i}--\n`;
      return { 'user-data.mime': body };
    },
    cli: { code: 0, stdout: [/^a: 1$/m] },
    analyze: { codes: {} },
    preview: {},
    editor: { kind: 'mime', codes: { 'schema-error': 1 }, first: { message: /^a: Additional properties are not allowed \('a' was unexpected\)/, range: [403, 0, 403, 1] } },
  },
  {
    name: 'mime-nested-5000',
    about: '5,000 nested multiparts: Python\'s e-mail parser raises RecursionError',
    files: () => {
      const open: string[] = [];
      const close: string[] = [];
      for (let i = 0; i < 5000; i++) {
        open.push(`Content-Type: multipart/mixed; boundary="B${i}"\nMIME-Version: 1.0\n\n--B${i}\n`);
        close.push(`--B${i}--\n`);
      }
      return { 'user-data.mime': open.join('') + `Content-Type: text/cloud-config\n\n${CC}a: 1\n` + close.reverse().join('') };
    },
    cli: { code: 3, stderr: [/RecursionError/] },
    analyze: { codes: { 'mime-invalid': 1 }, finding: /RecursionError/ },
    preview: { failure: /RecursionError/ },
    editor: { kind: 'mime', codes: { 'mime-invalid': 1 }, first: { message: /^cloud-init cannot process this user-data \(RecursionError: maximum recursion depth exceeded\): no part is used at all/, range: [0, 0, 0, 44] } },
  },
  {
    name: 'mime-no-boundary',
    about: 'multipart/mixed without a boundary parameter: cloud-init silently skips it; we say so',
    files: () => ({ 'user-data.mime': `Content-Type: multipart/mixed\nMIME-Version: 1.0\n\n--BB\nContent-Type: text/cloud-config\n\n${CC}a: 1\n--BB--\n` }),
    cli: { code: 0, stderr: [/no usable boundary \(NoBoundaryInMultipartDefect.*silently drops everything in it/] },
    analyze: { codes: { 'mime-boundary': 1 }, finding: /boundary/ },
    preview: { text: [/no usable boundary/] },
    editor: { kind: 'mime', codes: { 'mime-boundary': 1 }, first: { message: /no usable boundary \(NoBoundaryInMultipartDefect.*cloud-init cannot find the parts inside it/, range: [3, 0, 9, 0] } },
  },
  {
    name: 'mime-boundary-never-used',
    about: 'a boundary that never appears in the body',
    files: () => ({ 'user-data.mime': `Content-Type: multipart/mixed; boundary="XYZ"\nMIME-Version: 1.0\n\n--BB\nContent-Type: text/cloud-config\n\n${CC}a: 1\n--BB--\n` }),
    cli: { code: 0, stderr: [/no usable boundary/] },
    analyze: { codes: { 'mime-boundary': 1 }, finding: /^mime-boundary: .*no usable boundary \(StartBoundaryNotFoundDefect/ },
    preview: { text: [/no usable boundary/] },
    editor: { kind: 'mime', codes: { 'mime-boundary': 1 }, first: { message: /no usable boundary \(StartBoundaryNotFoundDefect/, range: [3, 0, 9, 0] } },
  },
  {
    name: 'mime-no-closing-boundary',
    about: 'the closing delimiter is missing (Python tolerates it)',
    files: () => ({ 'user-data.mime': mime([{ body: `${CC}a: 1` }]).replace(/--BOUNDARY--\n$/, '') }),
    cli: { code: 0, stdout: [/^a: 1$/m] },
    analyze: { codes: {} },
    preview: {},
    editor: { kind: 'mime', codes: { 'schema-error': 1 }, first: { message: /^a: Additional properties are not allowed \('a' was unexpected\)/, range: [7, 0, 7, 1] } },
  },
  {
    name: 'mime-wrong-encodings',
    about: 'invalid base64, broken quoted-printable and an unknown charset',
    files: () => ({
      'user-data.mime': mime([
        { headers: 'Content-Type: text/cloud-config\nContent-Transfer-Encoding: base64', body: '!!!not base64###' },
        { headers: 'Content-Type: text/cloud-config\nContent-Transfer-Encoding: quoted-printable', body: `${CC}b: =ZZ=` },
        { headers: 'Content-Type: text/cloud-config; charset=klingon', body: `${CC}c: 3` },
        { headers: 'Content-Type: text/cloud-config\nContent-Transfer-Encoding: x-uuencode', body: `${CC}d: 4` },
      ]),
    }),
    cli: { code: 0 },
    // Part 1's body decodes (as cloud-init decodes invalid base64) to text PyYAML refuses: cloud-init skips the part.
    analyze: { codes: { 'yaml-invalid': 1 }, finding: /^yaml-invalid: cloud-init cannot load this YAML: could not determine a constructor for the tag 'tag:yaml.org,2002:!not'/ },
    preview: {},
    editor: { kind: 'mime', codes: { 'yaml-invalid': 1, 'fate-dropped': 1, 'schema-error': 3 }, first: { message: /^cloud-init cannot load this YAML: could not determine a constructor for the tag 'tag:yaml.org,2002:!not'/, range: [7, 0, 7, 16] } },
  },
  {
    name: 'mime-huge-header',
    about: 'a 2 MB folded header and 20,000 headers',
    files: () => ({ 'user-data.mime': `Content-Type: multipart/mixed; boundary="BB"\nMIME-Version: 1.0\nX-Long: ${'y'.repeat(1000)}${'\n z'.repeat(1_000_000)}\n${'X-H: 1\n'.repeat(20_000)}\n--BB\nContent-Type: text/cloud-config\n\n${CC}a: 1\n--BB--\n` }),
    cli: { code: 0, stdout: [/^a: 1$/m] },
    cpuBudgetMs: 60_000,
    analyze: { codes: {} },
    preview: {},
    editor: { kind: 'mime', codes: { 'schema-error': 1 }, first: { message: /^a: Additional properties are not allowed \('a' was unexpected\)/, range: [1020008, 0, 1020008, 1] } },
  },
  {
    name: 'merge-type-header-folded-200000-lines',
    about: 'a Merge-Type header folded over 200,000 lines, each adding dict(): 200,000 findings (a JavaScript spread of them overflowed the stack)',
    files: () => ({ 'user-data.mime': mime([{ headers: 'Content-Type: text/cloud-config\nMerge-Type: list(append)\n' + ' +dict()\n'.repeat(200_000).slice(0, -1), body: CC + 'a: 1' }]) }),
    cli: { code: 0, stdout: [/^a: 1$/m] },
    analyze: { codes: { 'duplicate-merger': 199999, 'list-merger-unreachable': 1 }, finding: /^duplicate-merger: dict\(\) is listed twice/ },
    preview: { text: [/merged with list\(append\)\+dict\(\)\+dict\(\)/] },
    editor: { kind: 'mime', codes: { 'list-merger-unreachable': 1, 'duplicate-merger': 998, 'schema-error': 1, 'too-many-problems': 1 }, first: { message: /^dict\(no_replace\) keeps existing lists unless it has recurse_list/, range: [5, 12, 5, 24] } },
  },
  {
    name: 'merge-how-100000-mergers',
    about: 'a string merge_how of 100,000 list(append) mergers: a finding and a quick fix for each, in linear time',
    files: () => ({ 'user-data.yaml': `${CC}merge_how: "${Array(100_000).fill('list(append)').join('+')}+dict()"\na: [1]\n` }),
    cli: { code: 0, stdout: [/^a:$/m] },
    analyze: { codes: { 'duplicate-merger': 99999, 'list-merger-unreachable': 1 }, finding: /^duplicate-merger: list\(\) is listed twice/ },
    preview: { text: [/merged with/] },
    editor: { kind: 'cloud-config', codes: { 'list-merger-unreachable': 1, 'duplicate-merger': 998, 'schema-error': 1, 'too-many-problems': 1 }, first: { message: /^dict\(no_replace\) keeps existing lists unless it has recurse_list/, range: [1, 12, 1, 24] } },
  },
  {
    name: 'mime-content-type-garbage',
    about: 'Content-Type values without a slash, with odd parameters, empty',
    files: () => ({
      'user-data.mime': mime([
        { headers: 'Content-Type: cloud-config', body: `${CC}a: 1` },
        { headers: 'Content-Type: ;;;===;', body: `${CC}b: 2` },
        { headers: 'Content-Type:', body: `${CC}c: 3` },
        { headers: 'Content-Type: text/cloud-config; charset="', body: `${CC}d: 4` },
      ]),
    }),
    cli: { code: 0 },
    analyze: { codes: {} },
    preview: {},
    editor: { kind: 'mime', codes: { 'schema-error': 4 }, first: { message: /^a: Additional properties are not allowed/, range: [7, 0, 7, 1] } },
  },

  /* ---------------------------------------------------------------- #include */
  {
    name: 'include-loop',
    about: 'A includes B includes A: cloud-init recurses until RecursionError',
    files: () => ({ 'a.txt': '#include\n{dir}/b.txt\n', 'b.txt': '#include\n{dir}/a.txt\n' }),
    cli: { code: 3, stderr: [/RecursionError: maximum recursion depth exceeded \(an #include loop: .*a\.txt -> .*b\.txt -> .*a\.txt\)/] },
    analyze: { codes: {} },
    preview: { failure: /RecursionError/ },
    editor: { kind: 'include', codes: {} },
  },
  {
    name: 'include-self',
    about: 'a file that includes itself (file:// URL)',
    files: () => ({ 'self.txt': '#include file://{dir}/self.txt\n' }),
    cli: { code: 3, stderr: [/an #include loop/] },
    analyze: { codes: {} },
    preview: { failure: /RecursionError/ },
    editor: { kind: 'include', codes: {} },
  },
  {
    name: 'include-once-loop',
    about: '#include-once does not stop a loop (the cache only saves the fetch)',
    files: () => ({ 'a.txt': '#include-once\n{dir}/a.txt\n' }),
    cli: { code: 3, stderr: [/an #include loop/] },
    analyze: { codes: {} },
    preview: { failure: /RecursionError/ },
    editor: { kind: 'include', codes: {} },
  },
  {
    name: 'include-chain-60',
    about: '60 distinct files including the next: fine for cloud-init (Python stops near 492), over our maxIncludeDepth',
    files: () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 60; i++) files[`c${i}.txt`] = `#include\n{dir}/c${i + 1}.txt\n`;
      files['c60.txt'] = CC + 'a: 1\n';
      return files;
    },
    inputs: ['c0.txt'],
    cli: { code: 2, stderr: [/#include nesting deeper than 50 .* \(limit maxIncludeDepth = 50\)/] },
    preview: { failure: /maxIncludeDepth/ },
    analyze: { codes: {} },
    editor: { kind: 'include', codes: {} },
  },
  {
    name: 'include-missing',
    about: 'an #include of a file that does not exist: fatal in cloud-init (ERROR_ON_USER_DATA_FAILURE)',
    files: () => ({ 'a.txt': '#include\n{dir}/nope.txt\n' }),
    cli: { code: 3, stderr: [/cloud-init would fail: RuntimeError: .*nope\.txt/] },
    preview: { failure: /nope\.txt/ },
    analyze: { codes: {} },
    editor: { kind: 'include', codes: {} },
  },
  {
    name: 'include-device',
    about: '#include /dev/zero: never read (it has no end)',
    files: () => ({ 'a.txt': '#include\n/dev/zero\nfile:///dev/urandom\n' }),
    args: ['--include-missing', 'skip'],
    cli: { code: 0, stderr: [/\/dev\/zero: not a regular file/, /\/dev\/urandom: not a regular file/] },
    preview: false,
    analyze: { codes: {} },
    editor: {
      kind: 'include',
      codes: {},
      preview: { text: [/Problem: #include \/dev\/zero: outside the workspace folders, not read/], failure: /\/dev\/zero is outside the workspace folders; not read/ },
    },
  },
  {
    name: 'include-directory',
    about: '#include of a directory',
    files: () => ({ 'a.txt': '#include\n{dir}\n' }),
    cli: { code: 3, stderr: [/is a directory/] },
    preview: false,
    analyze: { codes: {} },
    editor: { kind: 'include', codes: {} },
  },
  {
    name: 'include-remote',
    about: 'http, https, ftp and other URLs are never fetched',
    files: () => ({ 'a.txt': '#include\nhttp://127.0.0.1:9/a\nhttps://example.invalid/b\nftp://x/c\ngopher://x/d\n' }),
    args: ['--include-missing', 'skip'],
    cli: { code: 0, stderr: [/http:\/\/127\.0\.0\.1:9\/a: remote includes are never fetched/, /https:\/\/example\.invalid\/b/] },
    preview: false,
    analyze: { codes: {} },
    editor: {
      kind: 'include',
      codes: {},
      // The editor has no `--include-missing skip`: an include it cannot read fails the preview, as at a boot that cannot fetch it.
      preview: { text: [/Problem: #include http:\/\/127\.0\.0\.1:9\/a: not fetched \(the editor never fetches URLs\)/], failure: /^cloud-init fails before merging anything: RuntimeError: http:\/\/127\.0\.0\.1:9\/a: not fetched/ },
    },
  },

  /* ---------------------------------------------------------------- jinja */
  {
    name: 'jinja-huge-loop',
    about: 'a template looping 100,000,000 times',
    files: () => ({ 't.j2': '## template: jinja\n#cloud-config\na: "{% for i in range(100000000) %}x{% endfor %}"\n' }),
    // current: the sandbox refuses a range over 100,000 (OverflowError: the handler fails); 22.4 would loop, over our limit.
    cli: { code: 0, stderr: [/Failed calling handler JinjaTemplatePartHandler/, /OverflowError: Range too big/] },
    analyze: { codes: {} },
    preview: { text: [/DROPPED/] },
    editor: { kind: 'jinja', codes: {} },
  },
  {
    name: 'jinja-nested-loops',
    about: 'two nested loops of 100,000',
    files: () => ({ 't.j2': '## template: jinja\n#cloud-config\na: "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}"\n' }),
    // Our limit, not cloud-init's: the tool's own note, exit 4, never a cloud-init warning.
    cli: { code: 4, stderr: [/^note: part-001: this tool cannot reproduce more than 1000000 loop iterations.*\(limit\); cloud-init would render it/m] },
    analyze: { codes: { 'jinja-not-checked': 1 }, finding: /^jinja-not-checked: Not checked: this tool cannot reproduce more than 1000000 loop iterations/ },
    preview: { text: [/NOT SHOWN \(a limitation of this tool, not of cloud-init\)/] },
    editor: { kind: 'jinja', codes: { 'jinja-not-checked': 1 }, first: { message: /^Not checked: this tool cannot reproduce more than 1000000 loop iterations .*cloud-init would render it/, range: [2, 0, 2, 86] } },
  },
  {
    name: 'jinja-string-multiply',
    about: "'x' * 10**9",
    files: () => ({ 't.j2': "## template: jinja\n#cloud-config\na: {{ 'x' * 1000000000 }}\n" }),
    cli: { code: 4, stderr: [/^note: part-001: this tool cannot reproduce value larger than 4000000 \(limit\); cloud-init would render it/m] },
    analyze: { codes: { 'jinja-not-checked': 1 }, finding: /^jinja-not-checked: Not checked: this tool cannot reproduce value larger than 4000000/ },
    preview: { text: [/NOT SHOWN \(a limitation of this tool, not of cloud-init\)/] },
    editor: { kind: 'jinja', codes: { 'jinja-not-checked': 1 }, first: { message: /^Not checked: this tool cannot reproduce value larger than 4000000 \(limit\); cloud-init would render it/, range: [1, 0, 1, 13] } },
  },
  {
    name: 'jinja-no-eval',
    about: 'template tricks that reach Python objects in real Jinja (sandbox escapes) are only data here',
    files: () => ({ 't.j2': "## template: jinja\n#cloud-config\na: \"{{ ''.__class__.__mro__[1].__subclasses__() }}\"\nb: \"{{ cycler.__init__.__globals__.os.popen('id').read() }}\"\nc: \"{{ self.__init__.__globals__ }}\"\n" }),
    cli: { code: 0 },
    analyze: { codes: {} },
    preview: {},
    editor: { kind: 'jinja', codes: {} },
  },

  /* ---------------------------------------------------------------- archives */
  {
    name: 'archive-20000-entries',
    about: 'a #cloud-config-archive of 20,000 entries: over maxParts',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n' + Array.from({ length: 20_000 }, (_, i) => `- "#cloud-config\\nk${i}: 1"\n`).join('') }),
    cli: { code: 2, stderr: [/limit maxParts/] },
    cpuBudgetMs: 60_000,
    preview: { failure: /maxParts/ },
    analyze: { codes: {} },
    editor: { kind: 'cloud-config-archive', codes: { 'schema-error': 999, 'limit-exceeded': 1, 'too-many-problems': 1 }, first: { message: /^k0: Additional properties are not allowed \('k0' was unexpected\).*\barchive entry 1\b/, range: [1, 2, 1, 24] } },
  },
  {
    name: 'archive-type-without-slash',
    about: 'an archive entry whose type has no "/": ValueError aborts all user-data',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n- {type: cloudconfig, content: "a: 1"}\n' }),
    cli: { code: 3, stderr: [/ValueError/] },
    preview: { failure: /ValueError/ },
    analyze: { codes: {} },
    editor: { kind: 'cloud-config-archive', codes: {} },
  },
  {
    name: 'archive-odd-entries',
    about: 'entries that are numbers, lists, nulls, mappings without content',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n- 1\n- [a]\n- null\n- {}\n- {filename: x}\n- "#cloud-config\\na: 1"\n' }),
    cli: { code: 0 },
    preview: {},
    analyze: { codes: {} },
    editor: { kind: 'cloud-config-archive', codes: { 'schema-error': 1 }, first: { message: /^a: Additional properties are not allowed \('a' was unexpected\).*\barchive entry 6\b/, range: [6, 2, 6, 23] } },
  },
];
