/** Logging to the client's output channel, filtered by `cloudConfigMerge.trace.server`. */
import type { Connection } from 'vscode-languageserver';
import { TraceLevel } from './settings';

export interface Logger {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  /** Only with trace.server = verbose (timings, cache hits). */
  verbose(message: string): void;
  level: TraceLevel;
}

export function connectionLogger(connection: Connection): Logger {
  const logger: Logger = {
    level: 'off',
    error: (m) => connection.console.error(m),
    warn: (m) => connection.console.warn(m),
    info: (m) => connection.console.info(m),
    verbose: (m) => {
      if (logger.level === 'verbose') connection.console.log(m);
    },
  };
  return logger;
}

/** The message and, where there is one, the stack of anything thrown. */
export function describeError(e: unknown): string {
  if (e instanceof Error) return e.stack ?? `${e.name}: ${e.message}`;
  return String(e);
}
