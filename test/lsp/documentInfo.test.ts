// cloudConfigMerge/documentInfo: the language status item's kind and effective spec.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient, fixtureUri } from '../support/lspClient';
import { DocumentInfoRequest, DocumentInfoResult } from '../../server/src/protocol';
import { APPEND_LISTS, WEB_SERVER, mime } from './fixtures';
import { IMAGE_IDS } from '../../server/src/engine/version/profiles';

let client: LspClient;
let counter = 0;

/** The answer for a document, without the image it is checked against (the default for every document here, asserted). */
async function info(text: string, path = 'user-data.yaml'): Promise<Omit<DocumentInfoResult, 'image'>> {
  const result = await infoWithImage(text, path, client);
  // Every cloud-init document says the image it is checked on; the rest is about its kind and spec.
  if (result.kind) assert.deepEqual(result.image, { id: 'ubuntu-24.04', version: 'current', distro: 'ubuntu', versionOverride: false, isDefault: true });
  const { image: _image, ...rest } = result;
  return rest;
}

async function infoWithImage(text: string, path: string, on: LspClient): Promise<DocumentInfoResult> {
  const uri = fixtureUri(`info-${counter++}/${path}`);
  on.openNoWait(uri, text);
  const result = await on.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri });
  on.close(uri);
  return result;
}

