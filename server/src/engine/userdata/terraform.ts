/**
 * User-data as Terraform's (and Pulumi's) cloudinit provider builds it, read
 * back from what those tools save: `terraform show -json` of a plan or a
 * state, `pulumi stack export`, or a `rendered` value saved on its own.
 *
 * The provider's rendering, reproduced from its documented behaviour and its
 * output (hashicorp/terraform-provider-cloudinit, `cloudinit_config` data
 * source and resource): a first line `Content-Type: multipart/mixed;
 * boundary="B"` ending in LF, then `MIME-Version: 1.0` and a blank line ending
 * in CRLF; each part written by Go's `mime/multipart` writer (`--B` lines,
 * CRLF line breaks, header names in Go's canonical case and sorted:
 * `Content-Disposition` when a filename is set, `Content-Transfer-Encoding:
 * 7bit`, `Content-Type` (default `text/plain`), `Mime-Version: 1.0`,
 * `X-Merge-Type` when a merge_type is set), the content as is, then `--B--`.
 * `gzip` (default true) compresses the whole text and `base64_encode`
 * (default true) encodes the result; the boundary defaults to `MIMEBOUNDARY`.
 *
 * The blob cloud-init receives is `rendered` after base64 decoding (clouds
 * decode `user_data_base64`); cloud-init itself gunzips it.
 */

/** Loaded when a gzip-encoded block is met (start-up need not pay for node:zlib). */
const gzipSync = (): typeof import('node:zlib').gzipSync => (require('node:zlib') as typeof import('node:zlib')).gzipSync;

export interface TerraformPart {
  contentType: string | null;
  /** null when not known (a plan whose value is computed at apply). */
  content: string | null;
  filename: string | null;
  mergeType: string | null;
}

export interface TerraformConfig {
  /** `data.cloudinit_config.web`, `module.vm.cloudinit_config.x`, or a Pulumi URN. */
  address: string;
  parts: TerraformPart[];
  gzip: boolean;
  base64Encode: boolean;
  boundary: string;
  /** The provider's output, when known. */
  rendered: string | null;
}

