/**
 * Secrets a cloud-config gives away, found on the value that writes them: plaintext passwords where
 * cloud-init reads a password (cc_set_passwords.py, distros/__init__.py create_user), weak crypt hashes
 * (cryptHash.ts), modules' own credentials, and private keys and credentials of well-known formats
 * (tokens.ts, secretlint's rules) anywhere in the text as written (comments included: they are in the
 * user-data too) and in write_files contents decoded as cloud-init decodes them. Each finding says who can
 * read the value on the booted instance (exposure.ts).
 *
 * cloud-init's semantics, the same from 22.4 to current:
 * - `password` (top level) is set for the default user through chpasswd, unless chpasswd has users or a list.
 * - `chpasswd.users[]`: `type` defaults to `hash`; `text` is a plaintext password; `RANDOM` (or no password)
 *   makes one up. `chpasswd.list` (deprecated): `user:password` lines, a hash only when it matches
 *   `\$(1|2a|2y|5|6)(\$.+){2}` (cryptHash.ts), `R`/`RANDOM` made up, anything else plaintext.
 * - `users[]`, `user` and `system_info.default_user`: `plain_text_passwd` is plaintext; `hashed_passwd` and
 *   `passwd` (given to useradd --password) are taken as hashes, so a plaintext there is both exposed and
 *   useless for logging in; `lock_passwd` (default true) locks the account after its password is set.
 * - `ssh_pwauth` true (util.is_true) makes sshd accept passwords: said on every plaintext password it opens.
 * - `ssh_keys.*_private` are host keys: whoever reads them can impersonate the host.
 * - write_files `encoding` (cc_write_files.canonicalize_extraction): gz/gzip, gz+base64 (and its spellings),
 *   b64/base64; a file is written with mode 0644 unless `permissions` says otherwise.
 *
 * A value marked with `# cloud-config-merge: allow-secret` on its line (or its key's line) is intended.
 */
import { PyBytes, PyDict, PyValue, TextSpan, getListOrigins, pyTruthy } from '../py/values';
import { a2bBase64 } from '../py/binascii';
import { pyReprForMessage } from '../py/repr';
import { pyGunzip } from '../userdata/gzip';
import { LineIndex } from '../text/lineIndex';
import { coded } from '../findings/codes';
import type { Finding } from '../findings/findings';
import type { CloudName } from '../delivery/limits';
import { chpasswdListTreatsAsHash, cryptHashOf } from './cryptHash';
import { findTokens, TokenMatch } from './tokens';
import { exposureSentence, Reader, WRITTEN_BY_MODULE } from './exposure';

/** The comment that marks a value as intended (on the value's line or its key's line). */
export const ALLOW_SECRET_MARKER = /#\s*cloud-config-merge:\s*allow-secret\b/;

/** A plaintext password written in place, which the quick fix can replace by a SHA-512 crypt hash. */
export interface PlaintextPasswordSite {
  /** The password as cloud-init reads it. */
  password: string;
  /** The value as written (quotes included), in the document. */
  span: TextSpan;
  /**
   * What to write instead of the value: the hash alone, or (for a `user:password` line) the line with the
   * hash in place of the password.
   */
  replace: 'value' | { listLine: string };
  /** An edit that makes cloud-init read the new value as a hash: the key renamed, or `type: text` changed. */
  alsoEdit?: { span: TextSpan; newText: string };
}

export interface SecretOptions {
  /** The cloud the user-data goes to: its metadata service is named in the messages. */
  cloud?: CloudName;
  /** The text as written, when `body` was masked (Jinja): placeholders are recognised in it. */
  original?: string;
  /** Report them as errors (`--fail-on secrets`, `cloudConfigMerge.secrets.asErrors`); warnings by default. */
  asErrors?: boolean;
  /** What findTokens finds in the text, when the caller scanned it already (a MIME document is scanned once). */
  tokens?: readonly TokenMatch[];
}

export interface SecretResult {
  findings: Finding[];
  /** Plaintext passwords with their places (spans relative to the document, like the findings'). */
  passwords: PlaintextPasswordSite[];
}

