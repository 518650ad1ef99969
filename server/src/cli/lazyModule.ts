/** A module required on first use, then kept: start-up pays only for what a run needs. */
export function lazyModule<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
