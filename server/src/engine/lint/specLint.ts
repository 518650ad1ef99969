/**
 * Findings on one merge spec, in the words of what cloud-init will do with
 * it. Works on the string form (with the offset of its text in the
 * document) and on the list/dict form (with the spans the YAML loader kept).
 * Parsing and effective settings come from the real engine, so the linter can
 * never disagree with the merge.
 */
import { PyDict, PyValue, TextSpan, pyClassName } from '../py/values';
import { PyError } from '../py/errors';
import { PY_WS_CLASS, isPySpace, pyLStrip, pyRStrip, pyStrip, pyStripSpan } from '../py/str';
import { pyStr, pyStrRepr } from '../py/repr';
import { CloudInitVersion, ParsedMerger, ParsedSpec, SpecError, ValueSpans, parseListSpec, parseStringSpec } from '../spec/parse';
import { constructMergers, MergerFactory } from '../merge/construct';
import { RootMerger } from '../merge/root';
import { MERGER_NAMES, MERGERS, MergerName, OPTION_NAMES, OPTIONS, OptionName, canonicalMergerName, mergerClause } from '../spec/catalogue';
import { Finding, Fix, nearest } from '../findings/findings';
import { pushAll } from '../arrays';
import { coded } from '../findings/codes';

/** Where a spec sits, which decides what a failure costs. */
export type SpecContext = 'part' | 'system';

export interface SpecLintOptions {
  context: SpecContext;
  /** Where the spec came from, for messages. */
  label: string;
  /** Specs combined with this one by cloud-init (the header spec for a body spec and vice versa). */
  companion?: ParsedSpec;
  /** Whether this spec comes first in the combination (body before header). */
  first?: boolean;
  customMergers?: ReadonlyMap<string, MergerFactory>;
  /** Span of the whole spec value (for findings about the spec as a whole). */
  span: TextSpan;
  /** Which cloud-init's error wording to quote. */
  version?: CloudInitVersion;
}

// Whitespace as Python's str.isspace() sees it (U+FEFF is not, \x1c-\x1f are), for messages and fixes.
const PY_WS_RUNS = new RegExp(`${PY_WS_CLASS}+`, 'g');
const SPACE_BEFORE_PAREN = new RegExp(`^([A-Za-z_][\\w-]*)${PY_WS_CLASS}+\\(`);
const PY_WS_OR_COMMA_RUNS = new RegExp(`(?:${PY_WS_CLASS}|,)+`);

const DROPPED = {
  part: 'cloud-init skips this whole part',
  system: 'reading the system configuration fails',
};

interface LintOption {
  text: string;
  span?: TextSpan;
}

interface LintMerger {
  parsed: ParsedMerger;
  canonical?: MergerName;
  /** Option words when settings is a list of strings (always, for the string form). */
  options: LintOption[] | null;
}

export interface SpecLintResult {
  findings: Finding[];
  spec?: ParsedSpec;
  root?: RootMerger;
}

/* ------------------------------------------------------------------ string form */

export function lintStringSpec(text: string, base: number, options: SpecLintOptions): SpecLintResult {
  const findings: Finding[] = [];
  let spec: ParsedSpec | undefined;
  try {
    spec = parseStringSpec(text, base, options.version);
  } catch (e) {
    if (!(e instanceof SpecError)) throw e;
    pushAll(findings, diagnoseStringPieces(text, base, options));
    if (!findings.length) findings.push({ ...coded('spec-rejected'), span: e.span ?? options.span, message: `cloud-init rejects this spec (${e.pyType}: ${e.message}): ${DROPPED[options.context]}.` });
    return { findings };
  }
  if (!spec.mergers.length) {
    findings.push({
      ...coded('empty-spec'),
      span: options.span,
      message: options.context === 'part' ? 'An empty spec: this part uses the default dict(replace)+list()+str().' : 'An empty spec: the default list()+dict()+str() applies.',
    });
    return { findings, spec };
  }
  const mergers: LintMerger[] = spec.mergers.map((m) => ({
    parsed: m,
    canonical: canonicalMergerName(m.name as string),
    options: (m.options as string[]).map((o, i) => ({ text: o, span: m.optionSpans?.[i] })),
  }));
  for (const m of mergers) pushAll(findings, lintOptionText(m, text, base));
  // With a '+' missing, the spec as written is not the one meant: whole-spec advice would mislead,
  // but the consequence of the missing dict() belongs in the message.
  const wholeSpec = !findings.some((f) => f.code === 'missing-plus');
  if (!wholeSpec && !mergers.some((m) => m.canonical === 'dict')) {
    const consequence = options.context === 'part' ? ' As written there is no dict() merger, so cloud-init discards this whole part.' : ' As written there is no dict() merger, so this source is never merged.';
    for (const f of findings) if (f.code === 'missing-plus') f.message += consequence;
  }
  return finish(findings, spec, mergers, options, text, base, wholeSpec);
}

