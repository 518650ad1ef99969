/** The parts that user-data processing yields, with everything provenance needs. */
import { TextSpan } from '../py/values';
import type { FindingCode } from '../findings/codes';

/** How a part was reached from an input blob. */
export type PartRoute =
  | { via: 'blob' }
  | { via: 'mime'; leaf: number }
  | { via: 'gzip' }
  | { via: 'include'; url: string; once: boolean }
  | { via: 'archive'; entry: number };

export interface UserDataPart {
  /** 1-based position among the attached parts (what `part-NNN` counts). */
  number: number;
  /** Content type after sniffing (what selects the handler). */
  contentType: string;
  /** The type the part declared before sniffing, when different. */
  declaredType: string | null;
  /** File name as the handlers see it (`part-NNN` when none was given). */
  filename: string;
  /** The part's headers in order, after cloud-init's edits. */
  headers: Array<{ name: string; value: string }>;
  /** What the handler receives as `headers`: Python's `dict(part)`. */
  headerDict: Record<string, string>;
  /** The decoded payload for text parts (undecodable bytes as lone surrogates), else null. */
  text: string | null;
  /** The payload bytes for non-text parts. */
  bytes: Uint8Array | null;
  /** Index of the input blob (file) it came from. */
  blob: number;
  /** Chain of steps from the blob to this part. */
  route: PartRoute[];
  /**
   * Where `text` lies in the blob's own text, when it is a literal slice of it
   * (so positions in the part map to positions in the file).
   */
  span?: TextSpan;
  /**
   * Where each offset of `text` lies in the blob's own text, when `text` is not one slice of it but
   * can still be placed: an archive entry's `content: |` (its lines, after the block's indentation).
   */
  offsetInBlob?: (offset: number) => number | undefined;
  /**
   * Where the blob's text stands for the part when its `text` was decoded from the body (base64,
   * quoted-printable): its Content-Type header (mime.ts partHeaderSpan).
   */
  anchor?: TextSpan;
  /** The `Launch-Index` the filter sees, when any. */
  launchIndex: string | null;
}

/** Something cloud-init logs while processing, with where it applies. */
export interface ProcessingMessage {
  level: 'warning' | 'error' | 'info';
  message: string;
  blob?: number;
  part?: number;
  span?: TextSpan;
  /** Stable identifier for tools (diagnostic codes, tests), from lint/codes.ts. */
  code: FindingCode;
}
