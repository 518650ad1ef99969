/**
 * Hover on an instance-data variable in a `## template: jinja` document: what cloud-init writes
 * for it with the chosen instance data (`cloudConfigMerge.instanceData`), its value, or that it is
 * undefined and what cloud-init renders then (`CI_MISSING_JINJA_VAR/<name>`, or the error that
 * makes it drop the part). The verdict comes from rendering `{{ path }}` as cloud-init does. Without chosen
 * data, what every cloud has: whether a `v1` key is one of cloud-init's standardized keys; other paths are
 * said to be unchecked.
 */
import type { TextSpan } from '../engine/py/values';
import { referenceAt } from '../engine/template/assist';
import { standardChoice, standardPathKind, standardV1Keys, templateVariables, valueAtPath, type InstanceDataChoice } from '../engine/template/instanceData';
import { describeVerdict, expressionVerdict } from '../engine/lint/templateLint';
import { SAMPLE_NAMES } from '../engine/template/samples';
import { assignedNames, scanTags } from '../engine/template/tags';
import type { DocumentState } from './common/analysisCache';
import { inTemplate } from './common/templateParts';

/** Longest JSON shown for a value in a hover. */
const MAX_VALUE_TEXT = 1500;

export function jinjaHoverAt(state: DocumentState, offset: number, choice: InstanceDataChoice): { markdown: string; span: TextSpan } | null {
  if (!inTemplate(state, offset)) return null;
  const ref = referenceAt(state.text, offset);
  if (!ref) return null;
  const span = { start: ref.start, end: ref.end };
  const local = state.memo('jinjaAssigned', () => assignedNames(state.text, scanTags(state.text)));
  if (local.has(ref.root)) return { markdown: `**${ref.root}** is set by this template (\`set\`, \`for\` or \`with\`), not read from the instance data.`, span };
  const title = `**${ref.text}**`;
  if (choice.data === undefined) {
    const why = choice.problem ? `The instance data cannot be used: ${choice.problem}.` : 'No instance data is chosen.';
    const version = state.settings.cloudInitVersion;
    const choose = `Set \`cloudConfigMerge.instanceData\` to a JSON file or a sample (${SAMPLE_NAMES.join(', ')})`;
    switch (standardPathKind(ref.root, ref.steps, version)) {
      case 'standard':
        return { markdown: `${title}: cloud-init writes this under \`v1\` on every cloud; its value depends on the instance.\n\n${why} ${choose} to see its value here.`, span };
      case 'not-standard': {
        const verdict = expressionVerdict(ref.text, { instanceData: standardChoice(version), version });
        return { markdown: `${title} is not one of the keys cloud-init writes under \`v1\` on every cloud (${standardV1Keys(version).map((k) => `\`${k}\``).join(', ')}): ${describeVerdict(verdict)}.`, span };
      }
      case 'unchecked':
        return {
          markdown: `${title}\n\n${why} Only cloud-init's standardized \`v1\` keys, the same on every cloud, are checked without it; \`ds\` and the other paths differ from cloud to cloud and are not checked. On an instance cloud-init renders this from /run/cloud-init/instance-data-sensitive.json. ${choose} to check it and see its value here.`,
          span,
        };
    }
  }
  const context = { instanceData: choice, version: state.settings.cloudInitVersion };
  const verdict = state.memo(`jinjaVerdict:${ref.text}`, () => expressionVerdict(ref.text, context));
  let markdown = `${title} with ${choice.label}: ${describeVerdict(verdict)}.`;
  const variables = state.memo('jinjaVariables', () => templateVariables(choice));
  const value = variables ? valueAtPath(variables, ref.root, ref.steps) : undefined;
  if (verdict.kind === 'value' && value !== null && typeof value === 'object') markdown += `\n\n\`\`\`json\n${jsonPreview(value)}\n\`\`\``;
  return { markdown, span };
}

function jsonPreview(value: unknown): string {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v instanceof Uint8Array ? `<${v.length} bytes>` : v), 2) ?? '';
  return text.length > MAX_VALUE_TEXT ? text.slice(0, MAX_VALUE_TEXT) + '\n…' : text;
}
