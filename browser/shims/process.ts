/** The globals of Node the server uses, in a Web Worker: `process` (its arguments, platform, environment), setImmediate. */
export const process = {
  argv: [] as string[],
  env: {} as Record<string, string | undefined>,
  platform: 'linux',
  versions: {} as Record<string, string>,
  send: undefined,
  pid: 0,
  cwd: (): string => '/',
  on: (): unknown => process,
  once: (): unknown => process,
  exit: (): void => undefined,
  memoryUsage: () => ({ rss: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0 }),
  hrtime: Object.assign((): [number, number] => [0, 0], { bigint: (): bigint => BigInt(Math.round(performance.now() * 1e6)) }),
  nextTick: (f: (...a: unknown[]) => void, ...a: unknown[]): void => void queueMicrotask(() => f(...a)),
};

/** Node's setImmediate (the server yields to queued messages with it): a macrotask in the worker. */
export const setImmediate = (f: (...a: unknown[]) => void, ...a: unknown[]): ReturnType<typeof setTimeout> => setTimeout(f, 0, ...a);
export const clearImmediate = (handle: ReturnType<typeof setTimeout>): void => clearTimeout(handle);
