/**
 * Unit tests of the PyYAML-compatible emitter (server/src/engine/yaml/dump.ts).
 *
 * Every expected text below was produced by PyYAML 6.0 on CPython 3.11 with
 * cloud-init's call
 *
 *     yaml.dump(value, line_break="\n", indent=4, explicit_start=True,
 *               explicit_end=True, default_flow_style=False,
 *               Dumper=yaml.dumper.SafeDumper)
 *
 * (other keyword arguments where a test passes options; `noAlias` is a
 * SafeDumper whose ignore_aliases() returns True), and pasted here, so the
 * tests do not need Python. The random differential test against the live
 * library is test/oracle/yaml-dump.diff.ts.
 */

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  dumpPyYaml,
  dumpPyYamlThroughNodes,
  dumpPyYamlWithLines,
  pyKeyDisplay,
  type DumpOptions,
} from '../../server/src/engine/yaml/dump';
import { analyzeScalar, analyzeStepwise } from '../../server/src/engine/yaml/scalarAnalysis';
import { PyBytes, PyDict, PySet, PyTimestamp, PyTuple, type PyValue } from '../../server/src/engine/py/values';

const d = (...pairs: Array<[PyValue, PyValue]>): PyDict => PyDict.from(pairs);
const t = (...items: PyValue[]): PyTuple => new PyTuple(items);
const set = (...items: PyValue[]): PySet => new PySet(items);
const bytes = (...b: number[]): PyBytes => new PyBytes(Uint8Array.from(b));
const date = (y: number, m: number, day: number): PyTimestamp => new PyTimestamp('date', y, m, day);
const dt = (
  y: number,
  m: number,
  day: number,
  h: number,
  mi: number,
  s: number,
  us = 0,
  off: number | null = null,
): PyTimestamp => new PyTimestamp('datetime', y, m, day, h, mi, s, us, off);

function check(value: PyValue, expected: string, options?: DumpOptions): void {
  assert.equal(dumpPyYaml(value, options), expected);
  // The line-mapping variant writes the same text.
  assert.equal(dumpPyYamlWithLines(value, options).text, expected);
}

describe("representer: Python values to YAML nodes", () => {
  it("None root", () => {
    check(
      null,
      "--- null\n...\n",
    );
  });
  it("bools", () => {
    check(
      [true, false],
      "---\n- true\n- false\n...\n",
    );
  });
  it("ints", () => {
    check(
      [0n, -17n, 123456789012345678901234567890n, -(2n ** 64n)],
      "---\n- 0\n- -17\n- 123456789012345678901234567890\n- -18446744073709551616\n...\n",
    );
  });
  it("floats: repr, .0 before e, specials", () => {
    check(
      [1.5, -0.0, 0.0, 3.0, 1e16, 1e17, 1e-5, 0.0001, 1e22, 1.5e-7, 123456789.125, 0.1 + 0.2, 1e300, Infinity, -Infinity, NaN],
      "---\n- 1.5\n- -0.0\n- 0.0\n- 3.0\n- 1.0e+16\n- 1.0e+17\n- 1.0e-05\n- 0.0001\n- 1.0e+22\n- 1.5e-07\n- 123456789.125\n- 0.30000000000000004\n- 1.0e+300\n- .inf\n- -.inf\n- .nan\n...\n",
    );
  });
  it("float as root", () => {
    check(
      1e16,
      "--- 1.0e+16\n...\n",
    );
  });
  it("str root plain", () => {
    check(
      'abc',
      "--- abc\n...\n",
    );
  });
  it("empty str root", () => {
    check(
      '',
      "--- ''\n...\n",
    );
  });
  it("tuple is a sequence, empty tuple []", () => {
    check(
      [t(1n, 'a'), t()],
      "---\n-   - 1\n    - a\n- []\n...\n",
    );
  });
  it("bytes: !!binary literal, 76-column base64 lines", () => {
    check(
      d(['blob', bytes(...Array.from({ length: 70 }, (_, i) => i * 3))], ['small', bytes(0, 97, 98, 99)], ['empty', bytes()]),
      "---\nblob: !!binary |\n    AAMGCQwPEhUYGx4hJCcqLTAzNjk8P0JFSEtOUVRXWl1gY2ZpbG9ydXh7foGEh4qNkJOWmZyfoqWo\n    q66xtLe6vcDDxsnMzw==\nempty: !!binary \"\"\nsmall: !!binary |\n    AGFiYw==\n...\n",
    );
  });
  it("bytes in a sequence and as root", () => {
    check(
      [bytes(255, 254), bytes()],
      "---\n- !!binary |\n    //4=\n- !!binary \"\"\n...\n",
    );
  });
  it("bytes root", () => {
    check(
      bytes(1, 2, 3),
      "--- !!binary |\n    AQID\n...\n",
    );
  });
  it("bytes and empty bytes as keys", () => {
    check(
      d([bytes(104, 105), 1n], [bytes(), 2n]),
      "---\n? !!binary \"\"\n: 2\n? !!binary |\n    aGk=\n: 1\n...\n",
    );
  });
  it("dates and datetimes", () => {
    check(
      [date(2001, 12, 14), date(1, 1, 1), dt(2001, 12, 14, 21, 59, 43, 100000, -300), dt(2001, 12, 14, 21, 59, 43), dt(2020, 2, 29, 0, 0, 0, 5, 0), dt(1999, 1, 2, 3, 4, 5, 0, 330)],
      "---\n- 2001-12-14\n- 0001-01-01\n- 2001-12-14 21:59:43.100000-05:00\n- 2001-12-14 21:59:43\n- 2020-02-29 00:00:00.000005+00:00\n- 1999-01-02 03:04:05+05:30\n...\n",
    );
  });
  it("timestamp keys", () => {
    check(
      d([date(2001, 1, 2), 'a'], [date(2000, 5, 6), 'b']),
      "---\n2000-05-06: b\n2001-01-02: a\n...\n",
    );
  });
  it("set: !!set mapping of nulls, sorted", () => {
    check(
      d(['s', set('b', 'a', 'c')], ['n', set(3n, 1n, 2n)], ['e', set()]),
      "---\ne: !!set {}\nn: !!set\n    1: null\n    2: null\n    3: null\ns: !!set\n    a: null\n    b: null\n    c: null\n...\n",
    );
  });
  it("empty set root", () => {
    check(
      set(),
      "--- !!set {}\n...\n",
    );
  });
  it("non-empty set root", () => {
    check(
      set('x', 'y'),
      "--- !!set\nx: null\ny: null\n...\n",
    );
  });
});

