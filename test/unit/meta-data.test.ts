/**
 * Issue 30: a NoCloud seed's meta-data read as NoCloud reads it (engine/seed/metaData.ts; the oracle's
 * netcheck.py --mode meta-data holds the reading in test/oracle/metadata.diff.ts) and the editor's
 * findings on it, in the user's terms.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readMetaData } from '../../server/src/engine/seed/metaData';
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
