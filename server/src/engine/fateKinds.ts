/** What a merge can do to a value a part wrote (engine/fates.ts computes them); apart so that naming them loads nothing else. */
export type FateKind = 'replaced' | 'deleted' | 'lost' | 'dropped' | 'overridden' | 'appended' | 'prepended';

/** Every kind, in the order a report lists them (losses first). */
export const FATE_KINDS: readonly FateKind[] = ['replaced', 'deleted', 'lost', 'dropped', 'overridden', 'appended', 'prepended'];
