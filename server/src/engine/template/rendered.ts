/**
 * The "rendered part" view of a `## template: jinja` document: a few comment lines saying which
 * instance data was used, then exactly the text cloud-init hands on to the part's handler; or,
 * when cloud-init would not render it, what it does instead and why.
 */
import { renderCloudInitJinja } from '../userdata/jinja';
import type { CloudInitVersion } from '../spec/parse';
import type { InstanceDataChoice } from './instanceData';
import { SAMPLE_NAMES } from './samples';

export interface RenderedPart {
  text: string;
  /** The rendered text alone ('' when cloud-init renders nothing). */
  body: string;
  ok: boolean;
}

/** First line of every rendered view, so a reader never takes it for the template itself. */
export const RENDERED_TITLE = '# Rendered by Cloud-Config Merge as cloud-init renders this part';

/** @param where which part of a multipart this is, said under the title (omitted for a whole document) */
export function renderedPart(payload: string, choice: InstanceDataChoice, version: CloudInitVersion, where?: string): RenderedPart {
  const header = [RENDERED_TITLE, ...(where ? [`# ${where}`] : []), `# cloud-init ${version}, instance data: ${choice.label}`];
  if (choice.problem) header.push(`# The instance data cannot be used (${choice.problem}): rendered with {} instead.`);
  else if (choice.data === undefined) header.push(`# No instance data chosen (setting cloudConfigMerge.instanceData: a JSON file or ${SAMPLE_NAMES.join(', ')}): rendered with {}.`);
  const result = renderCloudInitJinja(payload, choice.data ?? {}, { version });
  if (!result.ok) {
    const where = result.line !== undefined ? ` (line ${result.line + 1} of the document)` : '';
    const lines = [...header, `# cloud-init does not render this part: ${result.exception ? result.exception + ': ' : ''}${result.message}${where}`.replace(/[\r\n]+/g, ' ')];
    lines.push(result.reason === 'unsupported' ? '# (this tool cannot reproduce it; cloud-init would render it)' : '# The part is dropped: nothing of it reaches the merged cloud-config.');
    return { text: lines.join('\n') + '\n', body: '', ok: false };
  }
  if (result.missingVariables.length) header.push(`# cloud-init warns: Could not render jinja template variables: ${result.missingVariables.map((v) => `'${v}'`).join(', ')}`);
  header.push('# ---');
  return { text: header.join('\n') + '\n' + result.text, body: result.text, ok: true };
}
