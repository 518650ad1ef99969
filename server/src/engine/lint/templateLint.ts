/**
 * Findings on Jinja templates, decided by rendering them as cloud-init does (../userdata/jinja.ts)
 * with the chosen instance data: syntax errors at their position, the errors that make cloud-init
 * drop the part, variables it cannot find (it writes `CI_MISSING_JINJA_VAR/<name>`), and YAML that
 * only breaks once rendered, reported at the template line that produced it, and the schema errors of the
 * rendered cloud-config at the lines that wrote them. Also `{{ }}`/`{% %}`
 * in a cloud-config without the `## template: jinja` line, which cloud-init keeps as literal text.
 */
import { nearest, type Finding, type Fix } from '../findings/findings';
import { coded } from '../findings/codes';
import { pushAll } from '../arrays';
import { atLeast, type CloudInitVersion } from '../version/versions';
import type { TextSpan } from '../py/values';
import { loadYaml } from '../yaml/load';
import { PyDict } from '../py/values';
import { schemaFindings, type SchemaBudget } from './schemaLint';
import { renderCloudInitJinja, type JinjaRenderResult } from '../userdata/jinja';
import { MISSING_VARIABLE_PREFIX } from '../userdata/templater';
import { DICT_METHOD_NAMES, standardChoice, standardPathKind, standardVariables, templateVariables, valueAtPath, type InstanceDataChoice } from '../template/instanceData';
import { TEMPLATE_GLOBALS, assignedNames, scanTags, variableReferences, type VariableReference } from '../template/tags';

export interface TemplateContext {
  instanceData: InstanceDataChoice;
  version: CloudInitVersion;
  /** Also validate the rendered cloud-config against cloud-init's schema (findings at the template lines). */
  schema?: boolean;
  /** A file read_conf reads (cloud.cfg, cloud.cfg.d) rather than a user-data part. */
  configFile?: boolean;
  /** The document's schema budget, when it is one part of a larger document. */
  schemaBudget?: SchemaBudget;
}

/** How cloud-init renders one expression alone (`{{ expr }}`) with the chosen data. */
export type ExpressionVerdict =
  | { kind: 'value'; text: string }
  | { kind: 'missing'; text: string }
  | { kind: 'error'; exception: string; message: string }
  | { kind: 'unknown'; message: string };

const HEADER = '## template: jinja\n';

/** Renders `{{ expression }}` as cloud-init would with this data. */
export function expressionVerdict(expression: string, context: TemplateContext): ExpressionVerdict {
  const result = renderCloudInitJinja(`${HEADER}{{ ${expression} }}`, context.instanceData.data ?? {}, { version: context.version });
  if (result.ok) return result.missingVariables.length ? { kind: 'missing', text: result.text } : { kind: 'value', text: result.text };
  if (result.reason === 'unsupported' || result.reason === 'syntax') return { kind: 'unknown', message: result.message };
  return { kind: 'error', exception: result.exception ?? 'Exception', message: result.message };
}

/** A verdict in words, for hovers and messages. */
export function describeVerdict(verdict: ExpressionVerdict): string {
  switch (verdict.kind) {
    case 'value':
      return `cloud-init writes \`${shorten(verdict.text)}\``;
    case 'missing':
      return `undefined: cloud-init writes \`${shorten(verdict.text)}\` and warns "Could not render jinja template variables"`;
    case 'error':
      return `rendering raises ${verdict.exception}: ${verdict.message}; cloud-init then drops the whole part`;
    case 'unknown':
      return verdict.message;
  }
}

function shorten(text: string): string {
  const oneLine = text.replace(/\n/g, '⏎');
  return oneLine.length > 200 ? oneLine.slice(0, 200) + '…' : oneLine;
}

function lineSpan(text: string, offset: number): TextSpan {
  const at = Math.max(0, Math.min(offset, text.length));
  const start = text.lastIndexOf('\n', at - 1) + 1;
  let end = text.indexOf('\n', at);
  if (end < 0) end = text.length;
  if (end > start && text[end - 1] === '\r') end--;
  return { start, end: Math.max(end, start) };
}

/** The instance-data paths a template reads, without the names it binds itself. */
export function instanceReferences(text: string): VariableReference[] {
  const tags = scanTags(text);
  const local = assignedNames(text, tags);
  return variableReferences(text, tags).filter((r) => !local.has(r.root) && !TEMPLATE_GLOBALS.has(r.root));
}