describe("mapping key order (Python sorted(), insertion order on TypeError)", () => {
  it("str keys sorted by code point", () => {
    check(
      d(['b', 1n], ['a', 2n], ['B', 3n], ['\uffff', 4n], ['\u{1F600}', 5n], ['', 6n], ['a b', 7n]),
      "---\n? ''\n: 6\nB: 3\na: 2\na b: 7\nb: 1\n\"\\uFFFF\": 4\n\"\\U0001F600\": 5\n...\n",
    );
  });
  it("numeric keys compare across bool/int/float", () => {
    check(
      d([3n, 'c'], [true, 'one'], [2.5, 'f'], [-1n, 'm'], [0.5, 'h']),
      "---\n-1: m\n0.5: h\ntrue: one\n2.5: f\n3: c\n...\n",
    );
  });
  it("mixed str/int keys keep insertion order", () => {
    check(
      d(['b', 1n], [2n, 2n], ['a', 3n], [1n, 4n]),
      "---\nb: 1\n2: 2\na: 3\n1: 4\n...\n",
    );
  });
  it("None key keeps insertion order", () => {
    check(
      d(['z', 1n], [null, 2n], ['a', 3n]),
      "---\nz: 1\nnull: 2\na: 3\n...\n",
    );
  });
  it("a lone None key", () => {
    check(
      d([null, 1n]),
      "---\nnull: 1\n...\n",
    );
  });
  it("date and datetime keys are not comparable", () => {
    check(
      d([dt(2001, 1, 1, 0, 0, 0), 1n], [date(2000, 1, 1), 2n]),
      "---\n2001-01-01 00:00:00: 1\n2000-01-01: 2\n...\n",
    );
  });
  it("naive and aware datetime keys are not comparable", () => {
    check(
      d([dt(2001, 1, 1, 0, 0, 0), 1n], [dt(2000, 1, 1, 0, 0, 0, 0, 0), 2n]),
      "---\n2001-01-01 00:00:00: 1\n2000-01-01 00:00:00+00:00: 2\n...\n",
    );
  });
  it("aware datetime keys compare by instant", () => {
    check(
      d([dt(2001, 1, 1, 10, 0, 0, 0, 120), 'a'], [dt(2001, 1, 1, 9, 0, 0, 0, 0), 'b']),
      "---\n2001-01-01 10:00:00+02:00: a\n2001-01-01 09:00:00+00:00: b\n...\n",
    );
  });
  it("tuple keys compare lexicographically", () => {
    check(
      d([t(2n, 'a'), 1n], [t(1n, 'b'), 2n], [t(1n, 'a', 0n), 3n], [t(1n), 4n]),
      "---\n?   - 1\n: 4\n?   - 1\n    - a\n    - 0\n: 3\n?   - 1\n    - b\n: 2\n?   - 2\n    - a\n: 1\n...\n",
    );
  });
  it("tuple keys with incomparable elements", () => {
    check(
      d([t(1n, 'a'), 1n], [t(1n, 2n), 2n]),
      "---\n?   - 1\n    - a\n: 1\n?   - 1\n    - 2\n: 2\n...\n",
    );
  });
  it("NaN key: order is what timsort makes of it", () => {
    check(
      d([3n, 'a'], [NaN, 'n'], [1n, 'b'], [2n, 'c'], [0n, 'd']),
      "---\n3: a\n.nan: n\n0: d\n1: b\n2: c\n...\n",
    );
  });
  it("bytes keys", () => {
    check(
      d([bytes(98), 1n], [bytes(97, 255), 2n], [bytes(97), 3n]),
      "---\n? !!binary |\n    YQ==\n: 3\n? !!binary |\n    Yf8=\n: 2\n? !!binary |\n    Yg==\n: 1\n...\n",
    );
  });
});

