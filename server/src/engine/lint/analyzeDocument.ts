/**
 * Everything the language server needs to know about one document: its
 * kind, the YAML as cloud-init loads it, where its merge specs are, and the
 * findings. Transport-free: features map this to LSP.
 */
import { PyDict, PyValue, TextSpan, getListOrigins } from '../py/values';
import { pyStrip } from '../py/str';
import { pyStr } from '../py/repr';
import { loadYaml, YamlLoadResult } from '../yaml/load';
import { CloudInitVersion, ParsedSpec, ValueSpans, parseStringSpec } from '../spec/parse';
import type { NetplanHost, NetplanVersion } from '../version/target';
import { dropInNetworkFindings, networkFindings } from './networkLint';
import { spansOfValue } from '../userdata/specSpans';
import { convertUserDataBlob, MimeLeaf, partHeaderSpan } from '../userdata/mime';
import { GZIP_TYPES, leafPartType, sniffContentType } from '../userdata/sniff';
import { gunzipPart } from '../userdata/gzip';
import { MergerFactory } from '../merge/construct';
import { DEFAULT_LIMITS, LimitExceededError } from '../limits';
import { LineIndex } from '../text/lineIndex';
import { DocumentInfo, DocumentKind, detectDocument } from './documentKind';
import { knockoutFindingsIn } from '../chef/deepMerge';
import { Finding, shownElsewhere } from '../findings/findings';
import { lintListSpec, lintStringSpec, SpecContext, SpecLintResult } from './specLint';
import { pushAll } from '../arrays';
import { embeddedSchemaFindings, newSchemaBudget, SchemaBudget, schemaFindingsOfBody, systemSchemaFindings } from './schemaLint';
import { embeddedInArchive, embeddedInMime, encodedBodyWords, mimePartLabel, type EmbeddedCloudConfig } from '../schema/embedded';
import { coded } from '../findings/codes';
import { literalTemplateFindings, templateFindings } from './templateLint';
import { NO_INSTANCE_DATA, type InstanceDataChoice } from '../template/instanceData';
import { metaDataFindings } from './metaDataLint';
import type { MetaDataReading } from '../seed/metaData';
import { partSecretFindings, secretFindings, type PlaintextPasswordSite } from '../secrets/secretFindings';
import { findTokens, type TokenMatch } from '../secrets/tokens';
import type { CloudName } from '../delivery/limits';
import type { SubiquitySnapshot } from '../version/target';
import { autoinstallOfText } from '../autoinstall/recognise';
import { autoinstallFindings } from '../autoinstall/findings';
import { autoinstallJson, unreadableAutoinstallJson, type AutoinstallJson } from '../autoinstall/report';
import { subiquityFacts } from '../autoinstall/facts';

/** A place where a merge spec is written. */
export interface SpecSite {
  source: 'merge_how' | 'merge_type' | 'Merge-Type' | 'X-Merge-Type' | 'header';
  /** The header name as written, for MIME headers. */
  headerName?: string;
  keySpan?: TextSpan;
  /** Span of the value (for a string: its content). */
  valueSpan: TextSpan;
  form: 'string' | 'list';
  /** The string-form text and its offset in the document. */
  text?: string;
  value: PyValue;
  spans?: ValueSpans;
  /** False for a `merge_type` that cloud-init does not read because `merge_how` is present. */
  used: boolean;
  lint?: SpecLintResult;
  /** In a MIME part: the spec cloud-init combines with this one (the header's with the body's). */
  companion?: SpecSite;
}

export interface DocumentAnalysis {
  info: DocumentInfo | null;
  findings: Finding[];
  specs: SpecSite[];
  /** The YAML of the document (or of the single cloud-config body for a MIME file). */
  yaml?: YamlLoadResult;
  /** Offset of `yaml`'s text in the document. */
  yamlBase?: number;
  mime?: { leaves: MimeLeaf[] };
  /** Plaintext passwords written in place in this document, for the quick fix that hashes them. */
  passwords?: PlaintextPasswordSite[];
  /** Subiquity's verdict when the document is an autoinstall config (`--check --format json` gives it per file). */
  autoinstall?: AutoinstallJson;
  /** A meta-data document: what NoCloud makes of it, or why that is not reproduced (a limit), for the hover. */
  metaData?: { reading: MetaDataReading } | { limit: string };
}

