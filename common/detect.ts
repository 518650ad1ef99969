/**
 * Which files are cloud-init input, and as what, decided from the path and the start of the text
 * the way cloud-init decides. One function answers the VS Code client (when to start the language
 * server, the status item, which files a preview offers) and the server (which documents it
 * analyses, and how), so the two cannot disagree.
 *
 * - `cloud.cfg` and `cloud.cfg.d/*.cfg` are system configuration, found by their path (read_conf).
 * - User-data is MIME when `mime-version:` occurs in its first 4096 bytes, in any ASCII case
 *   (`convert_string`).
 * - Otherwise its type comes from how the text starts (`type_from_starts_with`): lower-cased, after
 *   Python's `lstrip()`. Blank lines, indentation, CRLF and any letter case before or in the header
 *   are fine (`\n  #Cloud-Config` is a cloud-config); a byte-order mark is not whitespace for
 *   Python, so `\ufeff#cloud-config` announces nothing and cloud-init ignores the whole blob. The
 *   prefixes are prefixes: `#cloud-configX` is a cloud-config too.
 * - A Chef role or environment is JSON with attribute and type keys.
 * - A file named exactly `meta-data` is a NoCloud seed's meta-data (its name is what NoCloud looks for).
 * - A network config is found by its name (`network-config`) or its content; a `.cfg` holding one is a
 *   drop-in wherever it lies (`network: {config: disabled}`, curtin's networking drop-in).
 *
 * Cheap: apart from the Chef check on JSON files, only the start of the text is read
 * (DETECTION_HEAD_CHARS characters, or on to the first that is not whitespace).
 */
import { pyLStripIndex } from './pyWhitespace';

export type DocumentKind = 'cloud-config' | 'cloud-config-archive' | 'cloud-config-jsonp' | 'jinja' | 'mime' | 'include' | 'confd' | 'cloud-cfg' | 'chef' | 'meta-data' | 'network-config' | 'autoinstall';

export interface DetectedDocument {
  kind: DocumentKind;
  /** For a Jinja template: what its text after the header line announces (a guess from the unrendered text). */
  renderedKind?: 'cloud-config' | 'cloud-config-archive';
}

export const JINJA_CONTENT_TYPE = 'text/jinja2';

/** `type_from_starts_with`'s prefixes (INCLUSION_TYPES_MAP) and the content types they announce. */
export const CONTENT_TYPES_BY_PREFIX: ReadonlyArray<readonly [string, string]> = [
  ['#include', 'text/x-include-url'],
  ['#include-once', 'text/x-include-once-url'],
  ['#!', 'text/x-shellscript'],
  ['#cloud-config', 'text/cloud-config'],
  ['#part-handler', 'text/part-handler'],
  ['#cloud-boothook', 'text/cloud-boothook'],
  ['#cloud-config-archive', 'text/cloud-config-archive'],
  ['#cloud-config-jsonp', 'text/cloud-config-jsonp'],
  ['## template: jinja', JINJA_CONTENT_TYPE],
  ['text/x-shellscript-per-boot', 'text/x-shellscript-per-boot'],
  ['text/x-shellscript-per-instance', 'text/x-shellscript-per-instance'],
  ['text/x-shellscript-per-once', 'text/x-shellscript-per-once'],
];

/** Longest prefixes first, so `#cloud-config-archive` is not taken for `#cloud-config` (INCLUSION_SRCH). */
const SEARCH_ORDER = [...CONTENT_TYPES_BY_PREFIX].sort((a, b) => b[0].length - a[0].length);
const LONGEST_PREFIX = SEARCH_ORDER[0][0].length;

/**
 * `type_from_starts_with` on decoded text (from offset `from`): the content type its start
 * announces, or null. Python lower-cases the whole text, then lstrips it; here only the few
 * characters a prefix can cover are lower-cased, after the whitespace (no character lower-cases
 * into or out of whitespace, so the order does not matter).
 */
export function typeFromStartsWith(text: string, from = 0): string | null {
  const start = pyLStripIndex(text, from);
  const head = text.slice(start, start + LONGEST_PREFIX).toLowerCase();
  for (const [prefix, type] of SEARCH_ORDER) if (head.startsWith(prefix)) return type;
  return null;
}

/** How many bytes `convert_string` searches for `mime-version:`. */
export const MIME_SNIFF_BYTES = 4096;
const MIME_VERSION = Uint8Array.from('mime-version:', (ch) => ch.charCodeAt(0));