describe("scalar analysis: plain, single-quoted or double-quoted", () => {
  it("strings that resolve to other types are quoted", () => {
    check(
      ['123', '-17', '+5', '0x1F', '0o17', '017', '0b101', '1_000', '1.5', '1e5', '1.0e+5', '.5', '5.', '1:30', '190:20:30.15', '.inf', '-.Inf', '.NaN', 'yes', 'Yes', 'NO', 'on', 'OFF', 'y', 'n', 'true', 'False', 'null', 'Null', '~', '2001-12-14', '2001-12-14 21:59:43.10 -5', '<<', '=', 'nULL', 'TrUe'],
      "---\n- '123'\n- '-17'\n- '+5'\n- '0x1F'\n- 0o17\n- '017'\n- '0b101'\n- '1_000'\n- '1.5'\n- 1e5\n- '1.0e+5'\n- '.5'\n- '5.'\n- '1:30'\n- '190:20:30.15'\n- '.inf'\n- '-.Inf'\n- '.NaN'\n- 'yes'\n- 'Yes'\n- 'NO'\n- 'on'\n- 'OFF'\n- y\n- n\n- 'true'\n- 'False'\n- 'null'\n- 'Null'\n- '~'\n- '2001-12-14'\n- '2001-12-14 21:59:43.10 -5'\n- '<<'\n- '='\n- nULL\n- TrUe\n...\n",
    );
  });
  it("indicators", () => {
    check(
      ['-', '- x', '-x', 'x-', '?', '? x', '?x', ':', ': x', ':x', 'a: b', 'a:b', 'a:', 'a #b', 'a#b', '#x', ',x', 'a,b', '[a]', 'a]', '{a}', 'a}', '&x', '*x', '!x', '|x', '>x', "'x", '"x', '%x', '@x', '`x', 'x`', "it's", '---', '--- x', '...', '...x', '--', '..', 'a\\b', '~x', '<<x', '=x'],
      "---\n- '-'\n- '- x'\n- -x\n- x-\n- '?'\n- '? x'\n- ?x\n- ':'\n- ': x'\n- :x\n- 'a: b'\n- a:b\n- 'a:'\n- 'a #b'\n- a#b\n- '#x'\n- ',x'\n- a,b\n- '[a]'\n- a]\n- '{a}'\n- a}\n- '&x'\n- '*x'\n- '!x'\n- '|x'\n- '>x'\n- '''x'\n- '\"x'\n- '%x'\n- '@x'\n- '`x'\n- x`\n- it's\n- '---'\n- '--- x'\n- '...'\n- '...x'\n- --\n- ..\n- a\\b\n- ~x\n- <<x\n- =x\n...\n",
    );
  });
  it("leading and trailing spaces", () => {
    check(
      [' x', 'x ', '  ', 'a  b', ' '],
      "---\n- ' x'\n- 'x '\n- '  '\n- a  b\n- ' '\n...\n",
    );
  });
  it("line breaks: single-quoted with doubled newlines", () => {
    check(
      ['a\nb', 'a\n\nb', 'a\nb\n', '\na', '\n', 'a\n\n', 'x\n y', 'x \ny', "it's\nok"],
      "---\n- 'a\n\n    b'\n- 'a\n\n\n    b'\n- 'a\n\n    b\n\n    '\n- '\n\n    a'\n- '\n\n    '\n- 'a\n\n\n    '\n- \"x\\n y\"\n- \"x \\ny\"\n- 'it''s\n\n    ok'\n...\n",
    );
  });
  it("control and non-ASCII characters are escaped in double quotes", () => {
    check(
      ['\0\x07\x08\t\x0b\x0c\r\x1b\x01\x7f', 'tab\there', 'q"uote and \\ backslash\x85', '\xa0\u2028\u2029\ufeff', 'caf\u00e9', '\u4e2d\u6587', '\u{1F600}', '\ud800', '\u{10FFFF}', 'a\rb'],
      "---\n- \"\\0\\a\\b\\t\\v\\f\\r\\e\\x01\\x7F\"\n- \"tab\\there\"\n- \"q\\\"uote and \\\\ backslash\\N\"\n- \"\\_\\L\\P\\uFEFF\"\n- \"caf\\xE9\"\n- \"\\u4E2D\\u6587\"\n- \"\\U0001F600\"\n- \"\\uD800\"\n- \"\\U0010FFFF\"\n- \"a\\rb\"\n...\n",
    );
  });
  it("multi-line key is a complex key", () => {
    check(
      d(['a\nb', 1n], ['x\u2028y', 2n], ['', 3n]),
      "---\n? ''\n: 3\n? 'a\n\n    b'\n: 1\n? \"x\\Ly\"\n: 2\n...\n",
    );
  });
  it("keys: 122 characters simple, 123 complex (the !!str tag counts)", () => {
    check(
      d(['k'.repeat(122), 1n], ['K'.repeat(123), 2n]),
      "---\n? KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKK\n: 2\nkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk: 1\n...\n",
    );
  });
  it("int key near the simple-key limit", () => {
    check(
      d([10n ** 121n, 1n], [10n ** 122n, 2n]),
      "---\n10000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000: 1\n? 100000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\n: 2\n...\n",
    );
  });
  it("quoted keys", () => {
    check(
      d(['yes', 1n], ['123', 2n], ['a: b', 3n], [' x', 4n], ['\u00e9', 5n]),
      "---\n' x': 4\n'123': 2\n'a: b': 3\n'yes': 1\n\"\\xE9\": 5\n...\n",
    );
  });
});

