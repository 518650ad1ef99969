/**
 * Code actions: every finding's ready-made fixes as quick fixes (with the
 * diagnostic attached), and two refactors: convert a spec between the
 * string form and the list form (only where the conversion cannot change
 * what cloud-init does), and add a spec that appends lists to a
 * cloud-config that has none, on a list of its top level (where appending
 * applies: on every line of every file it was only noise).
 */
import { CodeAction, CodeActionKind, CodeActionParams, Command, Diagnostic, Range, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { PyDict, PyValue, TextSpan } from '../engine/py/values';
import { SpecSite } from '../engine/lint/analyzeDocument';
import { Finding } from '../engine/findings/findings';
import { ServerContext } from './common/context';
import { DocumentState } from './common/analysisCache';
import { guardRequest } from './common/guard';
import { DIAGNOSTIC_SOURCE, rangesTouch, sameRange, toDiagnostic } from './common/ranges';
import { RECIPES } from '../engine/spec/catalogue';
import { pushAll } from '../engine/arrays';

export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite];
const APPEND_LISTS = RECIPES[0].spec;

/** Quick fixes other features add (the fates' "keep both" specs): one provider per feature. */
export type QuickFixProvider = (document: TextDocument, range: Range, diagnostics: Diagnostic[]) => CodeAction[];

export function registerCodeActions(ctx: ServerContext, providers: QuickFixProvider[] = []): void {
  ctx.connection.onCodeAction(
    guardRequest(ctx.log, 'codeActions', (params: CodeActionParams): Array<CodeAction | Command> | null => {
      const document = ctx.documents.get(params.textDocument.uri);
      if (!document) return null;
      const state = ctx.state(document);
      const actions = codeActionsFor(state, params.range, params.context.diagnostics, params.context.only);
      const only = params.context.only;
      if (!only?.length || only.some((o) => CodeActionKind.QuickFix === o || CodeActionKind.QuickFix.startsWith(o + '.'))) {
        for (const provide of providers) pushAll(actions, provide(document, params.range, params.context.diagnostics));
      }
      if (ctx.support.codeActionLiterals) return actions;
      // Very old clients only take commands; edits cannot be expressed that way, so offer nothing.
      return [];
    }),
  );
}

export function codeActionsFor(state: DocumentState, range: Range, contextDiagnostics: Diagnostic[], only?: string[]): CodeAction[] {
  const wants = (kind: string) => !only?.length || only.some((o) => kind === o || kind.startsWith(o + '.'));
  const actions: CodeAction[] = [];
  if (wants(CodeActionKind.QuickFix)) pushAll(actions, quickFixes(state, range, contextDiagnostics));
  if (wants(CodeActionKind.RefactorRewrite)) pushAll(actions, [...conversions(state, range), ...addSpec(state, range)]);
  return actions;
}

function quickFixes(state: DocumentState, range: Range, contextDiagnostics: Diagnostic[]): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const finding of state.analysis.findings) {
    if (!finding.fixes?.length) continue;
    const own = toDiagnostic(state, finding);
    // The client's copy of the diagnostic when it sent one (same code and range), else ours.
    const sent = contextDiagnostics.find((d) => d.source === DIAGNOSTIC_SOURCE && d.code === finding.code && sameRange(d.range, own.range));
    if (!sent && !rangesTouch(own.range, range)) continue;
    for (const fix of finding.fixes) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [sent ?? own],
        isPreferred: !!fix.preferred,
        edit: { changes: { [state.uri]: fix.edits.map((e) => TextEdit.replace(state.range(e.span), e.newText)) } },
      });
    }
  }
  return actions;
}

/* ------------------------------------------------------------------ string ⇄ list form */

const WORD = /^[a-z_][a-z0-9_]*$/;