/** `convert_string`'s test on the raw (gunzipped) bytes: `b"mime-version:" in data[0:4096].lower()`. */
export function hasMimeVersion(b: Uint8Array): boolean {
  const last = Math.min(b.length, MIME_SNIFF_BYTES) - MIME_VERSION.length;
  for (let i = 0; i <= last; i++) {
    // Most bytes are not an m or M: one test each (every part of every run is sniffed).
    if ((b[i] | 0x20) !== 0x6d) continue;
    let k = 1;
    for (; k < MIME_VERSION.length; k++) {
      let c = b[i + k];
      if (c >= 0x41 && c <= 0x5a) c += 0x20;
      if (c !== MIME_VERSION[k]) break;
    }
    if (k === MIME_VERSION.length) return true;
  }
  return false;
}

/** The same test on text, as its UTF-8 bytes (4096 characters are at least 4096 bytes). */
function textHasMimeVersion(text: string): boolean {
  return hasMimeVersion(new TextEncoder().encode(text.slice(0, MIME_SNIFF_BYTES)));
}

/** `cloud.cfg.d/NAME.cfg` or `cloud.cfg`, for a file-system path or a URI path (either slash). */
export function systemFileKind(path: string): 'confd' | 'cloud-cfg' | null {
  const normalized = path.replace(/\\/g, '/');
  if (/(^|\/)cloud\.cfg\.d\/[^/]+\.cfg$/.test(normalized)) return 'confd';
  if (/(^|\/)cloud\.cfg$/.test(normalized)) return 'cloud-cfg';
  return null;
}

/** `autoinstall.yaml`, the name Ubuntu's installer (Subiquity) looks for on the install media. */
export function isAutoinstallFileName(path: string): boolean {
  return /(^|[\\/])autoinstall\.yaml$/.test(path);
}

/** JSON documents are only ever Chef files here, and the Chef check reads their whole text. */
export function isJsonDocument(path: string, languageId: string): boolean {
  return languageId === 'json' || /\.json$/i.test(path);
}

