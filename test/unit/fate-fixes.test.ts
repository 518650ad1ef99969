/**
 * The specs that keep both values (engine/outcome/fixes.ts) on the parts of a MIME blob: the edit goes to
 * the deciding part's own spec, its Merge-Type header (edited or added) or the merge_how of its body.
 * Expected merged results: oracle.py --mode userdata on the fixed blobs (cloud-init 22.4).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fatesOf } from '../../server/src/engine/outcome/fates';
import { runSet } from '../../server/src/engine/outcome/run';
import { keepBothOutcomes } from '../../server/src/engine/outcome/fixes';
import { runUserData } from '../../server/src/engine/userdata/run';
import { toCanonicalJson } from '../../server/src/engine/py/json';

const part = (headers: string, body: string) => `--XX\nContent-Type: text/cloud-config\nMIME-Version: 1.0\n${headers}\n#cloud-config\n${body}\n`;
const blob = (...parts: string[]) => `Content-Type: multipart/mixed; boundary="XX"\nMIME-Version: 1.0\n\n${parts.join('\n')}\n--XX--\n`;
const BASE = part('', 'runcmd: [echo base]\n');

function fix(text: string): { titles: string[]; fixed: string } {
  const files = [{ name: 'user-data.mime', bytes: Buffer.from(text) }];
  const outcome = runSet('user-data', { files }, { version: '22.4' });
  const replaced = fatesOf(outcome).fates.find((f) => f.kind === 'replaced');
  assert.ok(replaced);
  const outcomes = keepBothOutcomes(outcome, replaced);
  const { span, newText } = outcomes[0].edit;
  return { titles: outcomes.map((o) => `${o.spec} → ${o.display}`), fixed: text.slice(0, span.start) + newText + text.slice(span.end) };
}

function merged(text: string): unknown {
  return JSON.parse(toCanonicalJson(runUserData([{ name: 'user-data.mime', bytes: Buffer.from(text) }], { version: '22.4' }).result).text);
}

const ORACLE = { runcmd: ['echo base', 'echo app'] };

test("a MIME part's Merge-Type header is edited in place", () => {
  const { titles, fixed } = fix(blob(BASE, part('Merge-Type: dict(replace)\n', 'runcmd: [echo app]\n')));
  assert.deepEqual(titles, ["list(append)+dict(no_replace,recurse_array)+str() → ['echo base', 'echo app']", "list(prepend)+dict(no_replace,recurse_array)+str() → ['echo app', 'echo base']"]);
  assert.equal(fixed, blob(BASE, part('Merge-Type: list(append)+dict(no_replace,recurse_array)+str()\n', 'runcmd: [echo app]\n')));
  assert.deepEqual(merged(fixed), ORACLE);
});

test('a MIME part without a spec gets a Merge-Type header after its last header', () => {
  const { fixed } = fix(blob(BASE, part('', 'runcmd: [echo app]\n')));
  assert.equal(fixed, blob(BASE, part('Merge-Type: list(append)+dict(no_replace,recurse_array)+str()\n', 'runcmd: [echo app]\n')));
  assert.deepEqual(merged(fixed), ORACLE);
});

test("a MIME part with merge_how in its body: the body's spec is edited", () => {
  const { fixed } = fix(blob(BASE, part('', 'merge_how: dict(replace)\nruncmd: [echo app]\n')));
  assert.equal(fixed, blob(BASE, part('', "merge_how: 'list(append)+dict(no_replace,recurse_array)+str()'\nruncmd: [echo app]\n")));
  assert.deepEqual(merged(fixed), ORACLE);
});