/** `<password>`, `${VAR}`, `$VAR`, `{{ var }}`, `%VAR%`, `{% ... %}`: a value filled in later, not a secret. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  return /^<[^<>\n]+>$/.test(v) || /^\$\{[^}\n]+\}$/.test(v) || /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(v) || /\{\{[\s\S]*\}\}|\{%[\s\S]*%\}/.test(v) || /^%[A-Za-z_][A-Za-z0-9_]*%$/.test(v);
}

/** util.is_true. */
function isTrue(value: PyValue | undefined): boolean {
  if (typeof value === 'boolean') return value;
  if (value === undefined || value === null) return false;
  const text = typeof value === 'string' ? value : typeof value === 'bigint' || typeof value === 'number' ? String(value) : '';
  return ['true', '1', 'on', 'yes'].includes(text.toLowerCase().trim());
}

const MAX_STRINGS = 20_000;

export function secretFindings(root: PyDict, body: string, base: number, options: SecretOptions = {}): SecretResult {
  const findings: Finding[] = [];
  const passwords: PlaintextPasswordSite[] = [];
  const original = options.original ?? body;
  const at = (span: TextSpan): TextSpan => ({ start: span.start + base, end: span.end + base });
  const markedAt = allowMarkers(original);
  const allowed = (...spans: Array<TextSpan | undefined>): boolean => spans.some((s) => s !== undefined && markedAt(s.start));
  const written = (span: TextSpan): string => original.slice(span.start, span.end);
  const placeholder = (value: string, span: TextSpan | undefined): boolean => isPlaceholder(value) || (span !== undefined && isPlaceholder(unquote(written(span))));
  // The values read above as passwords, keys or file contents (by where they start): the walk over every other string skips them.
  const handled = new Set<number>();
  const handle = (span: TextSpan | undefined) => span && handled.add(span.start);
  const cloudConfig: Reader[] = [WRITTEN_BY_MODULE.mergedConfig];
  const exposure = (extra: readonly Reader[] = []) => exposureSentence(options.cloud, [...cloudConfig, ...extra]);
  const pwauth = isTrue(root.get('ssh_pwauth'));

  /** Plaintext where cloud-init reads a password. */
  const plaintext = (what: string, value: string, span: TextSpan, login: string | undefined, fix: Omit<PlaintextPasswordSite, 'password' | 'span'> | undefined, note = '') => {
    const opens = pwauth && login ? ` With ssh_pwauth: true, sshd accepts passwords: whoever reads it can log in over SSH as ${login}.` : '';
    findings.push({
      ...coded('secret-plaintext-password'),
      span: at(span),
      message: `Plaintext password in ${what}${note}.${opens} ${exposure()} Write a SHA-512 crypt hash instead (${fix ? 'the quick fix computes one locally' : 'mkpasswd -m sha-512'}), or mark it intended with # cloud-config-merge: allow-secret.`,
    });
    if (fix) passwords.push({ password: value, span: at(span), ...fix, alsoEdit: fix.alsoEdit && { span: at(fix.alsoEdit.span), newText: fix.alsoEdit.newText } });
  };
  /** A value cloud-init takes as a hash: weak, or not a hash at all (then plaintext, and no login works with it). */
  const hashField = (what: string, value: string, span: TextSpan, keySpan: TextSpan | undefined, login: string | undefined) => {
    handle(span);
    if (!value || placeholder(value, span) || allowed(span, keySpan)) return;
    const hash = cryptHashOf(value);
    if (hash?.weakness) {
      findings.push({ ...coded('secret-weak-hash'), span: at(span), message: `Weak password hash in ${what}: ${hash.weakness}. Anyone who reads it can try passwords offline. ${exposure()} Use SHA-512 crypt or yescrypt (mkpasswd -m sha-512).` });
    } else if (!hash) {
      const note = ': cloud-init takes this value as a hash, so the password that logs in is not this text';
      plaintext(what, value, span, login, { replace: 'value' }, note);
    }
  };

  // Top-level `password`: the default user's, through chpasswd, unless chpasswd has users or a list.
  const passwordOrigin = root.originOf('password');
  const password = root.get('password');
  if (typeof password === 'string' && passwordOrigin) {
    handle(passwordOrigin.value);
    const chp = root.get('chpasswd');
    const unused = chp instanceof PyDict && (pyTruthy(chp.get('users') ?? null) || pyTruthy(chp.get('list') ?? null));
    const login = unused ? undefined : 'the default user';
    const note = unused ? ' (cloud-init does not set it, as chpasswd has users or a list, but the user-data still carries it)' : '';
    if (password && !placeholder(password, passwordOrigin.value) && !allowed(passwordOrigin.value, passwordOrigin.key)) {
      if (chpasswdListTreatsAsHash(password)) hashField('password', password, passwordOrigin.value, passwordOrigin.key, login);
      else if (password !== 'R' && password !== 'RANDOM') plaintext("password (the default user's)", password, passwordOrigin.value, login, { replace: 'value' }, note);
    }
  }

  // chpasswd
  const chpasswd = root.get('chpasswd');
  if (chpasswd instanceof PyDict) {
    const users = chpasswd.get('users');
    if (Array.isArray(users)) {
      const origins = getListOrigins(users);
      users.forEach((item, i) => {
        if (!(item instanceof PyDict)) return;
        const value = item.get('password');
        const origin = item.originOf('password');
        if (typeof value !== 'string' || !origin || !value) return;
        handle(origin.value);
        const type = item.has('type') ? item.get('type') : 'hash';
        const name = typeof item.get('name') === 'string' ? (item.get('name') as string) : `the user of chpasswd.users[${i}]`;
        const what = `chpasswd.users[${i}].password`;
        if (placeholder(value, origin.value) || allowed(origin.value, origin.key, origins?.[i]?.value)) return;
        if (type === 'text') {
          const typeOrigin = item.originOf('type');
          plaintext(what, value, origin.value, name, { replace: 'value', alsoEdit: typeOrigin ? { span: typeOrigin.value, newText: 'hash' } : undefined });
        } else if (type === 'hash') hashField(what, value, origin.value, origin.key, name);
      });
    }
    const list = chpasswd.get('list');
    const listOrigin = chpasswd.originOf('list');
    if (list && listOrigin) {
      handle(listOrigin.value);
      const lines: Array<{ line: string; span: TextSpan; exact: boolean }> = [];
      if (Array.isArray(list)) {
        const origins = getListOrigins(list);
        list.forEach((v, i) => {
          const span = origins?.[i]?.value;
          handle(span);
          if (typeof v === 'string' && span) lines.push({ line: v, span, exact: unquote(written(span)) === v });
        });
      } else if (typeof list === 'string') {
        // Each line where it is written, searched from the end of the one before (a block scalar keeps them in order).
        let from = listOrigin.value.start;
        for (const line of list.split(/\r\n|\r|\n/)) {
          const found = line ? original.indexOf(line, from) : -1;
          const inside = found >= 0 && found + line.length <= listOrigin.value.end;
          if (inside) from = found + line.length;
          lines.push({ line, span: inside ? { start: found, end: found + line.length } : listOrigin.value, exact: inside });
        }
      }
      for (const { line, span, exact } of lines) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const user = line.slice(0, colon);
        const p = line.slice(colon + 1);
        if (!p || placeholder(p, undefined) || allowed(span, listOrigin.key)) continue;
        if (chpasswdListTreatsAsHash(p)) hashField(`chpasswd.list (${user})`, p, span, undefined, user);
        else if (p !== 'R' && p !== 'RANDOM') {
          const looksHashed = cryptHashOf(p) ? ': cloud-init\'s list form reads only $1$, $2a$, $2y$, $5$ and $6$ as hashes, so this hash is set as the password itself' : '';
          plaintext(`chpasswd.list (${user})`, p, span, user, exact ? { replace: { listLine: user } } : undefined, looksHashed);
        }
      }
    }
  }

  // users[] and user: plain_text_passwd, hashed_passwd, passwd
  const userEntries: Array<{ entry: PyDict; label: string }> = [];
  const users = root.get('users');
  if (Array.isArray(users)) users.forEach((u, i) => u instanceof PyDict && userEntries.push({ entry: u, label: `users[${i}]` }));
  else if (users instanceof PyDict) for (const e of users.items()) if (e.value instanceof PyDict && typeof e.key === 'string') userEntries.push({ entry: e.value, label: `users.${e.key}` });
  const user = root.get('user');
  if (user instanceof PyDict) userEntries.push({ entry: user, label: 'user' });
  // The image's default user, redefined in user-data (read by users_groups in the config stage).
  const systemInfo = root.get('system_info');
  const defaultUser = systemInfo instanceof PyDict ? systemInfo.get('default_user') : undefined;
  if (defaultUser instanceof PyDict) userEntries.push({ entry: defaultUser, label: 'system_info.default_user' });
  for (const { entry, label } of userEntries) {
    const name = typeof entry.get('name') === 'string' ? (entry.get('name') as string) : label;
    // lock_passwd defaults to true: the password is set, then the account is locked.
    const login = isTrue(entry.get('lock_passwd') ?? true) ? undefined : name;
    const plain = entry.get('plain_text_passwd');
    const plainOrigin = entry.originOf('plain_text_passwd');
    handle(plainOrigin?.value);
    if (typeof plain === 'string' && plain && plainOrigin && !placeholder(plain, plainOrigin.value) && !allowed(plainOrigin.value, plainOrigin.key)) {
      const hashedTaken = entry.has('hashed_passwd');
      plaintext(`${label}.plain_text_passwd`, plain, plainOrigin.value, login, hashedTaken || !plainOrigin.key ? undefined : { replace: 'value', alsoEdit: { span: plainOrigin.key, newText: 'hashed_passwd' } });
    }
    for (const key of ['hashed_passwd', 'passwd']) {
      const value = entry.get(key);
      const origin = entry.originOf(key);
      if (typeof value === 'string' && origin) hashField(`${label}.${key}`, value, origin.value, origin.key, login);
    }
  }

  // Modules' own credentials (schema keys that hold one).
  for (const { path, what, extra } of MODULE_CREDENTIALS) {
    let parent: PyValue | undefined = root;
    for (const key of path.slice(0, -1)) parent = parent instanceof PyDict ? parent.get(key) : undefined;
    if (!(parent instanceof PyDict)) continue;
    const key = path[path.length - 1];
    const value = parent.get(key);
    const origin = parent.originOf(key);
    if (typeof value !== 'string' || !origin || !value) continue;
    handle(origin.value);
    if (placeholder(value, origin.value) || allowed(origin.value, origin.key)) continue;
    findings.push({ ...coded('secret-credential'), span: at(firstLineOf(origin.value, original)), message: `Credential in ${path.join('.')}: ${what}. ${exposure(extra ? [extra] : [])} Fetch it at boot from a secret manager, or mark it intended with # cloud-config-merge: allow-secret.` });
  }

  // WireGuard: each interface's content is a wg config whose PrivateKey is the interface's key.
  const wireguard = root.get('wireguard');
  const interfaces = wireguard instanceof PyDict ? wireguard.get('interfaces') : undefined;
  if (Array.isArray(interfaces)) {
    interfaces.forEach((iface, i) => {
      if (!(iface instanceof PyDict)) return;
      const content = iface.get('content');
      const origin = iface.originOf('content');
      if (typeof content !== 'string' || !origin) return;
      const key = /^[ \t]*PrivateKey[ \t]*=[ \t]*([A-Za-z0-9+/]{42,43}=)[ \t]*$/m.exec(content);
      if (!key || allowed(origin.value, origin.key)) return;
      findings.push({ ...coded('secret-private-key'), span: at(firstLineOf(origin.value, original)), message: `WireGuard private key in wireguard.interfaces[${i}].content (its PrivateKey line): whoever reads it can pose as this peer. ${exposure()} Generate the key on the instance (wg genkey) and register its public key, or mark it intended with # cloud-config-merge: allow-secret.` });
    });
  }

  // ssh_keys: host keys.
  const sshKeys = root.get('ssh_keys');
  if (sshKeys instanceof PyDict) {
    for (const e of sshKeys.items()) {
      if (typeof e.key !== 'string' || !e.key.endsWith('_private') || typeof e.value !== 'string' || !e.origin) continue;
      handle(e.origin.value);
      if (placeholder(e.value, e.origin.value) || allowed(e.origin.value, e.origin.key)) continue;
      const keys = findTokens(e.value).filter((t) => t.messageId === 'PrivateKey');
      if (!keys.length) continue;
      const type = e.key.slice(0, -'_private'.length);
      findings.push({
        ...coded('secret-private-key'),
        span: at(firstLineOf(e.origin.value, original)),
        message: `SSH host private key in ssh_keys.${e.key}: cloud-init installs it as /etc/ssh/ssh_host_${type}_key, and whoever reads it can impersonate this host (and every host given the same user-data). ${exposure()} Let each instance make its own host keys, or deliver them out of band.`,
      });
    }
  }

  // write_files: contents as cloud-init decodes them (an encoded one is scanned decoded; one written as is, below with the rest).
  const regionInfo = new Map<number, { path: string; extra: Reader[] }>();
  const writeFiles = root.get('write_files');
  if (Array.isArray(writeFiles)) {
    writeFiles.forEach((f, i) => {
      if (!(f instanceof PyDict)) return;
      const content = f.get('content');
      const origin = f.originOf('content');
      if (content === undefined || !origin) return;
      const path = typeof f.get('path') === 'string' ? (f.get('path') as string) : undefined;
      const encoding = typeof f.get('encoding') === 'string' ? (f.get('encoding') as string).toLowerCase().trim() : '';
      const perms = permissionsOf(f.get('permissions'));
      const worldReadable = perms === undefined || (perms & 0o004) !== 0;
      const file: Reader = {
        text: `${worldReadable ? 'every local user' : 'its owner'}, in ${path ?? 'the file'} (written with mode ${(perms ?? 0o644).toString(8).padStart(4, '0')}${f.has('permissions') ? '' : ", write_files' default"})`,
        source: 'cloudinit/config/cc_write_files.py: DEFAULT_PERMS = 0o644',
      };
      const decoded = decodeContent(content, encoding);
      if (!decoded?.encoded) {
        regionInfo.set(origin.value.start, { path: `write_files[${i}].content`, extra: [file] });
        return;
      }
      handle(origin.value);
      if (allowed(origin.value, origin.key)) return;
      const where = `write_files[${i}].content (decoded from ${encoding || 'YAML binary'})`;
      const tokens = findTokens(decoded.text, path);
      if (!tokens.length) return;
      const anchor = at(firstLineOf(origin.value, original));
      const readers = exposure([file]);
      for (const t of tokens) findings.push(tokenFinding(t, where, anchor, readers));
    });
  }

  // Everything else, as written: runcmd, bootcmd, any module's values, comments. One scan of the text (a
  // credential's name and value are often a key and its value), each match named by the string it is in.
  const regions: Array<{ span: TextSpan; keySpan?: TextSpan; path: string; top: string }> = [];
  let budget = MAX_STRINGS;
  const seen = new Set<object>();
  const visit = (value: PyValue, span: TextSpan | undefined, keySpan: TextSpan | undefined, path: string, top: string, depth: number) => {
    if (depth > 100 || budget <= 0) return;
    if (typeof value === 'string') {
      budget--;
      if (span) regions.push({ span, keySpan, path, top });
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (seen.has(value)) return;
    seen.add(value);
    if (value instanceof PyDict) {
      for (const e of value.items()) {
        const key = typeof e.key === 'string' ? e.key : pyReprForMessage(e.key, 40);
        visit(e.value, e.origin?.value, e.origin?.key, path ? `${path}.${key}` : key, depth === 0 ? key : top, depth + 1);
      }
    } else if (Array.isArray(value)) {
      const origins = getListOrigins(value);
      value.forEach((v, i) => visit(v, origins?.[i]?.value, undefined, `${path}[${i}]`, top, depth + 1));
    }
  };
  visit(root, undefined, undefined, '', '', 0);
  regions.sort((a, b) => a.span.start - b.span.start);
  // A string with many matches is looked at once (a 1 MB value of 40,000 key ids was one slice per match).
  const skipped = new Map<object, boolean>();
  for (const t of options.tokens ?? findTokens(original)) {
    const region = regionOf(regions, t.start, t.end);
    if (region) {
      let skip = skipped.get(region);
      if (skip === undefined) {
        skip = handled.has(region.span.start) || allowed(region.span, region.keySpan) || (region.span.end - region.span.start < 1000 && placeholder(original.slice(region.span.start, region.span.end), undefined));
        skipped.set(region, skip);
      }
      if (skip) continue;
    }
    if (markedAt(t.start)) continue;
    const info = region && regionInfo.get(region.span.start);
    const extra: Reader[] = info ? info.extra : region?.top === 'runcmd' ? [WRITTEN_BY_MODULE.runcmd] : region?.top === 'bootcmd' ? [WRITTEN_BY_MODULE.bootcmd] : [];
    const where = info?.path ?? region?.path ?? 'a comment or key (still part of the user-data)';
    // A match that starts before its string (a key and its value, as `aws_secret_access_key: ...`) is shown on the value.
    const span = region && t.start < region.span.start ? firstLineOf(region.span, original) : firstLineOfMatch(original, t.start, t.end);
    findings.push(tokenFinding(t, where, at(span), exposure(extra)));
  }
  return { findings: asSeverity(findings.sort((a, b) => a.span.start - b.span.start), options), passwords };
}

