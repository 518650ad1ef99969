// Known bugs the fuzzer keeps finding until they are fixed (in code this suite does not own):
// matched failures are counted and listed, but neither saved again nor counted as failed, so a
// run still finds what is new. Each entry names where it is reported. Remove an entry once fixed.

/** A YAML alias bomb: several lines each repeating aliases of the line before. */
export function aliasBomb(text) {
  const lines = text.match(/(?:\*[\w-]+\s*,\s*){3,}\*[\w-]+/g);
  return !!lines && lines.length >= 3;
}

export const KNOWN = [
  // Example (fixed in 5d183c0, kept as the pattern for the next one):
  // {
  //   id: 'analyze-alias-expansion',
  //   about: 'analyzeDocument walked alias-expanded values: a billion-laughs document hung it. Reported to <owner>.',
  //   match: (target, failure, task, text) => failure.kind === 'hang' && aliasBomb(text) && (target === 'server' || task?.kind === 'analyze'),
  // },
];

export function knownIssue(target, failure, task, bytes) {
  const text = Buffer.from(bytes).toString('utf8');
  return KNOWN.find((k) => k.match(target, failure, task, text)) ?? null;
}