/** Why each piece of a string spec fails cloud-init's pattern, with a fix where one is obvious. */
function diagnoseStringPieces(text: string, base: number, options: SpecLintOptions): Finding[] {
  const findings: Finding[] = [];
  const pieces: Array<{ raw: string; start: number }> = [];
  let at = 0;
  for (const raw of text.split('+')) {
    pieces.push({ raw, start: at });
    at += raw.length + 1;
  }
  const pattern = /^([a-zA-Z_][A-Za-z0-9_]*)\(([^\n]*?)\)$/;
  const consequence = `cloud-init rejects the whole spec (ValueError): ${DROPPED[options.context]}`;
  for (let i = 0; i < pieces.length; i++) {
    const { raw, start } = pieces[i];
    const normal = pyStrip(raw.toLowerCase()).replace(/-/g, '_');
    if (!normal || pattern.test(normal)) continue;
    const [s, e] = pyStripSpan(raw);
    const span = { start: base + start + s, end: base + start + e };
    const piece = raw.slice(s, e);
    const next = pieces[i + 1];
    const edit = (newText: string, title: string): Fix[] => [{ title, edits: [{ span, newText }], preferred: true }];
    if (piece.includes('(') && !piece.includes(')') && next && next.raw.includes(')') && !next.raw.includes('(')) {
      const [, ne] = pyStripSpan(next.raw);
      const whole = { start: span.start, end: base + next.start + ne };
      const inner = text.slice(whole.start - base, whole.end - base);
      findings.push({
        ...coded('plus-in-options'),
        span: whole,
        message: `'${inner}': cloud-init splits specs on every '+', even inside parentheses, so this reads as '${piece}' and '${pyStrip(next.raw)}'; ${consequence}.`,
        fixes: [{ title: `Use ',' between options: ${inner.replace(/\+/g, ',')}`, edits: [{ span: whole, newText: inner.replace(/\+/g, ',') }], preferred: true }],
      });
      i++;
      continue;
    }
    if (/[\r\n]/.test(piece)) {
      findings.push({ ...coded('newline-in-spec'), span, message: `A line break inside '${piece.replace(PY_WS_RUNS, ' ')}': the pattern cloud-init uses does not cross lines; ${consequence}.`, fixes: edit(joinLines(piece), 'Join the lines') });
      continue;
    }
    if (!piece.includes('(')) {
      const name = pyStrip(piece);
      findings.push({ ...coded('missing-parentheses'), span, message: `'${name}' has no parentheses: every merger needs them, e.g. '${name}()'; ${consequence}.`, fixes: edit(`${name}()`, `Write ${name}()`) });
      continue;
    }
    const spaced = SPACE_BEFORE_PAREN.exec(piece);
    if (spaced) {
      const fixed = piece.replace(SPACE_BEFORE_PAREN, '$1(');
      findings.push({ ...coded('space-before-paren'), span, message: `A space between '${spaced[1]}' and '(': cloud-init requires the name to be followed directly by '('; ${consequence}.`, fixes: edit(fixed, `Write ${fixed}`) });
      continue;
    }
    if (!pyRStrip(piece).endsWith(')') && piece.includes(')')) {
      const close = piece.lastIndexOf(')');
      const fixed = piece.slice(0, close + 1);
      findings.push({ ...coded('trailing-text'), span, message: `Text after ')' in '${piece}': ${consequence}.`, fixes: edit(fixed, `Remove '${piece.slice(close + 1)}'`) });
      continue;
    }
    if (!piece.includes(')')) {
      findings.push({ ...coded('unclosed-parenthesis'), span, message: `'${piece}' has no closing ')': ${consequence}.`, fixes: edit(piece + ')', `Write ${piece})`) });
      continue;
    }
    const name = piece.slice(0, piece.indexOf('('));
    if (/^[0-9]/.test(pyStrip(name))) {
      findings.push({ ...coded('invalid-merger-name'), span, message: `${pyStrRepr(name)} starts with a digit: merger names must start with a letter or '_'; ${consequence}.` });
      continue;
    }
    findings.push({ ...coded('invalid-merger-name'), span, message: `${pyStrRepr(name)} is not a valid merger name (letters, digits, '_' and '-' only); ${consequence}.` });
  }
  return findings;
}

