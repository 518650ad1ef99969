/**
 * Secrets in user-data (issue 40): what a cloud-config gives away, found on the value that writes it, in
 * every part encoding, with who can read it on the booted instance; none on hashes, public keys and
 * placeholders; a comment marks a value as intended.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliIn } from '../support/cli';
import { analyzeDocument, type AnalyzeOptions } from '../../server/src/engine/lint/analyzeDocument';
import { cryptHashOf, chpasswdListTreatsAsHash } from '../../server/src/engine/secrets/cryptHash';
import { sha512Crypt, sha512CryptWithSetting, randomSalt } from '../../server/src/engine/secrets/sha512Crypt';
import type { Finding } from '../../server/src/engine/findings/findings';
import { hashEdits } from '../../server/src/features/secretFixes';
import { FINDING_CODES } from '../../server/src/engine/findings/codes';
import { checkDocuments, failsCheck } from '../../server/src/engine/check/check';
import { analysisKey, normalizeSettings } from '../../server/src/features/common/settings';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n-----END OPENSSH PRIVATE KEY-----\n';
const SHA512 = '$6$rounds=5000$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1';
const YESCRYPT = '$y$j9T$F5Jx5fExrKuPp53xLKQ..1$X3DX6M94c7o.9agCG9G317fhZg9SqC.5i5rd.RhAtQ7';
const PUBLIC = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx1c3RpbmcgYSBwdWJsaWMga2V5IGlzIGZpbmU user@laptop';

function secrets(text: string, options: AnalyzeOptions = {}, path = '/w/user-data.yaml'): Finding[] {
  return analyzeDocument(text, path, options).findings.filter((f) => f.code.startsWith('secret-'));
}
/** The findings as `code "text under it"`, what a user sees in the editor. */
function seen(text: string, options: AnalyzeOptions = {}): string[] {
  return secrets(text, options).map((f) => `${f.code} ${JSON.stringify(text.slice(f.span.start, f.span.end))}`);
}

/* ------------------------------------------------------------------ SHA-512 crypt */

test("sha512Crypt gives glibc's published test vectors (Drepper's specification, glibc crypt/sha512c-test.c)", () => {
  const vectors: Array<[string, string, string]> = [
    ['$6$saltstring', 'Hello world!', '$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1'],
    ['$6$rounds=10000$saltstringsaltstring', 'Hello world!', '$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.'],
    ['$6$rounds=5000$toolongsaltstring', 'This is just a test', '$6$rounds=5000$toolongsaltstrin$lQ8jolhgVRVhY4b5pZKaysCLi0QBxGoNeKQzQ3glMhwllF7oGDZxUhx1yxdYcz/e1JSbq3y6JMxxl8audkUEm0'],
    ['$6$rounds=1400$anotherlongsaltstring', 'a very much longer text to encrypt.  This one even stretches over morethan one line.', '$6$rounds=1400$anotherlongsalts$POfYwTEok97VWcjxIiSOjiykti.o/pQs.wPvMxQ6Fm7I6IoYN3CmLs66x9t0oSwbtEW7o7UmJEiDwGqd8p4ur1'],
    ['$6$rounds=77777$short', 'we have a short salt string but not a short password', '$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0'],
    ['$6$rounds=123456$asaltof16chars..', 'a short string', '$6$rounds=123456$asaltof16chars..$BtCwjqMJGx5hrJhZywWvt0RLE8uZ4oPwcelCjmw2kSYu.Ec6ycULevoBK25fs2xXgMNrCzIMVcgEJAstJeonj1'],
    ['$6$rounds=10$roundstoolow', 'the minimum number is still observed', '$6$rounds=1000$roundstoolow$kUMsbe306n21p9R.FRkW3IGn.S9NPN0x50YhH1xhLsPuWGsUSklZt58jaTfF4ZEQpyUNGc0dqbpBYYBaHHrsX.'],
  ];
  for (const [setting, password, expected] of vectors) assert.equal(sha512CryptWithSetting(password, setting), expected, setting);
});