/** A Chef role or environment file: a JSON object with default/override attributes and a Chef type. */
export function looksLikeChefJson(text: string): boolean {
  return /^\s*\{/.test(text) && /"(default_attributes|override_attributes)"\s*:/.test(text) && /"(chef_type|json_class)"\s*:/.test(text);
}

/** How much of a text detection reads (besides JSON files): this many characters, or more (`detectionHeadEnd`). */
export const DETECTION_HEAD_CHARS = MIME_SNIFF_BYTES;

/**
 * For a prefix `head` of a text (its first DETECTION_HEAD_CHARS characters, or all of it): the
 * offset up to which detection reads, or null when `head` holds only whitespace where detection
 * needs more. A caller holding part of a large text passes it on when the offset is within `head`,
 * and reads the whole text otherwise (only whitespace-heavy starts need that).
 */
export function detectionHeadEnd(head: string): number | null {
  const start = pyLStripIndex(head);
  if (start === head.length) return null;
  if (typeFromStartsWith(head, start) !== JINJA_CONTENT_TYPE) return start + LONGEST_PREFIX;
  // A Jinja template: the guess of its rendered kind reads past the header line, to the next content.
  const header = head.indexOf('\n', start);
  if (header < 0) return null;
  const next = pyLStripIndex(head, header + 1);
  return next === head.length ? null : next + LONGEST_PREFIX;
}

/**
 * The text detection reads, given `read(n)`: the text's first n characters, or all of it without
 * n. For an editor's document: its start only, unless that is not enough.
 */
export function detectionTextFrom(read: (chars?: number) => string): string {
  const head = read(DETECTION_HEAD_CHARS);
  if (head.length < DETECTION_HEAD_CHARS) return head;
  const end = detectionHeadEnd(head);
  return end !== null && end <= head.length ? head : read();
}

/**
 * A file's bytes as detection reads them: decoded as cloud-init decodes user-data (UTF-8, a
 * byte-order mark kept as a character), the start only unless more is needed.
 */
export function detectionTextOfBytes(bytes: Uint8Array): string {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // At most four bytes per character: this covers DETECTION_HEAD_CHARS characters.
  return detectionTextFrom((chars) => decoder.decode(chars === undefined ? bytes : bytes.subarray(0, 4 * chars)));
}

/** NoCloud's seed file names for network config (`network-config`, and the `.yaml`/`.yml` a user saves it as). */
export function isNetworkConfigName(path: string): boolean {
  return /(^|[/\\])network-config(\.ya?ml)?$/.test(path);
}

/** NoCloud's other seed files: one of them holding network config is still read as what its name says. */
const OTHER_SEED_NAME = /(^|[/\\])(user-data|vendor-data2?|meta-data)(\.[^/\\]*)?$/;

/** Top-level keys only a network config has (v1 `config:`, v2 device types). */
const NETWORK_KEYS = 'config|ethernets|bonds|bridges|vlans|wifis|tunnels|modems|vrfs';

/**
 * A network config by its content (a YAML text with no user-data header): a top-level `version: 1` or `2`
 * beside a network key, or a top-level `network:` holding one (or `network: {config: disabled}`).
 */
export function looksLikeNetworkConfig(text: string): boolean {
  if (/^version:[ \t]*[12][ \t]*(#.*)?\r?$/m.test(text) && new RegExp(`^(${NETWORK_KEYS}):`, 'm').test(text)) return true;
  return /^network:[ \t]*\{[^}]*\b(config|version)[ \t]*:/m.test(text) || new RegExp(`^network:[ \\t]*(#.*)?\\r?\\n(?:[ \\t]*(?:#.*)?\\r?\\n)*[ \\t]+(version|${NETWORK_KEYS}):`, 'm').test(text);
}

/**
 * What a document is for cloud-init, or null when it is none of ours. `text` is the whole text, or
 * for anything but JSON a prefix that covers DETECTION_HEAD_CHARS and `detectionHeadEnd`. `path` is
 * a file-system or URI path; `languageId` the editor's language of the document.
 */
export function detectCloudInitDocument(text: string, path: string, languageId = 'yaml'): DetectedDocument | null {
  const system = systemFileKind(path);
  if (system) return { kind: system };
  // A NoCloud seed's meta-data: found by its exact name (pathprefix2dict), whatever it holds.
  if (/(^|[\\/])meta-data$/.test(path)) return { kind: 'meta-data' };
  // Ubuntu's installer reads autoinstall.yaml from the install media by this name, as it is (not as user-data).
  if (isAutoinstallFileName(path)) return { kind: 'autoinstall' };
  if (isJsonDocument(path, languageId)) return looksLikeChefJson(text) ? { kind: 'chef' } : null;
  if (textHasMimeVersion(text)) return { kind: 'mime' };
  const type = typeFromStartsWith(text);
  if (type === null && !isNetworkConfigName(path) && looksLikeNetworkConfig(text)) {
    // A `.cfg` holding network config is a drop-in wherever it lies (curtin's `50-curtin-networking.cfg`,
    // the `network: {config: disabled}` file that turns networking off), saved before it is copied in.
    if (/\.cfg$/.test(path)) return { kind: 'confd' };
    // NoCloud's network-config by its content, when nothing announces user-data.
    // (a file named as another seed file is that file, whatever it holds: cloud-init reads it as such)
    if (!OTHER_SEED_NAME.test(path)) return { kind: 'network-config' };
  }
  if (type === null && isNetworkConfigName(path)) return { kind: 'network-config' };
  switch (type) {
    case 'text/cloud-config':
      return { kind: 'cloud-config' };
    case 'text/cloud-config-archive':
      return { kind: 'cloud-config-archive' };
    case 'text/cloud-config-jsonp':
      return { kind: 'cloud-config-jsonp' };
    case 'text/x-include-url':
    case 'text/x-include-once-url':
      return { kind: 'include' };
    case JINJA_CONTENT_TYPE: {
      // What the rendered part will announce, guessed from the unrendered text after the header line.
      const header = text.indexOf('\n', pyLStripIndex(text));
      const rendered = header < 0 ? null : typeFromStartsWith(text, header + 1);
      if (rendered === 'text/cloud-config') return { kind: 'jinja', renderedKind: 'cloud-config' };
      if (rendered === 'text/cloud-config-archive') return { kind: 'jinja', renderedKind: 'cloud-config-archive' };
      return null;
    }
    default:
      return null;
  }
}

/**
 * The editor language of a bare seed file (`user-data`, `vendor-data`, `vendor-data2`, no extension), which
 * the extension's filename association calls YAML, when its start says it is something else: a shell script
 * or boothook, a part handler (Python), a MIME multipart (plain text). Null: YAML is right (cloud-config,
 * archive, include list, Jinja template…) or the file is not a bare seed file. `text` as for detection.
 */
export function bareSeedLanguage(path: string, text: string): 'shellscript' | 'python' | 'plaintext' | null {
  if (!/(^|[\\/])(user-data|vendor-data2?)$/.test(path)) return null;
  if (textHasMimeVersion(text)) return 'plaintext';
  switch (typeFromStartsWith(text)) {
    case 'text/x-shellscript':
    case 'text/cloud-boothook':
      return 'shellscript';
    case 'text/part-handler':
      return 'python';
    default:
      return null;
  }
}

/** A document that holds several user-data parts, which cloud-init merges with each other: a run of its own even alone. */
export function isContainerKind(kind: string | undefined): boolean {
  return kind === 'mime' || kind === 'cloud-config-archive';
}
