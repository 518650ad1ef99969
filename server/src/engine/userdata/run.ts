/**
 * One consumption of user-data (or vendor-data): process the blobs into
 * parts, apply the launch-index filter, hand each part to its handler in
 * order, and write `cloud-config.txt` as cloud-init does (spec §3.5–§3.7).
 */
import { PyValue } from '../py/values';
import { atLeast, type CloudInitVersion } from '../version/versions';
import { MergerFactory } from '../merge/construct';
import { DumpLine, dumpPyYaml, dumpPyYamlWithLines } from '../yaml/dump';
import { CloudConfigHandler, HandledPart, PartLoadCache } from './cloudConfigHandler';
/** Jinja (its lexer, parser, compiler and runtime) is loaded when a part is a template: most runs have none. */
const jinjaModule = (): typeof import('./jinja') => require('./jinja') as typeof import('./jinja');
import { ProcessingMessage, UserDataPart } from './parts';
import { IncludeFailure, IncludeResolver, ProcessResult, UserDataSource, processUserData, pyInt } from './process';
import { CLOUD_CONFIG_TYPE, JINJA_TYPE, JSONP_TYPE, NOT_MULTIPART_TYPE, SHELL_TYPES, sniffContentType } from './sniff';
import { decodeUtf8Surrogateescape } from '../py/codecs';
import { Limits, PYTHON_RECURSION } from '../limits';
import { PyError } from '../py/errors';

export type PartDisposition =
  | 'merged'
  | 'failed'
  | 'shell-script'
  | 'boothook'
  | 'part-handler'
  | 'jinja-ignored'
  /** A jinja part cloud-init renders but this tool cannot (a construct it cannot reproduce): left out of the result, and said so. */
  | 'jinja-not-reproduced'
  | 'excluded'
  | 'unhandled'
  | 'empty'
  | 'filtered-out';

export interface PartReport {
  part: UserDataPart;
  disposition: PartDisposition;
  /** The handler's record for cloud-config, jsonp and rendered jinja parts. */
  handled?: HandledPart;
  /** For jinja parts: the rendered text and what it became. */
  jinja?: { rendered?: string; missingVariables: string[]; subType?: string | null; error?: string };
  /** One sentence on what cloud-init does with this part and why. */
  note: string;
}

export interface UserDataRunOptions {
  version?: CloudInitVersion;
  includes?: IncludeResolver;
  onIncludeFailure?: IncludeFailure;
  /** Parsed instance data for `## template: jinja` parts; undefined renders with `{}` as the oracle does. */
  instanceData?: unknown;
  launchIndex?: number;
  /** Content types whose handlers are disabled (vendor-data's `disabled_handlers`). */
  excludedTypes?: string[];
  trace?: boolean;
  limits?: Limits;
  customMergers?: ReadonlyMap<string, MergerFactory>;
  /** Loads of cloud-config parts kept between runs (the preview's): see PartLoadCache. */
  partCache?: PartLoadCache;
  /** Also note the line of every key and item of cloud-config.txt's YAML (`renderedLines`), in the same render. */
  withLines?: boolean;
  /** False where nothing reads where values were written (HandlerOptions.provenance). */
  provenance?: boolean;
}

export interface UserDataRun {
  /** The merged config (`cloud_buf`), or null when no cloud-config part was attempted. */
  result: PyValue | null;
  /** The exact text of cloud-config.txt ('' when cloud-init writes an empty file). */
  cloudConfigTxt: string;
  /** Set when the YAML dump itself raises (cloud-init then writes no file). */
  renderError?: string;
  /** With `withLines`: the line of every key and item, counted from the `---` of cloud-config.txt's YAML. */
  renderedLines?: DumpLine[];
  reports: PartReport[];
  messages: ProcessingMessage[];
  sources: UserDataSource[];
  fatal?: ProcessResult['fatal'];
  handler: CloudConfigHandler;
}

