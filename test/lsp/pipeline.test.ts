// cloudConfigMerge/makeMime, cloudConfigMerge/pipelineSource and the preview's `source` (issue 16),
// through the built server over stdio, on files in a temporary workspace.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { LspClient } from '../support/lspClient';
import { unwrapHeader } from '../../server/src/engine/render/previewText';
import {
  MakeMimeRequest,
  MakeMimeParams,
  MakeMimeResult,
  PipelineSourceRequest,
  PipelineSourceResult,
  PreviewRequest,
  PreviewParams,
  PreviewResult,
  previewBody,
} from '../../server/src/protocol';

const FIXTURES = path.resolve(__dirname, '../../../test/pipeline/fixtures');
let client: LspClient;
let workspace: string;
const uri = (...parts: string[]) => pathToFileURL(path.join(workspace, ...parts)).href;

describe('pipeline requests', () => {
  before(async () => {
    workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'ccm-pipeline-lsp-')));
    mkdirSync(path.join(workspace, 'parts'));
    for (const f of ['10-base.yaml', '20-app.yaml', '30-hello.sh', '40 host.j2']) copyFileSync(path.join(FIXTURES, 'makemime', f), path.join(workspace, 'parts', f));
    writeFileSync(path.join(workspace, 'parts', 'notes.txt'), 'no header here\n');
    copyFileSync(path.join(FIXTURES, 'state.json'), path.join(workspace, 'state.json'));
    copyFileSync(path.join(FIXTURES, 'plan.json'), path.join(workspace, 'plan.json'));
    client = await LspClient.start({ workspaceFolders: [workspace] });
  });
  after(async () => {
    await client.stop();
    rmSync(workspace, { recursive: true, force: true });
  });

  const makeMime = (params: MakeMimeParams) => client.request<MakeMimeResult>(MakeMimeRequest.method, params);
  const preview = (params: PreviewParams) => client.request<PreviewResult>(PreviewRequest.method, params);
  let files: string[] = [];
  before(() => {
    files = ['10-base.yaml', '20-app.yaml', '30-hello.sh', '40 host.j2'].map((f) => uri('parts', f));
  });

  test("makeMime: the files' parts as cloud-init's make-mime writes them, types from their first lines", async () => {
    const result = await makeMime({ files, boundary: 'BOUNDARY' });
    assert.deepEqual(result.problems, []);
    assert.equal(result.text, readFileSync(path.join(FIXTURES, 'makemime.expected.mime'), 'utf8'));
    assert.deepEqual(result.parts.map((p) => p.contentType), ['text/cloud-config', 'text/cloud-config', 'text/x-shellscript', 'text/jinja2']);
  });

  test("makeMime: an open editor's unsaved text is what is built; gzip+base64 as Terraform writes it", async () => {
    await client.open(files[0], '#cloud-config\npackages: [unsaved]\n');
    const result = await makeMime({ files: [files[0]], encoding: 'gzip+base64', boundary: 'B' });
    const mime = gunzipSync(Buffer.from(result.text, 'base64')).toString();
    assert.match(mime, /^Content-Type: multipart\/mixed; boundary="B"\n/);
    assert.match(mime, new RegExp(Buffer.from('#cloud-config\npackages: [unsaved]\n').toString('base64').replace(/[+/=]/g, '\\$&')));
    client.close(files[0]);
  });

  test('makeMime: a file whose first line names no type, or a missing file, is a problem, and nothing is built', async () => {
    const result = await makeMime({ files: [files[0], uri('parts', 'notes.txt'), uri('parts', 'gone.yaml')] });
    assert.equal(result.text, '');
    assert.equal(result.problems.length, 2);
    assert.match(result.problems[0], /^notes\.txt: its first line announces no content type/);
    assert.match(result.problems[1], /^gone\.yaml: cannot be read/);
  });

  test('pipelineSource: the configs of a state and of a plan; anything else is a rendered blob', async () => {
    const state = await client.request<PipelineSourceResult>(PipelineSourceRequest.method, { uri: uri('state.json') });
    assert.deepEqual(state, { kind: 'terraform', configs: [{ address: 'data.cloudinit_config.web', parts: 4, origin: 'rendered' }, { address: 'module.db.cloudinit_config.db', parts: 4, origin: 'rendered' }] });
    const plan = await client.request<PipelineSourceResult>(PipelineSourceRequest.method, { uri: uri('plan.json') });
    assert.deepEqual(plan.configs.map((c) => c.origin), ['parts', 'rendered']);
    const blob = await client.request<PipelineSourceResult>(PipelineSourceRequest.method, { uri: files[0] });
    assert.deepEqual(blob, { kind: 'rendered', configs: [] });
  });

  test("preview of a Terraform config: cloud-init's cloud-config.txt, with findings naming the Terraform part", async () => {
    const result = await preview({ mode: 'user-data', files: [uri('state.json')], source: { kind: 'terraform', address: 'module.db.cloudinit_config.db' } });
    assert.equal(result.failure, undefined);
    assert.equal(previewBody(result), readFileSync(path.join(FIXTURES, 'state.2.current.expected.txt'), 'utf8'));
    const header = unwrapHeader(result.text);
    assert.match(header, /^# Finding: part 2 \(filename "extra\.yaml"\): error: .*\[part-skipped\]$/m);
    assert.match(header, /^# Finding: part 4 \(filename "ntp\.sh"\): warning: declared text\/x-shellscript, but .* \[declared-type-overridden\]$/m);
    assert.ok(result.sources?.includes(uri('state.json')), 'an edit of the JSON file refreshes the preview');
    const missing = await preview({ mode: 'user-data', files: [uri('state.json')], source: { kind: 'terraform', address: 'data.cloudinit_config.nope' } });
    assert.match(missing.failure ?? '', /no cloudinit_config at data\.cloudinit_config\.nope/);
  });

  test('preview of a rendered blob (base64 of gzip) equals the preview of the MIME it holds', async () => {
    const built = await makeMime({ files, encoding: 'gzip+base64' });
    writeFileSync(path.join(workspace, 'rendered.b64'), built.text);
    const plain = await makeMime({ files });
    writeFileSync(path.join(workspace, 'user-data.mime'), plain.text);
    const rendered = await preview({ mode: 'user-data', files: [uri('rendered.b64')], source: { kind: 'rendered' } });
    const mime = await preview({ mode: 'user-data', files: [uri('user-data.mime')] });
    assert.equal(rendered.failure, undefined);
    assert.equal(previewBody(rendered), previewBody(mime));
    // A source is previewed alone, in user-data mode.
    const refused = await preview({ mode: 'confd', files: [uri('rendered.b64')], source: { kind: 'rendered' } });
    assert.match(refused.failure ?? '', /previewed alone, in user-data mode/);
  });
});