export interface AnalyzeOptions {
  languageId?: string;
  customMergers?: ReadonlyMap<string, MergerFactory>;
  /** Larger documents (in UTF-8 bytes) are not analysed (a finding names the limit). */
  maxBytes?: number;
  /** Deeper YAML nesting is not analysed (a finding names the limit). */
  maxDepth?: number;
  /** Which cloud-init's wording the messages quote (22.4.2 spells "identifer"), and whose schema validates. */
  version?: CloudInitVersion;
  /** Validate cloud-config documents against that cloud-init's schema (findings `schema-*`); default off. */
  schema?: boolean;
  /** How a host hands a v2 network-config on (engine/version/target.ts), for network-config documents; default `none`. */
  netplan?: NetplanHost;
  /** The netplan the image ships, whose parser answers on the api host (engine/version/target.ts); default: the default image's. */
  netplanVersion?: NetplanVersion;
  /** Instance data for `## template: jinja` documents: variables, rendering errors and post-render YAML are checked with it. */
  instanceData?: InstanceDataChoice;
  /**
   * Most schema problems looked for in the document (the editor's bound: it shows at most 1,000
   * diagnostics); past them a finding says the check stopped. Default: all of them.
   */
  maxSchemaProblems?: number;
  /** What the schema check may still spend (set by analyzeDocument: the parts of a MIME document share one budget). */
  schemaBudget?: SchemaBudget;
  /** Read the document as that NoCloud seed file, or as an autoinstall file, whatever its name and content (the CLI's `--type`). */
  kind?: 'meta-data' | 'network-config' | 'autoinstall';
  /** The Subiquity whose verdict autoinstall configs get (the image's); default the default image's (24.04); null: none (an image without it). */
  subiquity?: SubiquitySnapshot | null;
  /** The cloud the user-data goes to: secret findings name its metadata service. */
  cloud?: CloudName;
  /** Most bytes a gzip part is decompressed to for its secrets (default maxDecompressedBytes). */
  maxDecompressedBytes?: number;
  /** Secret findings are errors (`--fail-on secrets`, the setting cloudConfigMerge.secrets.asErrors); default warnings. */
  secretsAsErrors?: boolean;
  /**
   * YAML loads by text, shared by analyses of the same documents with other options (`--check --image all`
   * analyses a document once per image; its load does not depend on the version). Read-only values.
   */
  loadedBodies?: Map<string, YamlLoadResult>;
}

export function analyzeDocument(text: string, path: string, given: AnalyzeOptions = {}): DocumentAnalysis {
  // One budget of near-miss suggestions and problems for the whole document, whatever the number of its parts.
  const options: AnalyzeOptions = { ...given, schemaBudget: given.schemaBudget ?? newSchemaBudget(given.maxSchemaProblems) };
  const info = options.kind ? { kind: options.kind } : detectDocument(text, path, options.languageId);
  if (!info) return { info, findings: [], specs: [] };
  const limit = options.maxBytes ?? DEFAULT_LIMITS.maxFileBytes;
  const bytes = text.length > limit / 3 ? utf8Length(text) : text.length;
  const firstLine = { start: 0, end: text.search(/\r|\n|$/) };
  if (bytes > limit) {
    return { info, specs: [], findings: [{ ...coded('too-large'), span: firstLine, message: `This file has ${bytes} bytes, over the limit maxFileBytes = ${limit}: it is not analysed.` }] };
  }
  try {
    return analyzeKind(text, path, info, options);
  } catch (e) {
    // Every analysis says where one of our limits stops it; this is the net for one that does not say it itself.
    if (!(e instanceof LimitExceededError)) throw e;
    return { info, specs: [], findings: [{ ...coded('limit-exceeded'), span: firstLine, message: `Not analysed: ${e.message.replace(/\.?$/, '.')}` }] };
  }
}

function analyzeKind(text: string, path: string, info: DocumentInfo, options: AnalyzeOptions): DocumentAnalysis {
  switch (info.kind) {
    case 'cloud-config': {
      const analyzed = analyzeCloudConfig(text, 0, info.kind, options, undefined, options.loadedBodies);
      pushAll(analyzed.findings, literalTemplateFindings(text));
      // A top-level `autoinstall:` is Ubuntu's installer's: Subiquity's verdict on it, as the image's installer decides.
      if (analyzed.yaml?.ok && analyzed.yaml.value instanceof PyDict && analyzed.yaml.value.has('autoinstall')) {
        const ai = subiquityFindings(text, path, analyzed.yaml, options, false);
        pushAll(analyzed.findings, ai.findings);
        if (ai.json) return { info, ...analyzed, autoinstall: ai.json };
      }
      return { info, ...analyzed };
    }
    case 'autoinstall': {
      const yaml = loadYaml(text, { maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth });
      if (!yaml.ok) {
        const kind = yaml.error.kind === 'limit' || yaml.error.kind === 'expansion' ? 'limit-exceeded' : 'yaml-invalid';
        const message = `Subiquity cannot load this YAML: ${yaml.error.message}.`;
        const at = new LineIndex(text).position(yaml.error.span.start);
        const profile = options.subiquity === null ? undefined : (options.subiquity ?? '24.04');
        const json = profile && kind === 'yaml-invalid' ? { autoinstall: unreadableAutoinstallJson(profile, subiquityFacts(profile)['x-ccm'].commit, yaml.error.message, { line: at.line + 1, column: at.character + 1 }) } : {};
        return { info, findings: [{ ...coded(kind), span: yaml.error.span, message }], specs: [], yaml, yamlBase: 0, ...json };
      }
      const ai = subiquityFindings(text, path, yaml, options, true);
      return { info, findings: ai.findings, specs: [], yaml, yamlBase: 0, ...(ai.json ? { autoinstall: ai.json } : {}) };
    }
    case 'confd':
    case 'cloud-cfg': {
      if (info.template) return { info, ...analyzeTemplate(text, info.kind, options) };
      const analyzed = analyzeCloudConfig(text, 0, info.kind, options, undefined, options.loadedBodies);
      // Its `network:` key is network config, validated as cloud-init validates it when it applies it.
      if (options.schema && analyzed.yaml?.ok && analyzed.yaml.value instanceof PyDict && analyzed.yaml.value.has('network')) {
        const network = dropInNetworkFindings(analyzed.yaml.value, analyzed.yaml.rootSpan, text, { version: options.version ?? 'current', netplan: options.netplan ?? 'none', netplanVersion: options.netplanVersion, budget: options.schemaBudget });
        pushAll(analyzed.findings, network);
      }
      return { info, ...analyzed };
    }
    case 'jinja':
      return { info, ...analyzeTemplate(text, 'jinja', options) };
    case 'mime':
      return analyzeMime(text, info, options);
    case 'cloud-config-archive': {
      const entries = embeddedInArchive(text);
      return { info, findings: [...(options.schema ? embeddedFindings(entries, options) : []), ...embeddedSecrets(entries, options)], specs: [] };
    }
    case 'chef':
      return { info, ...analyzeChef(text, options) };
    case 'meta-data': {
      const read = metaDataFindings(text);
      return { info, findings: read.findings, specs: [], metaData: read.reading ? { reading: read.reading } : { limit: read.limit ?? '' } };
    }
    case 'network-config':
      return { info, findings: networkFindings(text, path, { version: options.version ?? 'current', netplan: options.netplan ?? 'none', netplanVersion: options.netplanVersion, schema: options.schema, budget: options.schemaBudget }), specs: [] };
    default:
      return { info, findings: [], specs: [] };
  }
}