function conversions(state: DocumentState, range: Range): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const site of state.analysis.specs) {
    if (site.headerName || !site.keySpan) continue;
    const siteRange = state.range({ start: site.keySpan.start, end: site.valueSpan.end });
    if (!rangesTouch(siteRange, range)) continue;
    // Only a block-mapping key at the start of its line can take a block value.
    if (state.positionAt(site.keySpan.start).character !== 0) continue;
    const colon = state.text.indexOf(':', site.keySpan.end);
    if (colon < 0) continue;
    if (site.form === 'string') {
      const list = stringToList(site);
      if (!list) continue;
      const outer = site.spans?.outer ?? site.valueSpan;
      // A comment after the value stays on the key's line.
      const comment = /^[ \t]+#[^\r\n]*/.exec(state.text.slice(outer.end));
      const end = outer.end + (comment?.[0].length ?? 0);
      const text = `${comment ? ` ${comment[0].trim()}` : ''}\n${list.map((m) => `  - name: ${m.name}\n    settings: [${m.options.join(', ')}]`).join('\n')}`;
      actions.push(rewrite(state, `Convert ${site.source} to the list form`, { start: colon + 1, end }, text));
    } else {
      const spec = listToString(site.value);
      if (spec === null) continue;
      actions.push(rewrite(state, `Convert ${site.source} to the string form`, { start: colon + 1, end: site.valueSpan.end }, ` ${spec}`));
    }
  }
  return actions;
}

function rewrite(state: DocumentState, title: string, span: TextSpan, newText: string): CodeAction {
  return { title, kind: CodeActionKind.RefactorRewrite, edit: { changes: { [state.uri]: [TextEdit.replace(state.range(span), newText)] } } };
}

/** The list form of a string spec, when cloud-init reads both the same way. */
function stringToList(site: SpecSite): Array<{ name: string; options: string[] }> | null {
  const mergers = site.lint?.spec?.mergers;
  if (!mergers?.length || site.lint?.findings.some((f) => f.severity === 'error')) return null;
  const out: Array<{ name: string; options: string[] }> = [];
  for (const m of mergers) {
    const options = m.options;
    if (typeof m.name !== 'string' || !WORD.test(m.name) || !Array.isArray(options)) return null;
    if (!options.every((o): o is string => typeof o === 'string' && WORD.test(o))) return null;
    out.push({ name: m.name, options });
  }
  return out;
}

/**
 * The string form of a list spec, when cloud-init reads both the same way:
 * string-form names and options are lower-cased and split on `+` `,` `(` `)`,
 * list-form ones are taken as written, so only plain lower-case words convert.
 */
export function listToString(value: PyValue): string | null {
  if (!Array.isArray(value) || !value.length) return null;
  const pieces: string[] = [];
  for (const entry of value) {
    let name: PyValue;
    let options: PyValue;
    if (entry instanceof PyDict) {
      if (entry.keys().some((k) => k !== 'name' && k !== 'settings') || !entry.has('name') || !entry.has('settings')) return null;
      name = entry.get('name') as PyValue;
      options = entry.get('settings') as PyValue;
    } else if (Array.isArray(entry) && entry.length >= 1) {
      name = entry[0];
      options = entry.slice(1);
    } else return null;
    if (typeof name !== 'string' || !WORD.test(name) || !Array.isArray(options)) return null;
    if (!options.every((o): o is string => typeof o === 'string' && WORD.test(o))) return null;
    pieces.push(`${name}(${options.join(',')})`);
  }
  return pieces.join('+');
}

/* ------------------------------------------------------------------ add a spec */

function addSpec(state: DocumentState, range: Range): CodeAction[] {
  const info = state.analysis.info;
  if (!info || !(info.kind === 'cloud-config' || (info.kind === 'jinja' && info.renderedKind === 'cloud-config'))) return [];
  const yaml = state.analysis.yaml;
  if (!yaml?.ok) return [];
  const root = yaml.value;
  if (!(root instanceof PyDict) || root.has('merge_how') || root.has('merge_type')) return [];
  // Only on a top-level key whose value is a list, from its key to its last item.
  const base = state.analysis.yamlBase ?? 0;
  const onList = root.entryList().some((e) => Array.isArray(e.value) && e.origin?.key && rangesTouch(state.range({ start: base + e.origin.key.start, end: base + e.origin.value.end }), range));
  if (!onList) return [];
  if (state.analysis.findings.some((f: Finding) => f.code === 'too-large')) return [];
  // After the `#cloud-config` line, as the first key.
  const header = /^[^\S\n]*#cloud-config[^\n]*(\n|$)/im.exec(state.text);
  if (!header) return [];
  const at = header.index + header[0].length;
  const needsBreak = header[1] === '' ? '\n' : '';
  return [
    {
      title: 'Add a merge spec that appends lists (merge_how)',
      kind: CodeActionKind.RefactorRewrite,
      edit: { changes: { [state.uri]: [TextEdit.insert(state.positionAt(at), `${needsBreak}merge_how: ${APPEND_LISTS}\n`)] } },
    },
  ];
}
