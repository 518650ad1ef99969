/**
 * The one place where merger names, options and header lines are explained.
 * Hover, completion, diagnostics, the CLI's `--explain` and the README read
 * from here. Every statement describes what cloud-init's code does (spec
 * §2), which is not always what its documentation says.
 */

export type MergerName = 'dict' | 'list' | 'str';
export type OptionName =
  | 'replace'
  | 'no_replace'
  | 'append'
  | 'prepend'
  | 'allow_delete'
  | 'recurse_dict'
  | 'recurse_list'
  | 'recurse_array'
  | 'recurse_str';

export interface MergerDoc {
  name: MergerName;
  summary: string;
  handles: string;
  /** Options this merger reads, in the order they are documented. */
  options: OptionName[];
  defaultBehaviour: string;
  example: [string, string];
}

export interface OptionDoc {
  name: OptionName;
  /** What it does, per merger that reads it. */
  effect: Partial<Record<MergerName, string>>;
  /** Said when the option is given to a merger that never reads it. */
  ignoredNote: string;
  example?: [string, string];
}

export const MERGERS: Record<MergerName, MergerDoc> = {
  dict: {
    name: 'dict',
    summary: 'Merges a mapping into an existing mapping, key by key.',
    handles: 'existing values that are mappings (dispatch is on the OLD value\'s type)',
    options: ['no_replace', 'replace', 'allow_delete', 'recurse_list', 'recurse_array', 'recurse_str', 'recurse_dict'],
    defaultBehaviour:
      'no_replace: keys only in the new mapping are added; for keys on both sides the existing value stays, except that new mappings are always merged in recursively.',
    example: ['merge_how: dict(no_replace,recurse_list)+list(append)+str()', '# keeps earlier scalars, appends to lists, deep-merges mappings'],
  },
  list: {
    name: 'list',
    summary: 'Merges a new value into an existing list (or tuple).',
    handles: 'existing values that are lists',
    options: ['append', 'prepend', 'replace', 'no_replace', 'recurse_dict', 'recurse_list', 'recurse_array', 'recurse_str'],
    defaultBehaviour:
      'replace: an index-wise overwrite, not a list replacement: [1,2,3] + [9] gives [9,2,3], and extra new items are dropped. A new value that is not a list replaces the list.',
    example: ['merge_how: list(append)+dict(no_replace,recurse_list)+str()', '# runcmd from every part, in part order'],
  },
  str: {
    name: 'str',
    summary: 'Merges a new value into an existing string.',
    handles: 'existing values that are strings',
    options: ['append'],
    defaultBehaviour: 'the new value (of any type) replaces the string. There is no prepend.',
    example: ['merge_how: dict(no_replace,recurse_str)+str(append)', '# "ab" + "cd" gives "abcd" (no separator)'],
  },
};

export const OPTIONS: Record<OptionName, OptionDoc> = {
  replace: {
    name: 'replace',
    effect: {
      dict: 'A key present on both sides takes the new value as it is: no recursion, whatever the recurse_* options say. Wins over no_replace.',
      list: 'Index-wise overwrite: item i of the new list replaces item i of the old one; old items beyond the new list stay; new items beyond the old list are dropped. A non-list new value replaces the whole list. This is the list default.',
    },
    ignoredNote: 'str() does not read replace: without append it always replaces.',
    example: ['merge_how: dict(replace)+list()+str()', '# the user-data default: later parts replace earlier keys'],
  },
  no_replace: {
    name: 'no_replace',
    effect: {
      dict: 'A key present on both sides keeps its existing value (new mappings are still merged recursively; lists and strings only with recurse_list / recurse_str). This is the dict default.',
      list: 'Every existing item is kept; new items are never added (the new value must still have a length).',
    },
    ignoredNote: 'str() does not read no_replace.',
    example: ['merge_how: dict(no_replace)+list()+str()', '# earlier parts win for every key they set'],
  },
  append: {
    name: 'append',
    effect: {
      list: 'New items go after the existing ones. A string adds its characters, a mapping its keys; null or a number makes the part fail. Wins over prepend, replace and no_replace.',
      str: 'The new string is added to the end of the existing one, with no separator. Only reached when the container recurses into strings (dict recurse_str).',
    },
    ignoredNote: 'dict() does not read append: use list(append) for lists inside mappings.',
    example: ['merge_how: list(append)+dict(no_replace,recurse_list)+str()', '# packages: [a] then [b] gives [a, b]'],
  },
  prepend: {
    name: 'prepend',
    effect: {
      list: 'New items go before the existing ones (iterated like append). Loses to append when both are given.',
    },
    ignoredNote: 'Only list() reads prepend; str() has no prepend at all.',
    example: ['merge_how: list(prepend)+dict(no_replace,recurse_list)+str()', '# a later part\'s runcmd runs first'],
  },
  allow_delete: {
    name: 'allow_delete',
    effect: {
      dict: 'A key whose new value is null is deleted from the result (also in replace mode). A null for a key that does not exist yet is added as null. Keys missing from the new mapping are never deleted.',
    },
    ignoredNote: 'Only dict() reads allow_delete.',
    example: ['merge_how: dict(no_replace,allow_delete)+list()+str()', '# ntp: null removes an earlier ntp key'],
  },
  recurse_dict: {
    name: 'recurse_dict',
    effect: {
      dict: 'No effect: dict() always merges new mappings recursively (it cannot be turned off).',
      list: 'With list(replace), a mapping at the same index is merged into the old item instead of replacing it.',
    },
    ignoredNote: 'str() does not read recurse_dict.',
  },
  recurse_list: {
    name: 'recurse_list',
    effect: {
      dict: 'In no_replace mode, a key whose new value is a list is merged with the list merger (so list(append) can append). Same as recurse_array.',
      list: 'With list(replace), a list at the same index is merged into the old item instead of replacing it. Same as recurse_array.',
    },
    ignoredNote: 'str() does not read recurse_list.',
    example: ['merge_how: dict(no_replace,recurse_list)+list(append)+str()', '# lists inside mappings are appended'],
  },
  recurse_array: {
    name: 'recurse_array',
    effect: {
      dict: 'The same as recurse_list.',
      list: 'The same as recurse_list.',
    },
    ignoredNote: 'str() does not read recurse_array.',
  },
  recurse_str: {
    name: 'recurse_str',
    effect: {
      dict: 'In no_replace mode, a key whose new value is a string is merged with the str merger (str(append) concatenates; str() replaces).',
      list: 'With list(replace), a string at the same index is merged into the old item.',
    },
    ignoredNote: 'str() does not read recurse_str.',
  },
};