describe("line folding at the width", () => {
  it("long plain scalar folds at spaces after column 80", () => {
    check(
      d(['key', 'lorem ipsum dolor sit amet '.repeat(8).trim()], ['list', ['word '.repeat(40).trim()]]),
      "---\nkey: lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet\n    lorem ipsum dolor sit amet lorem ipsum dolor sit amet lorem ipsum dolor sit amet\n    lorem ipsum dolor sit amet lorem ipsum dolor sit amet\nlist:\n- word word word word word word word word word word word word word word word word\n    word word word word word word word word word word word word word word word word\n    word word word word word word word word\n...\n",
    );
  });
  it("long plain scalar without spaces is not folded", () => {
    check(
      ['x'.repeat(130), 'y'.repeat(90) + ' z'],
      "---\n- xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n- yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\n    z\n...\n",
    );
  });
  it("long root plain scalar", () => {
    check(
      'abc def '.repeat(20).trim(),
      "--- abc def abc def abc def abc def abc def abc def abc def abc def abc def abc def\n    abc def abc def abc def abc def abc def abc def abc def abc def abc def abc def\n...\n",
    );
  });
  it("long single-quoted scalar folds", () => {
    check(
      d(['k', "it's ".repeat(30).trim()], ['m', 'first line\n' + 'second '.repeat(20)]),
      "---\nk: it's it's it's it's it's it's it's it's it's it's it's it's it's it's it's it's\n    it's it's it's it's it's it's it's it's it's it's it's it's it's it's\nm: 'first line\n\n    second second second second second second second second second second second second\n    second second second second second second second second '\n...\n",
    );
  });
  it("long double-quoted scalar continues lines with a backslash", () => {
    check(
      d(['k', '\u00e9 '.repeat(60)], ['n', 'x'.repeat(100) + '\t' + 'y'.repeat(100)], ['s', 'a'.repeat(78) + '  b  c ' + '\x01']),
      "---\nk: \"\\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9\\\n    \\ \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9\\\n    \\ \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9\\\n    \\ \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \"\nn: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\\t\\\n    yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy\"\ns: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\\n    \\  b  c \\x01\"\n...\n",
    );
  });
  it("double-quoted escapes across the width", () => {
    check(
      ['\x01'.repeat(40), ' leading space ' + 'w '.repeat(50) + '\x02'],
      "---\n- \"\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\\n    \\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\\x01\"\n- \" leading space w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w w\\\n    \\ w w w w w w w w w w w w w w w w w w \\x02\"\n...\n",
    );
  });
  it("continuation lines follow the indentation", () => {
    check(
      d(['a', d(['b', d(['c', ['lorem ipsum '.repeat(12).trim(), "lorem ipsum's ".repeat(8).trim(), 'lorem ipsum\t'.repeat(8)]])])]),
      "---\na:\n    b:\n        c:\n        - lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum\n            lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum\n        - lorem ipsum's lorem ipsum's lorem ipsum's lorem ipsum's lorem ipsum's lorem\n            ipsum's lorem ipsum's lorem ipsum's\n        - \"lorem ipsum\\tlorem ipsum\\tlorem ipsum\\tlorem ipsum\\tlorem ipsum\\tlorem\\\n            \\ ipsum\\tlorem ipsum\\tlorem ipsum\\t\"\n...\n",
    );
  });
  it("multiple spaces do not fold", () => {
    check(
      ['word  '.repeat(30)],
      "---\n- 'word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  word  '\n...\n",
    );
  });
});

