/**
 * The hostile-input corpus: every input is generated in memory (nothing big
 * is committed), with what the CLI must answer (exit code and messages) and
 * what the in-process entry points must report. What cloud-init itself does
 * with each input, and where the limits are, is in README.md.
 *
 * Exit codes: 0 (with warnings) where cloud-init gets through, 2 where the
 * input is unreadable or over one of our limits (the message names the
 * limit), 3 where cloud-init itself would fail.
 */
import { gzipSync } from 'node:zlib';

export type Bytes = Uint8Array | string;

export interface HostileCase {
  name: string;
  /** Why it is hostile / what it exercises. */
  about: string;
  /**
   * The files, by relative name; `{dir}` in a text is replaced by the directory
   * they are written to. The first file is the input unless `args` says otherwise.
   */
  files: () => Record<string, Bytes>;
  /** CLI arguments before the input paths (paths are relative to the directory). */
  args?: string[];
  /** The inputs given to the CLI (default: the first file). */
  inputs?: string[];
  /** Expected CLI result (default output format). */
  cli: { code: 0 | 2 | 3 | 4; stderr?: RegExp[]; stdout?: RegExp[] };
  /** Other formats to check in-process (same exit code unless given). */
  formats?: Partial<Record<'json' | 'report' | 'preview', { code: 0 | 2 | 3 | 4; stderr?: RegExp[]; stdout?: RegExp[] }>>;
  /** Expectations for analyzeDocument (false: not an editor document). */
  analyze?: false | { finding?: RegExp; maxBytes?: number };
  /** Expectations for buildPreview (false: skip). */
  preview?: false | { text?: RegExp[]; failure?: RegExp; dropped?: boolean };
  /** Needs more time than the others (big inputs): CPU budget for the child, ms. */
  cpuBudgetMs?: number;
}

const CC = '#cloud-config\n';
const enc = (s: string) => Buffer.from(s, 'utf8');

/** `a: &a [lol x9]`, then `levels` more lists of nine aliases of the previous one. */
export function billionLaughs(levels: number, key = 'l'): string {
  let out = `${key}0: &${key}0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n`;
  for (let i = 1; i <= levels; i++) out += `${key}${i}: &${key}${i} [${Array(9).fill(`*${key}${i - 1}`).join(',')}]\n`;
  return out;
}

/** `levels` mappings, each merging the one before twice: 2^levels pairs once PyYAML flattens the merges. */
export function mergeKeyBomb(levels: number): string {
  let out = 'l0: &l0 {a: 1, b: 2}\n';
  for (let i = 1; i <= levels; i++) out += `l${i}: &l${i} {<<: [*l${i - 1}, *l${i - 1}]}\n`;
  return out;
}

export function flowNest(depth: number, open = '[', close = ']', leaf = ''): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

/** `n` block mappings nested under `a:` with 1-space indentation (the root counts). */
export function blockMapNest(n: number, leaf = '1'): string {
  let out = '';
  for (let i = 0; i < n - 1; i++) out += ' '.repeat(i) + 'a:\n';
  return out + ' '.repeat(n - 1) + 'a: ' + leaf + '\n';
}

/** A value nested `dicts` mappings deep (root included) with `lists` lists inside, as gen3 in README.md. */
export function mixedNest(dicts: number, lists: number, leaf: string): string {
  const inner = '['.repeat(lists) + leaf + ']'.repeat(lists);
  return 'a: ' + '{a: '.repeat(dicts - 1) + inner + '}'.repeat(dicts - 1) + '\n';
}

export function mime(parts: Array<{ headers?: string; body: string }>, boundary = 'BOUNDARY'): string {
  let out = `Content-Type: multipart/mixed; boundary="${boundary}"\nMIME-Version: 1.0\n\n`;
  for (const p of parts) out += `--${boundary}\n${p.headers ?? 'Content-Type: text/cloud-config'}\n\n${p.body}\n`;
  return out + `--${boundary}--\n`;
}

/** A gzip stream that inflates to `size` bytes of `fill` (about size/1000 bytes compressed). */
export function gzipBomb(size: number, prefix = '', fill = 0x20): Uint8Array {
  // Deflate of a long run is ~1/1000; build it from chunks so memory stays small.
  const chunk = Buffer.alloc(16 * 1024 * 1024, fill);
  const pieces: Buffer[] = [Buffer.from(prefix)];
  let left = size - prefix.length;
  while (left > 0) {
    pieces.push(chunk.subarray(0, Math.min(left, chunk.length)));
    left -= chunk.length;
  }
  return gzipSync(Buffer.concat(pieces), { level: 9 });
}

const FAILED_PART = /Failed at merging in cloud config part from part-001: empty cloud config/;
const RECURSION_PART = /Failed at merging in cloud config part from part-001\n[\s\S]*RecursionError: maximum recursion depth exceeded/;
const YAML_CASE = (name: string, about: string, text: string, detail: RegExp): HostileCase => ({
  name,
  about,
  files: () => ({ 'user-data.yaml': text }),
  cli: { code: 0, stderr: [FAILED_PART, detail] },
  formats: { json: { code: 0, stdout: [/^\{\}$/m] }, preview: { code: 0, stdout: [/DROPPED/] } },
  analyze: { finding: detail },
  preview: { text: [/DROPPED/], dropped: true },
});