/** The string whose span holds `start`, else the first one the match overlaps (regions sorted, not nested). */
function regionOf<R extends { span: TextSpan }>(regions: readonly R[], start: number, end: number): R | undefined {
  let lo = 0;
  let hi = regions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (regions[mid].span.start <= start) lo = mid + 1;
    else hi = mid;
  }
  const before = regions[lo - 1];
  if (before && start < before.span.end) return before;
  const next = regions[lo];
  return next && next.span.start < end ? next : undefined;
}

/**
 * Keys of cloud-init modules that hold a credential other than a password or a PEM key (those are found by
 * their format): from the schema's properties (cc_ubuntu_pro / ubuntu_advantage, cc_landscape, cc_lxd,
 * cc_rh_subscription).
 */
const MODULE_CREDENTIALS: ReadonlyArray<{ path: readonly string[]; what: string; extra?: Reader }> = [
  { path: ['ubuntu_pro', 'token'], what: 'an Ubuntu Pro contract token' },
  { path: ['ubuntu_advantage', 'token'], what: 'an Ubuntu Pro contract token' },
  { path: ['landscape', 'client', 'registration_key'], what: 'a Landscape account registration key' },
  { path: ['lxd', 'init', 'trust_password'], what: 'the LXD trust password: a client that knows it can add itself to this LXD', extra: WRITTEN_BY_MODULE.lxdTrustPassword },
  { path: ['rh_subscription', 'password'], what: 'a Red Hat account password' },
  { path: ['rh_subscription', 'activation-key'], what: 'a Red Hat subscription activation key' },
];