/** Findings for a `## template: jinja` document (the whole text, header line included). */
export function templateFindings(text: string, context: TemplateContext): Finding[] {
  const findings: Finding[] = [];
  const header = lineSpan(text, 0);
  const chosen = context.instanceData;
  if (chosen.problem) {
    findings.push({ ...coded('jinja-instance-data'), span: header, message: `The instance data cannot be used: ${chosen.problem}. Only the keys of v1, which every cloud has, are checked.` });
  }
  // Without chosen data the syntax is checked, and the `v1` keys (the same on every cloud); hovers say how to choose.
  const checkVariables = chosen.data !== undefined;
  if (!checkVariables) pushAll(findings, standardKeyFindings(text, context.version));
  const result = renderCloudInitJinja(text, checkVariables ? chosen.data : {}, { version: context.version, trackOrigins: true });
  if (!result.ok) {
    const failure = renderFailure(text, result, chosen.label, header, context.configFile === true, context.version);
    if (failure && result.exception === 'UndefinedError') {
      // `ds.meta_dta.hostname`: a misspelt step on the failing line, fixed as an undefined variable is.
      const variables = templateVariables(chosen);
      const fixes = instanceReferences(text)
        .filter((r) => r.start <= failure.span.end && r.end >= failure.span.start)
        .map((r) => nearestPathFix(r, variables))
        .filter((f): f is Fix => f !== undefined);
      if (fixes.length) failure.fixes = fixes;
    }
    if (failure && (checkVariables || result.reason === 'syntax' || result.reason === 'unsupported' || result.reason === 'not-jinja')) findings.push(failure);
    else if (failure && result.reason === 'undefined' && !chosen.problem && !findings.some((f) => f.code === 'jinja-undefined-variable' && f.span.start <= failure.span.end && f.span.end >= failure.span.start)) {
      // No instance data chosen: what the preview and Show Rendered Part show (a render with none), said where
      // it fails, as information: at boot cloud-init renders the part with the instance's own data.
      findings.push({
        ...coded('jinja-not-checked'),
        span: failure.span,
        message: `Without instance data this raises ${result.exception}: ${result.message}. ${failureConsequence('undefined', context.configFile === true, context.version)}, as the preview shows; at boot cloud-init renders it with the instance's own data. Choose instance data (a sample such as aws, or a file: setting cloudConfigMerge.instanceData, --instance-data) to check it as rendered.`,
      });
    }
    return findings;
  }
  if (checkVariables && result.missingVariables.length) pushAll(findings, undefinedVariables(text, result.missingVariables, context));
  if (checkVariables) {
    const yaml = loadYaml(result.text);
    if (yaml.ok && context.schema && yaml.value instanceof PyDict && /^#cloud-config\s*$/m.test(result.text.split('\n', 1)[0])) {
      const toTemplate = result.payloadOffsetOf ?? (() => 0);
      for (const f of schemaFindings(yaml.value, yaml.rootSpan, 0, context.version, result.text, context.schemaBudget)) {
        // Fixes would edit the rendered text: left out; the finding sits on the template line that wrote the value.
        findings.push({ code: f.code, severity: f.severity, span: lineSpan(text, toTemplate(f.span.start)), message: `Rendered with ${chosen.label}: ${f.message}`, deprecated: f.deprecated });
      }
    }
    if (!yaml.ok && yaml.error.kind !== 'limit' && yaml.error.kind !== 'expansion') {
      const at = result.payloadOffsetOf ? result.payloadOffsetOf(yaml.error.span.start) : 0;
      findings.push({
        ...coded('jinja-rendered-yaml-invalid'),
        span: lineSpan(text, at),
        message: `Rendered with ${chosen.label}, this line gives YAML cloud-init cannot load: ${yaml.error.message}. ${failureConsequence('rendered-yaml', context.configFile === true, context.version)}.`,
      });
    }
  }
  return findings;
}

/**
 * What cloud-init does after a template fails: a user-data part is dropped by its handler; a file that
 * read_conf reads (cloud.cfg.d) fares as engine/system/readConf.ts reproduces, by version.
 */
function failureConsequence(reason: 'syntax' | 'undefined' | 'runtime' | 'rendered-yaml', configFile: boolean, version: CloudInitVersion): string {
  if (!configFile) {
    if (reason === 'syntax') return 'cloud-init cannot render this part and drops it';
    if (reason === 'undefined') return 'cloud-init logs "Ignoring jinja template" and drops the part';
    if (reason === 'runtime') return "cloud-init's handler fails and the part is dropped";
    return 'cloud-init then skips this whole part';
  }
  const stageFails = 'read_conf lets the error through and the cloud-init stage fails';
  if (reason === 'syntax') return atLeast(version, '24.4') ? 'read_conf logs a warning and loads the file unrendered, as YAML' : stageFails;
  if (reason === 'undefined') return !atLeast(version, '24.4') ? 'cloud-init logs "Ignoring jinja template" and reads this file as empty' : "read_conf then fails ('NoneType' object has no attribute 'decode') and the cloud-init stage fails";
  if (reason === 'runtime') return stageFails;
  return 'cloud-init logs "Failed loading yaml blob" and reads this file as empty';
}

