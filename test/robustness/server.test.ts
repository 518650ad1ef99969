// The hostile corpus through the language server, as an editor would send it: open the document and
// check what the user sees. The diagnostics that arrive (each code with its count, the first one's words
// and range); that the server still answers documentInfo (the status bar's kind), hover, completion and
// code actions afterwards, with the one analysis of the document (the server logs each) and at a cost of
// server CPU bounded by it (a request that redid the work for each answer, or hung, fails); and that the
// preview says what happened: what
// cloud-init did with each part, what it writes (corpus-cloud-init.json, recorded with the real
// cloud-init), or why it fails.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { DocumentInfoRequest, DocumentInfoResult, PreviewRequest, PreviewResult } from '../../server/src/protocol';
import { LspClient } from '../support/lspClient';
import { unwrapped, unwrappedText } from '../support/previewHeader';
import { CORPUS, materialise } from './corpus';
import { cloudInitRecord, differsFromCloudConfigTxt, previewStoryProblems } from './cloudInitRecord';
import { processCpuMs, tempDir } from './harness';

/** Wall time after which a request counts as unanswered: a hang guard only (the budgets are CPU time). */
const HANG_MS = 120_000;

function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${HANG_MS} ms`)), HANG_MS)))]).finally(() => clearTimeout(timer));
}

/** Positions spread over the text (start, middle, end, and a few lines in). */
function positions(text: string): Array<{ line: number; character: number }> {
  const lines = text.split(/\r\n|\r|\n/);
  const picks = [0, 1, 2, Math.floor(lines.length / 2), lines.length - 1];
  return [...new Set(picks.filter((l) => l >= 0 && l < lines.length))].map((line) => ({ line, character: Math.min(lines[line].length, 3) }));
}

/** A diagnostic's message as the user reads it. */
const words = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : d.message.value);

const byPosition = (a: Diagnostic, b: Diagnostic) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;

function codeCounts(diagnostics: Diagnostic[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const d of diagnostics) counts[String(d.code)] = (counts[String(d.code)] ?? 0) + 1;
  return counts;
}

describe('hostile documents in the language server: what the user sees', () => {
  let root: { dir: string; cleanup: () => void };
  let client: LspClient | undefined;
  // Verbose: the server logs each analysis it runs (`[analysis] URI vN: ... ms`), which the test counts.
  const start = async () => (client = await LspClient.start({ workspaceFolders: [root.dir], settings: { trace: { server: 'verbose' } } }));
  before(async () => {
    root = tempDir();
    await start();
  });
  after(async () => {
    await client?.stop();
    root.cleanup();
  });

  for (const c of CORPUS) {
    const seen = c.editor;
    if (seen === false) continue;
    test(`${c.name}: ${c.about}`, async () => {
      const m = materialise(c, root.dir);
      const bytes = m.files.find((f) => m.inputs[0].endsWith(`/${f.name}`))!.bytes;
      // What an editor holds: the bytes decoded as UTF-8 (a byte order mark dropped, bad bytes as U+FFFD).
      const text = new TextDecoder().decode(bytes);
      const uri = pathToFileURL(m.inputs[0]).href;
      const server = client!;
      const cpu = () => {
        const ms = processCpuMs(server.process.pid!);
        assert.notEqual(ms, null, "the server's CPU time is read from /proc (Linux)");
        return ms!;
      };
      try {
        // The diagnostics.
        const since = server.diagnosticsLog(uri).length;
        const beforeOpen = cpu();
        server.openNoWait(uri, text);
        const published = await server.waitForDiagnostics(uri, since, () => true, HANG_MS);
        const analysisCpu = cpu() - beforeOpen;
        const analyses = () => server.logs.filter((l) => l.startsWith(`[analysis] ${uri} `)).length;
        assert.equal(analyses(), 1, 'one analysis of the opened document');
        const diagnostics = published.diagnostics.slice().sort(byPosition);
        const listing = diagnostics
          .slice(0, 5)
          .map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${words(d).slice(0, 300)}`)
          .join('\n');
        assert.deepEqual(codeCounts(diagnostics), seen.codes, `diagnostics:\n${listing}`);
        if (seen.first) {
          const first = diagnostics[0];
          assert.match(words(first), seen.first.message, listing);
          const r = first.range;
          assert.deepEqual([r.start.line, r.start.character, r.end.line, r.end.character], seen.first.range, `the first diagnostic's range: ${listing}`);
        }

        // The server still answers, without redoing the document's work for each request.
        const beforeRequests = cpu();
        const info = await within(server.request<DocumentInfoResult>(DocumentInfoRequest.method, { uri }), 'documentInfo');
        assert.equal(info.kind, seen.kind, `documentInfo: ${JSON.stringify(info)}`);
        const headerHover = await within(server.hover(uri, { line: 0, character: 1 }), 'hover on the first line');
        if (seen.kind !== null && seen.kind !== 'mime') {
          // The first line decides what cloud-init does with the document: its hover says which kind it is.
          const hoverText = headerHover && typeof headerHover.contents === 'object' && 'value' in headerHover.contents ? headerHover.contents.value : '';
          assert.match(hoverText, /\*\*(#|## template)/, `hover on the first line: ${JSON.stringify(headerHover)}`);
        } else {
          assert.equal(headerHover, null, `hover on the first line of a document that is not cloud-init's: ${JSON.stringify(headerHover)}`);
        }
        for (const position of positions(text)) {
          await within(server.hover(uri, position), `hover ${JSON.stringify(position)}`);
          const items = await within(server.completion(uri, position), `completion ${JSON.stringify(position)}`);
          if (seen.kind === null) assert.deepEqual(items, [], `completion in a document that is not cloud-init's, at ${JSON.stringify(position)}`);
        }
        const range = diagnostics[0]?.range ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
        await within(server.codeActions(uri, range, diagnostics.slice(0, 1)), 'codeActions');
        const requestsCpu = cpu() - beforeRequests;
        assert.equal(analyses(), 1, 'the requests reuse the analysis of the document');
        // A dozen requests: at most five times the document's analysis (a request that redid it would make twelve),
        // plus a fixed allowance (/proc counts 10 ms ticks). Summing up a spec of 100,000 mergers in words, for its
        // hover and for documentInfo, is what comes nearest (about 3.5 times).
        assert.ok(requestsCpu <= 300 + 5 * analysisCpu, `the requests after the diagnostics cost ${requestsCpu} ms of server CPU; the analysis ${analysisCpu} ms`);

        // The preview says what happened.
        // The preview in the case's mode (the editor previews user-data and cloud.cfg.d folders).
        const args = (c.args ?? []).join(' ');
        const mode = args.includes('--mode confd') ? 'confd' : 'user-data';
        const files = m.inputs.map((p) => pathToFileURL(p).href);
        const preview = await within(server.request<PreviewResult>(PreviewRequest.method, { mode, files }), 'preview');
        const header = unwrapped(preview.text);
        const where = `preview:\n${preview.text.slice(0, 3000)}`;
        const expected = seen.preview ?? (c.preview || {});
        for (const re of expected.text ?? []) assert.match(unwrappedText(preview.text), re, where);
        if (expected.failure) assert.match(preview.failure ?? '', expected.failure, where);
        // Where the editor holds the file's own bytes, the preview is cloud-init's own story (corpus-cloud-init.json).
        const record = /--mode|--spec/.test(args) ? undefined : cloudInitRecord(c.name);
        if (record && !seen.preview) {
          assert.deepEqual(previewStoryProblems(header, preview.failure, record), [], where);
          if (!preview.failure) {
            const differs = differsFromCloudConfigTxt(preview.text.slice(preview.bodyStart), record);
            assert.equal(differs, null, `the preview's body is not cloud-init's cloud-config.txt: ${differs}`);
          }
        }
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
