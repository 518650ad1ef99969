// Deep YAML where cloud-init itself fails: PyYAML's composer recurses twice a nesting level and
// its representer three times, so a part nested deeper than 485 levels is skipped with
// RecursionError (not a ValueError: no SCHEMA_ERROR line), cloud-config.txt is not written for
// a value deeper than 328 levels, and an archive or a system file that deep aborts everything.
// Boundaries measured with the oracle (README.md).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PyDict, PyValue } from '../../server/src/engine/py/values';
import { PyError } from '../../server/src/engine/py/errors';
import { PYTHON_RECURSION } from '../../server/src/engine/limits';
import { dumpPyYaml } from '../../server/src/engine/yaml/dump';
import { runUserData } from '../../server/src/engine/userdata/run';
import { readConf } from '../../server/src/engine/system/readConf';
import { mergeConfD } from '../../server/src/engine/system/confd';
import { runCli } from '../support/cli';
import { blockMapNest, flowNest } from './corpus';
import { tempDir } from './harness';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';

const part = (text: string) => [{ name: 'ud', bytes: Buffer.from(text) }];

describe('YAML nested deeper than cloud-init can go', () => {
  test('a part: 485 nested mappings load, 486 raise RecursionError (the part is skipped, not a SCHEMA_ERROR)', () => {
    const ok = runUserData(part('#cloud-config\n' + blockMapNest(PYTHON_RECURSION.yamlPartDepth)));
    assert.equal(ok.reports[0].disposition, 'merged');
    const deep = runUserData(part('#cloud-config\n' + blockMapNest(PYTHON_RECURSION.yamlPartDepth + 1)));
    assert.equal(deep.reports[0].disposition, 'failed');
    assert.equal(deep.reports[0].handled?.error?.pyType, 'RecursionError');
    assert.match(deep.reports[0].note, /RecursionError: maximum recursion depth exceeded \(the YAML nests collections more than 485 levels deep/);
    assert.ok(deep.messages.some((m) => m.message === 'Failed at merging in cloud config part from part-001'));
    assert.doesNotMatch(deep.cloudConfigTxt, /SCHEMA_ERROR/);
  });

  test('100,000 levels of [ and {: skipped quickly', () => {
    for (const text of ['a: ' + flowNest(100_000), 'a: ' + flowNest(100_000, '{a: ', '}', '1'), 'a:\n' + '- '.repeat(100_000) + 'x']) {
      const run = runUserData(part('#cloud-config\n' + text + '\n'));
      assert.equal(run.reports[0].handled?.error?.pyType, 'RecursionError');
    }
  });

  test('cloud-config.txt: a node at level 328 is written, at 329 yaml.dump raises RecursionError', () => {
    const ok = runUserData(part('#cloud-config\n' + blockMapNest(327)));
    assert.equal(ok.renderError, undefined);
    assert.match(ok.cloudConfigTxt, /^ {1304}a: 1$/m);
    const emptyInnermost = runUserData(part('#cloud-config\na: ' + flowNest(327) + '\n'));
    assert.equal(emptyInnermost.renderError, undefined);
    const deep = runUserData(part('#cloud-config\n' + blockMapNest(328)));
    assert.match(deep.renderError ?? '', /^RecursionError: maximum recursion depth exceeded/);
    assert.equal(deep.cloudConfigTxt, '');
  });

  test('dumpPyYaml: no level limit unless asked; shared values are not walked twice', () => {
    let v: PyValue = 1n;
    for (let i = 0; i < 5000; i++) v = [v];
    assert.match(dumpPyYaml(v), /1\n\.\.\.\n$/);
    assert.throws(() => dumpPyYaml(v, { maxLevels: 328 }), (e: unknown) => e instanceof PyError && e.pyType === 'RecursionError');
    // An alias to an object represented higher up costs nothing at depth.
    let chain: PyValue = 'leaf';
    for (let i = 0; i < 300; i++) chain = [chain];
    const shared = PyDict.from([['a', chain], ['b', [[[[chain]]]]]]);
    assert.doesNotThrow(() => dumpPyYaml(shared, { maxLevels: 310 }));
  });

  test('a #cloud-config-archive nested too deep aborts all user-data (RecursionError)', () => {
    const ok = runUserData(part('#cloud-config-archive\n' + flowNest(PYTHON_RECURSION.yamlArchiveDepth) + '\n'));
    assert.equal(ok.fatal, undefined);
    const run = runUserData(part('#cloud-config-archive\n' + flowNest(100_000) + '\n'));
    assert.equal(run.fatal?.pyType, 'RecursionError');
  });

  test('a system config file nested too deep: read_conf raises, so merging the drop-ins fails', () => {
    const file = (n: number) => ({ name: '10-x.cfg', bytes: Buffer.from(blockMapNest(n)) });
    assert.doesNotThrow(() => readConf(file(PYTHON_RECURSION.yamlConfDepth)));
    assert.throws(() => readConf(file(PYTHON_RECURSION.yamlConfDepth + 1)), (e: unknown) => e instanceof PyError && e.pyType === 'RecursionError');
    assert.throws(() => mergeConfD([{ name: '10-x.cfg', bytes: Buffer.from('a: ' + flowNest(50_000)) }]), (e: unknown) => e instanceof PyError && e.pyType === 'RecursionError');
  });

  test('the CLI: exit 3 when cloud-config.txt cannot be written, also with --format report', () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, 'deep.yaml');
      writeFileSync(file, '#cloud-config\n' + blockMapNest(400));
      for (const format of ['yaml', 'json', 'report', 'preview']) {
        const { code, stdout, stderr } = runCli(['--format', format, file]);
        assert.equal(code, 3, `${format}: ${stderr}`);
        assert.match(stdout + stderr, /RecursionError/);
      }
    } finally {
      cleanup();
    }
  });
});