describe("block layout", () => {
  it("block layout: indentless sequences in mappings, -   key in sequences", () => {
    check(
      d(['packages', ['git', 'vim']], ['users', [d(['name', 'bob'], ['groups', ['sudo', 'adm']], ['shell', '/bin/bash']), 'default']], ['write_files', [d(['path', '/etc/x'], ['content', 'a\nb\n'])]]),
      "---\npackages:\n- git\n- vim\nusers:\n-   groups:\n    - sudo\n    - adm\n    name: bob\n    shell: /bin/bash\n- default\nwrite_files:\n-   content: 'a\n\n        b\n\n        '\n    path: /etc/x\n...\n",
    );
  });
  it("nested sequences", () => {
    check(
      [[1n, [2n, 3n]], [[[]]], [[d(['a', 1n])]]],
      "---\n-   - 1\n    -   - 2\n        - 3\n-   -   - []\n-   -   -   a: 1\n...\n",
    );
  });
  it("empty collections are flow", () => {
    check(
      d(['l', []], ['d', d()], ['n', [[], d(), t()]], ['s', set()]),
      "---\nd: {}\nl: []\nn:\n- []\n- {}\n- []\ns: !!set {}\n...\n",
    );
  });
  it("empty list root", () => {
    check(
      [],
      "--- []\n...\n",
    );
  });
  it("empty dict root", () => {
    check(
      d(),
      "--- {}\n...\n",
    );
  });
  it("empty collections as keys", () => {
    check(
      d([t(), 1n]),
      "---\n[]: 1\n...\n",
    );
  });
  it("collection key", () => {
    check(
      d([t('a', 1n), 'v'], [t(t(1n, 2n)), 'w']),
      "---\n?   - a\n    - 1\n: v\n?   -   - 1\n        - 2\n: w\n...\n",
    );
  });
  it("dict in dict", () => {
    check(
      d(['a', d(['b', d(['c', null])])]),
      "---\na:\n    b:\n        c: null\n...\n",
    );
  });
});

describe("anchors and aliases", () => {
  it("shared list", () => {
    check(
      (() => { const a = ['x', 'y']; return d(['one', a], ['two', a]); })(),
      "---\none: &id001\n- x\n- y\ntwo: *id001\n...\n",
    );
  });
  it("anchors numbered by second encounter", () => {
    check(
      (() => { const a = [1n]; const b = [2n]; return [a, b, b, a]; })(),
      "---\n- &id002\n    - 1\n- &id001\n    - 2\n- *id001\n- *id002\n...\n",
    );
  });
  it("shared dict in sequences", () => {
    check(
      (() => { const m = d(['k', 'v']); return [m, [m]]; })(),
      "---\n- &id001\n    k: v\n-   - *id001\n...\n",
    );
  });
  it("shared timestamp is anchored, equal strings are not", () => {
    check(
      (() => { const when = date(2001, 2, 3); const s = 'same'; return d(['a', when], ['b', when], ['c', s], ['d', s]); })(),
      "---\na: &id001 2001-02-03\nb: *id001\nc: same\nd: same\n...\n",
    );
  });
  it("shared tuple key is an alias key", () => {
    check(
      (() => { const k = t(1n, 2n); return d([k, 1n], ['x', d([k, 2n])]); })(),
      "---\n? &id001\n- 1\n- 2\n: 1\nx:\n    *id001: 2\n...\n",
    );
  });
  it("shared set", () => {
    check(
      (() => { const s = set('a'); return [s, s]; })(),
      "---\n- &id001 !!set\n    a: null\n- *id001\n...\n",
    );
  });
  it("empty collections can be anchored too", () => {
    check(
      (() => { const e: PyValue[] = []; return [e, e]; })(),
      "---\n- &id001 []\n- *id001\n...\n",
    );
  });
  it("recursive list", () => {
    check(
      (() => { const a: PyValue[] = ['x']; a.push(a); return a; })(),
      "--- &id001\n- x\n- *id001\n...\n",
    );
  });
  it("anchor inside a complex key, alias in the value", () => {
    check(
      (() => { const k = t(1n); return d([t(k, 'x'), k]); })(),
      "---\n?   - &id001\n        - 1\n    - x\n: *id001\n...\n",
    );
  });
});