/** The lines of a piece joined, without the whitespace around each break (split, not a regex: no backtracking on long blanks). */
function joinLines(piece: string): string {
  const lines = piece.split(/\r\n|[\r\n]/);
  return lines.map((line, i) => (i < lines.length - 1 ? pyRStrip(i > 0 ? pyLStrip(line) : line) : i > 0 ? pyLStrip(line) : line)).join('');
}

/** Option words of the string form (and of settings lists): unknown, ignored, duplicated, conflicting. */
function lintOptionText(m: LintMerger, text?: string, base = 0): Finding[] {
  const findings: Finding[] = [];
  if (!m.options || !m.canonical) return findings;
  const merger = m.canonical;
  const read = MERGERS[merger].options;
  const seen = new Map<string, LintOption>();
  // What the merger does without the word it ignores: said in the same sentence, so the consequence is read with the mistake.
  const words = m.options.map((o) => o.text);
  const instead = `so ${mergerClause(merger, (o) => words.includes(o))}`;
  for (const option of m.options) {
    const span = option.span ?? m.parsed.nameSpan ?? m.parsed.span;
    if (!span) continue;
    const word = option.text;
    if (/[()]/.test(word)) {
      findings.push(missingPlus(m, word, span, text, base));
      continue;
    }
    const removal = removeOptionFix(m, option, text, base);
    if (!(OPTION_NAMES as string[]).includes(word)) {
      const suggestion = nearest(word, read) ?? nearest(word, OPTION_NAMES);
      findings.push({
        ...coded('unknown-option'),
        span,
        message: `Unknown option ${pyStrRepr(word)} for ${merger}(): cloud-init ignores it silently, ${instead}.${suggestion ? ` Did you mean '${suggestion}'?` : ''} ${merger}() reads: ${read.join(', ')}.`,
        fixes: suggestion ? [{ title: `Change to '${suggestion}'`, edits: [{ span, newText: suggestion }], preferred: true }, ...removal] : removal,
      });
      continue;
    }
    if (!(read as string[]).includes(word)) {
      findings.push({ ...coded('option-ignored'), span, unnecessary: true, message: `${merger}() never reads '${word}': it has no effect here, ${instead}. ${OPTIONS[word as OptionName].ignoredNote}`, fixes: removal });
      continue;
    }
    if (seen.has(word)) {
      findings.push({ ...coded('duplicate-option'), span, unnecessary: true, message: `'${word}' is already given.`, fixes: removal });
      continue;
    }
    seen.set(word, option);
  }
  const conflict = (winner: string, loser: string) => {
    const lost = seen.get(loser);
    if (!seen.has(winner) || !lost?.span) return;
    findings.push({
      ...coded('conflicting-options'),
      span: lost.span,
      unnecessary: true,
      message: `'${loser}' has no effect: ${merger}() takes '${winner}' when both are given (fixed precedence, not the order written).`,
      fixes: removeOptionFix(m, lost, text, base),
    });
  };
  if (merger === 'dict') conflict('replace', 'no_replace');
  if (merger === 'list') {
    const methods = ['append', 'prepend', 'replace', 'no_replace'];
    const winner = methods.find((x) => seen.has(x));
    if (winner) for (const loser of methods.slice(methods.indexOf(winner) + 1)) conflict(winner, loser);
  }
  return findings;
}

