/**
 * Issue 30: a NoCloud seed's meta-data read as NoCloud reads it (engine/seed/metaData.ts; the oracle's
 * netcheck.py --mode meta-data holds the reading in test/oracle/metadata.diff.ts) and the editor's
 * findings on it, in the user's terms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readMetaData } from '../../server/src/engine/seed/metaData';
import { LimitExceededError } from '../../server/src/engine/limits';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { detectCloudInitDocument } from '../../common/detect';

const read = (text: string) => readMetaData(new TextEncoder().encode(text));
const findings = (text: string) => analyzeDocument(text, '/srv/seed/meta-data', { schema: true }).findings;

test('a file named meta-data is meta-data, whatever it holds; meta-data.yaml is not NoCloud\'s name', () => {
  assert.deepEqual(detectCloudInitDocument('instance-id: x\n', '/srv/seed/meta-data'), { kind: 'meta-data' });
  assert.deepEqual(detectCloudInitDocument('', 'C:\\seed\\meta-data'), { kind: 'meta-data' });
  assert.equal(detectCloudInitDocument('instance-id: x\n', '/srv/seed/meta-data.yaml'), null);
});

test('instance-id and local-hostname as NoCloud gives them, its defaults filling the rest', () => {
  const r = read('instance-id: iid-web-01\nlocal-hostname: web-01.example.com\npublic-keys: "ssh-ed25519 A k1\\nssh-ed25519 B k2"\n');
  assert.equal(r.claimed, true);
  assert.equal(r.instanceId, 'iid-web-01');
  assert.equal(r.instanceIdDefaulted, false);
  assert.equal(r.dsmode, 'net');
  assert.equal(r.localHostname, 'web-01');
  assert.deepEqual(r.publicSshKeys, ['ssh-ed25519 A k1', 'ssh-ed25519 B k2']);
  assert.deepEqual(findings('instance-id: iid-web-01\nlocal-hostname: web-01\n'), []);
});

test('instance_id is ignored: every instance gets nocloud, and the editor says so on the key with a fix', () => {
  const text = 'instance_id: iid-web-01\nlocal-hostname: web-01\n';
  const r = read(text);
  assert.equal(r.instanceId, 'nocloud');
  assert.equal(r.instanceIdDefaulted, true);
  const [f, ...rest] = findings(text);
  assert.deepEqual(rest, []);
  assert.equal(f.code, 'meta-data-ignored-key');
  assert.equal(text.slice(f.span.start, f.span.end), 'instance_id');
  assert.match(f.message, /NoCloud reads instance-id, not instance_id: this key is ignored, so every instance seeded this way gets the same id 'nocloud'/);
  assert.equal(f.fixes?.[0].edits[0].newText, 'instance-id');
});

test('dsmode: a rejected value is logged and net used; disabled means the seed is not used at all', () => {
  assert.equal(read('dsmode: Local\n').dsmode, 'net');
  assert.equal(read('dsmode: Local\n').invalidDsmode, 'Local');
  assert.match(findings('instance-id: a\ndsmode: Local\n')[0].message, /invalid dsmode 'Local', using default=net/);
  assert.equal(read('dsmode: disabled\n').claimed, false);
  assert.equal(findings('instance-id: a\ndsmode: disabled\n')[0].code, 'meta-data-not-used');
});

test('seedfrom: an http seed is left to the network stage, a path is read instead, a number raises', () => {
  assert.equal(read('seedfrom: http://10.0.0.1/seed/\n').notClaimed, 'seedfrom-remote');
  assert.equal(read('seedfrom: /var/tmp/seed/\n').seedfromLocal, '/var/tmp/seed/');
  assert.equal(read('seedfrom: 5\n').error, "AttributeError: 'int' object has no attribute 'startswith'");
  assert.equal(findings('seedfrom: 5\n').find((f) => f.code === 'meta-data-fails')?.severity, 'error');
});

test('a meta-data that is not a mapping is read as nothing: the default id, said on the file', () => {
  for (const text of ['- instance-id: a\n', 'instance-id: [\n']) {
    const r = read(text);
    assert.equal(r.instanceId, 'nocloud', text);
    assert.ok(r.loadProblem, text);
    assert.equal(findings(text)[0].code, 'meta-data-unread', text);
  }
});

test('local-hostname: an address becomes ip-…, a list raises when a module asks for the hostname', () => {
  assert.equal(read('local-hostname: 10.0.0.1\n').localHostname, 'ip-10-0-0-1');
  assert.equal(read('local-hostname: 010.0.0.1\n').localHostname, '010');
  assert.equal(read('local-hostname: [a]\n').hostnameError, "AttributeError: 'list' object has no attribute 'split'");
  assert.equal(findings('instance-id: i\nlocal-hostname: [a]\n')[0].code, 'meta-data-fails');
});

test('over our limits (issue 43): a str() NoCloud makes longer than maxExpandedNodes, a merge-key bomb; the refusal names the key and the limit', () => {
  let bomb = 'l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n';
  for (let i = 1; i <= 7; i++) bomb += `l${i}: &l${i} [${Array(10).fill(`*l${i - 1}`).join(', ')}]\n`;
  // 10^7 items: a str() of about 50 MB, where cloud-init gives that instance id; so is a dsmode NoCloud logs.
  const overLimit = (message: RegExp) => (e: unknown) => e instanceof LimitExceededError && e.limit === 'maxExpandedNodes' && message.test(e.message);
  assert.throws(() => read(`${bomb}instance-id: *l7\n`), overLimit(/^meta-data's instance-id is a list whose str\(\) \(shared references expanded\) would be longer than 5000000 characters: over the limit maxExpandedNodes = 5000000$/));
  assert.throws(() => read(`${bomb}dsmode: *l7\n`), overLimit(/^meta-data's dsmode is a list whose str\(\) .* over the limit maxExpandedNodes = 5000000$/));
  // A few levels are within the limit: the id is the str() of the list, as cloud-init makes it.
  assert.equal(read('l0: &l0 [a, b]\ninstance-id: [*l0, *l0]\n').instanceId, "[['a', 'b'], ['a', 'b']]");
  let merges = 'l0: &l0 {a: 1, b: 2}\n';
  for (let i = 1; i <= 30; i++) merges += `l${i}: &l${i} {<<: [*l${i - 1}, *l${i - 1}]}\n`;
  // PyYAML copies 2^30 pairs: cloud-init never finishes; not "read as empty".
  assert.throws(() => read(merges), overLimit(/^meta-data: .*merge keys.*maxExpandedNodes = 5000000/));
  for (const text of [`${bomb}instance-id: *l7\n`, merges]) {
    const found = findings(text);
    assert.deepEqual(found.map((f) => [f.code, f.severity, f.span.start]), [['limit-exceeded', 'error', 0]]);
    assert.match(found[0].message, /^Not read as NoCloud reads it: meta-data.*maxExpandedNodes = 5000000\b/);
  }
});