describe("options", () => {
  it("no explicit end: root plain scalar is still closed", () => {
    check(
      'abc',
      "--- abc\n...\n", {explicitEnd: false},
    );
  });
  it("no explicit start or end", () => {
    check(
      d(['a', [1n]]),
      "a:\n- 1\n", {explicitStart: false,explicitEnd: false},
    );
  });
  it("implicit start with empty string root", () => {
    check(
      '',
      "''\n", {explicitStart: false,explicitEnd: false},
    );
  });
  it("indent 2", () => {
    check(
      d(['a', [d(['b', 'x'.repeat(10) + ' y'.repeat(50)])]]),
      "---\na:\n- b: xxxxxxxxxx y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y y\n    y y y y y y y y y y y y y y y y y\n...\n", {indent: 2},
    );
  });
  it("width 40", () => {
    check(
      ['lorem ipsum dolor sit amet '.repeat(4), "it's ".repeat(12), '\u00e9 '.repeat(20)],
      "---\n- 'lorem ipsum dolor sit amet lorem ipsum\n    dolor sit amet lorem ipsum dolor sit amet\n    lorem ipsum dolor sit amet '\n- 'it''s it''s it''s it''s it''s it''s it''s\n    it''s it''s it''s it''s it''s '\n- \"\\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9\\\n    \\ \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9 \\xE9\\\n    \\ \\xE9 \\xE9 \\xE9 \\xE9 \"\n...\n", {width: 40},
    );
  });
  it("noAlias repeats shared values", () => {
    check(
      (() => { const a = ['x']; return [a, a]; })(),
      "---\n-   - x\n-   - x\n...\n", {noAlias: true},
    );
  });
});

describe('dumpPyYamlWithLines', () => {
  it('maps every key and item to its line (lines as PyYAML writes them)', () => {
    const value = d(
      ['packages', ['git', 'vim']],
      ['users', [d(['name', 'bob'], ['groups', ['sudo']]), 'default']],
      ['runcmd', [['echo', 'hi'], 'lorem ipsum '.repeat(10)]],
      [1n, t(2n)],
      [t('a', 'b'), 'v'],
    );
    const { text, lines } = dumpPyYamlWithLines(value);
    assert.equal(
      text,
      "---\npackages:\n- git\n- vim\nusers:\n-   groups:\n    - sudo\n    name: bob\n- default\nruncmd:\n-   - echo\n    - hi\n- 'lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum lorem ipsum\n    lorem ipsum lorem ipsum lorem ipsum '\n1:\n- 2\n?   - a\n    - b\n: v\n...\n",
    );
    assert.deepEqual(lines, [
      { path: ['packages'], line: 1 },
      { path: ['packages', 0], line: 2 },
      { path: ['packages', 1], line: 3 },
      { path: ['users'], line: 4 },
      { path: ['users', 0], line: 5 },
      { path: ['users', 0, 'groups'], line: 5 },
      { path: ['users', 0, 'groups', 0], line: 6 },
      { path: ['users', 0, 'name'], line: 7 },
      { path: ['users', 1], line: 8 },
      { path: ['runcmd'], line: 9 },
      { path: ['runcmd', 0], line: 10 },
      { path: ['runcmd', 0, 0], line: 10 },
      { path: ['runcmd', 0, 1], line: 11 },
      { path: ['runcmd', 1], line: 12 },
      { path: ['1'], line: 14 },
      { path: ['1', 0], line: 15 },
      // The items of the complex key itself are not listed.
      { path: ["('a', 'b')"], line: 16 },
    ]);
  });

  it('lists the children of a shared value once, where the anchor is', () => {
    const shared = d(['k', 'v']);
    const { text, lines } = dumpPyYamlWithLines(d(['a', shared], ['b', shared]));
    assert.equal(text, '---\na: &id001\n    k: v\nb: *id001\n...\n');
    assert.deepEqual(lines, [
      { path: ['a'], line: 1 },
      { path: ['a', 'k'], line: 2 },
      { path: ['b'], line: 3 },
    ]);
  });

  it('has no entries for a scalar document', () => {
    assert.deepEqual(dumpPyYamlWithLines('x'), { text: '--- x\n...\n', lines: [] });
  });
});

describe('pyKeyDisplay (Python str() of a key)', () => {
  it('spells keys as Python str() does', () => {
    assert.equal(pyKeyDisplay('runcmd'), 'runcmd');
    assert.equal(pyKeyDisplay(null), 'None');
    assert.equal(pyKeyDisplay(true), 'True');
    assert.equal(pyKeyDisplay(-3n), '-3');
    assert.equal(pyKeyDisplay(1e16), '1e+16');
    assert.equal(pyKeyDisplay(2.0), '2.0');
    assert.equal(pyKeyDisplay(date(2001, 2, 3)), '2001-02-03');
    assert.equal(pyKeyDisplay(dt(2001, 2, 3, 4, 5, 6, 7, -300)), '2001-02-03 04:05:06.000007-05:00');
    assert.equal(pyKeyDisplay(t(1n, 'a', t())), "(1, 'a', ())");
    assert.equal(pyKeyDisplay(t('x')), "('x',)");
    assert.equal(pyKeyDisplay(bytes(0x61, 0x27, 0x00)), 'b"a\'\\x00"');
  });
});

