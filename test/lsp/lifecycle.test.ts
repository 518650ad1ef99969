// The server's life with an editor: startup, edits, closing, settings, failures, and going away.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { CodeActionKind, ErrorCodes, LSPErrorCodes, ResponseError, TextDocumentSyncKind } from 'vscode-languageserver-protocol';
import { LspClient, SERVER_MAIN, cursor, fixtureUri } from '../support/lspClient';
import { APPEND_LISTS, WEB_SERVER } from './fixtures';

/** A different mistake on every keystroke. */
const TYPING = (n: number) => `#cloud-config\nmerge_how: list(append)+dict(no_replace)+str(${'x'.repeat(n)})\n`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A last edit, and its own publish: any publish for an earlier version would have come before it (one document's runs are in order). */
const BARRIER = '#cloud-config\nhostname: barrier\n';

/**
 * Edits the document once more and waits for that version's publish: every publish the server was going
 * to make for earlier versions has been made by then. Returns the versions published since `since`.
 */
async function publishedUpToBarrier(client: LspClient, uri: string, since: number): Promise<number[]> {
  const barrier = client.change(uri, BARRIER);
  await client.waitForDiagnostics(uri, since, (p) => p.version === barrier);
  return client.diagnosticsLog(uri).slice(since).map((p) => p.version ?? -1);
}

describe('lifecycle', () => {
  test('initialize announces the features', async () => {
    const client = await LspClient.start();
    try {
      const caps = client.initializeResult.capabilities;
      assert.equal(caps.hoverProvider, true);
      // '.' and '|' go on a path or start a filter inside a Jinja template's tags.
      assert.deepEqual(caps.completionProvider?.triggerCharacters, ['(', ',', '+', '[', '"', "'", '.', '|']);
      assert.deepEqual((caps.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite]);
      assert.equal((caps.textDocumentSync as { change: number }).change, TextDocumentSyncKind.Incremental);
      assert.equal(client.initializeResult.serverInfo?.name, 'cloud-config-language-server');
    } finally {
      await client.stop();
    }
  });

  test('closing a document clears its diagnostics', async () => {
    const client = await LspClient.start();
    try {
      const uri = fixtureUri('lifecycle/close.yaml');
      const diagnostics = await client.open(uri, '#cloud-config\nmerge_how: list(append)+str()\n');
      assert.deepEqual(diagnostics.map((d) => d.code), ['no-dict-merger']);
      const since = client.diagnosticsLog(uri).length;
      client.close(uri);
      const cleared = await client.waitForDiagnostics(uri, since);
      assert.deepEqual(cleared.diagnostics, []);
    } finally {
      await client.stop();
    }
  });

  test('rapid edits: only the latest text is analysed and published', async () => {
    const client = await LspClient.start();
    try {
      const uri = fixtureUri('lifecycle/typing.yaml');
      await client.open(uri, WEB_SERVER);
      const since = client.diagnosticsLog(uri).length;
      let last = 0;
      // Keystrokes 10 ms apart: a typist, not a synchronisation.
      for (let i = 1; i <= 8; i++) {
        last = client.change(uri, TYPING(i));
        await sleep(10);
      }
      const finalText = `#cloud-config\nmerge_how: ${APPEND_LISTS.replace('+str()', '+str(apend)')}\n`;
      last = client.change(uri, finalText);
      const published = await client.waitForDiagnostics(uri, since);
      assert.equal(published.version, last, 'the first publish after the burst is for the last version');
      assert.deepEqual(published.diagnostics.map((d) => d.code), ['unknown-option']);
      const versions = await publishedUpToBarrier(client, uri, since);
      assert.deepEqual(versions, [last, last + 1], 'no publish for intermediate versions');
    } finally {
      await client.stop();
    }
  });

  test('a result for a version that changed meanwhile is never published', async () => {
    const client = await LspClient.start();
    try {
      const uri = fixtureUri('lifecycle/stale.yaml');
      // The server analyses the opened text once it has the document's settings: hold them back,
      // so that an edit arrives while that run is in flight.
      const release = client.holdConfiguration();
      client.openNoWait(uri, '#cloud-config\nmerge_how: list(append)+str()\n');
      await client.waitForConfigurationRequest();
      // Sent before the settings are answered: the server reads the edit first (one stream, in order).
      const version = client.change(uri, WEB_SERVER);
      release();
      const first = await client.waitForDiagnostics(uri, 0);
      assert.equal(first.version, version, 'the run for the opened version was dropped');
      assert.deepEqual(first.diagnostics, []);
      assert.deepEqual(await publishedUpToBarrier(client, uri, 0), [version, version + 1], 'nothing published for the opened version');
    } finally {
      await client.stop();
    }
  });

  test('incremental edits are applied to the right text', async () => {
    const client = await LspClient.start();
    try {
      const uri = fixtureUri('lifecycle/incremental.yaml');
      const text = `#cloud-config\nmerge_how: ${APPEND_LISTS}\n`;
      await client.open(uri, text);
      const since = client.diagnosticsLog(uri).length;
      // Replace "append" in list(append) with "apend".
      client.edit(uri, { start: { line: 1, character: 16 }, end: { line: 1, character: 22 } }, 'apend');
      const published = await client.waitForDiagnostics(uri, since);
      assert.deepEqual(
        published.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
        [['unknown-option', 1, 16, 21]],
      );
    } finally {
      await client.stop();
    }
  });

  test('a feature that throws answers an error, logs it, and the server keeps serving', async () => {
    const client = await LspClient.start({ env: { CLOUD_CONFIG_MERGE_FAULTS: 'hover,codeActions' } });
    try {
      const { text, position } = cursor(`#cloud-config\nmerge_how: li|st(append)+dict()\n`);
      const uri = fixtureUri('lifecycle/faults.yaml');
      const diagnostics = await client.open(uri, text);
      assert.deepEqual(diagnostics.map((d) => d.code), ['list-merger-unreachable']);
      await assert.rejects(client.hover(uri, position), (e: ResponseError<unknown>) => {
        assert.equal(e.code, LSPErrorCodes.RequestFailed);
        assert.match(e.message, /hover failed: injected fault/);
        return true;
      });
      await assert.rejects(client.codeActions(uri, { start: position, end: position }, diagnostics));
      // Still alive: other features answer, and a new edit is analysed.
      const items = await client.completion(uri, { line: 1, character: 'merge_how: list('.length });
      assert.ok(items.some((i) => i.label === 'append'));
      const since = client.diagnosticsLog(uri).length;
      client.change(uri, `#cloud-config\nmerge_how: ${APPEND_LISTS}\n`);
      assert.deepEqual((await client.waitForDiagnostics(uri, since)).diagnostics, []);
      // Logged before the error was answered.
      assert.ok(client.logs.some((l) => /\[hover\] failed: Error: injected fault in hover/.test(l)), 'the stack goes to the log');
    } finally {
      await client.stop();
    }
  });

  test('a failing diagnostics run does not stop hover', async () => {
    const client = await LspClient.start({ env: { CLOUD_CONFIG_MERGE_FAULTS: 'diagnostics' } });
    try {
      const { text, position } = cursor(`#cloud-config\nmerge_how: li|st(append)+dict()\n`);
      const uri = fixtureUri('lifecycle/no-diagnostics.yaml');
      client.openNoWait(uri, text);
      const hover = await client.hover(uri, position);
      assert.ok(hover);
      // The run failed (it says so in the log) and published nothing, nor did the run of an edit after it
      // (anything the first run published would have come before the second run's failure).
      await client.waitForLog(/\[diagnostics\] failed/);
      const logged = client.logs.length;
      client.change(uri, BARRIER);
      await client.waitForLog(/\[diagnostics\] failed/, logged);
      assert.equal(client.diagnosticsLog(uri).length, 0);
    } finally {
      await client.stop();
    }
  });

  test('requests for documents that are not open answer nothing rather than failing', async () => {
    const client = await LspClient.start();
    try {
      const uri = fixtureUri('lifecycle/never-opened.yaml');
      assert.equal(await client.hover(uri, { line: 0, character: 0 }), null);
      assert.deepEqual(await client.completion(uri, { line: 0, character: 0 }), []);
      assert.deepEqual(await client.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }), []);
      await assert.rejects(client.request('cloudConfigMerge/unknown', {}), (e: ResponseError<unknown>) => e.code === ErrorCodes.MethodNotFound);
    } finally {
      await client.stop();
    }
  });

  test('shutdown and exit end the process cleanly', async () => {
    const client = await LspClient.start();
    await client.stop();
    assert.equal(await client.exited, 0);
  });

  test('the process ends when the editor goes away without a shutdown', async () => {
    const client = await LspClient.start();
    client.process.stdin!.end();
    const code = await Promise.race([client.exited, sleep(5000).then(() => 'still running')]);
    assert.equal(code, 1);
    client.connection.dispose();
  });

  test('bin/cloud-config-language-server.js starts the server on stdio', async () => {
    const bin = SERVER_MAIN.replace(/server[\\/]out[\\/]server\.js$/, 'bin/cloud-config-language-server.js');
    const child = spawn(process.execPath, [bin], { stdio: ['pipe', 'pipe', 'pipe'] });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const answer = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('"result"')) resolve(out);
      });
      child.once('exit', () => reject(new Error(`exited: ${out}`)));
      setTimeout(() => reject(new Error('no answer')), 5000);
    });
    child.kill();
    assert.match(answer, /"hoverProvider":true/);
  });
});