export function runUserData(inputs: Array<{ name: string; bytes: Uint8Array }>, options: UserDataRunOptions = {}): UserDataRun {
  const processed = processUserData(inputs, { includes: options.includes, onIncludeFailure: options.onIncludeFailure, limits: options.limits, version: options.version });
  const handler = handlerFor(options);
  const messages = [...processed.messages];
  if (processed.fatal) {
    // cloud-init raises out of user-data processing: no part is handled, no file is written.
    return { result: null, cloudConfigTxt: '', reports: [], messages, sources: processed.sources, fatal: processed.fatal, handler };
  }
  const reports = processed.parts.map((part) => dispatchPart(part, handler, options, messages));
  options.partCache?.endRun();
  return { ...renderHandlerOutput(handler, options.version, options.withLines), reports, messages, sources: processed.sources, handler };
}

/** The `handler` mode: each input goes straight to the cloud-config handler, no MIME, no sniffing. */
export function runHandlerParts(
  inputs: Array<{ name: string; bytes: Uint8Array; headers?: Record<string, string> }>,
  options: UserDataRunOptions = {},
): UserDataRun {
  const handler = handlerFor(options);
  const sources: UserDataSource[] = inputs.map((i) => ({ name: i.name, bytes: i.bytes }));
  const reports: PartReport[] = inputs.map((input, index) => {
    const text = decodeUtf8Surrogateescape(input.bytes);
    const part: UserDataPart = {
      number: index + 1,
      contentType: CLOUD_CONFIG_TYPE,
      declaredType: null,
      filename: input.name,
      headers: Object.entries(input.headers ?? {}).map(([name, value]) => ({ name, value })),
      headerDict: input.headers ?? {},
      text,
      bytes: null,
      blob: index,
      route: [{ via: 'blob' }],
      span: { start: 0, end: text.length },
      launchIndex: null,
    };
    const handled = handler.handlePart(CLOUD_CONFIG_TYPE, input.name, text, input.headers ?? {}, index);
    return { part, disposition: handled.merged ? 'merged' : 'failed', handled, note: noteFor(handled) };
  });
  options.partCache?.endRun();
  return { ...renderHandlerOutput(handler, options.version, options.withLines), reports, messages: [], sources, handler };
}

function handlerFor(options: UserDataRunOptions): CloudConfigHandler {
  const { version, trace, customMergers, limits, partCache, provenance } = options;
  return new CloudConfigHandler({ version, trace, customMergers, maxExpandedNodes: limits?.maxExpandedNodes, partCache, provenance });
}

function dispatchPart(part: UserDataPart, handler: CloudConfigHandler, options: UserDataRunOptions, messages: ProcessingMessage[]): PartReport {
  const type = part.contentType;
  if (options.launchIndex !== undefined && part.launchIndex !== null) {
    const index = pyInt(part.launchIndex);
    if (index === null || index !== BigInt(options.launchIndex)) {
      return { part, disposition: 'filtered-out', note: `Launch-Index ${part.launchIndex} does not match launch index ${options.launchIndex}: the part is dropped.` };
    }
  }
  if (options.excludedTypes?.includes(type)) {
    return { part, disposition: 'excluded', note: `Handlers for ${type} are disabled (disabled_handlers).` };
  }
  const payload = part.text ?? '';
  if (type === CLOUD_CONFIG_TYPE || type === JSONP_TYPE) {
    const handled = handler.handlePart(type, part.filename, payload, part.headerDict, part.number - 1);
    warnIfFailed(handled, part, messages);
    return { part, disposition: handled.merged ? 'merged' : 'failed', handled, note: noteFor(handled) };
  }
  if (type === JINJA_TYPE) return dispatchJinja(part, handler, options, messages);
  if (SHELL_TYPES.has(type)) return { part, disposition: 'shell-script', note: 'A shell script: cloud-init runs it later; it is not merged.' };
  if (type === 'text/cloud-boothook') return { part, disposition: 'boothook', note: 'A boothook: cloud-init runs it early at every boot; it is not merged.' };
  if (type === 'text/part-handler') {
    return { part, disposition: 'part-handler', note: 'A part-handler: cloud-init imports and runs this Python code, which may handle later parts itself. It is never run here.' };
  }
  const hasPayload = part.text !== null ? part.text.length > 0 : (part.bytes?.length ?? 0) > 0;
  if (!hasPayload) return { part, disposition: 'empty', note: `An empty ${type} part: ignored.` };
  const first = (part.text ?? '').split('\n', 1)[0].slice(0, 24);
  const message =
    type === NOT_MULTIPART_TYPE
      ? `Unhandled non-multipart (${type}) userdata: '${first}...'`
      : `Unhandled unknown content-type (${type}) userdata: '${first}...'`;
  messages.push({ level: 'warning', message, blob: part.blob, part: part.number, code: 'unhandled-part' });
  return { part, disposition: 'unhandled', note: `No handler for ${type}: cloud-init ignores this part with a warning.` };
}