describe('robustness and performance', () => {
  it('dumps 10,000 nested lists without recursion', () => {
    let v: PyValue = 'x';
    for (let i = 0; i < 10000; i++) v = [v];
    // Pattern checked against PyYAML at depths it can reach (4 and 200).
    assert.equal(dumpPyYaml(v), '---\n' + '-   '.repeat(9999) + '- x\n...\n');
  });

  it('writes words longer than the output buffer (1 MiB) whole, folding and quoting as for short ones', () => {
    // The shape checked against PyYAML with 100 and 90 characters for N.
    const N = 1_200_000;
    const value = d(['a', 'x'.repeat(N) + ' ' + 'y'.repeat(N)], ['b', 'p q'.repeat(2) + '\n' + 'z'.repeat(N) + "'"]);
    const expected = `---\na: ${'x'.repeat(N)}\n    ${'y'.repeat(N)}\nb: 'p qp q\n\n    ${'z'.repeat(N)}'''\n...\n`;
    assert.ok(dumpPyYaml(value) === expected, 'the long words are written whole');
    assert.ok(dumpPyYamlThroughNodes(value).text === expected, 'through the nodes too');
  });

  it('dumps 10,000 nested dicts without recursion', () => {
    let v: PyValue = 'x';
    for (let i = 0; i < 10000; i++) v = d(['k', v]);
    const text = dumpPyYaml(v);
    assert.ok(text.startsWith('---\nk:\n    k:\n        k:\n'));
    assert.ok(text.endsWith('\n' + '    '.repeat(9999) + 'k: x\n...\n'));
    // Paths are as deep as the value, so the line map of deep nesting is
    // quadratic in size by nature; check it at a smaller depth.
    let w: PyValue = 'x';
    for (let i = 0; i < 2000; i++) w = d(['k', w]);
    const { lines } = dumpPyYamlWithLines(w);
    assert.equal(lines.length, 2000);
    assert.deepEqual(lines[1999], { path: new Array(2000).fill('k'), line: 2000 });
  });

  it('dumps a 1,000,000-item list in linear time', { timeout: 120000 }, () => {
    const n = 1000000;
    const big: PyValue[] = new Array(n);
    for (let i = 0; i < n; i++) big[i] = i % 2 ? BigInt(i) : 'item ' + i;
    const text = dumpPyYaml(big);
    assert.ok(text.startsWith('---\n- item 0\n- 1\n- item 2\n'));
    assert.ok(text.endsWith('- item 999998\n- 999999\n...\n'));
    const { lines } = dumpPyYamlWithLines(big);
    assert.equal(lines.length, n);
    assert.deepEqual(lines[n - 1], { path: [n - 1], line: n });
  });

  it('writes scalars longer than the output buffer, and outputs across many of its pieces', () => {
    const long = 'x'.repeat(3 << 20);
    assert.equal(dumpPyYaml(['a', long, 'b']), `---\n- a\n- ${long}\n- b\n...\n`);
    const lines = 'line with words\n'.repeat(200000);
    const text = dumpPyYaml(d(['content', lines], ['z', 'end']));
    assert.equal(text, dumpPyYamlThroughNodes(d(['content', lines], ['z', 'end'])).text);
    assert.ok(text.length > 3 << 20);
    assert.ok(text.endsWith("    line with words\n\n    '\nz: end\n...\n"));
  });

  it('throws like Python for an int over 4300 digits', () => {
    assert.equal(dumpPyYaml(10n ** 4299n).length, 4300 + 9);
    assert.throws(() => dumpPyYaml(10n ** 4300n), /Exceeds the limit \(4300 digits\)/);
  });

  it('throws for a recursive value without aliases', () => {
    const a: PyValue[] = [];
    a.push(a);
    assert.throws(() => dumpPyYaml(a, { noAlias: true }), /recursive/);
    assert.equal(dumpPyYaml(a), '--- &id001\n- *id001\n...\n');
  });

  it('numbers anchors past id999', () => {
    const shared = Array.from({ length: 1000 }, (_, i) => [BigInt(i)]);
    const text = dumpPyYaml([...shared, ...shared]);
    assert.ok(text.includes('- &id1000\n    - 999\n'));
    assert.ok(text.endsWith('- *id999\n- *id1000\n...\n'));
  });
});