function tokenFinding(t: TokenMatch, where: string, span: TextSpan, exposure: string): Finding {
  const key = t.messageId === 'PrivateKey';
  const rule = `${t.message} (secretlint rule ${t.rule.replace('@secretlint/secretlint-rule-', '')})`;
  return key
    ? { ...coded('secret-private-key'), span, message: `Private key in ${where}: ${rule}. ${exposure} Deliver it out of band (a secret manager, or fetched at boot with the instance's own role), or mark it intended with # cloud-config-merge: allow-secret.` }
    : { ...coded('secret-credential'), span, message: `Credential in ${where}: ${rule}. ${exposure} Rotate it, and fetch it at boot with the instance's own role or a secret manager, or mark it intended with # cloud-config-merge: allow-secret.` };
}

/** write_files' content as cloud-init writes it (cc_write_files.py extract_contents); undefined when it cannot be decoded. */
function decodeContent(content: PyValue, encoding: string): { text: string; encoded: boolean } | undefined {
  let bytes: Uint8Array;
  if (content instanceof PyBytes) bytes = content.bytes;
  else if (typeof content === 'string') {
    const steps = ['gz', 'gzip'].includes(encoding) ? ['gzip'] : ['gz+base64', 'gzip+base64', 'gz+b64', 'gzip+b64'].includes(encoding) ? ['base64', 'gzip'] : ['b64', 'base64'].includes(encoding) ? ['base64'] : [];
    if (!steps.length) return { text: content, encoded: false };
    bytes = new TextEncoder().encode(content);
    for (const step of steps) {
      try {
        if (step === 'base64') bytes = a2bBase64(bytes, false);
        else {
          const r = pyGunzip(bytes, { maxOutputBytes: 16 * 1024 * 1024 });
          if (!r.ok) return undefined;
          bytes = r.bytes;
        }
      } catch {
        return undefined;
      }
    }
  } else return undefined;
  return { text: new TextDecoder('utf-8', { fatal: false }).decode(bytes), encoded: true };
}