export const CORPUS: HostileCase[] = [
  /* ---------------------------------------------------------------- malformed YAML */
  YAML_CASE('yaml-tab-indent', 'a tab used for indentation', CC + 'a:\n\tb: 1\n', /found character '\\t' that cannot start any token/),
  YAML_CASE('yaml-unterminated-double-quote', 'a double-quoted scalar that never ends', CC + 'a: "abc\nb: 1\n', /found unexpected end of stream/),
  YAML_CASE('yaml-unterminated-single-quote', 'a single-quoted scalar that never ends', CC + "a: 'abc\n", /found unexpected end of stream/),
  YAML_CASE('yaml-unterminated-flow-sequence', 'a flow sequence that never ends', CC + 'a: [1, 2\n', /expected ',' or '\]', but got '<stream end>'/),
  YAML_CASE('yaml-unterminated-flow-mapping', 'a flow mapping that never ends', CC + 'a: {b: 1\n', /expected ',' or '\}', but got '<stream end>'/),
  YAML_CASE('yaml-bad-indentation', 'a key indented under a scalar', CC + 'a: 1\n b: 2\n', /mapping values are not allowed here/),
  YAML_CASE('yaml-two-documents', 'two YAML documents in one part', CC + 'a: 1\n---\nb: 2\n', /expected a single document in the stream/),
  YAML_CASE('yaml-undefined-alias', 'an alias with no anchor', CC + 'a: *nowhere\n', /found undefined alias 'nowhere'/),
  YAML_CASE('yaml-python-object-tag', 'a tag PyYAML would use to run code (the safe loader refuses it)', CC + 'a: !!python/object/apply:os.system ["touch /tmp/pwned"]\n', /could not determine a constructor for the tag 'tag:yaml.org,2002:python\/object\/apply:os.system'/),
  YAML_CASE('yaml-stray-bracket', 'a closing bracket with no opening one', CC + 'a: 1]\nb: ]\n', /expected <block end>|while parsing|did not find expected/),
  YAML_CASE('yaml-long-simple-key', 'a mapping key longer than the 1024 characters PyYAML allows', CC + 'k'.repeat(2000) + ': 1\n', /mapping values are not allowed here/),
  YAML_CASE('yaml-huge-int', 'an integer of 5000 digits (Python refuses to convert it)', CC + 'a: ' + '7'.repeat(5000) + '\n', /Exceeds the limit \(4300 digits\)/),
  YAML_CASE('yaml-root-list', 'the top level is a list', CC + '- a\n- b\n', /[Tt]he top level is not a mapping/),
  {
    name: 'yaml-empty',
    about: 'only the header line',
    files: () => ({ 'user-data.yaml': CC }),
    cli: { code: 0, stderr: [FAILED_PART] },
    preview: { dropped: true },
  },

  /* ---------------------------------------------------------------- encodings and line ends */
  {
    name: 'invalid-utf8',
    about: 'bytes that are not UTF-8 inside a cloud-config (cloud-init decodes with surrogateescape; PyYAML refuses the result)',
    files: () => ({ 'user-data.yaml': Buffer.concat([enc(CC + 'a: '), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), enc('\n')]) }),
    cli: { code: 0, stderr: [FAILED_PART, /unacceptable character #xdcff/] },
    // An editor shows U+FFFD for the bad bytes: the text it analyses is valid.
    analyze: {},
    preview: { dropped: true },
  },
  YAML_CASE('nul-bytes', 'NUL characters inside a cloud-config', CC + 'a: 1\0\0\nb: 2\n', /unacceptable character #x0000/),
  {
    name: 'utf8-bom',
    about: 'a UTF-8 byte order mark before #cloud-config: cloud-init does not recognise the part',
    files: () => ({ 'user-data.yaml': Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), enc(CC + 'a: 1\n')]) }),
    cli: { code: 0, stderr: [/Unhandled non-multipart \(text\/x-not-multipart\) userdata/] },
    preview: { text: [/DROPPED/] },
  },
  {
    name: 'utf16-file',
    about: 'a cloud-config saved as UTF-16',
    files: () => ({ 'user-data.yaml': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(CC + 'a: 1\n', 'utf16le')]) }),
    cli: { code: 0, stderr: [/Unhandled non-multipart/] },
    preview: { text: [/DROPPED/] },
  },
  {
    name: 'binary-file',
    about: 'a binary file opened by mistake (an ELF header and random bytes)',
    files: () => {
      const b = Buffer.alloc(64 * 1024);
      let x = 12345;
      for (let i = 0; i < b.length; i++) b[i] = (x = (x * 1103515245 + 12345) >>> 0) >>> 24;
      Buffer.from([0x7f, 0x45, 0x4c, 0x46]).copy(b);
      return { 'a.out': b };
    },
    cli: { code: 0, stderr: [/Unhandled non-multipart/] },
    analyze: {},
    preview: { text: [/DROPPED/] },
  },
  {
    name: 'png-with-mime-version',
    about: 'binary bytes that contain "MIME-Version:" in the first 4 KiB (parsed as e-mail; not UTF-8)',
    files: () => ({ 'img.png': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), enc('MIME-Version: 1.0\n'), Buffer.from([0xff, 0xfe, 0x00, 0x80])]) }),
    cli: { code: 3, stderr: [/cloud-init would fail: UnicodeDecodeError/] },
    preview: { failure: /UnicodeDecodeError/ },
  },
  {
    name: 'crlf',
    about: 'CRLF line ends',
    files: () => ({ 'user-data.yaml': (CC + 'a: 1\nb:\n  - x\n').replace(/\n/g, '\r\n') }),
    cli: { code: 0, stdout: [/^a: 1$/m, /^- x$/m] },
    analyze: {},
    preview: { text: [/merged with/] },
  },
  {
    name: 'cr-only',
    about: 'old Mac line ends (PyYAML treats a lone CR as a line break)',
    files: () => ({ 'user-data.yaml': (CC + 'a: 1\nb:\n  - x\n').replace(/\n/g, '\r') }),
    cli: { code: 0, stdout: [/^a: 1$/m, /^- x$/m] },
    analyze: {},
    preview: { text: [/merged with/] },
  },
  {
    name: 'unicode-line-separators',
    about: 'NEL, LS and PS characters (line breaks to PyYAML, not to JavaScript)',
    files: () => ({ 'user-data.yaml': CC + 'a: 1\u2028b: 2\u0085c: "x\u2029y"\n' }),
    cli: { code: 0, stdout: [/^a: 1$/m, /^b: 2$/m] },
    analyze: {},
    preview: {},
  },

  /* ---------------------------------------------------------------- alias bombs and recursion */
  {
    name: 'billion-laughs',
    about: '9^10 strings behind 11 anchors: cloud-init shares them and writes anchors, and so do we; JSON would expand them',
    files: () => ({ 'user-data.yaml': CC + billionLaughs(10) }),
    cli: { code: 0, stdout: [/^l0: &id001$/m, /^- \*id010$/m] },
    formats: {
      json: { code: 2, stderr: [/exceeds the limit maxExpandedNodes = 5000000/] },
      report: { code: 2, stderr: [/maxExpandedNodes/] },
      preview: { code: 0, stdout: [/merged with/] },
    },
    analyze: {},
    preview: { text: [/merged with/] },
  },
  {
    name: 'merge-key-bomb',
    about: 'each level merges the level before twice (`<<: [*l9, *l9]`): PyYAML copies 2^40 pairs and cloud-init never finishes; we stop at maxExpandedNodes',
    files: () => ({ 'user-data.yaml': CC + mergeKeyBomb(40) }),
    cli: { code: 2, stderr: [/merge keys \(<<\) would copy more than 5000000 key\/value pairs into mappings \(limit maxExpandedNodes = 5000000\)/] },
    formats: { json: { code: 2 }, report: { code: 2, stderr: [/maxExpandedNodes/] }, preview: { code: 2, stdout: [/over a limit of this tool \(maxExpandedNodes\)/] } },
    analyze: { finding: /^limit-exceeded: Not analysed: merge keys \(<<\) would copy more than 5000000/ },
    preview: { failure: /over a limit of this tool \(maxExpandedNodes\)/ },
  },
  {
    name: 'merge-key-bomb-block-style',
    about: 'the same in block style, three aliases per level, with a key of its own at each level',
    files: () => ({ 'user-data.yaml': CC + 'l0: &l0\n  a: 1\n' + Array.from({ length: 30 }, (_, i) => `l${i + 1}: &l${i + 1}\n  <<: [*l${i}, *l${i}, *l${i}]\n  k${i + 1}: ${i + 1}\n`).join('') }),
    cli: { code: 2, stderr: [/limit maxExpandedNodes = 5000000/] },
    analyze: { finding: /^limit-exceeded: .*maxExpandedNodes/ },
    preview: { failure: /maxExpandedNodes/ },
  },
  {
    name: 'merge-key-bomb-in-drop-in',
    about: 'a merge-key bomb in a cloud.cfg.d drop-in (read_conf)',
    files: () => ({ '50-bomb.cfg': mergeKeyBomb(40) }),
    args: ['--mode', 'confd'],
    cli: { code: 2, stderr: [/limit maxExpandedNodes = 5000000/] },
    analyze: false,
    preview: false,
  },
  {
    name: 'merge-key-200000-times',
    about: '200,000 `<<: []` keys in one mapping (found by the fuzzer): PyYAML deletes each from the list; removing them one by one made the load quadratic',
    files: () => ({ 'user-data.yaml': CC + 'a: 1\n' + '<<: []\n'.repeat(200_000) + 'b: 2\n' }),
    cli: { code: 0, stdout: [/^a: 1\nb: 2$/m] },
    analyze: {},
    preview: { text: [/merged with/] },
  },
  {
    name: 'duplicate-key-300000-times-cr',
    about: 'one key written 300,000 times, CR line breaks: each duplicate is reported with the copy before it, in linear time',
    files: () => ({ 'user-data.yaml': '#cloud-config\r' + 'a: 1\r'.repeat(300_000) }),
    cli: { code: 0, stdout: [/^a: 1$/m] },
    analyze: { finding: /^duplicate-key: duplicate key 'a'/ },
    preview: { text: [/^a: 1$/m] },
  },
  {
    name: 'billion-laughs-in-merge-how',
    about: 'an alias bomb as the settings of a list-form merge_how',
    files: () => ({ 'user-data.yaml': CC + billionLaughs(9) + 'merge_how: [{name: list, settings: *l9}, {name: dict, settings: [replace]}]\nb: 1\n' }),
    cli: { code: 0, stdout: [/^b: 1$/m] },
    formats: { json: { code: 2, stderr: [/maxExpandedNodes/] }, report: { code: 2, stderr: [/maxExpandedNodes/] }, preview: { code: 0, stdout: [/repr is over 200 characters/] } },
    analyze: {},
    preview: { text: [/repr is over 200 characters/] },
  },
  {
    name: 'billion-laughs-in-archive-header',
    about: 'an alias bomb as a MIME header value in a #cloud-config-archive: cloud-init raises TypeError (a header must be a string)',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n' + billionLaughs(9).replace(/^l\d+: /gm, '- ') + '- {content: "#cloud-config\\na: 1", X-Foo: *l9}\n' }),
    cli: { code: 3, stderr: [/TypeError: #cloud-config-archive entry \d+: header 'X-Foo'/, /repr is over 1000 characters/] },
    preview: { failure: /TypeError/ },
  },
  {
    name: 'recursive-anchor',
    about: 'an anchor used inside its own node: PyYAML builds a self-referencing list (our loader refuses it, see README.md)',
    files: () => ({ 'user-data.yaml': CC + 'a: &x [1, *x]\nb: 2\n' }),
    cli: { code: 0, stderr: [FAILED_PART, /recursive structure/] },
    analyze: { finding: /recursive structure/ },
    preview: { dropped: true },
  },
  {
    name: 'recursive-merge-key',
    about: 'a merge key that merges its own mapping',
    files: () => ({ 'user-data.yaml': CC + 'a: &x {b: 1, <<: *x}\n' }),
    cli: { code: 0 },
    analyze: {},
    preview: {},
  },

  /* ---------------------------------------------------------------- nesting */
  {
    name: 'flow-sequence-100000-deep',
    about: '100,000 nested [ ]: PyYAML raises RecursionError near 486 levels, so cloud-init skips the part',
    files: () => ({ 'user-data.yaml': CC + 'a: ' + flowNest(100_000) + '\nb: 1\n' }),
    cli: { code: 0, stderr: [RECURSION_PART, /more than 485 levels/] },
    analyze: { finding: /nest|deeper|depth/ },
    preview: { dropped: true, text: [/RecursionError/] },
  },
  {
    name: 'flow-mapping-100000-deep',
    about: '100,000 nested { }',
    files: () => ({ 'user-data.yaml': CC + 'a: ' + flowNest(100_000, '{a: ', '}', '1') + '\n' }),
    cli: { code: 0, stderr: [RECURSION_PART] },
    analyze: { finding: /nest|deeper|depth/ },
    preview: { dropped: true },
  },
  {
    name: 'block-sequence-100000-deep',
    about: '100,000 compact nested block sequences (- - - - ... x) on one line',
    files: () => ({ 'user-data.yaml': CC + 'a:\n' + '- '.repeat(100_000) + 'x\n' }),
    cli: { code: 0, stderr: [RECURSION_PART] },
    analyze: { finding: /nest|deeper|depth/ },
    preview: { dropped: true },
  },
  {
    name: 'block-mapping-3000-deep',
    about: '3,000 nested block mappings (1-space indent, 4.5 MB)',
    files: () => ({ 'user-data.yaml': CC + blockMapNest(3000) }),
    cli: { code: 0, stderr: [RECURSION_PART] },
    analyze: {},
    preview: { dropped: true },
  },
  {
    name: 'yaml-depth-485-loads',
    about: 'exactly the deepest part PyYAML (and so cloud-init) still loads; cloud-config.txt cannot be written though (over 328 levels)',
    files: () => ({ 'user-data.yaml': CC + blockMapNest(485) }),
    cli: { code: 3, stderr: [/writing cloud-config.txt raises: RecursionError/] },
    formats: { report: { code: 3, stdout: [/cloud-config-txt-not-written/] }, json: { code: 3 }, preview: { code: 3 } },
    analyze: {},
    preview: { failure: /writing cloud-config.txt fails: RecursionError/ },
  },
  {
    name: 'yaml-depth-486-fails',
    about: 'one level more: RecursionError in PyYAML, the part is skipped',
    files: () => ({ 'user-data.yaml': CC + blockMapNest(486) }),
    cli: { code: 0, stderr: [RECURSION_PART] },
    preview: { dropped: true },
  },
  {
    name: 'dump-depth-327-written',
    about: '327 nested mappings with a scalar inside: the deepest cloud-config.txt cloud-init writes',
    files: () => ({ 'user-data.yaml': CC + blockMapNest(327) }),
    cli: { code: 0, stdout: [/^ {1304}a: 1$/m] },
    preview: { text: [/merged with/] },
  },
  {
    name: 'dump-depth-328-not-written',
    about: 'one level more: yaml.dump raises RecursionError, cloud-config.txt is not written',
    files: () => ({ 'user-data.yaml': CC + blockMapNest(328) }),
    cli: { code: 3, stderr: [/writing cloud-config.txt raises: RecursionError: maximum recursion depth exceeded/] },
    formats: { report: { code: 3, stdout: [/cloud-config-txt-not-written/, /RecursionError/] } },
    preview: { failure: /RecursionError/ },
  },
  {
    name: 'deep-merge-197-dicts',
    about: 'two parts merged with dict(no_replace) along 197 nested mappings: cloud-init still manages',
    files: () => ({
      'p1.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(197, 0, '1'),
      'p2.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(197, 0, '2') + 'z: 1\n',
    }),
    inputs: ['p1.yaml', 'p2.yaml'],
    cli: { code: 0, stdout: [/# from 2 files/, /^z: 1$/m] },
    preview: false,
  },
  {
    name: 'deep-merge-198-dicts',
    about: 'one mapping level more: the mergers recurse 5 Python frames a level and cloud-init raises RecursionError: the second part is skipped',
    files: () => ({
      'p1.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(198, 0, '1'),
      'p2.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(198, 0, '2') + 'z: 1\n',
    }),
    inputs: ['p1.yaml', 'p2.yaml'],
    cli: { code: 0, stdout: [/# from 1 files/], stderr: [/Failed at merging in cloud config part from part-002/, /RecursionError: maximum recursion depth exceeded/] },
    preview: false,
  },
  {
    name: 'deep-merge-lists',
    about: 'lists merged index-wise with recurse_list, 195 dicts + 3 lists deep (987 frames: fine) vs 196 + 2 (988: RecursionError)',
    files: () => ({
      'p1.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(196, 2, '1'),
      'p2.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(196, 2, '2'),
      'q1.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(195, 3, '1'),
      'q2.yaml': CC + 'merge_how: "dict(no_replace,recurse_list)+list(recurse_list)+str()"\n' + mixedNest(195, 3, '2'),
    }),
    inputs: ['q1.yaml', 'q2.yaml', 'p1.yaml', 'p2.yaml'],
    cli: { code: 0, stdout: [/# from 3 files/], stderr: [/Failed at merging in cloud config part from part-004/] },
    preview: false,
  },
  {
    name: 'deep-jsonp-value',
    about: 'a JSON patch whose value is nested 100,000 deep: Python\'s json raises RecursionError, the part is skipped',
    files: () => ({ 'patch.txt': '#cloud-config-jsonp\n[{"op":"add","path":"/a","value":' + flowNest(100_000) + '}]\n' }),
    cli: { code: 0, stderr: [/Failed at merging in cloud config part from part-001/] },
    preview: { dropped: true },
  },
  {
    name: 'deep-archive',
    about: 'a #cloud-config-archive nested 100,000 deep: RecursionError aborts all user-data in cloud-init',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n' + flowNest(100_000) + '\n' }),
    cli: { code: 3, stderr: [/cloud-init would fail: RecursionError/] },
    preview: { failure: /RecursionError/ },
  },
  {
    name: 'deep-confd',
    about: 'a cloud.cfg.d drop-in nested 100,000 deep: read_conf lets RecursionError through, the stage fails',
    files: () => ({ '10-deep.cfg': 'a: ' + flowNest(100_000) + '\n' }),
    args: ['--mode', 'confd'],
    cli: { code: 3, stderr: [/cloud-init would fail: RecursionError/] },
    analyze: {},
    preview: false,
  },
  {
    name: 'deep-system-merge',
    about: 'system mode (util.mergemanydict), two files 250 mappings deep: RecursionError',
    files: () => ({ 'a.yaml': mixedNest(250, 0, '1'), 'b.yaml': mixedNest(250, 0, '2') }),
    args: ['--mode', 'system'],
    inputs: ['a.yaml', 'b.yaml'],
    cli: { code: 3, stderr: [/cloud-init would fail: RecursionError: maximum recursion depth exceeded/] },
    formats: { preview: { code: 2, stderr: [/--format preview works with/] } },
    preview: false,
  },
  {
    name: 'deep-spec-merge',
    about: '--spec merges of values nested 5,000 deep (JSON)',
    files: () => ({ 'a.json': '{"a":'.repeat(900) + '1' + '}'.repeat(900), 'b.json': '{"a":'.repeat(900) + '2' + '}'.repeat(900) }),
    args: ['--spec', 'dict(no_replace)+list()+str()'],
    inputs: ['a.json', 'b.json'],
    cli: { code: 3, stderr: [/RecursionError/] },
    analyze: false,
    preview: false,
  },

  /* ---------------------------------------------------------------- size */
  {
    name: 'file-100MB-sparse',
    about: 'a 100 MB file (sparse: nothing is allocated); the size check refuses it before reading',
    files: () => ({}),
    inputs: ['big.yaml'],
    cli: { code: 2, stderr: [/big\.yaml: 104857600 bytes exceeds the limit maxFileBytes = 67108864/] },
    analyze: false,
    preview: false,
  },
  {
    name: 'analyze-over-maxBytes',
    about: 'analyzeDocument with a text over maxBytes (a small limit stands in for 64 MB)',
    files: () => ({ 'user-data.yaml': CC + 'a: ' + 'x'.repeat(200_000) + '\n' }),
    cli: { code: 0 },
    analyze: { finding: /over the limit maxFileBytes = 100000/, maxBytes: 100_000 },
    preview: false,
  },
  {
    name: 'list-1000000-items',
    about: 'a list of 1,000,000 items (4 MB)',
    files: () => ({ 'user-data.yaml': CC + 'a:\n' + '- 1\n'.repeat(1_000_000) }),
    cli: { code: 0, stdout: [/^a:$/m] },
    cpuBudgetMs: 120_000,
    analyze: {},
    preview: { text: [/merged with/] },
  },
  {
    name: 'line-5MB',
    about: 'one 5 MB line',
    files: () => ({ 'user-data.yaml': CC + 'a: ' + 'x'.repeat(5_000_000) + '\n' }),
    cli: { code: 0 },
    cpuBudgetMs: 60_000,
    analyze: {},
    preview: {},
  },
  {
    name: 'many-keys',
    about: '50,000 keys in one mapping',
    files: () => ({ 'user-data.yaml': CC + Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}\n`).join('') }),
    cli: { code: 0, stdout: [/^k0: 0$/m, /^k9999: 9999$/m] },
    cpuBudgetMs: 60_000,
    analyze: {},
    preview: {},
  },

  /* ---------------------------------------------------------------- gzip */
  {
    name: 'gzip-bomb-blob',
    about: 'user-data that is gzip of 100 MB (100 KB compressed)',
    files: () => ({ 'user-data.gz': gzipBomb(100 * 1024 * 1024, CC + 'a: ') }),
    cli: { code: 2, stderr: [/limit maxDecompressedBytes = 67108864/] },
    formats: { preview: { code: 2, stdout: [/over a limit of this tool \(maxDecompressedBytes\)/] } },
    analyze: false,
    preview: { failure: /maxDecompressedBytes/ },
  },
  {
    name: 'gzip-bomb-part',
    about: 'an application/gzip MIME part that inflates to 100 MB',
    files: () => ({ 'user-data.mime': mime([{ headers: 'Content-Type: application/gzip\nContent-Transfer-Encoding: base64', body: Buffer.from(gzipBomb(100 * 1024 * 1024)).toString('base64').replace(/.{76}/g, '$&\n') }]) }),
    cli: { code: 2, stderr: [/decompresses to more than 67108864 bytes \(limit maxDecompressedBytes\)/] },
    analyze: {},
    preview: { failure: /maxDecompressedBytes/ },
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
  },
  {
    name: 'gzip-truncated-blob',
    about: 'a truncated gzip blob: cloud-init leaves it as it is (binary), an unhandled part',
    files: () => ({ 'user-data.gz': gzipSync(Buffer.from(CC + 'a: 1\n')).subarray(0, 20) }),
    cli: { code: 0, stderr: [/Unhandled non-multipart/] },
    analyze: false,
    preview: { text: [/DROPPED/] },
  },
  {
    name: 'gzip-part-corrupt',
    about: 'an application/gzip part that is not gzip: a user-data failure, fatal in cloud-init',
    files: () => ({ 'user-data.mime': mime([{ headers: 'Content-Type: application/gzip', body: 'not gzip at all' }]) }),
    cli: { code: 3, stderr: [/Failed decompressing payload from application\/gzip/] },
    analyze: {},
    preview: { failure: /Failed decompressing/ },
  },

  /* ---------------------------------------------------------------- MIME */
  {
    name: 'mime-5000-parts',
    about: '5,000 cloud-config parts: all merged',
    files: () => ({ 'user-data.mime': mime(Array.from({ length: 5000 }, (_, i) => ({ body: `${CC}k${i}: ${i}` }))) }),
    cli: { code: 0, stdout: [/# from 5000 files/, /^k4999: 4999$/m] },
    cpuBudgetMs: 60_000,
    analyze: {},
    preview: {},
  },
  {
    name: 'mime-20000-parts',
    about: '20,000 parts: over maxParts',
    files: () => ({ 'user-data.mime': mime(Array.from({ length: 20_000 }, (_, i) => ({ body: `${CC}k${i}: ${i}` }))) }),
    cli: { code: 2, stderr: [/more than 10000 user-data parts \(limit maxParts = 10000\)/] },
    cpuBudgetMs: 60_000,
    analyze: {},
    preview: { failure: /maxParts/ },
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
    analyze: {},
    preview: {},
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
    analyze: { finding: /RecursionError/ },
    preview: { failure: /RecursionError/ },
  },
  {
    name: 'mime-no-boundary',
    about: 'multipart/mixed without a boundary parameter: cloud-init silently skips it; we say so',
    files: () => ({ 'user-data.mime': `Content-Type: multipart/mixed\nMIME-Version: 1.0\n\n--BB\nContent-Type: text/cloud-config\n\n${CC}a: 1\n--BB--\n` }),
    cli: { code: 0, stderr: [/no usable boundary \(NoBoundaryInMultipartDefect.*silently drops everything in it/] },
    analyze: { finding: /boundary/ },
    preview: { text: [/no usable boundary/] },
  },
  {
    name: 'mime-boundary-never-used',
    about: 'a boundary that never appears in the body',
    files: () => ({ 'user-data.mime': `Content-Type: multipart/mixed; boundary="XYZ"\nMIME-Version: 1.0\n\n--BB\nContent-Type: text/cloud-config\n\n${CC}a: 1\n--BB--\n` }),
    cli: { code: 0, stderr: [/no usable boundary/] },
    analyze: {},
    preview: { text: [/no usable boundary/] },
  },
  {
    name: 'mime-no-closing-boundary',
    about: 'the closing delimiter is missing (Python tolerates it)',
    files: () => ({ 'user-data.mime': mime([{ body: `${CC}a: 1` }]).replace(/--BOUNDARY--\n$/, '') }),
    cli: { code: 0, stdout: [/^a: 1$/m] },
    analyze: {},
    preview: {},
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
    analyze: {},
    preview: {},
  },
  {
    name: 'mime-huge-header',
    about: 'a 2 MB folded header and 20,000 headers',
    files: () => ({ 'user-data.mime': `Content-Type: multipart/mixed; boundary="BB"\nMIME-Version: 1.0\nX-Long: ${'y'.repeat(1000)}${'\n z'.repeat(1_000_000)}\n${'X-H: 1\n'.repeat(20_000)}\n--BB\nContent-Type: text/cloud-config\n\n${CC}a: 1\n--BB--\n` }),
    cli: { code: 0, stdout: [/^a: 1$/m] },
    cpuBudgetMs: 60_000,
    analyze: {},
    preview: {},
  },
  {
    name: 'merge-type-header-folded-200000-lines',
    about: 'a Merge-Type header folded over 200,000 lines, each adding dict(): 200,000 findings (a JavaScript spread of them overflowed the stack)',
    files: () => ({ 'user-data.mime': mime([{ headers: 'Content-Type: text/cloud-config\nMerge-Type: list(append)\n' + ' +dict()\n'.repeat(200_000).slice(0, -1), body: CC + 'a: 1' }]) }),
    cli: { code: 0, stdout: [/^a: 1$/m] },
    analyze: { finding: /^duplicate-merger: dict\(\) is listed twice/ },
    preview: { text: [/merged with list\(append\)\+dict\(\)\+dict\(\)/] },
  },
  {
    name: 'merge-how-100000-mergers',
    about: 'a string merge_how of 100,000 list(append) mergers: a finding and a quick fix for each, in linear time',
    files: () => ({ 'user-data.yaml': `${CC}merge_how: "${Array(100_000).fill('list(append)').join('+')}+dict()"\na: [1]\n` }),
    cli: { code: 0, stdout: [/^a:$/m] },
    analyze: { finding: /^duplicate-merger: list\(\) is listed twice/ },
    preview: { text: [/merged with/] },
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
    analyze: {},
    preview: {},
  },

  /* ---------------------------------------------------------------- #include */
  {
    name: 'include-loop',
    about: 'A includes B includes A: cloud-init recurses until RecursionError',
    files: () => ({ 'a.txt': '#include\n{dir}/b.txt\n', 'b.txt': '#include\n{dir}/a.txt\n' }),
    cli: { code: 3, stderr: [/RecursionError: maximum recursion depth exceeded \(an #include loop: .*a\.txt -> .*b\.txt -> .*a\.txt\)/] },
    analyze: {},
    preview: { failure: /RecursionError/ },
  },
  {
    name: 'include-self',
    about: 'a file that includes itself (file:// URL)',
    files: () => ({ 'self.txt': '#include file://{dir}/self.txt\n' }),
    cli: { code: 3, stderr: [/an #include loop/] },
    analyze: {},
    preview: { failure: /RecursionError/ },
  },
  {
    name: 'include-once-loop',
    about: '#include-once does not stop a loop (the cache only saves the fetch)',
    files: () => ({ 'a.txt': '#include-once\n{dir}/a.txt\n' }),
    cli: { code: 3, stderr: [/an #include loop/] },
    analyze: {},
    preview: { failure: /RecursionError/ },
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
  },
  {
    name: 'include-missing',
    about: 'an #include of a file that does not exist: fatal in cloud-init (ERROR_ON_USER_DATA_FAILURE)',
    files: () => ({ 'a.txt': '#include\n{dir}/nope.txt\n' }),
    cli: { code: 3, stderr: [/nope\.txt/] },
    preview: { failure: /nope\.txt/ },
  },
  {
    name: 'include-device',
    about: '#include /dev/zero: never read (it has no end)',
    files: () => ({ 'a.txt': '#include\n/dev/zero\nfile:///dev/urandom\n' }),
    args: ['--include-missing', 'skip'],
    cli: { code: 0, stderr: [/\/dev\/zero: not a regular file/, /\/dev\/urandom: not a regular file/] },
    preview: false,
  },
  {
    name: 'include-directory',
    about: '#include of a directory',
    files: () => ({ 'a.txt': '#include\n{dir}\n' }),
    cli: { code: 3, stderr: [/is a directory/] },
    preview: false,
  },
  {
    name: 'include-remote',
    about: 'http, https, ftp and other URLs are never fetched',
    files: () => ({ 'a.txt': '#include\nhttp://127.0.0.1:9/a\nhttps://example.invalid/b\nftp://x/c\ngopher://x/d\n' }),
    args: ['--include-missing', 'skip'],
    cli: { code: 0, stderr: [/http:\/\/127\.0\.0\.1:9\/a: remote includes are never fetched/, /https:\/\/example\.invalid\/b/] },
    preview: false,
  },

  /* ---------------------------------------------------------------- jinja */
  {
    name: 'jinja-huge-loop',
    about: 'a template looping 100,000,000 times',
    files: () => ({ 't.j2': '## template: jinja\n#cloud-config\na: "{% for i in range(100000000) %}x{% endfor %}"\n' }),
    // current: the sandbox refuses a range over 100,000 (OverflowError: the handler fails); 22.4 would loop, over our limit.
    cli: { code: 0, stderr: [/Failed calling handler JinjaTemplatePartHandler/, /OverflowError: Range too big/] },
    analyze: {},
    preview: { text: [/DROPPED/] },
  },
  {
    name: 'jinja-nested-loops',
    about: 'two nested loops of 100,000',
    files: () => ({ 't.j2': '## template: jinja\n#cloud-config\na: "{% for i in range(100000) %}{% for j in range(100000) %}x{% endfor %}{% endfor %}"\n' }),
    // Our limit, not cloud-init's: the tool's own note, exit 4, never a cloud-init warning.
    cli: { code: 4, stderr: [/^note: part-001: this tool cannot reproduce more than 1000000 loop iterations.*\(limit\); cloud-init would render it/m] },
    analyze: {},
    preview: { text: [/NOT SHOWN \(a limitation of this tool, not of cloud-init\)/] },
  },
  {
    name: 'jinja-string-multiply',
    about: "'x' * 10**9",
    files: () => ({ 't.j2': "## template: jinja\n#cloud-config\na: {{ 'x' * 1000000000 }}\n" }),
    cli: { code: 4, stderr: [/^note: part-001: this tool cannot reproduce value larger than 4000000 \(limit\); cloud-init would render it/m] },
    analyze: {},
    preview: { text: [/NOT SHOWN \(a limitation of this tool, not of cloud-init\)/] },
  },
  {
    name: 'jinja-no-eval',
    about: 'template tricks that reach Python objects in real Jinja (sandbox escapes) are only data here',
    files: () => ({ 't.j2': "## template: jinja\n#cloud-config\na: \"{{ ''.__class__.__mro__[1].__subclasses__() }}\"\nb: \"{{ cycler.__init__.__globals__.os.popen('id').read() }}\"\nc: \"{{ self.__init__.__globals__ }}\"\n" }),
    cli: { code: 0 },
    analyze: {},
    preview: {},
  },

  /* ---------------------------------------------------------------- archives */
  {
    name: 'archive-20000-entries',
    about: 'a #cloud-config-archive of 20,000 entries: over maxParts',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n' + Array.from({ length: 20_000 }, (_, i) => `- "#cloud-config\\nk${i}: 1"\n`).join('') }),
    cli: { code: 2, stderr: [/limit maxParts/] },
    cpuBudgetMs: 60_000,
    preview: { failure: /maxParts/ },
  },
  {
    name: 'archive-type-without-slash',
    about: 'an archive entry whose type has no "/": ValueError aborts all user-data',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n- {type: cloudconfig, content: "a: 1"}\n' }),
    cli: { code: 3, stderr: [/ValueError/] },
    preview: { failure: /ValueError/ },
  },
  {
    name: 'archive-odd-entries',
    about: 'entries that are numbers, lists, nulls, mappings without content',
    files: () => ({ 'archive.txt': '#cloud-config-archive\n- 1\n- [a]\n- null\n- {}\n- {filename: x}\n- "#cloud-config\\na: 1"\n' }),
    cli: { code: 0 },
    preview: {},
  },
];

/** The case list by name (for the fuzzer's seeds and for tests that pick one). */
export function corpusCase(name: string): HostileCase {
  const c = CORPUS.find((x) => x.name === name);
  if (!c) throw new Error(`no corpus case ${name}`);
  return c;
}
