/**
 * Subiquity's verdict (subiquity.ts) as findings on the document, and the common mistakes of real
 * autoinstall files that Subiquity lets through:
 * - its errors (`autoinstall-error`): the first stops the install, the others come next once it is fixed;
 *   what it raises later on storage (`autoinstall-apply-error`), and its warnings;
 * - top-level keys version 1 drops (`autoinstall-unknown-key`), with what to do for a cloud-config key
 *   (it belongs under `user-data:`) and a near miss;
 * - autoinstall keys outside `autoinstall:` that cloud-init also reads (`autoinstall-key-outside`), with
 *   the fix that moves them under it;
 * - a plain-text `identity.password` (Subiquity hands it to `chpasswd --encrypted`);
 * - late-commands that change the installer, not `/target`, with the `curtin in-target --` fix;
 * - a top-level `autoinstall:` without `#cloud-config` (cloud-init ignores such user-data).
 */
import { PyDict, type PyValue, type TextSpan } from '../py/values';
import { spanAt } from '../schema/validate';
import { coded } from '../findings/codes';
import { nearest, type Finding, type Fix } from '../findings/findings';
import { schemaData } from '../schema/data';
import { autoinstallKeys, subiquityFacts } from './facts';
import type { CloudInitVersion } from '../version/versions';
import type { AutoinstallError, AutoinstallVerdict, Delivery } from './subiquity';

/** A crypt(3) hash as chpasswd --encrypted takes it (`$id$...`). */
const CRYPT = /^\$(1|2[abxy]?|5|6|7|y|gy|sha1|md5)\$|^\$[0-9a-z]+\$/;
/** Commands whose effect belongs in the installed system. */
const SYSTEM_COMMAND = /\b(apt|apt-get|snap|systemctl|useradd|usermod|update-grub|dpkg|chpasswd|passwd)\b/;
const IN_TARGET = /curtin\s+in-target|chroot\s+\/target|--root[= ]\/target|\/target|TARGET_MOUNT_POINT|--target/;

export interface AutoinstallDocument {
  text: string;
  /** The document as loaded, with its spans. */
  value: PyValue;
  rootSpan: TextSpan | null;
  delivery: Delivery;
  verdict: AutoinstallVerdict;
  path: string;
}

function place(doc: AutoinstallDocument, segments: PyValue[], on: 'key' | 'value' = 'key'): TextSpan {
  const at = spanAt(doc.value, segments, doc.rootSpan);
  if (!at) return { start: 0, end: Math.max(0, doc.text.search(/\r|\n|$/)) };
  return on === 'key' ? (at.key ?? at.value) : at.value;
}

function errorMessage(e: AutoinstallError, first: boolean, v: AutoinstallVerdict): string {
  const who = `Subiquity ${v.profile}`;
  const lead = first ? `${who} stops the install: ` : `${who} then raises: `;
  const what = e.message === '' ? `${e.cause}` : `${e.cause}: ${e.message}`;
  return `${lead}${what}${e.detail ? ` (${e.detail})` : ''}`;
}

/** The findings of one autoinstall document. */
export function autoinstallFindings(doc: AutoinstallDocument): Finding[] {
  const v = doc.verdict;
  const out: Finding[] = [];
  v.errors.forEach((e, i) => {
    const on = e.cause === 'AutoinstallValidationError' || e.section === 'top-level keys' ? 'key' : 'value';
    const key = e.phase === 'cloud-config' && typeof e.path[0] === 'string' ? e.path[0] : undefined;
    const fixes = key !== undefined ? moveUnder(doc, key) : undefined;
    out.push({ ...coded('autoinstall-error'), span: place(doc, e.path, on), message: errorMessage(e, i === 0, v), ...(fixes ? { fixes } : {}) });
  });
  for (const a of v.applyTime) out.push({ ...coded('autoinstall-apply-error'), span: place(doc, a.path, 'value'), message: `Subiquity ${v.profile} fails when it applies the ${a.section} section: ${a.message}` });
  for (const w of v.warnings) {
    if (w.section === 'top-level keys') continue;
    out.push({ ...coded('autoinstall-warning'), span: place(doc, w.path), message: `Subiquity ${v.profile} warns: ${w.message}` });
  }
  const facts = subiquityFacts(v.profile);
  const keys = [...autoinstallKeys(facts)];
  const cloudKeys = cloudConfigKeys(facts['x-ccm'].liveCloudInit);
  for (const k of v.unrecognized) {
    const span = place(doc, [...v.root, k]);
    const near = nearest(k, keys);
    const why = cloudKeys.has(k) ? `'${k}' is a cloud-config key: for the installed system it goes under 'user-data:'` : near ? `did you mean '${near}'?` : 'Subiquity does not read it';
    out.push({ ...coded('autoinstall-unknown-key'), span, message: `Unrecognized top-level autoinstall key '${k}': version 1 drops it with a warning (${why})`, unnecessary: true });
  }
  for (const k of v.outside) {
    const fixes = moveUnder(doc, k);
    out.push({ ...coded('autoinstall-key-outside'), span: place(doc, [k]), message: `'${k}' is an autoinstall key outside 'autoinstall:': cloud-init takes it as its own key for the live installer, and the installer ignores it`, ...(fixes ? { fixes } : {}) });
  }
  pushAll(out, mistakes(doc));
  return out;
}