/** cc_write_files.decode_perms: an int as is, a string read as octal; undefined for the default. */
function permissionsOf(value: PyValue | undefined): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*(0o?)?[0-7]+\s*$/i.test(value)) return parseInt(value.trim().replace(/^0o/i, ''), 8);
  return undefined;
}

/** Whether the line that holds an offset carries the allow marker: each line read once, and only when the text has one. */
function allowMarkers(text: string): (offset: number) => boolean {
  if (!text.includes('allow-secret')) return () => false;
  const lines = new LineIndex(text);
  const marked = new Map<number, boolean>();
  return (offset) => {
    const line = lines.position(offset).line;
    let found = marked.get(line);
    if (found === undefined) {
      const end = line + 1 < lines.lineCount ? lines.lineStart(line + 1) : text.length;
      found = ALLOW_SECRET_MARKER.test(text.slice(lines.lineStart(line), end));
      marked.set(line, found);
    }
    return found;
  };
}

/** A match, cut at its first line break (a key's BEGIN line); looking no further than the match. */
function firstLineOfMatch(text: string, start: number, end: number): TextSpan {
  const newline = text.slice(start, end).indexOf('\n');
  return { start, end: newline < 0 ? end : start + newline };
}

function unquote(written: string): string {
  return /^'[^']*'$|^"[^"\\]*"$/.test(written) ? written.slice(1, -1) : written;
}