describe('documentInfo', () => {
  before(async () => {
    client = await LspClient.start();
  });
  after(async () => {
    await client.stop();
  });

  test('a cloud-config without a spec: the user-data default', async () => {
    const result = await info(WEB_SERVER);
    assert.equal(result.kind, 'cloud-config');
    assert.equal(result.spec, 'dict(replace)+list()+str()');
    assert.match(result.summary[0], /No merge_how/);
    assert.ok(result.summary.includes('mappings: new values replace existing ones (no recursion)'));
  });

  test('a cloud-config with the append recipe', async () => {
    const result = await info(`#cloud-config\nmerge_how: ${APPEND_LISTS}\nruncmd: [ls]\n`);
    assert.deepEqual(result, {
      kind: 'cloud-config',
      spec: APPEND_LISTS,
      summary: [
        'merge_how: how this part merges into the parts before it.',
        'Parsed as 3 merger(s); for each type the first one that handles it wins.',
        'mappings: keep existing values, merge new mappings recursively; recurse into lists',
        'lists: append the new items',
        'strings: replaced',
      ],
      merged: true,
    });
  });

  test('the list form is reported in string form', async () => {
    const result = await info('#cloud-config\nmerge_how:\n  - name: List\n    settings: [append]\n  - name: dict\n    settings: [recurse_list]\n');
    assert.equal(result.spec, null, 'cloud-init rejects List');
    assert.match(result.summary.join('\n'), /ImportError/);
  });

  test('a drop-in: the mergemanydict default', async () => {
    const result = await info('datasource_list: [NoCloud]\n', 'etc/cloud/cloud.cfg.d/90-ds.cfg');
    assert.equal(result.kind, 'confd');
    assert.equal(result.spec, 'list()+dict()+str()');
  });

  test('a MIME multipart: the spec of each part', async () => {
    const result = await info(
      mime([
        { headers: [`Merge-Type: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd: [one]\n' },
        { headers: ['Merge-Type: dict(no_replace)+list()+str()'], body: '#cloud-config\nruncmd: [two]\n' },
      ]),
      'user-data.mime',
    );
    assert.equal(result.kind, 'mime');
    assert.equal(result.spec, null, 'two different specs');
    assert.equal(result.summary.length, 2);
    assert.match(result.summary[0], /^Merge-Type at line 8: list\(append\)/);
  });

  test('a MIME multipart of many parts: one spec when all agree, the first twenty described', async () => {
    const part = { headers: [`Merge-Type: ${APPEND_LISTS}`], body: `#cloud-config\nmerge_how: '${APPEND_LISTS}'\nruncmd: [one]\n` };
    const result = await info(mime(Array.from({ length: 30 }, () => part)), 'user-data.mime');
    assert.equal(result.spec, `${APPEND_LISTS}+${APPEND_LISTS}`, 'body then header, the same in every part');
    assert.equal(result.summary.length, 21);
    assert.match(result.summary[0], /^Merge-Type at line \d+: /);
    assert.match(result.summary[1], /^merge_how at line \d+: /);
    assert.equal(result.summary[20], '… and 40 more specs.');
  });

  test('a MIME Build MIME wrote (base64 parts): the spec each part carries, not "No part has a spec" (issue 42)', async () => {
    const b = '===============5044800923085040265==';
    const part = (name: string, body: string) => [`--${b}`, 'Content-Type: text/cloud-config; charset="utf-8"', 'MIME-Version: 1.0', 'Content-Transfer-Encoding: base64', `Content-Disposition: attachment; filename="${name}"`, '', Buffer.from(body).toString('base64'), ''];
    const text = [`Content-Type: multipart/mixed; boundary="${b}"`, 'MIME-Version: 1.0', '', ...part('base.yaml', `#cloud-config\nmerge_how: ${APPEND_LISTS}\npackages: [a]\n`), ...part('app.yaml', '#cloud-config\nmerge_how: dict(no_replace)+list()+str()\nruncmd: [b]\n'), `--${b}--`, ''].join('\n');
    const result = await info(text, 'user-data.mime');
    assert.equal(result.kind, 'mime');
    assert.equal(result.spec, null, 'two different specs');
    assert.deepEqual(result.summary, [`MIME part 1 (base.yaml), merge_how: ${APPEND_LISTS}`, 'MIME part 2 (app.yaml), merge_how: dict(no_replace)+list()+str()']);
    // Without any spec it still says so.
    const plain = [`Content-Type: multipart/mixed; boundary="${b}"`, 'MIME-Version: 1.0', '', ...part('base.yaml', '#cloud-config\npackages: [a]\n'), `--${b}--`, ''].join('\n');
    assert.match((await info(plain, 'user-data.mime')).summary[0], /^No part has a spec/);
  });

  test('a MIME multipart whose last part differs: no single spec', async () => {
    const same = { headers: [`Merge-Type: ${APPEND_LISTS}`], body: '#cloud-config\nruncmd: [one]\n' };
    const last = { headers: ['Merge-Type: dict(no_replace)+list()+str()'], body: '#cloud-config\nruncmd: [two]\n' };
    const result = await info(mime([...Array.from({ length: 25 }, () => same), last]), 'user-data.mime');
    assert.equal(result.spec, null);
    assert.equal(result.summary.at(-1), '… and 6 more specs.');
  });

  test('kinds without a spec, and documents that are not ours', async () => {
    assert.deepEqual(await info('#include\nhttps://example.com/a.yaml\n', 'include.txt'), { kind: 'include', spec: null, summary: ['One URL per line; each is fetched and processed as user-data.'], merged: true });
    assert.deepEqual(await info('version: "3"\nservices: {}\n', 'compose.yaml'), { kind: null, spec: null, summary: [], merged: false });
  });

  // Issue 36, item 5: the status item said "merge: dict(replace)+list()+str()" on these, and the preview
  // button showed; cloud-init reads them but never merges them, so the server says so and the client follows.
  test("a seed's meta-data and a network-config: not merged, no merge spec", async () => {
    assert.deepEqual(await info('instance-id: iid-1\n', 'seed/meta-data'), {
      kind: 'meta-data',
      spec: null,
      summary: ["A NoCloud seed's meta-data: NoCloud reads it (instance-id, hostname); cloud-init never merges it, so it has no merge spec and no merge preview."],
      merged: false,
    });
    for (const [text, name] of [['network:\n  version: 2\n  ethernets: {}\n', 'seed/network-config'], ['version: 2\nethernets:\n  eth0: {dhcp4: true}\n', 'net.yaml']]) {
      assert.deepEqual(await info(text, name), {
        kind: 'network-config',
        spec: null,
        summary: ["A network-config: cloud-init's network stage reads it; it is never merged into user-data, so it has no merge spec and no merge preview."],
        merged: false,
      }, name);
    }
    // Beside them, user-data and a drop-in are merged.
    assert.equal((await info('#cloud-config\nhostname: a\n', 'seed/user-data')).merged, true);
    assert.equal((await info('datasource_list: [NoCloud]\n', 'etc/cloud/cloud.cfg.d/90-ds.cfg')).merged, true);
  });

  // Issue 36, item 15: the image status item showed the setting as written; the server ignores a version it
  // does not know. The server says what it checks against, and what it ignored.
  test('the image the document is checked against, as the server resolved the settings; what it ignored, named', async () => {
    const cases: Array<[Record<string, unknown>, NonNullable<DocumentInfoResult['image']>]> = [
      [{ image: 'debian-12' }, { id: 'debian-12', version: '22.4', distro: 'debian', versionOverride: false, isDefault: false }],
      [{ image: 'debian-12', cloudInitVersion: '24.4.1' }, { id: 'debian-12', version: '24.4', distro: 'debian', versionOverride: true, isDefault: false }],
      [
        { image: 'debian-12', cloudInitVersion: '21.1' },
        { id: 'debian-12', version: '22.4', distro: 'debian', versionOverride: false, isDefault: false, ignored: ["cloudConfigMerge.cloudInitVersion is not a version this extension reproduces (22.4, 23.4, 24.4, 25.1, current): the image's version is used"] },
      ],
      [
        { image: 'rhel9' },
        { id: 'ubuntu-24.04', version: 'current', distro: 'ubuntu', versionOverride: false, isDefault: true, ignored: [`cloudConfigMerge.image: unknown image 'rhel9' (did you mean rhel-9?); the images: ${IMAGE_IDS.join(', ')}; the default image ubuntu-24.04 is used`] },
      ],
    ];
    const other = await LspClient.start();
    try {
      for (const [settings, image] of cases) {
        // As the editor says a change: the next answer is for the new settings.
        await other.changeSettings(settings);
        assert.deepEqual((await infoWithImage(WEB_SERVER, 'user-data.yaml', other)).image, image, JSON.stringify(settings));
      }
    } finally {
      await other.stop();
    }
  });

  test('a file that is not open is read from disk', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ccm-info-'));
    try {
      const file = path.join(dir, 'user-data.yaml');
      writeFileSync(file, `#cloud-config\nmerge_how: dict(no_replace)+list()+str()\n`);
      const result = await client.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri: pathToFileURL(file).href });
      assert.equal(result.spec, 'dict(no_replace)+list()+str()');
      const missing = await client.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri: pathToFileURL(path.join(dir, 'gone.yaml')).href });
      assert.equal(missing.kind, null);
      // Within maxFileBytes, as every other read of a workspace file (it was read whole, however large).
      const big = path.join(dir, 'big.yaml');
      writeFileSync(big, `#cloud-config\nruncmd: ['${'x'.repeat(70 * 1024 * 1024)}']\n`);
      const over = await client.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri: pathToFileURL(big).href });
      assert.equal(over.kind, null);
      assert.match(over.summary[0], /^The file cannot be read \(\d+ bytes, over the limit maxFileBytes = 67108864 \(setting cloudConfigMerge\.limits\.maxFileBytes\)\)\.$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