describe('the direct walk writes what the nodes and events write', () => {
  // The emitter walks plain values (str keys, lists, dicts, scalars, nothing shared) directly; every
  // other value goes through the representer's nodes, which the oracle differential pins to PyYAML.
  let seed = 0x5eed;
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  // Pieces chosen for the emitter's decisions: indicators, resolution, quoting, folding, escapes.
  const PIECES = ['a', 'word', ' ', '  ', '\n', '\n\n', ':', ': ', '#', ' #', '-', '- ', '?', "'", '"', '\\', '...', '---',
    'yes', 'null', '~', '123', '0x1F', '1.5', '.inf', '2001-12-14', '=', '<<', '!', '&', '*', '[', '{', ',', '%', '@', '`', '|', '>',
    '\t', '\r', '\x85', '\u2028', '\u00e9', '\ud83d\ude00', '\ud800', '\x00', '\x7f', 'x'.repeat(30), 'lorem ipsum dolor sit amet '];
  const randomStr = (): string => {
    const n = Math.floor(random() * (random() < 0.1 ? 40 : 6));
    let s = '';
    for (let i = 0; i < n; i++) s += pick(PIECES);
    return s;
  };
  const randomScalar = (): PyValue => {
    const r = random();
    if (r < 0.6) return randomStr();
    if (r < 0.68) return null;
    if (r < 0.76) return random() < 0.5;
    if (r < 0.86) return BigInt(Math.floor((random() - 0.5) * 1e6)) * (random() < 0.1 ? 10n ** 30n : 1n);
    return pick([1.5, -0.0, 0, 1e16, 1e-5, NaN, Infinity, -Infinity, 0.1 + 0.2, random() * 1000]);
  };
  const randomValue = (depth: number): PyValue => {
    const r = random();
    if (depth > 5 || r < 0.45) return randomScalar();
    const n = Math.floor(random() * 5);
    if (r < 0.7) return Array.from({ length: n }, () => randomValue(depth + 1));
    const dict = new PyDict();
    // Now and then a mapping past the emitter's insertion-sort size.
    const keys = depth < 2 && random() < 0.1 ? 20 + Math.floor(random() * 30) : n;
    for (let i = 0; i < keys; i++) dict.set(random() < 0.05 ? 'k'.repeat(118 + Math.floor(random() * 8)) : randomStr(), randomValue(depth + 1));
    return dict;
  };

  it('gives the same text and lines on 3,000 random values and options', () => {
    for (let i = 0; i < 3000; i++) {
      const value = randomValue(0);
      const options: DumpOptions = random() < 0.7 ? {} : { indent: pick([2, 3, 4, 9]), width: pick([10, 20, 80, 200]), explicitStart: random() < 0.5, explicitEnd: random() < 0.5 };
      const direct = dumpPyYamlWithLines(value, options);
      const nodes = dumpPyYamlThroughNodes(value, options, true);
      assert.equal(direct.text, nodes.text, `case ${i}: ${JSON.stringify(String(nodes.text))}`);
      assert.deepEqual(direct.lines, nodes.lines, `case ${i}`);
      assert.equal(dumpPyYaml(value, options), nodes.text);
    }
  });

  it("analyses scalars with its shortcuts as PyYAML's character loop does", () => {
    for (let i = 0; i < 20000; i++) {
      const text = randomStr();
      if (text === '') continue;
      assert.deepEqual(analyzeScalar(text), analyzeStepwise(text), JSON.stringify(text));
    }
  });

  it('unshared: a cycle still ends at maxLevels and goes to the nodes; without maxLevels the promise is not taken', () => {
    const cycle: PyValue[] = ['x'];
    cycle.push(cycle);
    assert.equal(dumpPyYaml(cycle, { unshared: true, maxLevels: 50 }), '--- &id001\n- x\n- *id001\n...\n');
    assert.equal(dumpPyYaml(cycle, { unshared: true }), '--- &id001\n- x\n- *id001\n...\n');
  });

  it('leaves shared values, non-str keys, sets and the depth bound to the nodes', () => {
    const shared = ['x'];
    assert.equal(dumpPyYaml(d(['a', shared], ['b', shared])), '---\na: &id001\n- x\nb: *id001\n...\n');
    const empty = new PyDict();
    assert.equal(dumpPyYaml([empty, empty]), '---\n- &id001 {}\n- *id001\n...\n');
    assert.equal(dumpPyYaml(d([1n, 'one'], ['a', 'b'])), '---\n1: one\na: b\n...\n');
    assert.equal(dumpPyYaml(d(['s', set('b', 'a')])), '---\ns: !!set\n    a: null\n    b: null\n...\n');
    assert.throws(() => dumpPyYaml(d(['a', d(['b', 'c'])]), { maxLevels: 2 }), /RecursionError|recursion/);
    assert.equal(dumpPyYaml(d(['a', d(['b', 'c'])]), { maxLevels: 4 }), '---\na:\n    b: c\n...\n');
  });
});
