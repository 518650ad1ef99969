// guardRequest: a request the client has cancelled is answered as cancelled without running it;
// one that throws is answered with an error and logged, and the server goes on.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CancellationTokenSource, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import { guardRequest } from '../../server/src/features/common/guard';
import type { Logger } from '../../server/src/features/common/log';

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  return { level: 'off', errors, error: (m) => errors.push(m), warn: () => {}, info: () => {}, verbose: () => {} };
}

describe('guardRequest', () => {
  test('a cancelled request is not run and is answered RequestCancelled', async () => {
    let ran = 0;
    const source = new CancellationTokenSource();
    source.cancel();
    const answer = await guardRequest(recordingLogger(), 'hover', () => ++ran)(undefined, source.token);
    assert.equal(ran, 0);
    assert.ok(answer instanceof ResponseError);
    assert.equal(answer.code, LSPErrorCodes.RequestCancelled);
  });

  test('a request still wanted runs', async () => {
    const answer = await guardRequest(recordingLogger(), 'hover', (n: number) => n + 1)(41, new CancellationTokenSource().token);
    assert.equal(answer, 42);
  });

  test('a handler that throws gives an error answer and a logged stack', async () => {
    const log = recordingLogger();
    const answer = await guardRequest(log, 'hover', () => {
      throw new Error('boom');
    })(undefined, new CancellationTokenSource().token);
    assert.ok(answer instanceof ResponseError);
    assert.equal(answer.code, LSPErrorCodes.RequestFailed);
    assert.match(log.errors[0], /\[hover\] failed: Error: boom/);
  });
});
