/**
 * What delivering the user-data to a cloud comes to (engine/delivery), in words: its size as the cloud
 * counts it against the cloud's documented limit, what gzip would save, and base64 text cloud-init will
 * not decode. The same lines in the preview's header (`deliverySection`) and in `--check`'s text.
 */
import type { DeliveryNotMeasured, DeliveryReport, DoubleEncoding } from '../delivery/delivery';
import type { HeaderWriter } from './header';

const n = (x: number) => x.toLocaleString('en-US');

const DOUBLE: Record<DoubleEncoding, string> = {
  'base64-of-user-data': 'base64 text of user-data',
  'base64-of-gzip': 'base64 text of gzip-compressed user-data',
  'base64-of-base64': 'base64 text of base64 text',
};

/** The lines (without comment marks): the first one the verdict, the others what to know about it. */
export function deliveryLines(r: DeliveryReport | DeliveryNotMeasured): string[] {
  if ('error' in r) return [`Delivery to ${r.limit.title}: not measured: ${r.error}`];
  const { limit, size } = r;
  const counted = limit.counted === 'base64' ? `its base64 text: ${n(size.counted)} characters for ${n(size.raw)} bytes` : `${n(size.raw)} bytes`;
  const how = limit.counted === 'base64' ? 'counted on the base64 text' : 'counted before base64';
  const verdict = r.over ? `OVER the limit of ${n(limit.bytes)} by ${n(size.counted - limit.bytes)}` : `within the limit of ${n(limit.bytes)} (${Math.round((size.counted / limit.bytes) * 100)}%)`;
  const lines = [`Delivery to ${limit.title}: ${r.what} is ${counted}, ${verdict} (${how}; ${limit.source}${limit.verified.startsWith('verified') ? '' : `, ${limit.verified.split(':')[0]}`})`];
  if (r.gzip) {
    const gz = limit.counted === 'base64' ? `${n(r.gzip.counted)} characters of base64` : `${n(r.gzip.raw)} bytes`;
    if (r.gzip.raw >= size.raw) lines.push(`gzip -9 would not make it smaller (${gz})`);
    else lines.push(`gzip -9 would make it ${gz} (${Math.round((1 - r.gzip.raw / size.raw) * 100)}% less), ${r.gzip.fits ? 'within' : 'still over'} the limit; cloud-init gunzips user-data itself`);
  }
  if (r.doubleEncoded) {
    lines.push(
      `${r.what} is ${DOUBLE[r.doubleEncoded]}: cloud-init does not decode base64, so given as it is (the API or your tool base64-encodes it once more) cloud-init logs "Unhandled non-multipart (text/x-not-multipart) userdata" and uses none of it; give the decoded bytes, or pass this text where the API takes base64 as it is (Terraform's user_data_base64)`,
    );
  }
  if (limit.note) lines.push(`Note: ${limit.note}`);
  return lines;
}

/** The preview header's delivery lines. */
export function deliverySection(w: HeaderWriter, r: DeliveryReport | DeliveryNotMeasured): void {
  deliveryLines(r).forEach((line, i) => w.add(i ? `#   ${line}` : `# ${line}`));
}
