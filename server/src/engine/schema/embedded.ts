/**
 * The cloud-config texts a document carries inside it, as cloud-init will read them: each
 * `text/cloud-config` part of a MIME multipart, and each cloud-config entry of a `#cloud-config-archive`
 * (a whole document, or a MIME part). Each comes with how a position in that text maps back to the
 * document, for diagnostics and `--check` lines.
 *
 * Mapped: a MIME part whose body is written as is (MimeLeaf.literal: not changed by base64 or quoted-printable), and an archive entry whose
 * content is a literal block scalar (`content: |`) or a one-line scalar written without escapes. Not
 * mapped (reported on the part's or entry's first line, saying why): base64 and quoted-printable bodies,
 * gzip parts, folded (`>`) and multi-line quoted contents, contents with escapes.
 * An archive entry counts as cloud-config when its `type` says `text/cloud-config`, or, without a type,
 * when its content starts with `#cloud-config` (cloud-init's sniffing, whose fallback for text is
 * cloud-config too).
 */
import { loadYaml } from '../yaml/load';
import { convertUserDataBlob, partHeaderSpan, type ConvertedBlob, type MimeLeaf } from '../userdata/mime';
import { ARCHIVE_TYPE, CLOUD_CONFIG_TYPE, leafPartType, sniffContentType } from '../userdata/sniff';
import { pyStrip } from '../py/str';
import { pyContentType } from '../userdata/process';
import { getListOrigins, PyDict, type TextSpan } from '../py/values';
import { valueOffsetMap } from '../yaml/scalarSource';

export interface EmbeddedCloudConfig {
  kind: 'mime-part' | 'archive-entry';
  /** Which part or entry, in the user's words (`MIME part 2 (web.yaml)`, `archive entry 1`). */
  label: string;
  /** The cloud-config text cloud-init reads for it. */
  text: string;
  /** The document offset of an offset in `text`, or undefined where it cannot be told. */
  toDocument(offset: number): number | undefined;
  /** Where in the document to report what cannot be mapped (the part's or entry's start). */
  anchor: TextSpan;
  /** Why positions inside are not mapped, when they are not. */
  unmapped?: string;
}

/** The cloud-config parts of a MIME document and of the archives in it, in cloud-init's order. */
export function embeddedInMime(text: string, blob: ConvertedBlob = convertUserDataBlob(new TextEncoder().encode(text))): EmbeddedCloudConfig[] {
  if (blob.error) return [];
  const out: EmbeddedCloudConfig[] = [];
  let number = 0;
  for (const leaf of blob.leaves) {
    if (leaf.container) continue;
    number++;
    const label = mimePartLabel(number, leaf);
    const type = leafPartType(leaf);
    if (type !== CLOUD_CONFIG_TYPE && type !== ARCHIVE_TYPE) continue;
    if (leaf.text === null) continue;
    const anchor = partHeaderSpan(leaf);
    const base = leaf.literal ? leaf.span!.start : undefined;
    const body = leaf.literal ? text.slice(leaf.span!.start, leaf.span!.end) : leaf.text;
    const why = leaf.literal ? undefined : encodedBodyWords(leaf);
    if (type === CLOUD_CONFIG_TYPE) {
      out.push({ kind: 'mime-part', label, text: body, anchor, toDocument: (o) => (base === undefined ? undefined : base + o), unmapped: why });
    } else {
      for (const entry of embeddedInArchive(body)) {
        out.push({
          ...entry,
          label: `${label}, ${entry.label}`,
          anchor: base === undefined ? anchor : shift(entry.anchor, base),
          toDocument: (o) => (base === undefined ? undefined : mapOr(entry.toDocument(o), base)),
          unmapped: why ?? entry.unmapped,
        });
      }
    }
  }
  return out;
}

/** The cloud-config entries of a `#cloud-config-archive` text (offsets in that text). */
export function embeddedInArchive(text: string): EmbeddedCloudConfig[] {
  const loaded = loadYaml(text);
  if (!loaded.ok || !Array.isArray(loaded.value)) return [];
  const origins = getListOrigins(loaded.value);
  const out: EmbeddedCloudConfig[] = [];
  loaded.value.forEach((raw, i) => {
    const itemSpan = origins?.[i]?.value;
    const entry = typeof raw === 'string' ? null : raw;
    if (entry !== null && !(entry instanceof PyDict)) return;
    const content = entry ? entry.get('content') : raw;
    if (typeof content !== 'string') return;
    const declared = entry?.get('type');
    const type = declared ? (typeof declared === 'string' ? pyContentType(declared) : null) : sniffContentType(content, CLOUD_CONFIG_TYPE);
    if (type !== CLOUD_CONFIG_TYPE) return;
    const span = entry ? entry.originOf('content')?.value : itemSpan;
    const anchor = entry?.originOf('content')?.key ?? span ?? itemSpan ?? { start: 0, end: 0 };
    const label = `archive entry ${i + 1}`;
    const mapping = span ? valueOffsetMap(text, span, content) : undefined;
    out.push({
      kind: 'archive-entry',
      label,
      text: content,
      anchor: { start: anchor.start, end: anchor.end },
      toDocument: (o) => mapping?.(o),
      unmapped: mapping ? undefined : 'its content is not a literal block (`content: |`) or a one-line scalar without escapes',
    });
  });
  return out;
}

/** A MIME part in the user's words: `MIME part 2 (web.yaml)`, numbered from 1 in cloud-init's order, multiparts not counted. */
export function mimePartLabel(number: number, leaf: Pick<MimeLeaf, 'filename'>): string {
  return `MIME part ${number}${leaf.filename ? ` (${leaf.filename})` : ''}`;
}

/** Why positions in a part's decoded text are not positions in the file (MimeLeaf.literal is false). */
export function encodedBodyWords(leaf: MimeLeaf): string {
  const encoding = pyStrip(leaf.transferEncoding ?? '');
  // 7bit, 8bit and binary say the body is not encoded (RFC 2045): then it is the characters that are not ASCII.
  if (encoding && !/^(7bit|8bit|binary)$/i.test(encoding)) return `its body is ${encoding}-encoded`;
  return "its body is not ASCII and has no base64 or quoted-printable encoding, so cloud-init reads it changed (as Python's email package does)";
}

function shift(span: TextSpan, base: number): TextSpan {
  return { start: span.start + base, end: span.end + base };
}

function mapOr(offset: number | undefined, base: number): number | undefined {
  return offset === undefined ? undefined : offset + base;
}
