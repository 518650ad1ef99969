// Custom mergers declared in cloudConfigMerge.customMergers: valid names in diagnostics, hover,
// completion and the preview — but only once the workspace is trusted (the module is code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LspClient, REPO_ROOT, cursor } from '../support/lspClient';
import { PreviewRequest, PreviewResult, WorkspaceTrustNotification, previewBody } from '../../server/src/protocol';

const FOLDER = path.join(REPO_ROOT, 'examples', 'custom-mergers');
const SETTINGS = { customMergers: { uniq_list: 'm_uniq_list.js' } };
const DOC = "#cloud-config\nmerge_how: 'dict(no_replace,recurse_list)+uniq_list()+str()'\npackages: [jq, nginx]\n";
const uri = pathToFileURL(path.join(FOLDER, 'scratch.yaml')).href;

test('untrusted workspace: the module is never loaded, so the name is unknown', async () => {
  const client = await LspClient.start({ workspaceFolders: [FOLDER], settings: SETTINGS, initializationOptions: { trusted: false } });
  try {
    const diagnostics = await client.open(uri, DOC);
    assert.deepEqual(diagnostics.map((d) => d.code), ['unknown-merger']);
  } finally {
    await client.stop();
  }
});

test('trusted workspace: valid in diagnostics, hover (the module description), completion and the preview', async () => {
  const client = await LspClient.start({ workspaceFolders: [FOLDER], settings: SETTINGS, initializationOptions: { trusted: true } });
  try {
    assert.deepEqual(await client.open(uri, DOC), []);
    const hover = cursor(DOC.replace('uniq_list()', 'uniq_l|ist()'));
    const result = await client.hover(uri, hover.position);
    assert.match(JSON.stringify(result?.contents), /custom merger.*not in the list yet/s);
    const completion = cursor(DOC.replace("+str()'", "+|'"));
    const since = client.diagnosticsLog(uri).length;
    client.change(uri, completion.text);
    await client.waitForDiagnostics(uri, since);
    const items = await client.completion(uri, completion.position);
    assert.ok(items.some((i) => i.label === 'uniq_list'), `the custom merger is offered: ${items.map((i) => i.label).join(', ')}`);
    const base = pathToFileURL(path.join(FOLDER, '10-base.yaml')).href;
    const more = pathToFileURL(path.join(FOLDER, '20-more.yaml')).href;
    const preview = await client.connection.sendRequest<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files: [base, more] });
    assert.match(previewBody(preview), /packages:\n- curl\n- jq\n- nginx\n- htop\n/);
  } finally {
    await client.stop();
  }
});

test('trust granted later: the server reloads and the name becomes valid', async () => {
  const client = await LspClient.start({ workspaceFolders: [FOLDER], settings: SETTINGS, initializationOptions: { trusted: false } });
  try {
    assert.deepEqual((await client.open(uri, DOC)).map((d) => d.code), ['unknown-merger']);
    const since = client.diagnosticsLog(uri).length;
    await client.connection.sendNotification(WorkspaceTrustNotification.method, { trusted: true });
    assert.deepEqual((await client.waitForDiagnostics(uri, since)).diagnostics.map((d) => d.code), []);
  } finally {
    await client.stop();
  }
});
