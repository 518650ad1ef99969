/**
 * A feature that throws must not take the server down: the request gets an
 * error answer, the connection console gets the stack, and the server keeps
 * serving. Tests can make a named feature throw with the environment
 * variable CLOUD_CONFIG_MERGE_FAULTS (a comma-separated list of feature
 * names), to check exactly that.
 */
import { CancellationToken, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import { Logger, describeError } from './log';

const injected = new Set(
  (process.env.CLOUD_CONFIG_MERGE_FAULTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

/** Throws when the environment asks this feature to fail (fault injection for tests). */
export function injectFault(feature: string): void {
  if (injected.has(feature)) throw new Error(`injected fault in ${feature} (CLOUD_CONFIG_MERGE_FAULTS)`);
}

export function guardRequest<P, R>(log: Logger, feature: string, handler: (params: P, token: CancellationToken) => R | Promise<R>): (params: P, token: CancellationToken) => Promise<R | ResponseError<void>> {
  return async (params, token) => {
    const started = performance.now();
    // The client gave up on it (the document changed, the cursor moved on): spend nothing on it.
    if (token?.isCancellationRequested) return new ResponseError<void>(LSPErrorCodes.RequestCancelled, `cloud-config-merge ${feature} cancelled`);
    try {
      injectFault(feature);
      const result = await handler(params, token);
      log.verbose(`[${feature}] answered in ${(performance.now() - started).toFixed(2)} ms`);
      return result;
    } catch (e) {
      log.error(`[${feature}] failed: ${describeError(e)}`);
      const message = e instanceof Error ? e.message : String(e);
      return new ResponseError<void>(LSPErrorCodes.RequestFailed, `cloud-config-merge ${feature} failed: ${message}`);
    }
  };
}

/** For notifications and timers: nobody waits for an answer, so only log. */
export function guardCall(log: Logger, feature: string, fn: () => void | Promise<void>): Promise<void> {
  return (async () => {
    try {
      injectFault(feature);
      await fn();
    } catch (e) {
      log.error(`[${feature}] failed: ${describeError(e)}`);
    }
  })();
}
