/**
 * The CLI's arguments (server/src/cli/args.ts): what each flag sets, the words of each refusal, the help
 * made from the same table as the parser, and one line (not the whole help) for a mistyped flag or a
 * flag without its value (issue 31, item 6).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS } from '../../server/src/engine/limits';
import { FLAGS, parseArgs, usage } from '../../server/src/cli/args';
import { runCli } from '../support/cli';

test('defaults: a plain merge of the FILEs, in user-data mode, as cloud-config.txt text', () => {
  const o = parseArgs(['a.yaml', 'b.yaml']);
  assert.deepEqual(o.files, ['a.yaml', 'b.yaml']);
  assert.equal(o.mode, 'user-data');
  assert.equal(o.format, 'yaml');
  assert.equal(o.version, 'current');
  assert.equal(o.includeMissing, 'error');
  assert.equal(o.confdOrder, 'name');
  assert.deepEqual(o.limits, DEFAULT_LIMITS);
  assert.deepEqual([o.check, o.lint, o.annotate, o.pretty, o.reverse, o.noBuiltin, o.rendered, o.help, o.showVersion], [false, false, false, false, false, false, false, false, false]);
});

test('repeatable flags keep every value, in order; others keep the last', () => {
  const o = parseArgs([
    '--include-map', 'http://x/a?b=c=d', '--include-map=u=f', '--confd', 'a.cfg', '--confd', 'b.cfg',
    '--custom-merger', ' mine =./m_mine.js', '--custom-merger', 'two=two.js', '--limit', 'maxParts=3', '--limit', 'maxDepth=9',
    '--mode', 'confd', '--mode', 'boot', 'u.yaml',
  ]);
  assert.deepEqual(o.includeMap, [{ url: 'http://x/a?b', file: 'c=d' }, { url: 'u', file: 'f' }]);
  assert.deepEqual(o.confd, ['a.cfg', 'b.cfg']);
  assert.deepEqual(o.customMergers, [{ name: 'mine', path: './m_mine.js' }, { name: 'two', path: 'two.js' }]);
  assert.deepEqual(o.limits, { ...DEFAULT_LIMITS, maxParts: 3, maxDepth: 9 });
  assert.equal(o.mode, 'boot');
  assert.deepEqual(o.files, ['u.yaml']);
});

test('values: after the flag or after "=", even one that starts with a dash; the old mode names', () => {
  assert.equal(parseArgs(['--launch-index', '-1', 'a']).launchIndex, -1);
  assert.equal(parseArgs(['--explain-merge-how', '- name: list']).explainMergeHow, '- name: list');
  assert.equal(parseArgs(['--mode=userdata']).mode, 'user-data');
  assert.equal(parseArgs(['--mode', 'mergemany']).mode, 'system');
  assert.equal(parseArgs(['--cloud-init-version', '22.4.2']).version, '22.4');
  assert.equal(parseArgs(['--cloud-init-version=head']).version, 'current');
  // The releases images ship, by series or by full release.
  assert.equal(parseArgs(['--cloud-init-version', '23.4']).version, '23.4');
  assert.equal(parseArgs(['--cloud-init-version', '24.4.1']).version, '24.4');
  assert.equal(parseArgs(['--cloud-init-version', '25.1']).version, '25.1');
  assert.equal(parseArgs(['--instance-data=./--check', 'a']).instanceData, './--check', 'written with "=", any value is a value');
  const all = parseArgs(['--runtime-cfg', 'r', '--cmdline-cfg', 'c', '--ds-config', 'd', '--vendor', 'v', '--vendor2', 'v2', '--builtin-cfg', 'b', '--cloud-cfg', 'cc', '--confd-order', 'given', '--no-builtin', '--reverse', '--pretty', 'u']);
  assert.deepEqual([all.runtimeCfg, all.cmdlineCfg, all.dsConfig, all.vendor, all.vendor2, all.builtinCfg, all.cloudCfg, all.confdOrder], ['r', 'c', 'd', 'v', 'v2', 'b', 'cc', 'given']);
  assert.deepEqual([all.noBuiltin, all.reverse, all.pretty], [true, true, true]);
});

test('"-" is a FILE (stdin), and everything after "--" is a FILE', () => {
  assert.deepEqual(parseArgs(['-', 'a']).files, ['-', 'a']);
  assert.deepEqual(parseArgs(['a', '--', '--check', '-h', '--']).files, ['a', '--check', '-h', '--']);
  assert.equal(parseArgs(['--', '--check']).check, false);
});

test('the format follows the command: text for --check, yaml for --spec, unless given', () => {
  assert.equal(parseArgs(['--check', 'a']).format, 'text');
  assert.equal(parseArgs(['--check', '--format', 'sarif', 'a']).format, 'sarif');
  assert.equal(parseArgs(['--spec', 'list()', 'a']).format, 'yaml');
  assert.equal(parseArgs(['--spec', 'list()', '--format', 'json', 'a']).format, 'json');
  assert.equal(parseArgs(['--lint', '--format', 'sarif', 'a']).format, 'sarif');
  assert.deepEqual(parseArgs(['--check', '--fail-on', 'lost, replaced', 'a']).failOn, ['lost', 'replaced']);
  assert.equal(parseArgs(['--set', 'web', '--set-file', 's.yaml', '--check']).setFile, 's.yaml');
  assert.equal(parseArgs(['--set', 'web', '--check', '--mode', 'chef']).set, 'web', 'with --set, the set file decides the mode');
});

test('each refusal says what is wrong in the words users have seen', () => {
  const refusals: Array<[string[], RegExp]> = [
    [['--mode', 'bogus'], /^unknown mode 'bogus' \(expected user-data, handler, confd, system, boot, chef\)$/],
    [['--mode', 'constructor'], /^unknown mode 'constructor'/],
    [['--format', 'xml'], /^unknown format 'xml' \(expected yaml, json, report, preview, text, sarif\)$/],
    [['--include-map', '=f'], /^--include-map wants URL=FILE, got '=f'$/],
    [['--custom-merger', 'mine'], /^--custom-merger wants NAME=PATH, got 'mine'$/],
    [['--limit', 'maxParts=0'], /^--limit maxParts must be a positive integer, got '0'$/],
    [['--limit', 'maxParts'], /^--limit wants NAME=N \(a positive integer\), got 'maxParts'$/],
    [['--limit', 'depth=3'], /^--limit: unknown limit 'depth' \(expected maxFileBytes, /],
    [['--include-missing', 'x'], /^--include-missing takes error or skip, not 'x'$/],
    [['--launch-index', 'x'], /^--launch-index wants an integer, got 'x'$/],
    [['--confd-order', 'z'], /^--confd-order takes name or given, not 'z'$/],
    [['--cloud-init-version', '21'], /^--cloud-init-version takes 22\.4, 23\.4, 24\.4, 25\.1, current \(or a full release such as 24\.4\.1\), not '21'$/],
    [['--cloud-init-version', '24.5'], /not '24\.5'$/],
    [['--check', '--fail-on', 'clobbered', 'a'], /^--fail-on: unknown kind 'clobbered' \(expected replaced, /],
    [['--check', '--fail-on', ',', 'a'], /^--fail-on needs one or more of replaced, /],
    [['--fail-on', 'lost', 'a'], /^--fail-on goes with --check$/],
    [['--check', '--format', 'yaml', 'a'], /^--check writes text, json or sarif, not 'yaml'$/],
    [['--check', '--mode', 'chef', 'a'], /^--check works with the user-data, handler, confd and boot modes$/],
    [['--check', '--annotate', '--format', 'json', 'a'], /^--annotate prints text/],
    [['--annotate', 'a'], /^--annotate goes with --check$/],
    [['--format', 'text', 'a'], /^--format text goes with --check$/],
    [['--format', 'sarif', 'a'], /^--format sarif goes with --check or --lint$/],
    [['--set-file', 's.yaml'], /^--set-file goes with --set NAME$/],
    [['--check=yes', 'a'], /^--check takes no value \(got --check=yes\)$/],
  ];
  for (const [argv, message] of refusals) assert.throws(() => parseArgs(argv), { message }, argv.join(' '));
});

test('a mistyped flag: one line naming it and the nearest flag, and where the help is; exit 2', () => {
  const typo = runCli(['--chek', 'a.yaml']);
  assert.equal(typo.code, 2);
  assert.equal(typo.stdout, '');
  assert.equal(typo.stderr, 'cloud-config-merge: unknown option --chek (did you mean --check?); see cloud-config-merge --help\n');
  assert.equal(runCli(['--instance', 'aws', 'a.yaml']).stderr, 'cloud-config-merge: unknown option --instance (did you mean --instance-data?); see cloud-config-merge --help\n');
  assert.equal(runCli(['--pretyy=1']).stderr, 'cloud-config-merge: unknown option --pretyy (did you mean --pretty?); see cloud-config-merge --help\n');
  assert.equal(runCli(['-check', 'a.yaml']).stderr, 'cloud-config-merge: unknown option -check (did you mean --check?); see cloud-config-merge --help\n', 'one dash is not read as -c -h -e -c -k');
  assert.equal(runCli(['--zzzzzz']).stderr, 'cloud-config-merge: unknown option --zzzzzz; see cloud-config-merge --help\n', 'nothing near: no guess');
});

test('a flag without its value: one line naming the flag and what it takes; exit 2', () => {
  const last = runCli(['a.yaml', '--instance-data']);
  assert.equal(last.code, 2);
  assert.equal(last.stderr, 'cloud-config-merge: --instance-data needs a value (FILE|NAME); see cloud-config-merge --help\n');
  const before = runCli(['--instance-data', '--check', 'a.yaml']);
  assert.equal(before.code, 2, 'the next flag is not taken for the value');
  assert.equal(before.stderr, 'cloud-config-merge: --instance-data needs a value (FILE|NAME), not the flag --check; see cloud-config-merge --help\n');
  assert.equal(runCli(['--mode']).stderr, 'cloud-config-merge: --mode needs a value (user-data|handler|confd|system|boot|chef); see cloud-config-merge --help\n');
  const badValue = runCli(['--mode', 'bogus', 'a.yaml']);
  assert.equal(badValue.code, 2);
  assert.equal(badValue.stderr.split('\n').length, 2, 'every argument error is one line');
});

test('--help: every flag the parser takes, with its value and words, and no flag it does not take', () => {
  const text = usage();
  const help = runCli(['--help']);
  assert.equal(help.code, 0);
  assert.equal(help.stdout, text + '\n');
  for (const f of FLAGS) {
    const spelled = `${f.short ? `-${f.short}, ` : ''}--${f.flag}${f.value ? ` ${f.value}` : ''}`;
    assert.match(text, new RegExp(`^  ${spelled.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(  |\\n)`, 'm'), `${f.flag} is listed`);
    if (f.value !== undefined) assert.throws(() => parseArgs([`--${f.flag}`]), { message: new RegExp(`^--${f.flag} needs a value`) }, `${f.flag} takes a value`);
    else assert.doesNotThrow(() => parseArgs([`--${f.flag}`, ...(f.flag === 'annotate' || f.flag === 'each' ? ['--check'] : f.flag === 'set-allow-outside' ? ['--set', 'web'] : f.flag === 'seed-allow-outside' ? ['--seed', 'seed'] : f.flag === 'plan-hints' ? ['--plan'] : [])]), `${f.flag} is a switch`);
  }
  // make-mime's own flags (--gzip, --base64) are make-mime's: its help lists them.
  const named = new Set([...text.matchAll(/(?<![\w-])--([a-z][\w-]*)/g)].map((m) => m[1]));
  const unknown = [...named].filter((n) => !FLAGS.some((f) => f.flag === n) && n !== 'gzip' && n !== 'base64');
  assert.deepEqual(unknown, [], 'the help names only flags the parser takes');
  assert.ok(text.split('\n').every((l) => l.length <= 112), 'lines of at most 112 characters');
});

test('make-mime: a mistyped flag is one line with the nearest flag, as the main command says it (issue 31, item 6)', () => {
  const typo = runCli(['make-mime', '--gzipp', 'a.yaml']);
  assert.equal(typo.code, 2);
  assert.equal(typo.stderr, 'cloud-config-merge make-mime: unknown option --gzipp (did you mean --gzip?); see cloud-config-merge make-mime --help\n');
  assert.equal(runCli(['make-mime']).stderr, 'cloud-config-merge make-mime: needs at least one FILE; see cloud-config-merge make-mime --help\n');
  assert.match(runCli(['make-mime', '--help']).stdout, /^Usage: cloud-config-merge make-mime/);
});