/** The finding code (and CLI exit code 4) of a Jinja part this tool cannot reproduce. */
export const JINJA_NOT_REPRODUCED = 'jinja-not-reproduced';

function dispatchJinja(part: UserDataPart, handler: CloudConfigHandler, options: UserDataRunOptions, messages: ProcessingMessage[]): PartReport {
  const rendered = jinjaModule().renderCloudInitJinja(part.text ?? '', options.instanceData === undefined ? {} : options.instanceData, { version: options.version ?? 'current' });
  if (!rendered.ok && rendered.reason === 'unsupported') {
    // Our limitation, not cloud-init's: never worded as a cloud-init warning.
    const message = `${part.filename}: ${rendered.message}. The result below leaves this part out; cloud-init would not.`;
    messages.push({ level: 'info', message, blob: part.blob, part: part.number, code: JINJA_NOT_REPRODUCED });
    return { part, disposition: 'jinja-not-reproduced', jinja: { missingVariables: [], error: rendered.message }, note: `${rendered.message}: this part is left out here, cloud-init would render it.` };
  }
  if (!rendered.ok) {
    const version = options.version ?? 'current';
    let message: string;
    let note: string;
    if (rendered.reason === 'undefined' || rendered.reason === 'type' || rendered.reason === 'security') {
      // render_jinja_payload catches these (SecurityError only exists in the sandbox), logs, and renders nothing.
      message = `Ignoring jinja template for ${part.filename}: ${rendered.message}`;
      note = message;
    } else if (rendered.reason === 'syntax' && atLeast(version, '24.4')) {
      // From 24.4 (not 23.4) the handler catches the syntax error (JinjaSyntaxParsingException) itself.
      message = `Ignoring jinja template for ${part.filename}. Failed to render template. ${jinjaModule().jinjaSyntaxErrorText(rendered)}`;
      note = message;
    } else {
      // Anything else escapes the handler: the part-handler runner logs it (with a traceback) and goes on.
      message = `Failed calling handler JinjaTemplatePartHandler: [['${JINJA_TYPE}']] (${JINJA_TYPE}, ${part.filename}, 3) with frequency once-per-instance`;
      note = `Skipped by cloud-init: ${rendered.exception ?? 'Exception'}: ${rendered.message}.`;
    }
    messages.push({ level: 'warning', message, blob: part.blob, part: part.number, code: 'jinja-failed' });
    return { part, disposition: 'jinja-ignored', jinja: { missingVariables: [], error: rendered.message }, note };
  }
  const jinja: PartReport['jinja'] = { rendered: rendered.text, missingVariables: rendered.missingVariables };
  for (const note of rendered.notes ?? []) {
    messages.push({ level: 'info', message: `${part.filename}: ${note}`, blob: part.blob, part: part.number, code: 'jinja-nondeterministic' });
  }
  if (rendered.missingVariables.length) {
    messages.push({
      level: 'warning',
      message: `Could not render jinja template variables in file '${part.filename}': ${rendered.missingVariables.map((v) => `'${v}'`).join(', ')}`,
      blob: part.blob,
      part: part.number,
      code: 'jinja-missing-variable',
    });
  }
  if (!rendered.text) return { part, disposition: 'jinja-ignored', jinja, note: 'The template renders to nothing: ignored.' };
  const subType = sniffContentType(rendered.text);
  jinja.subType = subType;
  if (subType === CLOUD_CONFIG_TYPE || subType === JSONP_TYPE) {
    // The sub-handler is told the type is text/jinja2, so even a rendered jsonp part is read as YAML.
    const handled = handler.handlePart(JINJA_TYPE, part.filename, rendered.text, part.headerDict, part.number - 1);
    warnIfFailed(handled, part, messages);
    return { part, disposition: handled.merged ? 'merged' : 'failed', handled, jinja, note: noteFor(handled) };
  }
  if (subType === 'text/x-shellscript') return { part, disposition: 'shell-script', jinja, note: 'A rendered shell script: run later, not merged.' };
  const message = `Ignoring jinja template for ${part.filename}. Could not find supported sub-handler for type ${subType === null ? 'None' : subType}`;
  messages.push({ level: 'warning', message, blob: part.blob, part: part.number, code: 'jinja-no-subhandler' });
  return { part, disposition: 'jinja-ignored', jinja, note: message };
}

