/**
 * cloud-init's templater.py, its Jinja side: which template type a payload's first line asks for
 * (detect_template), whether a user-data part goes to the Jinja handler at all, and
 * render_jinja/render_string: the source Jinja sees, the trailing newline cloud-init puts back, and the `CI_MISSING_JINJA_VAR/<name>` text its undefined class prints.
 * Jinja itself is ../jinja/; what the part handler does around this is ./jinja.ts.
 *
 * Residual differences: the `basic` (Cheetah-less) renderer is not implemented: such payloads are
 * reported by the callers, never rendered.
 */
import { fromString, renderTemplate, type OutputOrigin } from '../jinja/environment';
import type { JDict } from '../jinja/values';
import { pyStrRepr } from '../py/repr';
import { PY_SPACE_CLASS_BODY, PY_WS_CLASS, pyStripChars } from '../py/str';
import { JINJA_CONTENT_TYPE, sniffContentType } from './sniff';

export const TYPE_MATCHER = new RegExp(`^##${PY_WS_CLASS}*template:([^\\n]*)`, 'i');

/** templater.detect_template: 'jinja', 'basic', or the ValueError for another type. */
export function detectTemplate(payload: string): { type: 'jinja' | 'basic'; rest: string } | { error: string } {
  const nl = payload.indexOf('\n');
  const ident = nl >= 0 ? payload.slice(0, nl) : payload;
  const rest = nl >= 0 ? payload.slice(nl + 1) : '';
  const m = TYPE_MATCHER.exec(ident);
  if (!m) return { type: 'basic', rest: payload };
  const t = pyStripChars(m[1].toLowerCase(), null, true, true);
  if (t !== 'jinja' && t !== 'basic') return { error: `Unknown template rendering type ${pyStrRepr(t)} requested` };
  return { type: t, rest };
}

/**
 * detect_template's header test: does cloud-init render this payload with Jinja? This alone decides
 * for files read_conf reads (cloud.cfg, cloud.cfg.d) and for parts already routed to the Jinja handler.
 */
export function isJinjaTemplate(payload: string): boolean {
  const d = detectTemplate(payload);
  return 'type' in d && d.type === 'jinja';
}

/**
 * read_conf's view of a config file (cloud.cfg, cloud.cfg.d), given instance data: true when the
 * renderer takes it (a jinja header; or a header naming a type cloud-init refuses, whose ValueError
 * leaves read_conf), false when it is loaded as written (no header, `## template: basic`).
 */
export function configFileIsTemplate(text: string): boolean {
  const d = detectTemplate(text);
  return !('type' in d && d.type === 'basic');
}

/**
 * Is this user-data payload a Jinja part? cloud-init routes it by its content type (sniffed from a
 * lowercased, left-stripped prefix); the handler then asks detect_template, which fails such a part
 * whose first line is not a template header (leading blanks, `## template: jinja2`).
 */
export function isJinjaPart(payload: string): boolean {
  return sniffContentType(payload) === JINJA_CONTENT_TYPE;
}

/** What cloud-init's undefined class prints for a variable it cannot find. */
export const MISSING_VARIABLE_PREFIX = 'CI_MISSING_JINJA_VAR/';

export const MISSING_RE = new RegExp(`${MISSING_VARIABLE_PREFIX}[^${PY_SPACE_CLASS_BODY}]+`, 'g');

/** The source Jinja's lexer works on: every newline is "\n" and one trailing newline is dropped. */
export function jinjaSource(content: string): string {
  const lines = content.split(/\r\n|\r|\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/**
 * render_string(content, params): the rendered text (with the newline cloud-init puts back) and
 * the missing variables its warning lists, in order, duplicates kept. Throws what Jinja raises.
 */
export function renderJinjaString(
  content: string,
  params: JDict,
  sandbox: boolean,
  trackOrigins = false,
): { text: string; missingVariables: string[]; notes: string[]; origins?: OutputOrigin[] } {
  const rendered = renderTemplate(fromString(jinjaSource(content), sandbox), params, trackOrigins);
  const text = rendered.text + (content.endsWith('\n') ? '\n' : '');
  const missingVariables = (text.match(MISSING_RE) ?? []).map((m) => m.split(MISSING_VARIABLE_PREFIX).join(''));
  return rendered.origins ? { text, missingVariables, notes: rendered.notes, origins: rendered.origins } : { text, missingVariables, notes: rendered.notes };
}
