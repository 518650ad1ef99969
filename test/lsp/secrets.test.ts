/**
 * Secrets in the editor (issue 40): a plaintext password is a warning on the value, saying who reads it on
 * the chosen cloud; its quick fix writes a SHA-512 crypt hash computed locally, in a form cloud-init reads
 * as a hash, and the warning goes away.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Diagnostic, DiagnosticSeverity } from 'vscode-languageserver-protocol';
import { LspClient, applyEdits, fixtureUri, rangeOf } from '../support/lspClient';
import { sha512CryptWithSetting } from '../../server/src/engine/secrets/sha512Crypt';

let client: LspClient;
let n = 0;
const secretsOf = (ds: Diagnostic[]) => ds.filter((d) => String(d.code).startsWith('secret-'));
const FIX = 'Replace with a SHA-512 crypt hash (computed locally)';

const TEXT = `#cloud-config
password: Top-level-pw
chpasswd:
  users:
    - {name: alice, password: "Alice pw 1", type: text}
  list: |
    root:Root-pw-2
users:
  - default
  - name: erin
    plain_text_passwd: 'Erin-pw-3'
`;

/** Applies the hash fix of each plaintext password in turn, as a user would; returns the text and its last diagnostics. */
async function fixAll(uri: string, text: string): Promise<{ text: string; left: Diagnostic[] }> {
  let current = text;
  let ds = secretsOf(await client.open(uri, text));
  for (let round = 0; round < 10; round++) {
    const d = ds.find((x) => x.code === 'secret-plaintext-password');
    if (!d) return { text: current, left: ds };
    const fix = (await client.codeActions(uri, d.range, [d])).find((a) => a.title === FIX);
    assert.ok(fix?.edit?.changes?.[uri], `a fix for ${String(d.message)}`);
    assert.equal(fix.isPreferred, true);
    current = applyEdits(current, fix.edit.changes[uri]);
    const since = client.diagnosticsLog(uri).length;
    client.change(uri, current);
    ds = secretsOf((await client.waitForDiagnostics(uri, since)).diagnostics);
  }
  return assert.fail('the fixes did not converge');
}

describe('secrets in the editor', () => {
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('plaintext passwords are warnings on the value; with cloud aws the message names the metadata service', async () => {
    client.settings = { cloud: 'aws' };
    const uri = fixtureUri(`secrets-${n++}/user-data.yaml`);
    const ds = secretsOf(await client.open(uri, TEXT));
    client.close(uri);
    client.settings = {};
    assert.deepEqual(
      ds.map((d) => [d.code, d.severity, d.range]),
      [
        ['secret-plaintext-password', DiagnosticSeverity.Warning, rangeOf(TEXT, 'Top-level-pw')],
        ['secret-plaintext-password', DiagnosticSeverity.Warning, rangeOf(TEXT, '"Alice pw 1"')],
        ['secret-plaintext-password', DiagnosticSeverity.Warning, rangeOf(TEXT, 'root:Root-pw-2')],
        ['secret-plaintext-password', DiagnosticSeverity.Warning, rangeOf(TEXT, "'Erin-pw-3'")],
      ],
    );
    for (const d of ds) assert.match(String(d.message), /http:\/\/169\.254\.169\.254\/latest\/user-data/);
  });

  test('cloudConfigMerge.secrets.asErrors: the same findings, as errors', async () => {
    client.settings = { secrets: { asErrors: true } };
    const uri = fixtureUri(`secrets-${n++}/user-data.yaml`);
    const ds = secretsOf(await client.open(uri, TEXT));
    client.close(uri);
    client.settings = {};
    assert.deepEqual(ds.map((d) => d.severity), [DiagnosticSeverity.Error, DiagnosticSeverity.Error, DiagnosticSeverity.Error, DiagnosticSeverity.Error]);
  });

  test('the quick fix writes SHA-512 crypt hashes of the same passwords, read by cloud-init as hashes', async () => {
    const uri = fixtureUri(`secrets-${n++}/user-data.yaml`);
    const { text: fixed, left } = await fixAll(uri, TEXT);
    client.close(uri);
    assert.deepEqual(left, []);
    const hashes = [...fixed.matchAll(/\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}/g)].map((m) => m[0]);
    assert.equal(hashes.length, 4, fixed);
    const [top, alice, root, erin] = hashes;
    // Each hash is the password's: crypt(password, hash) gives the hash back.
    assert.equal(sha512CryptWithSetting('Top-level-pw', top), top);
    assert.equal(sha512CryptWithSetting('Alice pw 1', alice), alice);
    assert.equal(sha512CryptWithSetting('Root-pw-2', root), root);
    assert.equal(sha512CryptWithSetting('Erin-pw-3', erin), erin);
    assert.equal(
      fixed,
      `#cloud-config
password: '${top}'
chpasswd:
  users:
    - {name: alice, password: '${alice}', type: hash}
  list: |
    root:${root}
users:
  - default
  - name: erin
    hashed_passwd: '${erin}'
`,
    );
  });
});