function warnIfFailed(handled: HandledPart, part: UserDataPart, messages: ProcessingMessage[]): void {
  if (handled.merged || !handled.error) return;
  const message = handled.error.pyType === 'ValueError'
    ? `Failed at merging in cloud config part from ${part.filename}: ${handled.error.message}`
    : `Failed at merging in cloud config part from ${part.filename}`;
  messages.push({ level: 'warning', message, blob: part.blob, part: part.number, span: handled.error.span, code: 'part-failed' });
}

export function noteFor(handled: HandledPart): string {
  if (handled.merged && handled.discarded) {
    return "Counted as merged (it is listed in '# from N files'), but its spec has no dict() merger: everything in it was discarded.";
  }
  if (handled.merged) return 'Merged.';
  const e = handled.error;
  if (!e) return 'Skipped.';
  const why = e.detail ? `${e.message} (${e.detail})` : e.message;
  return `Skipped by cloud-init: ${e.pyType}: ${why}.`;
}

/** `_write_cloud_config`: the exact text of cloud-config.txt. */
export function renderHandlerOutput(
  handler: CloudConfigHandler,
  version: CloudInitVersion = 'current',
  withLines = false,
): { result: PyValue | null; cloudConfigTxt: string; renderError?: string; renderedLines?: DumpLine[] } {
  if (handler.buffer === null) return { result: null, cloudConfigTxt: '' };
  const lines = ['#cloud-config', ''];
  if (handler.fileNames.length) {
    lines.push(`# from ${handler.fileNames.length} files`, ...handler.fileNames.map((n) => `# ${n || '?'}`), '');
  }
  if (atLeast(version, '23.4')) {
    for (const name of handler.valueErrorNames) lines.push(`# Cloud-config part ignored SCHEMA_ERROR: ${name}`);
  }
  let renderedLines: DumpLine[] | undefined;
  let yamlText: string;
  try {
    // PyYAML's representer recurses: cloud-init cannot write a value nested too deep.
    const dumpOptions = { maxLevels: PYTHON_RECURSION.yamlDumpLevels, unshared: !handler.mayShareValues };
    if (withLines) {
      const dumped = dumpPyYamlWithLines(handler.buffer, dumpOptions);
      yamlText = dumped.text;
      renderedLines = dumped.lines;
    } else yamlText = dumpPyYaml(handler.buffer, dumpOptions);
  } catch (e) {
    return { result: handler.buffer, cloudConfigTxt: '', renderError: e instanceof PyError ? `${e.pyType}: ${e.message}` : (e as Error).message };
  }
  // Concatenated, not joined: the YAML can be tens of megabytes, and a join would copy it.
  lines.push('');
  return { result: handler.buffer, cloudConfigTxt: lines.join('\n') + yamlText, ...(renderedLines ? { renderedLines } : {}) };
}