function renderFailure(text: string, result: Extract<JinjaRenderResult, { ok: false }>, label: string, header: TextSpan, configFile: boolean, version: CloudInitVersion): Finding | null {
  const span = result.offset !== undefined ? lineSpan(text, result.offset) : header;
  switch (result.reason) {
    case 'syntax':
      return { ...coded('jinja-syntax'), span, message: `Jinja ${result.exception ?? 'TemplateSyntaxError'}: ${result.message.replace(/\.$/, '')}. ${failureConsequence('syntax', configFile, version)}.` };
    case 'undefined':
    case 'type':
    case 'security':
      return {
        ...coded('jinja-render-error'),
        span,
        message: `Rendered with ${label}, this raises ${result.exception}: ${result.message}. ${failureConsequence('undefined', configFile, version)}.`,
      };
    case 'runtime':
      return { ...coded('jinja-render-error'), span, message: `Rendered with ${label}, this raises ${result.exception}: ${result.message}. ${failureConsequence('runtime', configFile, version)}.` };
    case 'not-jinja':
      return {
        ...coded('jinja-render-error'),
        span: header,
        message: `cloud-init takes this for a Jinja template, but detect_template rejects its first line (${result.exception}: ${result.message}): ${configFile ? 'the error leaves read_conf and the cloud-init stage fails' : 'the Jinja handler fails and the part is dropped'}.`,
      };
    case 'unsupported':
      return { ...coded('jinja-not-checked'), span, message: `Not checked: ${result.message}.` };
    default:
      return null;
  }
}

/**
 * Whether cloud-init's list of missing variables can hold `name`: it lists each undefined as the run of
 * characters up to the next space it printed (`{{ v1.regoin }}"` gives `regoin"`), so an entry starts with it.
 */
function listedAsMissing(sortedMissing: readonly string[], name: string): boolean {
  let low = 0;
  let high = sortedMissing.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sortedMissing[mid] < name) low = mid + 1;
    else high = mid;
  }
  return low < sortedMissing.length && sortedMissing[low].startsWith(name);
}

/** Each path whose value is missing, at the place it is written. */
function undefinedVariables(text: string, missing: readonly string[], context: TemplateContext): Finding[] {
  const findings: Finding[] = [];
  const sortedMissing = [...new Set(missing)].sort();
  const verdicts = new Map<string, ExpressionVerdict>();
  const variables = templateVariables(context.instanceData);
  for (const ref of instanceReferences(text)) {
    // An undefined prints the name it was looked up by: only those paths can be the missing ones.
    const last = ref.steps[ref.steps.length - 1];
    if (!listedAsMissing(sortedMissing, last === undefined ? ref.root : last.kind === 'attr' ? last.name : String(last.key))) continue;
    let verdict = verdicts.get(ref.text);
    if (!verdict) verdicts.set(ref.text, (verdict = expressionVerdict(ref.text, context)));
    if (verdict.kind !== 'missing') continue;
    const written = verdict.text.startsWith(MISSING_VARIABLE_PREFIX) ? verdict.text.slice(MISSING_VARIABLE_PREFIX.length) : verdict.text;
    if (!listedAsMissing(sortedMissing, written)) continue;
    const finding: Finding = {
      ...coded('jinja-undefined-variable'),
      span: { start: ref.start, end: ref.end },
      message: `${ref.text} is not in the instance data (${context.instanceData.label}): cloud-init writes ${verdict.text} here and warns "Could not render jinja template variables".`,
    };
    const fix = nearestPathFix(ref, variables);
    if (fix) finding.fixes = [fix];
    findings.push(finding);
  }
  return findings;
}

/**
 * Without chosen instance data: each `v1.KEY` whose key is not one cloud-init writes on every cloud, which is
 * undefined wherever the template runs (what cloud-init then does: the path rendered alone with `v1` only).
 */