/** A multi-line value marked by its first line with content (a block scalar's indicator line and the next). */
function firstLineOf(span: TextSpan, text: string): TextSpan {
  let end = text.indexOf('\n', span.start);
  if (end < 0 || end >= span.end) return span;
  if (/^[|>][-+0-9]*\s*(#.*)?$/.test(text.slice(span.start, end).trim())) {
    const next = text.indexOf('\n', end + 1);
    end = next < 0 || next > span.end ? span.end : next;
  }
  return { start: span.start, end };
}

/** Where cloud-init writes a script part and a boothook (handlers/shell_script.py, boot_hook.py: mode 0700). */
const SCRIPT_PART: Reader = { text: 'root, in the copy cloud-init writes under /var/lib/cloud/instance/ (scripts/ or boothooks/, mode 0700)', source: 'cloudinit/handlers/shell_script.py and boot_hook.py: write_file(..., 0o700)' };

/**
 * Keys and credentials in a part that is not a cloud-config (a shell script, a boothook, a part cloud-init
 * keeps as it is): spans relative to `text`, shifted by `base`.
 */
export function partSecretFindings(text: string, base: number, label: string, options: SecretOptions = {}): Finding[] {
  const findings: Finding[] = [];
  const markedAt = allowMarkers(text);
  for (const t of options.tokens ?? findTokens(text)) {
    if (markedAt(t.start)) continue;
    const inText = firstLineOfMatch(text, t.start, t.end);
    const span = { start: base + inText.start, end: base + inText.end };
    findings.push(tokenFinding(t, label, span, exposureSentence(options.cloud, [SCRIPT_PART])));
  }
  return asSeverity(findings, options);
}

/** The findings as errors when asked (every secret code lists error as its other severity). */
function asSeverity(findings: Finding[], options: SecretOptions): Finding[] {
  return options.asErrors ? findings.map((f) => ({ ...f, severity: 'error' })) : findings;
}