/** Subiquity's verdict on an autoinstall document and the mistakes it lets through (autoinstall/). */
function subiquityFindings(text: string, path: string, yaml: YamlLoadResult & { ok: true }, options: AnalyzeOptions, forced: boolean): { findings: Finding[]; json?: AutoinstallJson } {
  if (options.subiquity === null) return { findings: [] };
  const found = autoinstallOfText(text, path, options.subiquity ?? '24.04', { forced, value: yaml.value });
  if (!found) return { findings: [] };
  const doc = { text, value: yaml.value, rootSpan: yaml.rootSpan };
  return { findings: autoinstallFindings({ ...doc, delivery: found.delivery, verdict: found.verdict, path }), json: autoinstallJson(found.verdict, doc) };
}

/**
 * A document cloud-init renders with Jinja first: its YAML is read with the template syntax masked
 * (the unrendered text's YAML errors are not cloud-init's), and the template is checked by rendering.
 */
function analyzeTemplate(text: string, kind: 'jinja' | 'confd' | 'cloud-cfg', options: AnalyzeOptions): Analyzed {
  const analyzed = analyzeCloudConfig(maskJinja(text), 0, kind, options, undefined, undefined, text);
  const configFile = kind !== 'jinja';
  pushAll(analyzed.findings, templateFindings(text, { instanceData: options.instanceData ?? NO_INSTANCE_DATA, version: options.version ?? 'current', schema: options.schema, configFile, schemaBudget: options.schemaBudget }));
  return analyzed;
}

/** UTF-8 length of a string, without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** Replaces template syntax by same-length filler, so YAML positions stay and no false YAML errors appear. */
export function maskJinja(text: string): string {
  // Scanned by hand: the lazy regex /\{\{[\s\S]*?\}\}|.../ searches to the end of the text again for
  // every unclosed '{{', quadratic on a file of 20,000 of them. A kind of tag without a closer
  // after some point has none after any later point either, so each kind fails at most once.
  const closers: Record<string, string> = { '{{': '}}', '{%': '%}', '{#': '#}' };
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  let at = text.indexOf('{');
  while (at >= 0) {
    const open = text.slice(at, at + 2);
    const close = closers[open];
    if (close !== undefined && !unclosed.has(open)) {
      const end = text.indexOf(close, at + 2);
      if (end < 0) unclosed.add(open);
      else {
        const stop = end + 2;
        out += text.slice(copied, at) + text.slice(at, stop).replace(/[^\n]/g, open === '{{' ? 'x' : ' ');
        copied = stop;
        at = text.indexOf('{', stop);
        continue;
      }
    }
    at = text.indexOf('{', at + 1);
  }
  return out + text.slice(copied);
}

interface Analyzed {
  findings: Finding[];
  specs: SpecSite[];
  yaml?: YamlLoadResult;
  yamlBase?: number;
  passwords?: PlaintextPasswordSite[];
}

/**
 * A cloud-config body (a whole file, or a MIME part's body at `base`). `unmasked`: the template text when
 * `body` is it with the Jinja masked.
 */
