/**
 * The merge specs of a MIME document's parts whose bodies are encoded (base64, quoted-printable: a MIME
 * that Build MIME or `make-mime` wrote): the document's own analysis cannot place them, so each part's
 * decoded text is analysed by itself, for the language status to say which spec each part carries.
 */
import { analyzeDocument } from '../../engine/lint/analyzeDocument';
import { embeddedInMime } from '../../engine/schema/embedded';
import type { CloudInitVersion } from '../../engine/version/versions';
import { summarizeSite } from './specSummary';

export interface EncodedPartSpec {
  /** `MIME part 2 (web.yaml): list(append)+dict(recurse_array)+str()` */
  line: string;
  spec: string | null;
}

/** The specs the encoded cloud-config parts of `text` carry, in cloud-init's order (at most `max`). */
export function encodedPartSpecs(text: string, version: CloudInitVersion, max: number): EncodedPartSpec[] {
  const out: EncodedPartSpec[] = [];
  for (const part of embeddedInMime(text)) {
    if (!part.unmapped || part.kind !== 'mime-part') continue;
    const analysis = analyzeDocument(part.text, 'part', { version });
    for (const site of analysis.specs.filter((s) => s.used)) {
      if (out.length === max) return out;
      const spec = summarizeSite(analysis, site, version).spec;
      out.push({ line: `${part.label}, ${site.headerName ?? site.source}: ${spec ?? 'rejected by cloud-init'}`, spec });
    }
  }
  return out;
}
