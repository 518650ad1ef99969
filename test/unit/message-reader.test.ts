// Regression: a test process hung after its tests when the language server it drove was killed in
// the middle of a message: vscode-jsonrpc's reader re-armed a 10 s partial-message timer forever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { serverMessageReader } from '../support/lspClient';

test('a message cut off by a dying server leaves no timer behind', async () => {
  const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  const before = timers();
  const stream = new PassThrough();
  const reader = serverMessageReader(stream);
  reader.listen(() => assert.fail('no whole message was sent'));
  stream.write('Content-Length: 1000\r\n\r\n{"jsonrpc":"2.0","method":"textDocument/publishDiagnostics","params":{');
  stream.end();
  await new Promise((resolve) => setImmediate(resolve));
  reader.dispose();
  assert.equal(timers(), before);
});