test('a fresh hash uses a new 16-character salt each time, and is a SHA-512 hash cloud-init takes as one', () => {
  const a = sha512Crypt('correct horse', randomSalt());
  const b = sha512Crypt('correct horse', randomSalt());
  assert.notEqual(a, b);
  assert.match(a, /^\$6\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
  assert.deepEqual(cryptHashOf(a), { scheme: 'sha512', rounds: 5000, weakness: undefined });
  assert.ok(chpasswdListTreatsAsHash(a));
});

test('crypt hashes: SHA-512, yescrypt and bcrypt are fine; MD5, DES and few SHA rounds are weak; text is no hash', () => {
  assert.equal(cryptHashOf(SHA512)?.weakness, undefined);
  assert.equal(cryptHashOf(YESCRYPT)?.scheme, 'yescrypt');
  assert.equal(cryptHashOf('$2b$12$' + 'a'.repeat(53))?.weakness, undefined);
  assert.equal(cryptHashOf('!' + SHA512)?.scheme, 'sha512', 'a locked account keeps its hash');
  assert.equal(cryptHashOf('$1$saltsalt$qjXMvbEw8oaL.CzflDugX/')?.scheme, 'md5');
  assert.ok(cryptHashOf('$1$saltsalt$qjXMvbEw8oaL.CzflDugX/')?.weakness);
  assert.equal(cryptHashOf('abJnggxhB/yWI')?.scheme, 'des');
  assert.match(cryptHashOf('$6$rounds=1000$salt$' + 'a'.repeat(86))?.weakness ?? '', /1000 rounds/);
  assert.equal(cryptHashOf('hunter2'), undefined);
  // cloud-init's list form reads only $1$, $2a$, $2y$, $5$, $6$ as hashes: yescrypt is set as the password itself.
  assert.equal(chpasswdListTreatsAsHash(YESCRYPT), false);
});

/* ------------------------------------------------------------------ plaintext passwords */

test('plaintext passwords where cloud-init reads them: chpasswd users (type: text), the list forms, users[], password', () => {
  const text = `#cloud-config
password: topsecret1
chpasswd:
  users:
    - {name: alice, password: "Alice-pw-1", type: text}
    - {name: bob, password: ${SHA512}}
    - {name: carol, type: RANDOM}
  list:
    - root:toor-pw
    - ubuntu:${SHA512}
    - dan:RANDOM
users:
  - default
  - name: erin
    plain_text_passwd: erin-pw
  - name: fred
    passwd: fred-pw
  - name: gail
    hashed_passwd: ${YESCRYPT}
`;
  assert.deepEqual(seen(text), [
    'secret-plaintext-password "topsecret1"',
    'secret-plaintext-password "\\"Alice-pw-1\\""',
    'secret-plaintext-password "root:toor-pw"',
    'secret-plaintext-password "erin-pw"',
    'secret-plaintext-password "fred-pw"',
  ]);
  const messages = secrets(text).map((f) => f.message);
  assert.match(messages[0], /cloud-init does not set it, as chpasswd has users or a list, but the user-data still carries it/);
  assert.match(messages[4], /users\[2\]\.passwd: cloud-init takes this value as a hash, so the password that logs in is not this text/);
  for (const f of secrets(text)) assert.equal(f.severity, 'warning');
});

test('the old multi-line chpasswd list: each line is marked where it is written', () => {
  const text = '#cloud-config\nchpasswd:\n  list: |\n    root:Passw0rd\n    ubuntu:RANDOM\n';
  assert.deepEqual(seen(text), ['secret-plaintext-password "root:Passw0rd"']);
});

test('a yescrypt hash in the chpasswd list is set as the password itself: cloud-init says so, we say so', () => {
  const [f] = secrets(`#cloud-config\nchpasswd:\n  list:\n    - root:${YESCRYPT}\n`);
  assert.equal(f.code, 'secret-plaintext-password');
  assert.match(f.message, /list form reads only \$1\$, \$2a\$, \$2y\$, \$5\$ and \$6\$ as hashes/);
});

test('ssh_pwauth: true says what the password opens, for accounts that are not locked', () => {
  const text = '#cloud-config\nssh_pwauth: true\nchpasswd:\n  users:\n    - {name: alice, password: Alice-pw-1, type: text}\nusers:\n  - name: erin\n    plain_text_passwd: erin-pw\n  - name: fay\n    lock_passwd: false\n    plain_text_passwd: fay-pw\n';
  const [alice, erin, fay] = secrets(text);
  assert.match(alice.message, /With ssh_pwauth: true, sshd accepts passwords: whoever reads it can log in over SSH as alice\./);
  assert.doesNotMatch(erin.message, /ssh_pwauth/, 'lock_passwd defaults to true: the account is locked after its password is set');
  assert.match(fay.message, /log in over SSH as fay/);
  assert.doesNotMatch(secrets(text.replace('ssh_pwauth: true', 'ssh_pwauth: false'))[0].message, /ssh_pwauth/);
  assert.match(secrets(text.replace('ssh_pwauth: true', 'ssh_pwauth: "yes"'))[0].message, /ssh_pwauth: true/);
});

test("the image's default user redefined in user-data, and modules' own credentials", () => {
  const text = `#cloud-config
system_info:
  default_user:
    name: jsmith
    plain_text_passwd: 'Js-pw-1'
ubuntu_pro:
  token: C1aB2cD3eF4gH5iJ6kL7mN8oP9
landscape:
  client:
    registration_key: "\${LANDSCAPE_KEY}"
lxd:
  init:
    trust_password: Lxd-trust-2
rh_subscription:
  username: me@example.com
  password: Rh-pw-3
wireguard:
  interfaces:
    - name: wg0
      config_path: /etc/wireguard/wg0.conf
      content: |
        [Interface]
        PrivateKey = ${'A'.repeat(43)}=
        Address = 10.0.0.1/24
`;
  assert.deepEqual(seen(text), [
    'secret-plaintext-password "\'Js-pw-1\'"',
    'secret-credential "C1aB2cD3eF4gH5iJ6kL7mN8oP9"',
    'secret-credential "Lxd-trust-2"',
    'secret-credential "Rh-pw-3"',
    'secret-private-key "|\\n        [Interface]"',
  ]);
  const messages = secrets(text).map((f) => f.message);
  assert.match(messages[1], /^Credential in ubuntu_pro\.token: an Ubuntu Pro contract token\./);
  assert.match(messages[2], /a client that knows it can add itself to this LXD/);
  assert.match(messages[2], /in \/var\/log\/cloud-init\.log \(mode 0640\): cloud-init logs the `lxd init --trust-password=\.\.\.` command it runs/);
  assert.doesNotMatch(messages[3], /cloud-init\.log/, 'rh_subscription runs subscription-manager with a logstring: the password is not logged');
  assert.match(messages[4], /^WireGuard private key in wireguard\.interfaces\[0\]\.content/);
});

test('a #cloud-config-archive entry: its secrets are found, at their place when the entry is written as is', () => {
  const text = '#cloud-config-archive\n- type: text/cloud-config\n  content: |\n    #cloud-config\n    password: Archived-pw-1\n';
  assert.deepEqual(seen(text), ['secret-plaintext-password "Archived-pw-1"']);
  // cloud-init's own example quotes its entry so that it is one comment line: no password is read there.
  assert.deepEqual(seen("#cloud-config-archive\n- type: text/cloud-config\n  content: '#cloud-config\\n\\n        password: gocubs'\n"), []);
});

/* ------------------------------------------------------------------ weak hashes */

test('weak hashes: MD5-crypt, DES and SHA-crypt with few rounds; SHA-512 and yescrypt are fine', () => {
  const text = `#cloud-config
users:
  - name: a
    passwd: $1$saltsalt$qjXMvbEw8oaL.CzflDugX/
  - name: b
    hashed_passwd: abJnggxhB/yWI
  - name: c
    passwd: $6$rounds=1000$salt$${'a'.repeat(86)}
  - name: d
    passwd: ${SHA512}
  - name: e
    hashed_passwd: ${YESCRYPT}
`;
  assert.deepEqual(secrets(text).map((f) => f.code), ['secret-weak-hash', 'secret-weak-hash', 'secret-weak-hash']);
  assert.match(secrets(text)[0].message, /MD5-crypt/);
});

/* ------------------------------------------------------------------ keys and credentials */

test('private keys in write_files, as written, base64 and gzip+base64, and the file mode they are written with', () => {
  const text = `#cloud-config
write_files:
  - path: /home/u/.ssh/id_ed25519
    content: |
${KEY.replace(/^/gm, '      ').trimEnd()}
  - path: /etc/b64.key
    encoding: b64
    content: ${b64(KEY)}
  - path: /etc/gz.key
    encoding: gz+b64
    permissions: '0600'
    content: ${b64(gzipSync(KEY))}
`;
  const found = secrets(text);
  assert.deepEqual(found.map((f) => f.code), ['secret-private-key', 'secret-private-key', 'secret-private-key']);
  assert.match(found[0].message, /write_files\[0\]\.content: found private key: -----BEGIN OPENSSH PRIVATE KEY-----/);
  assert.match(found[0].message, /every local user, in \/home\/u\/\.ssh\/id_ed25519 \(written with mode 0644, write_files' default\)/);
  assert.match(found[1].message, /write_files\[1\]\.content \(decoded from b64\)/);
  assert.match(found[2].message, /decoded from gz\+b64.*its owner, in \/etc\/gz\.key \(written with mode 0600\)/);
  for (const f of found) assert.doesNotMatch(f.message, /b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ/, 'the key itself is never repeated');
});

test('keys and tokens in runcmd and bootcmd, with what else reads a command line', () => {
  const text = `#cloud-config
bootcmd:
  - [sh, -c, "echo AKIAIOSFODNN7EXAMPLQ"]
runcmd:
  - git clone https://ghp_${'a'.repeat(36)}@github.com/o/r
  - echo '${KEY.replace(/\n/g, '\\n')}'
`;
  const found = secrets(text);
  assert.deepEqual(
    found.map((f) => `${f.code} ${JSON.stringify(text.slice(f.span.start, f.span.end))}`),
    ['secret-credential "AKIAIOSFODNN7EXAMPLQ"', `secret-credential "ghp_${'a'.repeat(36)}"`, `secret-private-key ${JSON.stringify(KEY.trimEnd().replace(/\n/g, '\\n'))}`],
  );
  assert.match(found[0].message, /Credential in bootcmd\[0\]\[2\]: found AWS Access Key ID: AKIA… \(secretlint rule aws\)/);
  assert.match(found[1].message, /scripts\/runcmd \(mode 0700\)/);
});

test("an AWS secret access key written as a YAML key and value, and a token in a comment: the text is scanned as written", () => {
  const text = `#cloud-config
# token for later: xoxb-123456789012-123456789012-abcdefghijklmnopqrstuvwx
bootcmd:
  - [aws, configure, set, region, eu-west-1]
mounts_env:
  aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz
`;
  const found = secrets(text);
  assert.deepEqual(found.map((f) => f.code), ['secret-credential', 'secret-credential']);
  assert.match(found[0].message, /^Credential in a comment or key \(still part of the user-data\): found slack token: xoxb…/);
  assert.match(found[1].message, /^Credential in mounts_env\.aws_secret_access_key: found AWS Secret Access Key: wJal…/);
  assert.equal(text.slice(found[1].span.start, found[1].span.end), 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzzzzzzzzzz');
});

test('an SSH host key in ssh_keys: what it lets a reader do', () => {
  const text = `#cloud-config\nssh_keys:\n  ed25519_private: |\n${KEY.replace(/^/gm, '    ').trimEnd()}\n  ed25519_public: ${PUBLIC}\n`;
  const [f, ...rest] = secrets(text);
  assert.equal(rest.length, 0);
  assert.equal(f.code, 'secret-private-key');
  assert.match(f.message, /installs it as \/etc\/ssh\/ssh_host_ed25519_key, and whoever reads it can impersonate this host/);
});

test('no finding on hashed passwords, public keys, placeholders and made-up passwords', () => {
  const text = `#cloud-config
password: "<password>"
ssh_pwauth: true
chpasswd:
  users:
    - {name: a, password: "\${ADMIN_PW}", type: text}
    - {name: b, password: ${SHA512}}
    - {name: c, type: RANDOM}
  list: |
    d:$PASSWORD
    e:R
users:
  - name: f
    plain_text_passwd: "{{ pw }}"
    ssh_authorized_keys: [${PUBLIC}]
  - name: g
    hashed_passwd: ${YESCRYPT}
ssh_authorized_keys:
  - ${PUBLIC}
write_files:
  - path: /etc/ssh/ca.pub
    content: ${PUBLIC}
runcmd:
  - echo AKIAIOSFODNN7EXAMPLE
`;
  assert.deepEqual(seen(text), []);
});

test('a Jinja template: {{ var }} is a placeholder, a password written as text is not', () => {
  const text = '## template: jinja\n#cloud-config\nchpasswd:\n  users:\n    - {name: a, password: "{{ ds.meta_data.pw }}", type: text}\n    - {name: b, password: Bee-pw-2, type: text}\n';
  assert.deepEqual(seen(text), ['secret-plaintext-password "Bee-pw-2"']);
});

/* ------------------------------------------------------------------ MIME, gzip, base64 */

function mime(parts: Array<{ type: string; body: string; encoding?: string; filename?: string }>): string {
  let out = 'Content-Type: multipart/mixed; boundary="XX"\nMIME-Version: 1.0\n\n';
  for (const p of parts) {
    out += `--XX\nContent-Type: ${p.type}\nMIME-Version: 1.0\n`;
    if (p.encoding) out += `Content-Transfer-Encoding: ${p.encoding}\n`;
    if (p.filename) out += `Content-Disposition: attachment; filename="${p.filename}"\n`;
    out += `\n${p.body}\n`;
  }
  return out + '--XX--\n';
}

test('MIME: a cloud-config part is checked in place; a base64 part on its header, naming the decoded line', () => {
  const plain = '#cloud-config\nchpasswd:\n  users:\n    - {name: a, password: Plain-pw-1, type: text}\n';
  const hidden = '#cloud-config\nusers:\n  - name: b\n    plain_text_passwd: Hidden-pw-2\n';
  const text = mime([
    { type: 'text/cloud-config', body: plain },
    { type: 'text/cloud-config', body: b64(hidden), encoding: 'base64', filename: 'b.yaml' },
  ]);
  const found = secrets(text);
  assert.deepEqual(found.map((f) => f.code), ['secret-plaintext-password', 'secret-plaintext-password']);
  assert.equal(text.slice(found[0].span.start, found[0].span.end), 'Plain-pw-1');
  assert.equal(text.slice(found[1].span.start, found[1].span.end), 'Content-Type');
  assert.match(found[1].message, /users\[0\]\.plain_text_passwd.*\(line 4, column 24 of the decoded MIME part 2 \(b\.yaml\)/);
});

test('MIME: a gzip part, a shell script and a Jinja part', () => {
  const script = `#!/bin/sh\naws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLQ\n`;
  const jinja = '## template: jinja\n#cloud-config\nusers:\n  - name: j\n    plain_text_passwd: Jinja-pw-3\n    hashed_passwd_of_other: "{{ v }}"\n';
  const gz = '#cloud-config\npassword: Gzip-pw-4\n';
  const text = mime([
    { type: 'text/x-shellscript', body: script },
    { type: 'text/jinja2', body: jinja },
    { type: 'application/x-gzip', body: b64(gzipSync(gz)), encoding: 'base64', filename: 'gz.yaml' },
  ]);
  const found = secrets(text);
  assert.deepEqual(found.map((f) => f.code).sort(), ['secret-credential', 'secret-plaintext-password', 'secret-plaintext-password']);
  const credential = found.find((f) => f.code === 'secret-credential')!;
  assert.equal(text.slice(credential.span.start, credential.span.end), 'AKIAIOSFODNN7EXAMPLQ');
  assert.match(credential.message, /MIME part 1.*\/var\/lib\/cloud\/instance\//);
  assert.ok(found.some((f) => text.slice(f.span.start, f.span.end) === 'Jinja-pw-3'));
  const gzip = found.find((f) => /the decompressed MIME part 3/.test(f.message));
  assert.match(gzip?.message ?? '', /password \(the default user's\).*\(line 2, column 11 of the decompressed MIME part 3 \(gz\.yaml\), not shown in place: it is gzip-compressed\)/);
});

test('MIME: a BEGIN left open in one part does not hide the key of the next part', () => {
  const key = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----';
  const text = mime([
    { type: 'text/x-shellscript', body: '#!/bin/sh\necho "-----BEGIN RSA PRIVATE KEY-----" > /tmp/head' },
    { type: 'text/x-shellscript', body: `#!/bin/sh\ncat > /root/.ssh/id_rsa <<EOF\n${key}\nEOF` },
  ]);
  const found = secrets(text);
  assert.deepEqual(found.map((f) => [f.code, text.slice(f.span.start, f.span.end)]), [['secret-private-key', '-----BEGIN RSA PRIVATE KEY-----']]);
  assert.ok(found[0].span.start > text.indexOf('id_rsa'), 'on the key of part 2');
  assert.match(found[0].message, /^Private key in MIME part 2: /);
});

/* ------------------------------------------------------------------ where it goes */

test('each finding says who reads the value on the booted instance, per cloud, and that a later part does not remove it', () => {
  const text = '#cloud-config\npassword: Pw-for-exposure\n';
  const none = secrets(text)[0].message;
  assert.match(none, /^Plaintext password in password \(the default user's\)\. Who reads it on the booted instance: any process on the instance, on most clouds, from the cloud's metadata service/);
  assert.match(none, /root, in \/var\/lib\/cloud\/instance\/user-data\.txt \(the blob as delivered, mode 0600\)/);
  assert.match(none, /root, with `cloud-init query userdata`/);
  assert.match(none, /root, in \/var\/lib\/cloud\/instance\/cloud-config\.txt/);
  assert.match(none, /A later part that replaces this value does not remove it: the user-data keeps it\./);
  assert.match(secrets(text, { cloud: 'aws' })[0].message, /http:\/\/169\.254\.169\.254\/latest\/user-data: one GET with IMDSv1; with IMDSv2 after a PUT for a session token/);
  assert.match(secrets(text, { cloud: 'azure' })[0].message, /\/var\/lib\/waagent\/ovf-env\.xml \(mode 0600; Azure does not serve customData/);
  assert.match(secrets(text, { cloud: 'gcp' })[0].message, /Metadata-Flavor: Google/);
});

test('a password a later part replaces is still reported in the part that wrote it', () => {
  const text = mime([
    { type: 'text/cloud-config', body: '#cloud-config\npassword: First-pw-1\n' },
    { type: 'text/cloud-config', body: `#cloud-config\npassword: ${SHA512}\n` },
  ]);
  assert.deepEqual(seen(text), ['secret-plaintext-password "First-pw-1"']);
});

/* ------------------------------------------------------------------ intended values */

test('# cloud-config-merge: allow-secret on the line (or the key line of a block) marks a value as intended', () => {
  const text = `#cloud-config
password: Lab-only-pw  # cloud-config-merge: allow-secret
users:
  - name: x
    plain_text_passwd: Not-marked-1
write_files:
  - path: /etc/test.key
    content: |  # cloud-config-merge: allow-secret
${KEY.replace(/^/gm, '      ').trimEnd()}
`;
  assert.deepEqual(seen(text), ['secret-plaintext-password "Not-marked-1"']);
  const script = mime([{ type: 'text/x-shellscript', body: '#!/bin/sh\nexport K=AKIAIOSFODNN7EXAMPLQ # cloud-config-merge: allow-secret\n' }]);
  assert.deepEqual(seen(script), []);
});

test('system config (cloud.cfg.d) is not user-data: no secret findings there', () => {
  const text = 'password: from-the-image\n';
  assert.deepEqual(analyzeDocument(text, '/etc/cloud/cloud.cfg.d/90-x.cfg').findings.filter((f) => f.code.startsWith('secret-')), []);
});

/* ------------------------------------------------------------------ severity */

test('secrets are warnings, so --lint and --check fail on them; asked for, they are errors (--fail-on secrets, the setting)', () => {
  const text = '#cloud-config\npassword: Pw-severity-1\nruncmd: [echo AKIAIOSFODNN7EXAMPLQ]\n';
  const linted = checkDocuments([{ path: '/w/user-data.yaml', text }], {});
  assert.deepEqual(linted.findings.map((f) => [f.code, f.severity, f.start.line]), [['secret-plaintext-password', 'warning', 1], ['secret-credential', 'warning', 2]]);
  assert.equal(linted.findings.filter((f) => failsCheck(f, false)).length, 2);
  assert.deepEqual(secrets(text, { secretsAsErrors: true }).map((f) => f.severity), ['error', 'error']);
  const script = mime([{ type: 'text/x-shellscript', body: '#!/bin/sh\necho AKIAIOSFODNN7EXAMPLQ' }]);
  assert.deepEqual(secrets(script, { secretsAsErrors: true }).map((f) => [f.code, f.severity]), [['secret-credential', 'error']]);
  for (const code of ['secret-plaintext-password', 'secret-weak-hash', 'secret-private-key', 'secret-credential'] as const) {
    assert.deepEqual([FINDING_CODES[code].severity, FINDING_CODES[code].also.severity], ['warning', 'error'], code);
  }
  assert.equal(normalizeSettings({ secrets: { asErrors: true } }).secrets.asErrors, true);
  assert.equal(normalizeSettings({ 'secrets.asErrors': 'yes' }).secrets.asErrors, false, 'only a boolean true turns it on');
  assert.notEqual(analysisKey(normalizeSettings({ secrets: { asErrors: true } })), analysisKey(normalizeSettings({})));
  assert.notEqual(analysisKey(normalizeSettings({ cloud: 'aws' })), analysisKey(normalizeSettings({})), 'the messages name the cloud');
});

test('--check --cloud aws: the findings name that cloud\'s metadata service, and --check exits 1 on them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ccm-secrets-'));
  try {
    writeFileSync(join(dir, 'ud.yaml'), '#cloud-config\nchpasswd:\n  users:\n    - {name: root, password: Root-pw-9, type: text}\n');
    const checked = runCliIn(['--check', '--cloud', 'aws', 'ud.yaml'], dir);
    assert.equal(checked.code, 1);
    assert.match(checked.stdout, /ud\.yaml:4:30: warning: Plaintext password in chpasswd\.users\[0\]\.password\. Who reads it on the booted instance: any process on the instance, from the instance metadata service \(http:\/\/169\.254\.169\.254\/latest\/user-data/);
    const linted = runCliIn(['--lint', 'ud.yaml'], dir);
    assert.equal(linted.code, 1);
    assert.match(linted.stdout, /\[secret-plaintext-password\]\n$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/* ------------------------------------------------------------------ the quick fix's edits */

/** The document after the hash fix of every plaintext password the analysis found in place, with a fixed hash. */
function hashedAll(text: string): string {
  const passwords = analyzeDocument(text, '/w/user-data.yaml').passwords ?? [];
  const edits = passwords.flatMap((site) => hashEdits(text, site, `HASH(${site.password})`)).sort((a, b) => b.span.start - a.span.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.span.start) + e.newText + out.slice(e.span.end);
  return out;
}

test('the hash fix: list items keep their quoting, keys and types are changed so cloud-init reads a hash', () => {
  assert.equal(
    hashedAll('#cloud-config\nchpasswd:\n  list:\n    - "root:Pw 1"\n    - bob:Pw2\n  users: [{name: a, type: text, password: "x y"}]\nusers:\n  - {name: e, plain_text_passwd: Pw3}\n'),
    "#cloud-config\nchpasswd:\n  list:\n    - 'root:HASH(Pw 1)'\n    - bob:HASH(Pw2)\n  users: [{name: a, type: hash, password: 'HASH(x y)'}]\nusers:\n  - {name: e, hashed_passwd: 'HASH(Pw3)'}\n",
  );
  // Beside a hashed_passwd, plain_text_passwd cannot become one: no fix is offered there (the finding stays).
  assert.equal(analyzeDocument(`#cloud-config\nusers:\n  - {name: e, plain_text_passwd: Pw3, hashed_passwd: ${SHA512}}\n`, '/w/user-data.yaml').passwords?.length, 0);
});

test('the hash fix in MIME: offered in a part written as is (at its place in the file), not in a base64 part', () => {
  const text = mime([
    { type: 'text/cloud-config', body: '#cloud-config\npassword: Mime-pw-1\n' },
    { type: 'text/cloud-config', body: b64('#cloud-config\npassword: Encoded-pw-2\n'), encoding: 'base64' },
  ]);
  const passwords = analyzeDocument(text, '/w/user-data.mime').passwords ?? [];
  assert.deepEqual(passwords.map((p) => [p.password, text.slice(p.span.start, p.span.end)]), [['Mime-pw-1', 'Mime-pw-1']]);
  assert.equal(secrets(text).length, 2, 'both are reported');
});