function analyzeCloudConfig(body: string, base: number, kind: DocumentKind, options: AnalyzeOptions, headerSpec?: ParsedSpec, loadedBodies?: Map<string, YamlLoadResult>, unmasked?: string, tokens?: TokenMatch[]): Analyzed {
  const masked = unmasked !== undefined;
  const findings: Finding[] = [];
  const specs: SpecSite[] = [];
  const context: SpecContext = kind === 'confd' || kind === 'cloud-cfg' ? 'system' : 'part';
  // Spans are relative to the body, so a body written again (generated multiparts repeat a few thousands of times) shares one load.
  let yaml = loadedBodies?.get(body);
  if (!yaml) {
    yaml = loadYaml(body, { maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth });
    loadedBodies?.set(body, yaml);
  }
  const at = (span: TextSpan): TextSpan => ({ start: span.start + base, end: span.end + base });
  const skipped = context === 'part' ? 'cloud-init skips this whole part ("empty cloud config")' : 'cloud-init reads this file as {} (a warning in its log)';
  if (!yaml.ok) {
    if (!masked) {
      const message = yaml.error.kind === 'expansion' ? `Not analysed: ${yaml.error.message}.` : `cloud-init cannot load this YAML: ${yaml.error.message}. ${skipped}.`;
      findings.push({ ...coded(yaml.error.kind === 'limit' || yaml.error.kind === 'expansion' ? 'limit-exceeded' : 'yaml-invalid'), span: at(yaml.error.span), message });
    }
    return { findings, specs, yaml, yamlBase: base };
  }
  for (const d of yaml.duplicateKeys) {
    findings.push({ ...coded('duplicate-key'), span: at(d.span), message: `${d.message}: YAML keeps only the last value for a key, so the earlier one is ignored.` });
  }
  pushAll(findings, commentLineFindings(body, base, yaml));
  const root = yaml.value;
  if (root === null) {
    if (context === 'part') findings.push({ ...coded('empty-cloud-config'), span: at({ start: 0, end: Math.min(body.length, body.indexOf('\n') < 0 ? body.length : body.indexOf('\n')) }), message: `No configuration in this part: ${skipped}.` });
    return { findings, specs, yaml, yamlBase: base };
  }
  if (!(root instanceof PyDict)) {
    findings.push({ ...coded('root-not-mapping'), span: at(yaml.rootSpan ?? { start: 0, end: 0 }), message: `The top level is not a mapping: ${skipped}.` });
    return { findings, specs, yaml, yamlBase: base };
  }
  const howOrigin = root.originOf('merge_how');
  const typeOrigin = root.originOf('merge_type');
  const how = root.get('merge_how');
  const mergeHowUsed = how !== undefined && how !== null;
  for (const [key, origin] of [
    ['merge_how', howOrigin],
    ['merge_type', typeOrigin],
  ] as const) {
    if (!origin) continue;
    const value = root.get(key) as PyValue;
    if (value === null) continue;
    const used = key === 'merge_how' || !mergeHowUsed;
    const spans = spansOfValue(value, origin.value, body);
    const valueSpan = at(spans.span ?? origin.value);
    const site: SpecSite = {
      source: key,
      keySpan: origin.key ? at(origin.key) : undefined,
      valueSpan,
      form: typeof value === 'string' ? 'string' : 'list',
      text: typeof value === 'string' ? body.slice(spans.span!.start, spans.span!.end) : undefined,
      value,
      spans: shiftSpans(spans, base),
      used,
    };
    // An empty string's content span is empty: whole-spec findings then mark the quotes.
    const wholeSpan = valueSpan.start === valueSpan.end && spans.outer ? at(spans.outer) : valueSpan;
    const lintOptions = { context, label: key, span: wholeSpan, customMergers: options.customMergers, companion: headerSpec, first: true, version: options.version };
    if (used) {
      if (typeof value === 'string') {
        site.lint = lintStringSpec(value, valueSpan.start, lintOptions);
        // Escapes, folded lines or a block scalar: the value is not the text on screen, so
        // positions inside it are unknown. Mark the whole value and offer no edits.
        if (site.text !== value) site.lint = { ...site.lint, findings: site.lint.findings.map((f) => ({ ...f, span: wholeSpan, fixes: undefined })) };
      } else site.lint = lintListSpec(value, site.spans, lintOptions);
      pushAll(findings, site.lint.findings);
    } else {
      findings.push({
        ...coded('leftover-merge-type'),
        span: site.keySpan ?? valueSpan,
        message:
          context === 'part'
            ? 'merge_type is not read because merge_how is present: it stays in the data as an ordinary key, is written to cloud-config.txt, and is later used as that file\'s spec when cloud-init combines user-data with vendor and system config (a spec there without dict() makes all user-data disappear).'
            : 'merge_type is not read because merge_how is present: it stays in the data as an ordinary key, ends up in the merged configuration, and is used as its spec at the next merge (a spec there without dict() makes the settings it carries disappear).',
      });
    }
    specs.push(site);
  }
  if (kind === 'confd' && howOrigin) {
    findings.push({
      ...coded('confd-merge-how'),
      span: at(howOrigin.key ?? howOrigin.value),
      message:
        'In a cloud.cfg.d drop-in, this spec only decides how this file merges into the drop-ins whose names sort after it (by default the alphabetically last file wins). It cannot append to cloud.cfg, vendor-data or user-data lists.',
    });
  }
  pushAll(findings, nestedSpecFindings(root, base, body));
  // What the user-data gives away: in user-data (and its templates), not in an image's own system config.
  let passwords: PlaintextPasswordSite[] | undefined;
  if (context === 'part') {
    const secrets = secretFindings(root, body, base, { cloud: options.cloud, original: unmasked, asErrors: options.secretsAsErrors, tokens });
    pushAll(findings, secrets.findings);
    passwords = secrets.passwords;
  }
  if (options.schema && kind === 'cloud-config') pushAll(findings, schemaFindingsOfBody(root, yaml.rootSpan, base, options.version ?? 'current', body, options.schemaBudget ?? newSchemaBudget()));
  else if (options.schema && context === 'system' && !masked) pushAll(findings, systemSchemaFindings(root, yaml.rootSpan, base, options.version ?? 'current', body, options.schemaBudget ?? newSchemaBudget()));
  return { findings, specs, yaml, yamlBase: base, passwords };
}