function missingPlus(m: LintMerger, word: string, span: TextSpan, text?: string, base = 0): Finding {
  const fixes: Fix[] = [];
  if (text !== undefined) {
    const inner = text.slice(span.start - base, span.end - base);
    const at = inner.indexOf(')');
    if (at >= 0 && inner.indexOf('(', at) > at) fixes.push({ title: "Insert '+' between the mergers", edits: [{ span: { start: span.start + at + 1, end: span.start + at + 1 }, newText: '+' }], preferred: true });
  }
  return {
    ...coded('missing-plus'),
    span,
    message: `'${word}' is read as an option of ${m.canonical}(): a '+' is missing between two mergers, so the second one is never used.`,
    fixes,
  };
}

/** A fix that deletes one option word with its comma. */
function removeOptionFix(m: LintMerger, option: LintOption, text?: string, base = 0): Fix[] {
  if (!option.span || text === undefined || !m.options) return [];
  const local = { start: option.span.start - base, end: option.span.end - base };
  let { start, end } = local;
  // Scanned by hand, not with /\s*,\s*$/ on the text before: that regex is linear per call, and a
  // spec with 100,000 repeated options made the editor's analysis quadratic.
  const isSpace = (c: string | undefined) => c !== undefined && isPySpace(c);
  let after = end;
  while (isSpace(text[after])) after++;
  if (text[after] === ',') {
    after++;
    while (isSpace(text[after])) after++;
    end = after;
  } else {
    let before = start;
    while (isSpace(text[before - 1])) before--;
    if (text[before - 1] === ',') {
      before--;
      while (isSpace(text[before - 1])) before--;
      start = before;
    }
  }
  return [{ title: `Remove '${option.text}'`, edits: [{ span: { start: start + base, end: end + base }, newText: '' }] }];
}

/* ------------------------------------------------------------------ list / dict form */