function pushAll(out: Finding[], more: Finding[]): void {
  for (const f of more) out.push(f);
}

let cloudKeyCache: { version: string; keys: Set<string> } | undefined;
function cloudConfigKeys(version: CloudInitVersion): Set<string> {
  if (cloudKeyCache?.version === version) return cloudKeyCache.keys;
  const keys = new Set<string>();
  const schema = schemaData(version).schema as { allOf?: Array<{ $ref?: string }>; $defs?: Record<string, { properties?: object }> };
  // The top-level keys: the properties of each definition the schema's allOf refers to.
  for (const part of schema.allOf ?? []) {
    const def = part.$ref?.startsWith('#/$defs/') ? schema.$defs?.[part.$ref.slice('#/$defs/'.length)] : undefined;
    for (const k of Object.keys(def?.properties ?? {})) keys.add(k);
  }
  cloudKeyCache = { version, keys };
  return keys;
}

/** The edits that move a top-level key (and its lines) to the end of the `autoinstall:` block. */
function moveUnder(doc: AutoinstallDocument, key: string): Fix[] | undefined {
  if (!(doc.value instanceof PyDict)) return undefined;
  const own = doc.value.originOf(key);
  const ai = doc.value.originOf('autoinstall');
  const inner = doc.value.get('autoinstall');
  // Where autoinstall: has the key already, moving it would shadow that one: left to the user.
  if (!own?.key || !ai?.key || !(inner instanceof PyDict) || inner.has(key)) return undefined;
  const text = doc.text;
  const lineStart = (o: number) => text.lastIndexOf('\n', o - 1) + 1;
  const lineEnd = (o: number) => {
    const n = text.indexOf('\n', o);
    return n < 0 ? text.length : n + 1;
  };
  // Only block-style entries written at column 0 are moved; anything else is left to the user.
  const start = lineStart(own.key.start);
  if (start !== own.key.start) return undefined;
  const end = lineEnd(Math.max(own.value.end - 1, own.key.end));
  const block = text.slice(start, end);
  const aiEnd = lineEnd(Math.max(ai.value.end - 1, ai.key.end));
  const firstKey = inner.entryList()[0]?.origin?.key;
  const indent = firstKey ? firstKey.start - lineStart(firstKey.start) : 2;
  const moved = block.replace(/\n?$/, '\n').split('\n').slice(0, -1).map((l) => (l ? ' '.repeat(indent) + l : l)).join('\n') + '\n';
  if (start >= ai.key.start && start < aiEnd) return undefined;
  const edits = [{ span: { start, end }, newText: '' }, { span: { start: aiEnd, end: aiEnd }, newText: moved }];
  return [{ title: `Move '${key}' under 'autoinstall:'`, edits: start < aiEnd ? edits : [edits[1], edits[0]], preferred: true }];
}

/** The common mistakes Subiquity lets through. */
function mistakes(doc: AutoinstallDocument): Finding[] {
  const v = doc.verdict;
  const out: Finding[] = [];
  const cfg = v.config;
  if (!(cfg instanceof PyDict)) return out;
  const ident = cfg.get('identity');
  if (ident instanceof PyDict) {
    const pw = ident.get('password');
    if (typeof pw === 'string' && !CRYPT.test(pw)) {
      out.push({ ...coded('autoinstall-password-not-hashed'), span: place(doc, [...v.root, 'identity', 'password'], 'value'), message: 'identity.password is not a crypt hash: Subiquity hands it to chpasswd --encrypted, so this password never logs in (make one with `mkpasswd -m sha-512`)' });
    }
  }
  const late = cfg.get('late-commands');
  if (Array.isArray(late)) {
    late.forEach((cmd, i) => {
      const text = typeof cmd === 'string' ? cmd : Array.isArray(cmd) ? cmd.map((x) => (typeof x === 'string' ? x : '')).join(' ') : '';
      if (!SYSTEM_COMMAND.test(text) || IN_TARGET.test(text)) return;
      const segments = [...v.root, 'late-commands', BigInt(i)];
      const span = place(doc, segments, 'value');
      const fixes: Fix[] = [];
      if (typeof cmd === 'string' && doc.text.slice(span.start, span.end) === cmd) {
        fixes.push({ title: 'Run it in the installed system (curtin in-target --)', edits: [{ span: { start: span.start, end: span.start }, newText: 'curtin in-target -- ' }], preferred: true });
      }
      out.push({ ...coded('autoinstall-late-command-not-in-target'), span, message: `late-commands run in the installer's own system: '${text.slice(0, 80)}' changes the live installer, not the installed system at /target (prefix it with 'curtin in-target --')`, ...(fixes.length ? { fixes } : {}) });
    });
  }
  if (doc.delivery === 'autoinstall.yaml' && v.foundAt === "file's top-level 'autoinstall' key" && !/(^|[\\/])autoinstall\.yaml$/.test(doc.path)) {
    out.push({ ...coded('autoinstall-no-cloud-config-header'), span: place(doc, ['autoinstall']), message: "A top-level 'autoinstall:' without a '#cloud-config' first line: fine as autoinstall.yaml on the install media, but cloud-init ignores this file as user-data (NoCloud seed, cloud user-data)" });
  }
  return out;
}