function shiftSpans(spans: ValueSpans, base: number): ValueSpans {
  if (!base) return spans;
  const shift = (s?: TextSpan) => (s ? { start: s.start + base, end: s.end + base } : undefined);
  return {
    span: shift(spans.span),
    outer: shift(spans.outer),
    items: spans.items?.map((i) => shiftSpans(i, base)),
    entries: spans.entries ? new Map([...spans.entries].map(([k, v]) => [k, { key: shift(v.key), value: shiftSpans(v.value, base) }])) : undefined,
  };
}


/** A second `#cloud-config` line, or `#include` inside a cloud-config body: only comments there. */
function commentLineFindings(body: string, base: number, yaml: YamlLoadResult): Finding[] {
  const findings: Finding[] = [];
  // Sorted, so one forward pointer answers "is this line inside a multi-line scalar" for every line.
  let multiline: TextSpan[] | undefined;
  let k = 0;
  let sawHeader = false;
  for (let offset = 0; offset <= body.length; ) {
    let end = body.indexOf('\n', offset);
    if (end < 0) end = body.length;
    let first = offset;
    while (first < end && isBlank(body.charCodeAt(first))) first++;
    if (body.charCodeAt(first) === 35 /* # */) {
      let last = end;
      while (last > first && isBlank(body.charCodeAt(last - 1))) last--;
      const trimmed = body.slice(first, last).toLowerCase();
      const header = /^#cloud-config\s*$/.test(trimmed);
      const include = !header && /^#include(-once)?\b/.test(trimmed);
      // Only lines that look like a header need the (tree-walking) check for multi-line scalars.
      if (header || include) {
        multiline ??= multilineScalarSpans(yaml).sort((a, b) => a.start - b.start);
        while (k < multiline.length && multiline[k].end <= offset) k++;
        let inScalar = false;
        for (let j = k; j < multiline.length && multiline[j].start <= offset && !inScalar; j++) inScalar = offset < multiline[j].end;
        const span = { start: base + first, end: base + last };
        if (!inScalar && header) {
          if (sawHeader) {
            findings.push({ ...coded('second-header'), span, message: 'A second #cloud-config line is only a YAML comment: this is still one part. To add another part, use a separate file or a MIME multipart.' });
          }
          sawHeader = true;
        } else if (!inScalar) {
          findings.push({ ...coded('include-in-body'), span, message: '#include inside a cloud-config is only a YAML comment: nothing is included. An include must be its own part (a file or MIME part starting with #include).' });
        }
      }
    }
    offset = end + 1;
  }
  return findings;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 0xfeff;
}

/** Spans of scalars that cover several lines (block or multi-line quoted), where `#` lines are content. */
function multilineScalarSpans(yaml: YamlLoadResult): TextSpan[] {
  const spans: TextSpan[] = [];
  if (!yaml.ok) return spans;
  // Aliases share one object: visit it once, or an alias bomb makes this walk exponential.
  const seen = new Set<object>();
  const visit = (value: PyValue, span: TextSpan | undefined, depth: number) => {
    if (depth > 200) return;
    if (typeof value === 'string' && span && value.includes('\n')) spans.push(span);
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) return;
      seen.add(value);
    }
    if (value instanceof PyDict) for (const e of value.items()) visit(e.value, e.origin?.value, depth + 1);
    else if (Array.isArray(value)) {
      const origins = getListOrigins(value);
      value.forEach((v, i) => visit(v, origins?.[i]?.value, depth + 1));
    }
  };
  visit(yaml.value, undefined, 0);
  return spans;
}

