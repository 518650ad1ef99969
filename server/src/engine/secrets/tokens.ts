/**
 * Credentials of well-known formats (private keys, AWS, GitHub, Slack, npm, OpenAI, SendGrid, Shopify, Linear,
 * 1Password, URLs with a password) found by the rules of secretlint's recommended preset
 * (`@secretlint/secretlint-rule-preset-recommend`, MIT): its rules, run as they are, not a copy of their
 * patterns, so the formats stay as their maintainers keep them.
 *
 * The rules are run here directly, without secretlint's (asynchronous) engine: each rule's `create(context,
 * options)` gives a `file(source)` handler that reports `{ message, range }` synchronously for text. Left out:
 * the GCP rule (it reads `.json`/`.p12` files by name, and its p12 check reads the file from disk) and the
 * comment filter (our own allow comment, `secretMarkers.ts`, marks a value as intended). The AWS rule's
 * access-key-id scan (off by default in secretlint) is on: a key id in user-data names the key to attack.
 */

interface RuleSource {
  content: string;
  filePath?: string;
  ext: string;
  contentType: 'text';
}
interface RuleContext {
  report(descriptor: { message: string; range: readonly [number, number] | number[] }): void;
  ignore(descriptor: unknown): void;
  createTranslator(messages: Record<string, Record<string, (props: Record<string, unknown>) => string>>): (id: string, props?: Record<string, unknown>) => string;
}
interface Rule {
  meta: { id: string; type?: string };
  create(context: RuleContext, options: Record<string, unknown>): { file?: (source: RuleSource) => unknown };
}

/** The rules we do not run: the GCP rule reads files by name (and .p12 files from disk); the comment filter is secretlint's own marking. */
const LEFT_OUT = new Set(['@secretlint/secretlint-rule-gcp', '@secretlint/secretlint-rule-filter-comments']);

interface Running {
  id: string;
  file: (source: RuleSource) => unknown;
}

/** Where the running rule reports, and what its translator last said (rules translate, then report). */
let sink: TokenMatch[] = [];
let current = { rule: '', messageId: '', message: '' };

/** The preset's rules, created once, the first time a text is scanned: most edits never need them. */
let running: Running[] | undefined;
function presetRules(): Running[] {
  if (running) return running;
  running = [];
  let preset: { rules: Rule[] };
  try {
    // An ES module: the bundles carry it converted; unbundled, Node loads it with require() from 20.19 on.
    preset = require('@secretlint/secretlint-rule-preset-recommend') as { rules: Rule[] };
  } catch {
    // Without the rule set, credential formats are not looked for; cloud-init's own semantics still are.
    return running;
  }
  for (const rule of preset.rules) {
    if (rule.meta.type !== 'scanner' || LEFT_OUT.has(rule.meta.id)) continue;
    const id = rule.meta.id;
    const context: RuleContext = {
      report: (d) => sink.push({ rule: id, messageId: current.messageId, message: current.message || d.message, start: d.range[0], end: d.range[1] }),
      ignore: () => undefined,
      createTranslator: (messages) => (messageId, props = {}) => {
        const redacted = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, /^[A-Z_]+$/.test(k) && k !== 'TYPE' && k !== 'FILE_NAME' ? redact(v) : v]));
        current = { rule: id, messageId, message: messages[messageId]?.en?.(redacted) ?? messageId };
        return current.message;
      },
    };
    try {
      const handler = rule.create(context, RULE_OPTIONS[id] ?? {});
      if (handler.file) running.push({ id, file: handler.file });
    } catch {
      // A rule that cannot be created is left out; the others still run.
    }
  }
  return running;
}

const RULE_OPTIONS: Record<string, Record<string, unknown>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

export interface TokenMatch {
  /** The secretlint rule that found it, e.g. `@secretlint/secretlint-rule-aws`. */
  rule: string;
  /** The rule's message id, e.g. `AWSAccessKeyID`, `PrivateKey`. */
  messageId: string;
  /** The rule's own English message, with the secret itself shortened (never repeated in full). */
  message: string;
  start: number;
  end: number;
}

/** A secret shown in a message (the rules' upper-case props): its first four characters, so the message does not carry it. */
function redact(value: unknown): string {
  const text = String(value);
  const firstLine = text.split('\n', 1)[0];
  return firstLine.startsWith('-----BEGIN') ? firstLine.slice(0, 60) + (text.length > firstLine.length ? ' …' : '') : `${text.slice(0, 4)}…`;
}

/**
 * The text the private-key rule is given: each `-----BEGIN` that cannot start a match is spelt `-----BEGIn`
 * (same length, so positions stay). The rule's pattern tries up to 10,000 characters after every BEGIN for
 * its END: a file of BEGIN lines without END took seconds. A BEGIN is kept when the first `-----END` after it
 * closes the same label within those 10,000 characters, which every key the rule finds satisfies (nothing
 * between a key's BEGIN and END contains `-----END`), so each kept BEGIN's search stops at that END.
 */
export function keepClosedPrivateKeys(content: string): string {
  if (!content.includes('-----BEGIN')) return content;
  const begin = /-----BEGIN\s?((?:[A-Z]{2,16})?\s?PRIVATE KEY(?:\sBLOCK)?)-----/y;
  let out = '';
  let copied = 0;
  // The next `-----END` at or after a place, found once for all the BEGINs before it (-1: none after).
  let nextEnd = content.indexOf('-----END');
  for (let i = content.indexOf('-----BEGIN'); i >= 0; i = content.indexOf('-----BEGIN', i + 1)) {
    begin.lastIndex = i;
    const m = begin.exec(content);
    const bodyStart = i + (m ? m[0].length : 0);
    if (nextEnd >= 0 && nextEnd < bodyStart) nextEnd = content.indexOf('-----END', bodyStart);
    const end = m ? nextEnd : -1;
    const closes = end >= 0 && end - bodyStart <= 10_000 && new RegExp(`^-----END\\s?${m![1].replace(/\s/g, '\\s')}-----`).test(content.slice(end, end + m![1].length + 20));
    if (!closes) {
      out += content.slice(copied, i) + '-----BEGIn';
      copied = i + '-----BEGIN'.length;
    }
  }
  return out + content.slice(copied);
}

/** Every credential the preset's rules find in `content` (a value as cloud-init will write or run it). */
export function findTokens(content: string, filePath?: string): TokenMatch[] {
  const matches: TokenMatch[] = [];
  if (content.length < 8) return matches;
  const ext = (filePath && /\.[^./]+$/.exec(filePath)?.[0]) || '';
  sink = matches;
  try {
    for (const rule of presetRules()) {
      current = { rule: rule.id, messageId: '', message: '' };
      const text = rule.id === '@secretlint/secretlint-rule-privatekey' ? keepClosedPrivateKeys(content) : content;
      try {
        rule.file({ content: text, filePath, ext, contentType: 'text' });
      } catch {
        // A rule that throws on some input finds nothing more there; the others still run.
      }
    }
  } finally {
    sink = [];
  }
  return matches.sort((a, b) => a.start - b.start);
}