/** What the `merge_how` key is, for completion and hover. */
export const MERGE_HOW_KEY_DOC =
  'How this part merges into the parts before it. Without it, cloud-init uses dict(replace)+list()+str(): a later part replaces whole top-level keys, lists included.';

/** The specs most people want, offered by completion and code actions. */
export const RECIPES: ReadonlyArray<{ label: string; spec: string; detail: string }> = [
  { label: 'append lists', spec: 'list(append)+dict(no_replace,recurse_list)+str()', detail: 'lists from every part, in part order; earlier scalars kept' },
  { label: 'keep earlier values', spec: 'dict(no_replace)+list()+str()', detail: 'a key set by an earlier part keeps its value' },
  { label: 'replace', spec: 'dict(replace)+list()+str()', detail: 'later parts replace whole top-level keys (the default)' },
];

export const MERGER_NAMES = Object.keys(MERGERS) as MergerName[];
export const OPTION_NAMES = Object.keys(OPTIONS) as OptionName[];

/** Options each merger reads. */
export function optionsReadBy(merger: MergerName): OptionName[] {
  return MERGERS[merger].options;
}

/** Canonical merger name for a module alias (`m_list` → `list`). */
export function canonicalMergerName(name: string): MergerName | undefined {
  const bare = name.startsWith('m_') ? name.slice(2) : name;
  return (MERGER_NAMES as string[]).includes(bare) ? (bare as MergerName) : undefined;
}

/** Header lines and MIME headers that select how a part is read. */
export interface HeaderDoc {
  label: string;
  summary: string;
  detail: string;
}

