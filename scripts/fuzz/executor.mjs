// The fuzzer's in-process target, forked with IPC: runs the built CLI's main() and the engine's
// buildPreview and analyzeDocument on the inputs it is sent, and answers with what happened.
// The parent watches this process's CPU time: a task that takes more than its budget is a
// hang, and the process is killed and started again.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
const root = new URL('../../', import.meta.url).pathname;
const { main, readInput } = require(`${root}server/out/cli/main.js`);
const { fileIncludeResolver } = require(`${root}server/out/node/includes.js`);
const { buildPreview } = require(`${root}server/out/engine/render/previewText.js`);
const { analyzeDocument } = require(`${root}server/out/engine/lint/analyzeDocument.js`);
const { PyError } = require(`${root}server/out/engine/py/errors.js`);

const MAX_KEPT = 4000;

function describe(e) {
  return { name: e?.name ?? typeof e, message: String(e?.message ?? e).slice(0, 2000), stack: String(e?.stack ?? '').slice(0, 4000) };
}

function run(task) {
  switch (task.kind) {
    case 'cli': {
      let stdout = 0;
      let stderr = '';
      const code = main(task.argv, {
        stdout: (t) => (stdout += t.length),
        stderr: (t) => {
          if (stderr.length < MAX_KEPT) stderr += t;
        },
      });
      return { code, stdout, stderr: stderr.slice(0, MAX_KEPT) };
    }
    case 'preview': {
      const files = task.files.map((f) => ({ name: f.name, bytes: readFileSync(f.path) }));
      try {
        const model = buildPreview(task.mode, files, { includes: fileIncludeResolver([], readInput, (p) => readInput(p, { regularOnly: true })), onIncludeFailure: task.onIncludeFailure, instanceData: task.instanceData });
        return { length: model.text.length, failure: model.failure ?? null, parts: model.parts.length };
      } catch (e) {
        // cloud-init's own errors (confd/boot) are answers; the language server turns them into a failure text.
        if (e instanceof PyError) return { pyError: `${e.pyType}: ${e.message}`.slice(0, 500) };
        throw e;
      }
    }
    case 'analyze': {
      const text = readFileSync(task.path, 'utf8');
      const analysis = analyzeDocument(text, task.path, {});
      return { findings: analysis.findings.length };
    }
    default:
      throw new Error(`unknown task ${task.kind}`);
  }
}

process.on('message', (m) => {
  let reply;
  const started = process.cpuUsage();
  try {
    reply = { id: m.id, ok: true, result: run(m.task) };
  } catch (e) {
    reply = { id: m.id, ok: false, error: describe(e) };
  }
  const used = process.cpuUsage(started);
  reply.cpuMs = (used.user + used.system) / 1000;
  process.send(reply);
});
process.on('uncaughtException', (e) => {
  process.send?.({ id: -1, ok: false, uncaught: describe(e) });
  process.exit(70);
});
process.send({ ready: true });
