// This project's own conformance cases (test/conformance/cases/*), one per rule of the merging spec.
// Inputs are hand-written; expected outputs were produced by the real cloud-init 22.4.2, and for cases
// that list "versions" also by upstream cloud-init (expected-current.*) (`npm run conformance:regen`),
// so these tests need no oracle at run time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCliIn } from '../support/cli';
import { translateOracleArgs } from '../support/oracleArgs';

const CASES = resolve(__dirname, '..', '..', '..', 'test', 'conformance', 'cases');

for (const name of readdirSync(CASES).sort()) {
  const dir = join(CASES, name);
  const spec = JSON.parse(readFileSync(join(dir, 'case.json'), 'utf8')) as { args: string[]; note: string; versions?: string[] };
  // expected.* come from cloud-init 22.4.2; expected-current.* (cases listing "versions") from upstream cloud-init.
  for (const version of spec.versions ?? ['22.4']) {
    const prefix = version === '22.4' ? 'expected' : `expected-${version}`;
    test(`${name}${version === '22.4' ? '' : ` (${version})`}: ${spec.note}`, () => {
      const run = runCliIn([...translateOracleArgs(spec.args), '--cloud-init-version', version], dir);
      const context = `stderr:\n${run.stderr}`;
      if (existsSync(join(dir, `${prefix}-error.txt`))) {
        assert.equal(run.code, 3, `cloud-init fails here, so the CLI must exit 3\n${context}`);
      } else if (existsSync(join(dir, `${prefix}.txt`))) {
        assert.equal(run.code, 0, context);
        assert.equal(run.stdout, readFileSync(join(dir, `${prefix}.txt`), 'utf8'), context);
      } else {
        assert.equal(run.code, 0, context);
        assert.deepEqual(JSON.parse(run.stdout), JSON.parse(readFileSync(join(dir, `${prefix}.json`), 'utf8')), context);
      }
    });
  }
}