export function lintListSpec(value: PyValue, spans: ValueSpans | undefined, options: SpecLintOptions): SpecLintResult {
  const findings: Finding[] = [];
  const span = spans?.span ?? options.span;
  const consequence = DROPPED[options.context];
  if (value instanceof PyDict) {
    const keys = value.keys().map((k) => pyStr(k));
    findings.push({
      ...coded('merge-how-mapping'),
      span,
      message: `A mapping here is iterated by its keys, so cloud-init reads merger names ${keys.map((k) => `'${k[0] ?? ''}'`).join(', ')} (the first letter of each key): ${consequence}. Write a list of {name, settings} entries.`,
    });
    return { findings };
  }
  if (!Array.isArray(value)) {
    findings.push({ ...coded('merge-how-not-list'), span, message: `${article(pyClassName(value), true)} cannot be a merge spec: cloud-init raises TypeError and ${consequence}. Use a string such as 'list(append)+dict(no_replace,recurse_list)+str()' or a list of {name, settings}.` });
    return { findings };
  }
  const mergers: LintMerger[] = [];
  value.forEach((element, i) => {
    const elementSpans = spans?.items?.[i];
    const elementSpan = elementSpans?.span ?? span;
    if (typeof element === 'string') {
      findings.push({
        ...coded('string-element'),
        span: elementSpan,
        message: `A string element is indexed like a sequence: cloud-init reads '${element}' as merger name '${element[0] ?? ''}' with options '${element.slice(1)}', which does not exist: ${consequence}. Use {name: ..., settings: [...]}, or write the whole spec as one string.`,
      });
      return;
    }
    if (!(element instanceof PyDict)) return;
    for (const key of element.keys()) {
      if (key !== 'name' && key !== 'settings') {
        const keySpan = elementSpans?.entries?.get(key)?.key ?? elementSpan;
        findings.push({ ...coded('extra-key'), span: keySpan, unnecessary: true, message: `cloud-init ignores '${pyStr(key)}' in a merger entry (only name and settings are read).` });
      }
    }
    if (!element.has('name')) {
      findings.push({ ...coded('missing-name'), span: elementSpan, message: `No 'name' in this merger entry: cloud-init raises KeyError and ${consequence}.` });
      return;
    }
    const name = element.get('name') as PyValue;
    const nameSpan = elementSpans?.entries?.get('name')?.value.span ?? elementSpan;
    if (!element.has('settings')) {
      findings.push({
        ...coded('missing-settings'),
        span: elementSpan,
        message: `No 'settings' in this merger entry: cloud-init raises KeyError and ${consequence} (settings is required, even when empty: settings: []).`,
      });
      return;
    }
    if (typeof name !== 'string') {
      findings.push({ ...coded('name-not-string'), span: nameSpan, message: `The merger name must be a string; ${article(pyClassName(name))} makes cloud-init raise and ${consequence}.` });
      return;
    }
    const normal = pyStrip(name.replace(/-/g, '_'));
    if (normal && normal !== normal.toLowerCase() && canonicalMergerName(normal.toLowerCase())) {
      findings.push({
        ...coded('name-not-lowercase'),
        span: nameSpan,
        message: `'${name}': names in the list form are not lower-cased, so cloud-init looks for module 'm_${normal}' and fails (ImportError): ${consequence}.`,
        fixes: [{ title: `Change to '${normal.toLowerCase()}'`, edits: [{ span: nameSpan, newText: normal.toLowerCase() }], preferred: true }],
      });
      return;
    }
    const settings = element.get('settings') as PyValue;
    const settingsSpans = elementSpans?.entries?.get('settings')?.value;
    const settingsSpan = settingsSpans?.span ?? elementSpan;
    let lintOptions: LintOption[] | null = null;
    if (settings === null || typeof settings === 'boolean' || typeof settings === 'bigint' || typeof settings === 'number') {
      findings.push({ ...coded('settings-not-list'), span: settingsSpan, message: `settings: ${pyStr(settings)} cannot be searched for options: cloud-init raises TypeError and ${consequence}. Use a list, e.g. settings: [].`, fixes: [{ title: 'Use settings: []', edits: [{ span: settingsSpan, newText: '[]' }], preferred: true }] });
      return;
    } else if (typeof settings === 'string') {
      const words = settings.split(PY_WS_OR_COMMA_RUNS).filter(Boolean);
      findings.push({
        ...coded('settings-is-string'),
        span: settingsSpan,
        message: `settings is a string, so cloud-init finds options by substring: ${substringNote(normal, settings)} Use a list: [${words.join(', ')}].`,
        fixes: [{ title: `Use a list: [${words.join(', ')}]`, edits: [{ span: settingsSpans?.outer ?? settingsSpan, newText: `[${words.join(', ')}]` }], preferred: true }],
      });
    } else if (Array.isArray(settings)) {
      lintOptions = [];
      settings.forEach((o, j) => {
        const oSpan = settingsSpans?.items?.[j]?.span;
        if (typeof o === 'string') lintOptions!.push({ text: o, span: oSpan });
        else findings.push({ ...coded('option-not-string'), span: oSpan ?? settingsSpan, unnecessary: true, message: `${article(pyClassName(o), true)} is never an option name: cloud-init ignores it.` });
      });
    }
    if (normal) mergers.push({ parsed: { name: normal, options: settings, nameSpan, span: elementSpan }, canonical: canonicalMergerName(normal), options: lintOptions });
  });
  if (findings.some((f) => f.severity === 'error')) return { findings };
  let spec: ParsedSpec;
  try {
    spec = parseListSpec(value, spans);
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    findings.push({ ...coded('spec-rejected'), span, message: `cloud-init rejects this spec (${e.pyType}: ${e.message}): ${consequence}.` });
    return { findings };
  }
  if (!spec.mergers.length) {
    findings.push({ ...coded('empty-spec'), span, message: options.context === 'part' ? 'No mergers: this part uses the default dict(replace)+list()+str().' : 'No mergers: the default list()+dict()+str() applies.' });
    return { findings, spec };
  }
  for (const m of mergers) pushAll(findings, lintOptionText(m));
  return finish(findings, spec, mergers, options);
}