function standardKeyFindings(text: string, version: CloudInitVersion): Finding[] {
  const findings: Finding[] = [];
  const variables = standardVariables(version);
  const verdicts = new Map<string, ExpressionVerdict>();
  const context: TemplateContext = { instanceData: standardChoice(version), version };
  for (const ref of instanceReferences(text)) {
    if (ref.root !== 'v1' || standardPathKind(ref.root, ref.steps, version) !== 'not-standard') continue;
    // The path up to the unknown key: what follows it cannot change that it is undefined.
    const end = ref.stepEnds[1];
    const path = { ...ref, steps: ref.steps.slice(0, 1), stepEnds: ref.stepEnds.slice(0, 2), end, text: text.slice(ref.start, end) };
    let verdict = verdicts.get(ref.text);
    if (!verdict) verdicts.set(ref.text, (verdict = expressionVerdict(ref.text, context)));
    const what = verdict.kind === 'missing' ? `where it is printed, cloud-init writes \`${shorten(verdict.text)}\` and warns "Could not render jinja template variables"` : describeVerdict(verdict);
    const finding: Finding = {
      ...coded('jinja-undefined-variable'),
      span: { start: path.start, end: path.end },
      message: `${path.text} is not one of the v1 keys cloud-init writes on every cloud, so it is undefined wherever this template runs: ${what}.`,
    };
    const fix = nearestPathFix(path, variables);
    if (fix) finding.fixes = [fix];
    findings.push(finding);
  }
  return findings;
}

/**
 * A misspelt step (`v1.local_hostnme`, `ds.meta_dta.hostname`): the closest key the instance data has
 * at the first step it lacks, written so that Jinja reaches it (`.key`, or `['key']` where a dot
 * cannot).
 */
function nearestPathFix(ref: VariableReference, variables: Record<string, unknown> | null): Fix | undefined {
  if (!variables) return undefined;
  // The first step the data lacks: 0 is the root name, n the n-th step after it.
  let missing = 0;
  while (missing <= ref.steps.length && valueAtPath(variables, ref.root, ref.steps.slice(0, missing)) !== undefined) missing++;
  if (missing > ref.steps.length) return undefined;
  const step = missing === 0 ? undefined : ref.steps[missing - 1];
  const parent = step ? valueAtPath(variables, ref.root, ref.steps.slice(0, missing - 1)) : variables;
  if (!parent || typeof parent !== 'object' || Array.isArray(parent)) return undefined;
  const keys = Object.keys(parent);
  const written = step === undefined ? ref.root : step.kind === 'attr' ? step.name : String(step.key);
  const suggestion = nearest(written, step === undefined ? keys.filter((k) => IDENTIFIER.test(k)) : keys);
  if (suggestion === undefined || suggestion === written) return undefined;
  const start = step === undefined ? ref.start : ref.stepEnds[missing - 1];
  const end = ref.stepEnds[missing];
  const newText = step === undefined ? suggestion : IDENTIFIER.test(suggestion) && !DICT_METHOD_NAMES.has(suggestion) ? `.${suggestion}` : `['${suggestion.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
  return { title: `Change ${ref.text.slice(start - ref.start, end - ref.start)} to ${newText}`, edits: [{ span: { start, end }, newText }], preferred: true };
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Top-level names of instance data, and cloud-init's top-level copies of the `v1` keys. */
let instanceDataRoots: ReadonlySet<string> | undefined;
function isInstanceDataRoot(name: string): boolean {
  instanceDataRoots ??= new Set(['v2', 'ds', 'merged_cfg', 'merged_system_cfg', 'sys_info', 'system_info', 'features', 'base64_encoded_keys', 'sensitive_keys', ...Object.keys(standardVariables('current'))]);
  return instanceDataRoots.has(name);
}

/** `{{ … }}` / `{% … %}` in a cloud-config that cloud-init does not render (no `## template: jinja` line). */
export function literalTemplateFindings(text: string): Finding[] {
  const findings: Finding[] = [];
  for (const tag of scanTags(text)) {
    if (tag.kind === 'comment' || !tag.closed) continue;
    const lineStart = text.lastIndexOf('\n', tag.start - 1) + 1;
    // A YAML comment line: nothing cloud-init reads.
    if (/^\s*#/.test(text.slice(lineStart, tag.start))) continue;
    const root = /^[-+]?\s*([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(tag.start + 2, tag.end))?.[1] ?? '';
    findings.push({
      // Other tools' templates (Go, Ansible) in file contents are fine; instance-data names are a forgotten header.
      ...coded('jinja-without-header', isInstanceDataRoot(root) ? 'warning' : 'info'),
      span: { start: tag.start, end: tag.end },
      message: `${tag.kind === 'variable' ? '{{ … }}' : '{% … %}'} stays literal text: this part does not start with "## template: jinja", so cloud-init does not render it.`,
    });
    if (findings.length >= 100) break;
  }
  return findings;
}