export const HEADER_LINES: Record<string, HeaderDoc> = {
  '#cloud-config': {
    label: '#cloud-config',
    summary: 'A cloud-config part: YAML whose top level must be a mapping.',
    detail:
      'Merged into the parts before it with its own merge spec (merge_how, else merge_type, plus any Merge-Type header); with none, dict(replace)+list()+str(): later parts replace whole top-level keys, lists included. Nothing carries over to the next part.',
  },
  '#cloud-config-archive': {
    label: '#cloud-config-archive',
    summary: 'A YAML list of parts, each a string or a mapping with content, type, filename and headers.',
    detail:
      'Entries are attached as they are: their declared types are not sniffed and #include or nested archives inside entries are not expanded. An entry without a type is sniffed from its content, default text/cloud-config. Extra keys become MIME headers spelled exactly as written (Merge-Type works, merge-type does not).',
  },
  '#cloud-config-jsonp': {
    label: '#cloud-config-jsonp',
    summary: 'An RFC 6902 JSON patch applied to the config merged so far.',
    detail: 'The exact lowercase prefix is removed before the JSON is parsed. Merge specs play no part here; a patch that adds /merge_how just adds data.',
  },
  '#include': {
    label: '#include',
    summary: 'One URL per line; each is fetched and processed as user-data.',
    detail:
      'Local paths and file:// URLs are read; this extension never fetches other URLs. In cloud-init an unreachable URL makes the whole user-data fail (nothing is merged). Inside a #cloud-config body, #include is only a YAML comment.',
  },
  '#include-once': {
    label: '#include-once',
    summary: 'Like #include, but each URL is fetched only on the first boot and cached.',
    detail: 'It applies to the URLs on the same line and the lines after it, until a plain #include line.',
  },
  '## template: jinja': {
    label: '## template: jinja',
    summary: 'A Jinja template rendered with the instance data before it is read.',
    detail:
      'The first line is removed; the rendered text must start with #cloud-config (or #! for a script). An undefined variable renders as CI_MISSING_JINJA_VAR/<name>; an attribute of an undefined variable makes cloud-init ignore the whole part. A rendered #cloud-config-jsonp is read as YAML and dropped.',
  },
  '#cloud-boothook': {
    label: '#cloud-boothook',
    summary: 'A script run early on every boot. Not merged.',
    detail: 'It is listed among the parts but contributes nothing to the merged config.',
  },
  '#part-handler': {
    label: '#part-handler',
    summary: 'Python code that cloud-init imports and runs to handle later parts.',
    detail: 'A part-handler can claim text/cloud-config itself and change everything after it. It is never executed by this extension.',
  },
  '#!': {
    label: '#!',
    summary: 'A shell script run once per instance. Not merged.',
    detail: 'It is listed among the parts but contributes nothing to the merged config.',
  },
};

export const MERGE_HEADER_DOC: HeaderDoc = {
  label: 'Merge-Type / X-Merge-Type',
  summary: 'A merge spec in a MIME part header (string form only).',
  detail:
    'The name must be spelled exactly Merge-Type or X-Merge-Type (header names are matched case-sensitively here); X-Merge-Type is only read when Merge-Type is missing or empty. The header spec is appended to the body spec (body first): for each type the first merger wins, so the body decides where it names a merger and the header fills in the rest. Headers of gzip-compressed parts are dropped.',
};

/** A plain-language summary of an effective spec, per type. */
export function describeEffective(settings: { dict?: Record<string, string | boolean> | null; list?: Record<string, string | boolean> | null; str?: Record<string, string | boolean> | null }): string[] {
  const lines: string[] = [];
  const dict = settings.dict;
  if (!dict) lines.push('mappings: no dict merger, so every mapping is left as it was: at the top level the whole part is discarded');
  else {
    const parts = [dict.method === 'replace' ? 'new values replace existing ones (no recursion)' : 'keep existing values, merge new mappings recursively'];
    if (dict.method !== 'replace') {
      if (dict.recurse_list) parts.push('recurse into lists');
      if (dict.recurse_str) parts.push('recurse into strings');
    }
    if (dict.allow_delete) parts.push('null deletes a key');
    lines.push('mappings: ' + parts.join('; '));
  }
  const list = settings.list;
  if (!list) lines.push('lists: no list merger, so an existing list is never changed by a recursive merge');
  else {
    const how: Record<string, string> = {
      append: 'append the new items',
      prepend: 'put the new items first',
      replace: 'overwrite item by item (extra new items are dropped)',
      no_replace: 'keep every existing item',
    };
    lines.push(`lists: ${how[list.method as string] ?? list.method}`);
  }
  const str = settings.str;
  if (!str) lines.push('strings: no str merger, so an existing string is never changed by a recursive merge');
  else lines.push(str.method === 'append' ? 'strings: concatenated' : 'strings: replaced');
  return lines;
}

/**
 * What one merger does with the options it was given, as one clause ("lists are overwritten item by
 * item, …"): said where an option is ignored, so the user reads what cloud-init did instead.
 * `has` answers cloud-init's own membership test for an option word.
 */
export function mergerClause(merger: MergerName, has: (option: OptionName) => boolean): string {
  if (merger === 'list') {
    const method = (['append', 'prepend', 'replace', 'no_replace'] as const).find(has) ?? 'replace';
    if (method === 'append') return 'lists get the new items appended';
    if (method === 'prepend') return 'lists get the new items put first';
    if (method === 'no_replace') return 'lists keep every existing item';
    return "lists are overwritten item by item (item i replaces item i, and new items past the old list's end are dropped)";
  }
  if (merger === 'dict') {
    if (has('replace')) return 'mappings take every new value in place of the old one, without recursing';
    const also = [has('recurse_list') || has('recurse_array') ? 'lists' : '', has('recurse_str') ? 'strings' : ''].filter(Boolean);
    return `mappings keep the existing value of a key on both sides (nested mappings still merge${also.length ? `, and ${also.join(' and ')} too` : ''})`;
  }
  return has('append') ? 'strings are concatenated' : 'strings are replaced by the new value';
}