/** `merge_how` below the top level is plain data. */
function nestedSpecFindings(root: PyDict, base: number, body: string): Finding[] {
  const findings: Finding[] = [];
  // Walking a 20,000-line document is not free: only walk when the text has more spec keys than the top level.
  const written = body.match(/merge_(?:how|type)/g)?.length ?? 0;
  if (written <= Number(root.has('merge_how')) + Number(root.has('merge_type'))) return findings;
  // cloud-init merges each `users:` entry with mergemanydict, which does read a spec there.
  let underUsers = false;
  const seen = new Set<object>();
  const visit = (value: PyValue, depth: number) => {
    if (depth > 50 || findings.length > 50) return;
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) return;
      seen.add(value);
    }
    if (value instanceof PyDict) {
      for (const e of value.items()) {
        if (depth === 0) underUsers = e.key === 'users';
        if ((e.key === 'merge_how' || e.key === 'merge_type') && depth > 0 && e.origin?.key && !underUsers) {
          findings.push({ ...coded('nested-merge-how'), span: { start: e.origin.key.start + base, end: e.origin.key.end + base }, message: `Only a top-level ${e.key} is read as a merge spec: here it is ordinary data.` });
        }
        visit(e.value, depth + 1);
      }
    } else if (Array.isArray(value)) for (const v of value) visit(v, depth + 1);
  };
  visit(root, 0);
  return findings;
}

/* ------------------------------------------------------------------ Chef */

/** Knockouts that can never do what they seem to (a number, or a key of a mapping). */
function analyzeChef(text: string, options: AnalyzeOptions): Analyzed {
  const yaml = loadYaml(text, { maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth });
  if (!yaml.ok) return { findings: [{ ...coded('chef-invalid'), span: yaml.error.span, message: `This file cannot be read: ${yaml.error.message}.` }], specs: [], yaml, yamlBase: 0 };
  const findings: Finding[] = knockoutFindingsIn(yaml.value).map((k) => ({ ...coded(k.kind), span: k.span, message: k.message }));
  return { findings, specs: [], yaml, yamlBase: 0 };
}

/* ------------------------------------------------------------------ MIME */