/** What substring matching makes of a settings string, for each method word. */
function substringNote(merger: string, settings: string): string {
  const canonical = canonicalMergerName(merger);
  const words = canonical === 'list' ? ['append', 'prepend', 'replace', 'no_replace'] : canonical === 'dict' ? ['replace', 'no_replace'] : ['append'];
  const found = words.filter((w) => settings.includes(w));
  if (!found.length) return `none of ${words.join(', ')} occurs in '${settings}'.`;
  const winner = found[0];
  const extra = canonical === 'dict' || canonical === 'list' ? ` (method ${winner}${settings.includes('no_replace') && winner === 'replace' ? ': "no_replace" contains "replace", so this means replace' : ''})` : '';
  return `'${settings}' contains ${found.map((w) => `'${w}'`).join(', ')}${extra}.`;
}

/* ------------------------------------------------------------------ both forms */

function finish(findings: Finding[], spec: ParsedSpec, mergers: LintMerger[], options: SpecLintOptions, text?: string, base = 0, wholeSpec = true): SpecLintResult {
  // Unknown merger names: the whole spec fails to construct.
  const custom = options.customMergers;
  for (const m of mergers) {
    const name = m.parsed.name as string;
    const moduleName = name.startsWith('m_') ? name : 'm_' + name;
    if (m.canonical || custom?.has(moduleName)) continue;
    const span = m.parsed.nameSpan ?? m.parsed.span ?? options.span;
    const suggestion = nearest(name.replace(/^m_/, ''), MERGER_NAMES);
    findings.push({
      ...coded('unknown-merger'),
      span,
      message: `No merger named ${pyStrRepr(name)}: cloud-init only has list, dict and str (custom mergers need a Python module inside cloud-init), so it raises ImportError and ${DROPPED[options.context]}.${suggestion ? ` Did you mean '${suggestion}'?` : ''}`,
      fixes: suggestion ? [{ title: `Change to '${suggestion}'`, edits: [{ span, newText: suggestion }], preferred: true }] : undefined,
    });
  }
  if (findings.some((f) => f.code === 'unknown-merger')) return { findings, spec };

  // The same merger twice: the first one handles its types, the later one never runs.
  const seen = new Map<string, LintMerger>();
  for (const m of mergers) {
    const key = m.canonical ?? (m.parsed.name as string);
    if (seen.has(key)) {
      const span = m.parsed.span ?? m.parsed.nameSpan ?? options.span;
      findings.push({ ...coded('duplicate-merger'), span, unnecessary: true, message: `${key}() is listed twice: the first one handles every ${key === 'dict' ? 'mapping' : key}, so this one never runs.` });
    } else seen.set(key, m);
  }

  let root: RootMerger;
  try {
    root = constructMergers(spec.mergers, { modules: custom });
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    findings.push({ ...coded('spec-rejected'), span: (e as SpecError).span ?? options.span, message: `cloud-init rejects this spec (${e.pyType}: ${e.message}): ${DROPPED[options.context]}.` });
    return { findings, spec };
  }

  if (!wholeSpec) return { findings, spec, root };
  // Whole-spec checks use the combination cloud-init builds (body first, then header).
  const combined = options.companion ? (options.first === false ? [...options.companion.mergers, ...spec.mergers] : [...spec.mergers, ...options.companion.mergers]) : spec.mergers;
  let effective: RootMerger = root;
  try {
    effective = constructMergers(combined, { modules: custom });
  } catch {
    /* the companion reports its own errors */
  }
  const dict = effective.handlerFor('dict');
  const list = effective.handlerFor('list');
  const str = effective.handlerFor('str');
  if (!dict) {
    const fix: Fix[] = [];
    if (text !== undefined) {
      const end = base + pyRStrip(text).length;
      const addition = list && list.settings().method === 'append' ? '+dict(no_replace,recurse_list)' : '+dict()';
      fix.push({ title: `Add ${addition.slice(1)}`, edits: [{ span: { start: end, end }, newText: addition }], preferred: true });
    }
    findings.push({
      ...coded('no-dict-merger', options.context === 'part' ? 'error' : 'warning'),
      span: options.span,
      message:
        options.context === 'part'
          ? "No dict() merger: cloud-init leaves every mapping unchanged, so this whole part is silently discarded (while still counted in '# from N files')."
          : 'No dict() merger: this source is never merged into the configuration (every mapping is left unchanged).',
      fixes: fix,
    });
  } else {
    const d = dict.settings();
    const where = (name: string) => mergers.find((m) => m.canonical === name);
    const listEntry = where('list');
    const strEntry = where('str');
    const listMatters = list && (list.settings().method !== 'replace' || list.settings().recurse_list || list.settings().recurse_str || list.settings().recurse_dict);
    if (d.method === 'replace') {
      const unreachable = [listMatters && listEntry ? listEntry : null, str && str.settings().method === 'append' && strEntry ? strEntry : null].filter((x): x is LintMerger => x !== null);
      for (const m of unreachable) {
        findings.push({
          ...coded('merger-unreachable'),
          span: m.parsed.span ?? m.parsed.nameSpan ?? options.span,
          message: `dict(replace) replaces existing values without merging them, so ${pyStr(m.parsed.name)}(${describeOptions(m)}) never runs. For appending use dict(no_replace,recurse_list)+list(append).`,
        });
      }
    } else {
      if (listMatters && listEntry && !d.recurse_list) {
        findings.push({
          ...coded('list-merger-unreachable'),
          span: listEntry.parsed.span ?? listEntry.parsed.nameSpan ?? options.span,
          message: `dict(no_replace) keeps existing lists unless it has recurse_list, so ${pyStr(listEntry.parsed.name)}(${describeOptions(listEntry)}) never changes a list inside a mapping. Add recurse_list to dict().`,
          fixes: addDictOptionFix(mergers, 'recurse_list', text, base),
        });
      }
      if (str && str.settings().method === 'append' && strEntry && !d.recurse_str) {
        findings.push({
          ...coded('str-append-unreachable'),
          span: strEntry.parsed.span ?? strEntry.parsed.nameSpan ?? options.span,
          message: "str(append) has no effect: dict(no_replace) keeps existing strings unless it has recurse_str. Add recurse_str to dict().",
          fixes: addDictOptionFix(mergers, 'recurse_str', text, base),
        });
      }
    }
  }
  return { findings, spec, root };
}

/** "a list", "an int": the indefinite article for a Python class name. */
function article(className: string, capital = false): string {
  const a = /^[aeiou]/i.test(className) ? 'an' : 'a';
  return `${capital ? a[0].toUpperCase() + a.slice(1) : a} ${className}`;
}

function describeOptions(m: LintMerger): string {
  return m.options?.map((o) => o.text).join(',') ?? '';
}

/** Inserts an option into the dict merger of a string spec. */
function addDictOptionFix(mergers: LintMerger[], option: string, text?: string, base = 0): Fix[] {
  const dict = mergers.find((m) => m.canonical === 'dict');
  if (!dict || text === undefined || !dict.parsed.span) return [];
  const end = dict.parsed.span.end - 1; // before ')'
  const hasOptions = (dict.options?.length ?? 0) > 0;
  const insertAt = { start: end, end };
  if (text.slice(end - base, end - base + 1) !== ')') return [];
  return [{ title: `Add ${option} to dict()`, edits: [{ span: insertAt, newText: hasOptions ? `,${option}` : option }], preferred: true }];
}
