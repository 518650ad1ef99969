// Hostile text for the secret scan (engine/secrets): secretlint's private-key pattern looks up to 10,000
// characters past every BEGIN for its END, so a file of BEGIN lines without END took seconds per megabyte;
// BEGINs that cannot start a key are now spelt so that the pattern skips them, and real keys are still found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { findTokens, keepClosedPrivateKeys } from '../../server/src/engine/secrets/tokens';

const KEY = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----';

test('BEGINs without their END are skipped, keeping every position; a closed key is kept', () => {
  const open = '-----BEGIN RSA PRIVATE KEY-----\n';
  const mismatched = '-----BEGIN RSA PRIVATE KEY-----\nabc\n-----END EC PRIVATE KEY-----\n';
  const text = open + mismatched + KEY;
  const kept = keepClosedPrivateKeys(text);
  assert.equal(kept.length, text.length);
  assert.equal(kept.split('-----BEGIN').length - 1, 1, 'only the closed key keeps its BEGIN');
  assert.ok(kept.endsWith(KEY));
  assert.deepEqual(findTokens(text).map((t) => [t.messageId, text.slice(t.start, t.end)]), [['PrivateKey', KEY]]);
});

test('a megabyte of BEGIN lines, with and without mismatched ENDs, is scanned, and a real key among them found', () => {
  const lines = '-----BEGIN RSA PRIVATE KEY-----\n'.repeat(15_000) + '-----BEGIN OPENSSH PRIVATE KEY-----\nx\n-----END EC PRIVATE KEY-----\n'.repeat(8_000);
  const text = `#cloud-config\nruncmd:\n  - |\n${(lines + KEY).replace(/^/gm, '    ')}\n`;
  const found = analyzeDocument(text, '/w/user-data.yaml').findings.filter((f) => f.code.startsWith('secret-'));
  assert.deepEqual(found.map((f) => [f.code, text.slice(f.span.start, f.span.end)]), [['secret-private-key', '-----BEGIN RSA PRIVATE KEY-----']]);
  assert.match(found[0].message, /^Private key in runcmd\[0\]/);
});

test('one long line with tens of thousands of key ids, in a value, a script part and a chpasswd list: each found, in linear time', () => {
  const ids = Array.from({ length: 30_000 }, (_, i) => `AKIA${String(i).padStart(16, '0')}`).join(' ');
  const doc = `#cloud-config\nruncmd:\n  - echo ${ids}\nwrite_files:\n  - path: /k\n    encoding: b64\n    content: ${Buffer.from(ids).toString('base64')}\nchpasswd:\n  list: |\n${Array.from({ length: 30_000 }, (_, i) => `    u${i}:$6$salt$${'a'.repeat(86)}`).join('\n')}\n`;
  const found = analyzeDocument(doc, '/w/user-data.yaml').findings.filter((f) => f.code.startsWith('secret-'));
  assert.equal(found.filter((f) => f.message.startsWith('Credential in runcmd[0]')).length, 30_000);
  assert.equal(found.filter((f) => f.message.startsWith('Credential in write_files[0].content (decoded from b64)')).length, 30_000);
  assert.equal(found.length, 60_000, 'the SHA-512 hashes of the list are fine');
});