function analyzeMime(text: string, info: DocumentInfo, options: AnalyzeOptions): DocumentAnalysis {
  const findings: Finding[] = [];
  const specs: SpecSite[] = [];
  const blob = convertUserDataBlob(new TextEncoder().encode(text));
  if (blob.error) {
    findings.push({ ...coded('mime-invalid'), span: { start: 0, end: text.search(/\r|\n|$/) }, message: `cloud-init cannot process this user-data (${blob.error}): no part is used at all.` });
    return { info, findings, specs };
  }
  let yaml: YamlLoadResult | undefined;
  let yamlBase: number | undefined;
  let cloudConfigBodies = 0;
  const passwords: PlaintextPasswordSite[] = [];
  // The credentials of the parts written as is, found in one scan of the whole text (a part at a time was
  // the slowest step of a multipart of thousands of parts): each part gets those inside it.
  let scanned: TokenMatch[] | undefined;
  /** The furthest end of the matches up to each one. */
  let reach: number[] = [];
  const tokensOf = (span: TextSpan): TokenMatch[] | undefined => {
    if (!scanned) {
      scanned = findTokens(text);
      let furthest = -1;
      reach = scanned.map((t) => (furthest = Math.max(furthest, t.end)));
    }
    // The matches are sorted by start: the first at or after the part's start, found by halving.
    let lo = 0;
    let hi = scanned.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scanned[mid].start < span.start) lo = mid + 1;
      else hi = mid;
    }
    // A match across the part's edge (a BEGIN left open in an earlier part): the part is scanned alone.
    if (lo > 0 && reach[lo - 1] > span.start) return undefined;
    const inside: TokenMatch[] = [];
    for (let k = lo; k < scanned.length && scanned[k].start < span.end; k++) {
      const t = scanned[k];
      if (t.end > span.end) return undefined;
      inside.push({ ...t, start: t.start - span.start, end: t.end - span.start });
    }
    return inside;
  };
  const loadedBodies = options.loadedBodies ?? new Map<string, YamlLoadResult>();
  for (const container of blob.containers) {
    if (!container.isMultipart && container.span) {
      findings.push({ ...coded('mime-boundary'), span: container.span, message: `This ${container.contentType} part has no usable boundary (${container.defects.join(', ') || 'not split'}): cloud-init cannot find the parts inside it.` });
    }
  }
  let number = 0;
  for (const leaf of blob.leaves) {
    if (leaf.container) continue;
    number++;
    const type = leafPartType(leaf);
    const mergeHeaders = leaf.headers.filter((h) => /^(x-)?merge-type$/i.test(h.name));
    for (const h of mergeHeaders) {
      const span = h.span ?? { start: 0, end: 0 };
      const nameSpan = { start: span.start, end: span.start + h.name.length };
      const exact = h.name === 'Merge-Type' || h.name === 'X-Merge-Type';
      if (!exact) {
        const fixed = h.name.toLowerCase().startsWith('x-') ? 'X-Merge-Type' : 'Merge-Type';
        findings.push({
          ...coded('header-case'),
          span: nameSpan,
          message: `cloud-init matches this header name case-sensitively: '${h.name}' is ignored. Write '${fixed}'.`,
          fixes: [{ title: `Change to '${fixed}'`, edits: [{ span: nameSpan, newText: fixed }], preferred: true }],
        });
      }
      if (GZIP_TYPES.has(leaf.contentType)) {
        findings.push({ ...coded('gzip-headers-dropped'), span: nameSpan, message: 'This part is gzip-compressed: cloud-init replaces it by its decompressed content and keeps only the filename and Launch-Index, so this merge header is dropped. Put the spec in the compressed content (merge_how) instead.' });
      }
    }
    // The header spec cloud-init reads: Merge-Type, else X-Merge-Type (first non-empty), exact case.
    const chosenName = ['Merge-Type', 'X-Merge-Type'].find((n) => leaf.headerDict[n]);
    const shadowed = chosenName === 'Merge-Type' ? leaf.headers.find((h) => h.name === 'X-Merge-Type') : undefined;
    if (shadowed?.span && pyStrip(shadowed.value) !== pyStrip(leaf.headerDict['Merge-Type'])) {
      findings.push({
        ...coded('x-merge-type-ignored'),
        span: { start: shadowed.span.start, end: shadowed.span.start + shadowed.name.length },
        unnecessary: true,
        message: 'X-Merge-Type is only read when Merge-Type is missing or empty: here Merge-Type is set, so this different spec is ignored.',
      });
    }
    const chosen = chosenName ? { ...leaf.headers.find((h) => h.name === chosenName)!, value: leaf.headerDict[chosenName] } : undefined;
    let headerSpec: ParsedSpec | undefined;
    let headerSite: SpecSite | undefined;
    let headerWholeSpec: Finding[] = [];
    if (chosen && !GZIP_TYPES.has(leaf.contentType) && type === 'text/cloud-config') {
      const valueStart = chosen.valueStart ?? chosen.span?.start ?? 0;
      const value = chosen.value;
      const lint = lintStringSpec(value, valueStart, { context: 'part', label: chosen.name, span: { start: valueStart, end: valueStart + value.length }, customMergers: options.customMergers, version: options.version });
      headerSite = { source: chosen.name as 'Merge-Type', headerName: chosen.name, keySpan: chosen.span ? { start: chosen.span.start, end: chosen.span.start + chosen.name.length } : undefined, valueSpan: { start: valueStart, end: valueStart + value.length }, form: 'string', text: value, value, used: true, lint };
      specs.push(headerSite);
      // Whole-spec checks belong to the body + header combination; they are added below
      // only when the body has no spec of its own (then the header alone decides).
      pushAll(findings, lint.findings.filter((f) => !WHOLE_SPEC_CODES.has(f.code)));
      headerWholeSpec = lint.findings.filter((f) => WHOLE_SPEC_CODES.has(f.code));
      try {
        headerSpec = parseStringSpec(value, 0, options.version);
      } catch {
        headerSpec = undefined;
      }
    }
    // The body cloud-init reads: as written (checked in place), or decoded from it (base64, quoted-printable:
    // checked as decoded, each finding on the part's header naming its line in the decoded text).
    const literal = leaf.literal && leaf.span !== undefined;
    const base = literal ? leaf.span!.start : 0;
    const body = leaf.text === null ? null : literal ? text.slice(base, leaf.span!.end) : leaf.text;
    const inPart = (found: Finding[]): Finding[] => {
      if (literal || !found.length) return found;
      const inside = { lines: new LineIndex(body ?? ''), label: `the decoded ${mimePartLabel(number, leaf)}`, why: encodedBodyWords(leaf) };
      const anchor = partHeaderSpan(leaf);
      return found.map((f) => shownElsewhere(f, anchor, inside));
    };
    if (type === 'text/jinja2' && body !== null) {
      // A template part: checked as a template document is, at the part's place in the file.
      const context = { instanceData: options.instanceData ?? NO_INSTANCE_DATA, version: options.version ?? 'current', schema: options.schema, schemaBudget: options.schemaBudget };
      pushAll(findings, inPart(templateFindings(body, context).map((f) => ({ ...f, span: { start: f.span.start + base, end: f.span.end + base } }))));
      // Its secrets are in the template as written (a `{{ var }}` is not one).
      const secrets = bodySecrets(body, base, mimePartLabel(number, leaf), options, literal ? tokensOf(leaf.span!) : undefined);
      pushAll(findings, inPart(secrets.findings));
      if (literal) pushAll(passwords, secrets.passwords);
    } else if (type !== 'text/cloud-config' && body !== null) {
      pushAll(findings, inPart(partSecretFindings(body, base, mimePartLabel(number, leaf), { cloud: options.cloud, asErrors: options.secretsAsErrors, tokens: literal ? tokensOf(leaf.span!) : undefined })));
    } else if (GZIP_TYPES.has(leaf.contentType)) {
      // cloud-init decompresses it and reads what is inside as a part: its secrets are there.
      const unzipped = gunzipPart(leaf.payload, { maxOutputBytes: options.maxDecompressedBytes ?? DEFAULT_LIMITS.maxDecompressedBytes });
      if (unzipped.ok) {
        const inside = { lines: new LineIndex(unzipped.text), label: `the decompressed ${mimePartLabel(number, leaf)}`, why: 'it is gzip-compressed' };
        pushAll(findings, bodySecrets(unzipped.text, 0, mimePartLabel(number, leaf), options).findings.map((f) => shownElsewhere(f, partHeaderSpan(leaf), inside)));
      }
    }
    if (type === 'text/cloud-config' && body !== null) {
      const result = analyzeCloudConfig(body, base, 'cloud-config', options, headerSpec, loadedBodies, undefined, literal ? tokensOf(leaf.span!) : undefined);
      pushAll(findings, inPart(result.findings));
      // Spec sites and the YAML serve hovers and completion at their place: only a body written as is has one.
      if (literal) {
        pushAll(specs, result.specs);
        pushAll(passwords, result.passwords ?? []);
        cloudConfigBodies++;
        if (cloudConfigBodies === 1) {
          yaml = result.yaml;
          yamlBase = result.yamlBase;
        }
      }
      const bodySpec = result.specs.find((s) => s.used);
      if (headerSite) {
        headerSite.companion = bodySpec;
        for (const site of result.specs) site.companion = headerSite;
      }
      if (headerSpec && bodySpec) pushAll(findings, bodyOverridesHeader(bodySpec, headerSpec, chosen!));
      if (!bodySpec) pushAll(findings, headerWholeSpec);
    } else {
      pushAll(findings, headerWholeSpec);
    }
  }
  // The cloud-config bodies not read above: archive entries.
  const archived = embeddedInMime(text, blob).filter((e) => e.kind === 'archive-entry');
  if (options.schema) pushAll(findings, embeddedFindings(archived, options));
  pushAll(findings, embeddedSecrets(archived, options));
  return { info, findings, specs, yaml, yamlBase, mime: { leaves: blob.leaves }, passwords };
}

