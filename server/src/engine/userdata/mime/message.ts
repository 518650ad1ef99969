/**
 * The message model the feed parser builds: `email.message.Message` under the compat32 policy
 * (Lib/email/message.py, Lib/email/_policybase.py): headers as compat32 returns them (not unfolded:
 * continuation line breaks stay, only the trailing line break is removed), the default type
 * (message/rfc822 inside multipart/digest), `get_filename()` / `get_boundary()` with their repeated
 * unquoting, and `get_payload(decode=True)` (non-ASCII payload text turned into bytes with
 * raw-unicode-escape; base64, quoted-printable, x-uuencode; the CTE header value compared after
 * lower-casing only). Parts also carry their source positions, which Python's do not.
 *
 * Residual difference: the text of a TypeError may differ from Python's (the type is exact).
 */
import { PyError } from '../../py/errors';
import { pyStrip, pyRStrip as pyRstrip } from '../../py/str';
import { a2bQp } from '../../py/binascii';
import { pushAll } from '../../arrays';
import { bytesFromLatin1, rawUnicodeEscape } from '../../py/codecs';
import { decodeB, decodeUu } from './encodings';
import { ParamValue, collapseRfc2231, paramsPreserve, pyUnquote } from './headers';
import { isAscii, pyLower } from './strings';
export interface PHeader {
  name: string;
  value: string;
  start: number;
  end: number;
  valueStart: number;
}

export class PMsg {
  headers: PHeader[] = [];
  payload: string | PMsg[] | null = null;
  /** Offset of `payload` (a string) in the source when it is a literal slice; -1 otherwise. */
  payloadOff = -1;
  preamble: string | null = null;
  epilogue: string | null = null;
  defects: string[] = [];
  defaultType = 'text/plain';
  unixfrom: string | null = null;
  private ctypeCache: string | undefined;

  get(name: string): string | undefined {
    const l = name.toLowerCase();
    for (const h of this.headers) if (h.name.toLowerCase() === l) return h.value;
    return undefined;
  }

  isMultipart(): boolean {
    return Array.isArray(this.payload);
  }

  attach(m: PMsg): void {
    if (this.payload === null) this.payload = [m];
    else if (Array.isArray(this.payload)) this.payload.push(m);
    else throw new PyError('TypeError', 'Attach is not valid on a message with a non-multipart payload');
  }

  getContentType(): string {
    if (this.ctypeCache !== undefined) return this.ctypeCache;
    const value = this.get('content-type');
    if (value === undefined) return this.defaultType;
    const semi = value.indexOf(';');
    const ctype = pyLower(pyStrip(semi < 0 ? value : value.slice(0, semi)));
    // RFC 2045: an invalid value means text/plain
    return ctype.split('/').length - 1 !== 1 ? 'text/plain' : ctype;
  }

  /** Called once the headers are parsed: they and the default type no longer change. */
  freezeContentType(): void {
    this.ctypeCache = this.getContentType();
  }

  getMaintype(): string {
    return this.getContentType().split('/')[0];
  }

  /** Message.get_param(param, missing, header); undefined = missing. */
  getParam(param: string, header: string): ParamValue | undefined {
    const value = this.get(header);
    if (value === undefined) return undefined;
    const lp = pyLower(param);
    for (const [k, v] of paramsPreserve(value)) {
      if (pyLower(k) === lp) return typeof v === 'string' ? pyUnquote(v) : { ...v, text: pyUnquote(v.text) };
    }
    return undefined;
  }

  getBoundary(): string | null {
    const b = this.getParam('boundary', 'content-type');
    if (b === undefined) return null;
    return pyRstrip(collapseRfc2231(b));
  }

  getFilename(): string | null {
    let f = this.getParam('filename', 'content-disposition');
    if (f === undefined) f = this.getParam('name', 'content-type');
    if (f === undefined) return null;
    return pyStrip(collapseRfc2231(f));
  }

  /** get_payload(decode=True); null for multipart payloads. */
  getDecodedPayload(): Uint8Array | null {
    const payload = this.payload;
    if (Array.isArray(payload)) return null;
    if (payload === null) return null;
    const cte = pyLower(this.get('content-transfer-encoding') ?? '');
    const bpayload = isAscii(payload) ? bytesFromLatin1(payload) : rawUnicodeEscape(payload);
    if (cte === 'quoted-printable') return a2bQp(bpayload);
    if (cte === 'base64') {
      const joined = bpayload.filter((c) => c !== 0x0a && c !== 0x0d);
      const r = decodeB(joined);
      pushAll(this.defects, r.defects);
      return r.value;
    }
    if (cte === 'x-uuencode' || cte === 'uuencode' || cte === 'uue' || cte === 'x-uue') {
      try {
        return decodeUu(bpayload);
      } catch {
        return bpayload;
      }
    }
    return bpayload;
  }
}
