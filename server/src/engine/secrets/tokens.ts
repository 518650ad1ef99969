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

/** The preset, loaded the first time a value is scanned: most edits never need it. */
let loaded: Rule[] | undefined;
function presetRules(): Rule[] {
  if (!loaded) {
    const preset = require('@secretlint/secretlint-rule-preset-recommend') as { rules: Rule[] };
    loaded = preset.rules.filter((r) => r.meta.type === 'scanner' && r.meta.id !== '@secretlint/secretlint-rule-gcp');
  }
  return loaded;
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
  for (const rule of presetRules()) {
    let messageId = '';
    let message = '';
    const context: RuleContext = {
      report: (d) => matches.push({ rule: rule.meta.id, messageId, message: message || d.message, start: d.range[0], end: d.range[1] }),
      ignore: () => undefined,
      createTranslator: (messages) => (id, props = {}) => {
        messageId = id;
        const redacted = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, /^[A-Z_]+$/.test(k) && k !== 'TYPE' && k !== 'FILE_NAME' ? redact(v) : v]));
        message = messages[id]?.en?.(redacted) ?? id;
        return message;
      },
    };
    try {
      const handler = rule.create(context, RULE_OPTIONS[rule.meta.id] ?? {});
      const ext = filePath && /\.[^./]+$/.exec(filePath)?.[0];
      const text = rule.meta.id === '@secretlint/secretlint-rule-privatekey' ? keepClosedPrivateKeys(content) : content;
      handler.file?.({ content: text, filePath, ext: ext ?? '', contentType: 'text' });
    } catch {
      // A rule that throws on some input finds nothing there; the others still run.
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}