/** The secrets of a part's text, read as cloud-init reads it: a cloud-config, a Jinja template (masked), or any other part. */
function bodySecrets(text: string, base: number, label: string, options: AnalyzeOptions, tokens?: TokenMatch[]): { findings: Finding[]; passwords: PlaintextPasswordSite[] } {
  const sniffed = sniffContentType(text);
  const template = sniffed === 'text/jinja2';
  if (template || sniffed === 'text/cloud-config') {
    const yaml = loadYaml(template ? maskJinja(text) : text, { maxDepth: options.maxDepth ?? DEFAULT_LIMITS.maxDepth });
    if (yaml.ok && yaml.value instanceof PyDict) return secretFindings(yaml.value, text, base, { cloud: options.cloud, asErrors: options.secretsAsErrors, tokens });
    return { findings: [], passwords: [] };
  }
  return { findings: partSecretFindings(text, base, label, { cloud: options.cloud, asErrors: options.secretsAsErrors, tokens }), passwords: [] };
}

/** The secrets of archive entries, at their place in the document where it can be told, else on the entry. */
function embeddedSecrets(embedded: EmbeddedCloudConfig[], options: AnalyzeOptions): Finding[] {
  const findings: Finding[] = [];
  for (const e of embedded) {
    const found = bodySecrets(e.text, 0, e.label, options).findings;
    if (!found.length) continue;
    const inside = { lines: new LineIndex(e.text), label: e.label, why: e.unmapped ?? 'its position cannot be mapped' };
    for (const f of found) {
      const start = e.toDocument(f.span.start);
      const end = e.toDocument(f.span.end);
      findings.push(start === undefined || end === undefined ? shownElsewhere(f, e.anchor, inside) : { ...f, span: { start, end } });
    }
  }
  return findings;
}

function embeddedFindings(embedded: EmbeddedCloudConfig[], options: AnalyzeOptions): Finding[] {
  const findings: Finding[] = [];
  for (const e of embedded) pushAll(findings, embeddedSchemaFindings(e, options.version ?? 'current', options.schemaBudget ?? newSchemaBudget()));
  return findings;
}

const WHOLE_SPEC_CODES = new Set(['no-dict-merger', 'merger-unreachable', 'list-merger-unreachable', 'str-append-unreachable']);

/** Body and header specs are concatenated: for a type both name, the body's merger wins. */
function bodyOverridesHeader(body: SpecSite, header: ParsedSpec, headerField: { name: string; span?: TextSpan }): Finding[] {
  const bodyNames = new Set((body.lint?.spec?.mergers ?? []).map((m) => pyStr(m.name).replace(/^m_/, '')));
  const shadowed = header.mergers.map((m) => pyStr(m.name).replace(/^m_/, '')).filter((n) => bodyNames.has(n));
  if (!shadowed.length || !headerField.span) return [];
  return [
    {
      ...coded('body-overrides-header'),
      span: headerField.span,
      message: `The body's ${body.source} comes first, so its ${shadowed.map((n) => `${n}()`).join(', ')} win${shadowed.length === 1 ? 's' : ''} over the same merger${shadowed.length === 1 ? '' : 's'} in ${headerField.name}; the header only fills in the types the body does not name.`,
    },
  ];
}
