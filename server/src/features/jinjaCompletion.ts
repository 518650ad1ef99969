/**
 * Completion inside the `{{ … }}` and `{% … %}` tags of a `## template: jinja` document: the keys of
 * the chosen instance data (without any: the `v1` keys every cloud has) after `name.` (a key a dot cannot reach, or that a dict method shadows,
 * is inserted as `['key']` in place of the dot), the top-level variables (cloud-init's aliases such
 * as the `v1` keys and the underscore forms of dashed keys included) and Jinja's globals where an
 * expression starts, Jinja's filters after `|` and its tests after `is`.
 */
import { CompletionItem, CompletionItemKind, Range } from 'vscode-languageserver';
import { FILTER_NAMES, TEST_NAMES, nameCompletions, pathCompletions, templateCursorAt } from '../engine/template/assist';
import { standardVariables, templateVariables, type InstanceDataChoice } from '../engine/template/instanceData';
import { FILTER_SUMMARIES, TEST_SUMMARIES } from '../engine/template/jinjaNames';
import type { DocumentState } from './common/analysisCache';
import { inTemplate } from './common/templateParts';

/** Typed in a template: a path goes on after `.`, a filter after `|`. */
export const JINJA_TRIGGER_CHARACTERS = ['.', '|'];

/** Most characters of a value shown beside a completion item. */
const MAX_DETAIL = 80;

/** Items for the cursor, or null when it is not inside a template tag (other completions then apply). */
export function jinjaCompletionItems(state: DocumentState, offset: number, choice: InstanceDataChoice): CompletionItem[] | null {
  if (!inTemplate(state, offset)) return null;
  const cursor = templateCursorAt(state.text, offset);
  if (!cursor) return null;
  const replace = (start: number): Range => ({ start: state.positionAt(start), end: state.positionAt(offset) });
  // Without chosen data, the names every instance has: `v1` and its standardized keys (their values unknown).
  const standard = choice.data === undefined;
  const version = state.settings.cloudInitVersion;
  const variables = standard ? standardVariables(version) : state.memo('jinjaVariables', () => templateVariables(choice));
  const detailOf = (value: unknown) => (standard ? STANDARD_DETAIL : valueDetail(value));
  switch (cursor.kind) {
    case 'filter':
      return FILTER_NAMES.map((name) => ({ label: name, kind: CompletionItemKind.Function, detail: `Jinja filter: ${FILTER_SUMMARIES[name] ?? name}`, textEdit: { range: replace(cursor.replaceStart), newText: name } }));
    case 'test':
      return TEST_NAMES.map((name) => ({ label: name, kind: CompletionItemKind.Function, detail: `Jinja test: ${TEST_SUMMARIES[name] ?? name}`, textEdit: { range: replace(cursor.replaceStart), newText: name } }));
    case 'name':
      return nameCompletions(variables).map(({ name, global, value }) => ({
        label: name,
        kind: global ? CompletionItemKind.Function : CompletionItemKind.Variable,
        detail: global ? 'Jinja global' : standard ? STANDARD_DETAIL : `${valueDetail(value)} (${choice.label})`,
        textEdit: { range: replace(cursor.replaceStart), newText: name },
      }));
    case 'path': {
      if (!variables) return [];
      return pathCompletions(variables, cursor.root, cursor.steps).map(({ key, form, value }) => {
        const item: CompletionItem = { label: key, kind: value !== null && typeof value === 'object' ? CompletionItemKind.Module : CompletionItemKind.Field, detail: detailOf(value) };
        if (form === 'attr') item.textEdit = { range: replace(cursor.replaceStart), newText: key };
        else {
          item.textEdit = { range: replace(cursor.dotAt), newText: `[${pyStringLiteral(key)}]` };
          item.filterText = `.${key}`;
        }
        return item;
      });
    }
  }
}

/** Beside a standardized name when no instance data is chosen. */
const STANDARD_DETAIL = 'on every cloud; its value depends on the instance (choose instance data to see it)';

function valueDetail(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (Array.isArray(value)) return `list of ${value.length}`;
  if (typeof value === 'object') return `dict of ${Object.keys(value).length}`;
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean' ? String(value) : typeof value;
  return text.length > MAX_DETAIL ? text.slice(0, MAX_DETAIL) + '…' : text;
}

/** A Python string literal for a key (single quotes, as cloud-init's docs write them). */
function pyStringLiteral(key: string): string {
  return `'${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
