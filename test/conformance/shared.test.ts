// Runs cloud-init's own merge test cases (../shared/conformance/cases, data kept outside this repo)
// through the CLI in-process, with the same arguments the oracle was given, and compares as each
// case.json says. (Without --no-builtin the oracle's boot mode uses cloud-init's builtin config; for
// merging only its vendor-data switches matter, and the CLI treats those as on by default.) The `schema` group is about cloud-init's JSON schema, not merging: not run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCliIn } from '../support/cli';
import { translateOracleArgs } from '../support/oracleArgs';

const CASES = resolve(__dirname, '..', '..', '..', '..', 'shared', 'conformance', 'cases');

interface CaseSpec {
  id: string;
  args: string[];
  compare: 'exact' | 'subset' | 'raw_exact' | 'raw_regex' | 'error' | 'schema';
  expected?: string;
  expected_raw?: string;
  expected_raw_regex?: Record<string, string>;
  expected_warning?: string;
  absent_keys?: string[];
}


function subsetMismatch(expected: unknown, actual: unknown, path = '$'): string | null {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected)) {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: expected a mapping`;
    for (const [k, v] of Object.entries(expected)) {
      if (!(k in actual)) return `${path}.${k}: missing`;
      const m = subsetMismatch(v, (actual as Record<string, unknown>)[k], `${path}.${k}`);
      if (m) return m;
    }
    return null;
  }
  try {
    assert.deepEqual(actual, expected);
    return null;
  } catch {
    return `${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
  }
}

const groups = existsSync(CASES) ? readdirSync(CASES).sort() : [];

test('shared conformance cases are present', { skip: existsSync(CASES) ? false : `no ${CASES} on this machine` }, () => {
  assert.ok(groups.length > 0);
});

for (const group of groups) {
  for (const name of readdirSync(join(CASES, group)).sort()) {
    const dir = join(CASES, group, name);
    const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as CaseSpec;
    if (spec.compare === 'schema') continue;
    test(`conformance ${spec.id}`, () => {
      const versions: Array<['22.4' | 'current', string]> = [
        ['22.4', 'debian-22.4.2'],
        ['current', 'upstream'],
      ];
      for (const [version, impl] of versions) {
        const argv = translateOracleArgs(spec.args);
        const run = runCliIn([...argv, '--cloud-init-version', version], dir);
        const where = `${spec.id} (cloud-init ${version})\nstderr: ${run.stderr}`;
        if (spec.expected_warning) assert.ok(run.stderr.includes(spec.expected_warning), `${where}\nexpected warning: ${spec.expected_warning}`);
        switch (spec.compare) {
          case 'error':
            assert.equal(run.code, 3, where);
            break;
          case 'raw_exact':
            assert.equal(run.code, 0, where);
            assert.equal(run.stdout, spec.expected_raw, where);
            break;
          case 'raw_regex': {
            assert.equal(run.code, 0, where);
            const pattern = spec.expected_raw_regex?.[impl];
            assert.ok(pattern, `${where}: no regex for ${impl}`);
            assert.match(run.stdout, new RegExp(`^(?:${pattern})$`), where);
            break;
          }
          case 'exact':
          case 'subset': {
            assert.equal(run.code, 0, where);
            const actual = JSON.parse(run.stdout);
            const expected = JSON.parse(readFileSync(join(dir, spec.expected ?? 'expected.json'), 'utf8'));
            if (spec.compare === 'exact') assert.deepEqual(actual, expected, where);
            else {
              const mismatch = subsetMismatch(expected, actual);
              assert.equal(mismatch, null, `${where}\n${mismatch}`);
              for (const k of spec.absent_keys ?? []) assert.ok(!(k in actual), `${where}: key ${k} should be absent`);
            }
            break;
          }
        }
      }
    });
  }
}
