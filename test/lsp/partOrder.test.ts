// The order of parts is chosen before it matters (issue 31, item 1): cloudConfigMerge/partOrder names the
// saved set of exactly the files given (its order is the one the editor offers) and every container among
// them that already holds the others' parts (a MIME built from them, an archive, gzip + base64 of them),
// compared by content; and a preview that merges a container beside its own parts says so in its header.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient } from '../support/lspClient';
import { runCliIn } from '../support/cli';
import { PartOrderRequest, PartOrderResult, PreviewRequest, PreviewResult } from '../../server/src/protocol';
import { unwrapHeader } from '../../server/src/engine/render/previewText';
import { gzipBase64, mime } from './fixtures';

const BASE = '#cloud-config\nhostname: base\ntimezone: UTC\npackages: [curl]\n';
const WEB = '#cloud-config\nmerge_how: dict(no_replace,recurse_list)+list(append)\nhostname: web\npackages: [nginx]\n';
const SECRETS = '#cloud-config\nruncmd: [echo secrets]\n';
/** As Python's email writes a MIME of the two (other names than the files', a trailing line break dropped). */
const BUILT = mime([
  { body: WEB, headers: ['Content-Disposition: attachment; filename="part-a"'] },
  { body: BASE, headers: ['Content-Disposition: attachment; filename="part-b"'] },
]);
const ARCHIVE = `#cloud-config-archive\n- type: text/cloud-config\n  content: |\n${BASE.split('\n').filter(Boolean).map((l) => `    ${l}`).join('\n')}\n- type: text/cloud-config\n  content: "#cloud-config\\nruncmd: [echo archived]\\n"\n`;

const FILES: Record<string, string> = {
  'base.yaml': BASE,
  '20-web.yaml': WEB,
  '30-secrets.yaml': SECRETS,
  'built.mime': BUILT,
  'crlf.mime': BUILT.replace(/\n/g, '\r\n'),
  'rendered.b64': gzipBase64(BUILT),
  'archive.txt': ARCHIVE,
  'copy/base.yaml': BASE,
  'cloud-config-merge.yaml': 'sets:\n  web:\n    files: [base.yaml, 20-web.yaml]\n',
};

describe('the order step: saved sets and containers', () => {
  let dir: string;
  let client: LspClient;
  const uri = (name: string) => pathToFileURL(path.join(dir, name)).href;
  const order = (...names: string[]) => client.request<PartOrderResult>(PartOrderRequest.method, { files: names.map(uri) });

  before(async () => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-order-')));
    for (const [name, text] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), text);
    }
    client = await LspClient.start({ workspaceFolders: [dir] });
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the two files of a saved set, in either order: the set is offered, in its order', async () => {
    for (const given of [['20-web.yaml', 'base.yaml'], ['base.yaml', '20-web.yaml']]) {
      const result = await order(...given);
      assert.deepEqual(result.set, { name: 'web', mode: 'user-data', files: [uri('base.yaml'), uri('20-web.yaml')] });
      assert.deepEqual(result.containers, []);
    }
    // One file more or fewer is not that set.
    assert.equal((await order('20-web.yaml', 'base.yaml', '30-secrets.yaml')).set, undefined);
    assert.equal((await order('base.yaml')).set, undefined);
  });

  test('a MIME built from two of the files, given with them, is said, compared by content (not by its part names)', async () => {
    const result = await order('20-web.yaml', 'base.yaml', '30-secrets.yaml', 'built.mime');
    assert.deepEqual(result.containers, [{ file: uri('built.mime'), contains: [uri('20-web.yaml'), uri('base.yaml')], own: 0, message: 'built.mime already contains 20-web.yaml and base.yaml' }]);
    // With CRLF line ends, and gzip + base64 as Terraform writes it: the same parts.
    for (const container of ['crlf.mime', 'rendered.b64']) {
      const other = await order('base.yaml', container, '20-web.yaml');
      assert.deepEqual(other.containers.map((c) => [c.file, c.contains]), [[uri(container), [uri('base.yaml'), uri('20-web.yaml')]]], container);
    }
  });

  test('an archive with a part of its own: said with what leaving it out loses; two files of one base name are told apart', async () => {
    const result = await order('archive.txt', 'base.yaml', 'copy/base.yaml');
    assert.deepEqual(result.containers.map((c) => c.message), ['archive.txt already contains base.yaml and copy/base.yaml (and 1 part of its own)']);
    assert.equal(result.containers[0].own, 1);
  });

  test('two copies of one MIME are copies, not a container and its parts; a MIME alone is nothing to say', async () => {
    assert.deepEqual((await order('built.mime', 'crlf.mime')).containers, []);
    assert.deepEqual((await order('built.mime')).containers, []);
    assert.deepEqual((await order('built.mime', '30-secrets.yaml')).containers, []);
  });

  test('an unsaved edit counts: the MIME no longer holds the edited file', async () => {
    await client.open(uri('base.yaml'), BASE.replace('hostname: base', 'hostname: edited'));
    try {
      const result = await order('20-web.yaml', 'base.yaml', 'built.mime');
      assert.deepEqual(result.containers.map((c) => c.message), ['built.mime already contains 20-web.yaml (and 1 part of its own)']);
    } finally {
      client.close(uri('base.yaml'));
    }
  });

  test('a preview that merges a MIME beside its own parts says so in its header, as the CLI does', async () => {
    const files = ['20-web.yaml', 'base.yaml', 'built.mime'];
    const result = await client.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files: files.map(uri) });
    assert.match(unwrapHeader(result.text), /^# Note: built\.mime already contains 20-web\.yaml and base\.yaml: their parts are merged twice, once from each$/m);
    const cli = runCliIn(['--format', 'preview', ...files], dir);
    assert.equal(cli.stdout, result.text);
    // Left out, nothing is said.
    const without = await client.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files: files.map(uri), exclude: 3 });
    assert.doesNotMatch(without.text, /already contains/);
  });
});