export class TerraformInputError extends Error {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isObject = (v: unknown): v is { [key: string]: Json } => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A JSON text that `terraform show -json` or `pulumi stack export` wrote? (cheap, for the editor) */
export function looksLikeTerraformJson(text: string): boolean {
  const head = text.slice(0, 4096);
  return /^\s*\{/.test(head) && (/"(format_version|terraform_version|planned_values|prior_state|root_module)"\s*:/.test(head) || /"deployment"\s*:/.test(head) || /cloudinit_config|cloudinit:index\/config/.test(text));
}

/** Every cloudinit_config in a `terraform show -json` (plan or state) or `pulumi stack export` text, in document order. */
export function readTerraformJson(text: string): TerraformConfig[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new TerraformInputError(`not JSON: ${(e as Error).message}`);
  }
  if (!isObject(doc)) throw new TerraformInputError('not the JSON of `terraform show -json` or `pulumi stack export` (not an object)');
  const found = new Map<string, TerraformConfig>();
  const add = (address: string, values: unknown, camel = false) => {
    if (found.has(address) || !isObject(values)) return;
    found.set(address, configFrom(address, values, camel));
  };
  // Modules in document order, without recursion (a hostile file can nest child_modules deeply).
  const walkModule = (root: unknown) => {
    const stack: unknown[] = [root];
    while (stack.length) {
      const module = stack.pop();
      if (!isObject(module)) continue;
      for (const r of Array.isArray(module.resources) ? module.resources : []) {
        if (isObject(r) && r.type === 'cloudinit_config' && typeof r.address === 'string') add(r.address, r.values);
      }
      const children = Array.isArray(module.child_modules) ? module.child_modules : [];
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    }
  };
  // A plan: planned values first, then changes not yet in them, then the prior state; a state: its values.
  const planned = doc.planned_values;
  if (isObject(planned)) walkModule(planned.root_module);
  for (const change of Array.isArray(doc.resource_changes) ? doc.resource_changes : []) {
    if (isObject(change) && change.type === 'cloudinit_config' && typeof change.address === 'string' && isObject(change.change)) add(change.address, change.change.after);
  }
  const prior = doc.prior_state;
  if (isObject(prior) && isObject(prior.values)) walkModule(prior.values.root_module);
  if (isObject(doc.values)) walkModule(doc.values.root_module);
  // pulumi stack export: resources of type cloudinit:index/config:Config, inputs and outputs in camelCase.
  const deployment = doc.deployment;
  if (isObject(deployment)) {
    for (const r of Array.isArray(deployment.resources) ? deployment.resources : []) {
      if (isObject(r) && r.type === 'cloudinit:index/config:Config' && typeof r.urn === 'string') {
        add(r.urn, { ...(isObject(r.inputs) ? r.inputs : {}), ...(isObject(r.outputs) ? r.outputs : {}) }, true);
      }
    }
  }
  if (!found.size && !('format_version' in doc) && !isObject(deployment)) {
    throw new TerraformInputError('not the JSON of `terraform show -json` (no format_version) or `pulumi stack export` (no deployment)');
  }
  return [...found.values()];
}

function configFrom(address: string, v: { [key: string]: Json }, camel: boolean): TerraformConfig {
  const key = (snake: string, camelName: string) => v[camel ? camelName : snake];
  const partsValue = v[camel ? 'parts' : 'part'];
  const parts = (Array.isArray(partsValue) ? partsValue : []).filter(isObject).map((p) => ({
    contentType: str(p[camel ? 'contentType' : 'content_type']),
    content: str(p.content),
    filename: str(p.filename),
    mergeType: str(p[camel ? 'mergeType' : 'merge_type']),
  }));
  const bool = (value: Json | undefined) => (typeof value === 'boolean' ? value : true);
  return {
    address,
    parts,
    gzip: bool(key('gzip', 'gzip')),
    base64Encode: bool(key('base64_encode', 'base64Encode')),
    boundary: str(key('boundary', 'boundary')) || 'MIMEBOUNDARY',
    rendered: str(key('rendered', 'rendered')),
  };
}

const GO_BOUNDARY = /^[A-Za-z0-9'()+_,\-./:=? ]{0,69}[A-Za-z0-9'()+_,\-./:=?]$/;

/** Go's `textproto.CanonicalMIMEHeaderKey` for the names the provider writes. */
function goHeaderLines(part: TerraformPart): string[] {
  const headers: Array<[string, string]> = [
    ['Content-Type', part.contentType || 'text/plain'],
    ['Mime-Version', '1.0'],
    ['Content-Transfer-Encoding', '7bit'],
  ];
  if (part.filename) headers.push(['Content-Disposition', `attachment; filename="${part.filename}"`]);
  if (part.mergeType) headers.push(['X-Merge-Type', part.mergeType]);
  headers.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return headers.map(([k, v]) => `${k}: ${v}\r\n`);
}

/** The MIME text the provider writes for these parts, before gzip and base64. */
export function renderLikeTerraform(parts: readonly TerraformPart[], boundary = 'MIMEBOUNDARY'): string {
  if (!GO_BOUNDARY.test(boundary)) throw new TerraformInputError(`boundary '${boundary}' is refused by the provider (Go's multipart writer: 1 to 70 letters, digits or '()+_,-./:=? )`);
  let out = `Content-Type: multipart/mixed; boundary="${boundary}"\nMIME-Version: 1.0\r\n\r\n`;
  parts.forEach((p, i) => {
    if (p.content === null) throw new TerraformInputError(`part ${i + 1}: its content is not known (computed at apply)`);
    out += `${i ? '\r\n' : ''}--${boundary}\r\n${goHeaderLines(p).join('')}\r\n${p.content}`;
  });
  return out + `\r\n--${boundary}--\r\n`;
}

/** gzip and base64 as the provider's `gzip` and `base64_encode` do (gzip without base64 is refused there too). */
export function wrapLikeTerraform(bytes: Uint8Array, options: { gzip: boolean; base64: boolean }): string | Uint8Array {
  const data = options.gzip ? new Uint8Array(gzipSync()(bytes)) : bytes;
  return options.base64 ? Buffer.from(data).toString('base64') : data;
}

/**
 * The bytes an instance receives for a saved `rendered` value: base64 text (the
 * whole file, line breaks allowed) is decoded; anything else (gzip, MIME,
 * #cloud-config) is already what cloud-init reads.
 */
export function unwrapRendered(bytes: Uint8Array): { bytes: Uint8Array; base64: boolean } {
  if (bytes.length && bytes.length < 512 * 1024 * 1024) {
    const text = Buffer.from(bytes).toString('latin1').replace(/[\r\n\t ]+/g, '');
    if (text.length >= 4 && text.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(text)) {
      return { bytes: new Uint8Array(Buffer.from(text, 'base64')), base64: true };
    }
  }
  return { bytes, base64: false };
}

/** What the instance receives for one config: its `rendered` value when known, else the parts rendered as the provider would. */
export function terraformUserData(config: TerraformConfig): { bytes: Uint8Array; origin: 'rendered' | 'parts' } {
  if (config.rendered !== null) {
    const raw = new TextEncoder().encode(config.rendered);
    return { bytes: config.base64Encode ? unwrapRendered(raw).bytes : raw, origin: 'rendered' };
  }
  if (!config.parts.length) throw new TerraformInputError(`${config.address}: no part and no rendered value`);
  const text = new TextEncoder().encode(renderLikeTerraform(config.parts, config.boundary));
  return { bytes: config.gzip ? new Uint8Array(gzipSync()(text)) : text, origin: 'parts' };
}

/* ------------------------------------------------------------------ findings */
