/**
 * Worker thread for EngineWorker (harness.ts): runs one engine entry point
 * per message and answers with a small summary (never the whole output).
 */
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { analyzeDocument } from '../../server/src/engine/lint/analyzeDocument';
import { buildPreview, unwrapHeader } from '../../server/src/engine/render/previewText';
import { main, readInput } from '../../server/src/cli/main';
import { fileIncludeResolver } from '../../server/src/node/includes';
import { HeadTail, type WorkerOutcome, type WorkerTask } from './harness';

function run(task: WorkerTask): WorkerOutcome {
  const started = Date.now();
  try {
    switch (task.kind) {
      case 'analyze': {
        const analysis = analyzeDocument(task.text, task.path, task.options ?? {});
        return {
          ms: Date.now() - started,
          analyze: { findings: analysis.findings.map((f) => ({ code: f.code, severity: f.severity, message: f.message })) },
        };
      }
      case 'preview': {
        const model = buildPreview(task.mode, task.files, {
          ...(task.options ?? {}),
          includes: task.includeDir !== undefined ? fileIncludeResolver([], readInput) : undefined,
        });
        const unwrapped = unwrapHeader(model.text);
        return {
          ms: Date.now() - started,
          preview: {
            // Sentences are matched: header lines wrapped at 100 characters are joined again.
            text: unwrapped.slice(0, 20000),
            header: unwrapped.slice(0, unwrapped.length - model.body.length),
            bodySha256: createHash('sha256').update(model.body).digest('hex'),
            bodyStart: model.body.slice(0, 3000),
            textLength: model.text.length,
            failure: model.failure,
            parts: model.parts.map((p) => ({ label: p.label, status: p.status, reason: p.reason, spec: p.spec })),
            entries: model.entries.length,
          },
        };
      }
      case 'cli': {
        const stdout = new HeadTail(64 * 1024);
        let stderr = '';
        const code = main(task.argv, {
          stdout: (t) => stdout.add(t),
          stderr: (t) => {
            if (stderr.length < 100000) stderr += t;
          },
        });
        return { ms: Date.now() - started, cli: { code, stdout: stdout.text(), stdoutLength: stdout.length, stderr } };
      }
    }
  } catch (e) {
    const err = e as Error;
    return { ms: Date.now() - started, threw: { name: err?.name ?? 'Error', message: String(err?.message ?? e), stack: String(err?.stack ?? '') } };
  }
}

parentPort?.on('message', (m: { id: number; task: WorkerTask }) => {
  parentPort!.postMessage({ id: m.id, outcome: run(m.task) });
});
