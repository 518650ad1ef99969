// The hostile corpus through the language server, as an editor would send it: open the document,
// wait for its diagnostics, ask for hovers, completions and code actions at a few places and for
// a preview. Every answer must come (no hang), none may be an error, the server must stay up.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PreviewRequest, PreviewResult } from '../../server/src/protocol';
import { LspClient } from '../support/lspClient';
import { CORPUS } from './corpus';
import { tempDir } from './harness';

const REQUEST_BUDGET_MS = 30_000;

function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([p, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms))]);
}

/** Positions spread over the text (start, middle, end, and a few lines in). */
function positions(text: string): Array<{ line: number; character: number }> {
  const lines = text.split(/\r\n|\r|\n/);
  const picks = [0, 1, 2, Math.floor(lines.length / 2), lines.length - 1];
  return [...new Set(picks.filter((l) => l >= 0 && l < lines.length))].map((line) => ({ line, character: Math.min(lines[line].length, 3) }));
}

describe('hostile documents in the language server', () => {
  let root: { dir: string; cleanup: () => void };
  let client: LspClient | undefined;
  const start = async () => (client = await LspClient.start({ workspaceFolders: [root.dir] }));
  before(async () => {
    root = tempDir();
    await start();
  });
  after(async () => {
    await client?.stop();
    root.cleanup();
  });

  for (const c of CORPUS) {
    const files = () => c.files();
    test(c.name, async () => {
      const generated = files();
      const names = Object.keys(generated);
      if (!names.length) return;
      const dir = path.join(root.dir, c.name);
      mkdirSync(dir, { recursive: true });
      for (const [name, content] of Object.entries(generated)) {
        writeFileSync(path.join(dir, name), typeof content === 'string' ? content.split('{dir}').join(dir) : content);
      }
      const name = (c.inputs ?? [names[0]])[0];
      const content = generated[name];
      const text = typeof content === 'string' ? content.split('{dir}').join(dir) : new TextDecoder().decode(content);
      if (text.length > 8_000_000) return; // the editor would not open it either
      const uri = pathToFileURL(path.join(dir, name)).href;
      const server = client!;
      try {
        const since = server.diagnosticsLog(uri).length;
        server.openNoWait(uri, text);
        await server.waitForDiagnostics(uri, since, () => true, REQUEST_BUDGET_MS);
        for (const position of positions(text)) {
          await within(server.hover(uri, position), REQUEST_BUDGET_MS, `hover ${JSON.stringify(position)}`);
          await within(server.completion(uri, position), REQUEST_BUDGET_MS, `completion ${JSON.stringify(position)}`);
        }
        await within(server.codeActions(uri, { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } }), REQUEST_BUDGET_MS, 'codeActions');
        const files = (c.inputs ?? [names[0]]).map((n) => pathToFileURL(path.join(dir, n)).href);
        const preview = await within(server.request<PreviewResult>(PreviewRequest.method, { mode: 'user-data', files }), REQUEST_BUDGET_MS * 2, 'preview');
        assert.equal(typeof preview.text, 'string');
        server.close(uri);
      } catch (e) {
        // A hang or a crash: start a fresh server for the next case, and fail this one.
        const stderr = server.stderr;
        server.process.kill('SIGKILL');
        server.connection.dispose();
        await start();
        throw new Error(`${(e as Error).message}\nserver stderr:\n${stderr.slice(-3000)}`, { cause: e });
      }
      assert.equal(server.process.exitCode, null, `the server exited: ${server.stderr.slice(-3000)}`);
      const failures = server.logs.filter((l) => /uncaught|unhandled rejection|failed:/.test(l));
      assert.deepEqual(failures, [], failures.join('\n'));
    });
  }
});
