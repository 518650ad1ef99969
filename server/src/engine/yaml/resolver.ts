/**
 * PyYAML's `resolver.py`: the implicit resolvers of plain scalars (and of the non-specific tag `!`,
 * which PyYAML resolves even on quoted scalars), chosen by first character in PyYAML's order, with
 * Python's `$` (which also matches before a final newline). One resolver for loading and dumping.
 */


// Tags

export const TAG = 'tag:yaml.org,2002:';
export const STR_TAG = TAG + 'str';
export const SEQ_TAG = TAG + 'seq';
export const MAP_TAG = TAG + 'map';
export const MERGE_TAG = TAG + 'merge';
export const VALUE_TAG = TAG + 'value';
// Constant strings, so that tag comparisons and lookups are cheap.
export const NULL_TAG = TAG + 'null';
export const BOOL_TAG = TAG + 'bool';
export const INT_TAG = TAG + 'int';
export const FLOAT_TAG = TAG + 'float';
export const TIMESTAMP_TAG = TAG + 'timestamp';
const YAML_TAG = TAG + 'yaml';

// ---------------------------------------------------------------------------
// Resolver (PyYAML's implicit resolvers, by first character, in PyYAML's order)

// Python's `$` also matches just before a final newline.
// The bool resolver's words, and the null resolver's besides `~` and '', each also with the final
// newline `$` allows: a set lookup instead of a regex run.
const BOOL_WORDS = words('yes Yes YES no No NO true True TRUE false False FALSE on On ON off Off OFF');
const NULL_WORDS = words('null Null NULL');
const RE_FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))\n?$/;
const RE_INT = /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)\n?$/;
const RE_MERGE = /^(?:<<)\n?$/;
const RE_NULL = /^(?:~|null|Null|NULL|)\n?$/;
const RE_TIMESTAMP =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)\n?$/;
const RE_VALUE = /^(?:=)\n?$/;
const RE_YAML = /^(?:!|&|\*)\n?$/;

function words(list: string): Set<string> {
  const all = list.split(' ');
  return new Set([...all, ...all.map((w) => w + '\n')]);
}

export function resolveScalar(value: string, implicit: boolean): string {
  if (!implicit) return STR_TAG;
  if (value === '') return NULL_TAG;
  // Cheap filters before the regexes (they never change the result): bool and
  // null words are at most 5 characters (plus the final newline `$` allows),
  // every float form contains '.', a timestamp contains '-'.
  const len = value.length;
  // By char code: a switch over numbers is a jump table, over one-character strings a chain of compares.
  const first = value.charCodeAt(0);
  if (first >= 48 && first <= 57) {
    // 0-9. Cheap answers first: digits (and '_') only, not starting with 0, is a decimal int; a letter
    // after the leading digits, other than 0x/0b, is a str (floats need '.' before any letter,
    // timestamps '-' after four digits, ints letters only after 0x/0b).
    let i = 1;
    let c = 0;
    while (i < len && (((c = value.charCodeAt(i)) >= 48 && c <= 57) || c === 95)) i++;
    if (i === len && first !== 48) return INT_TAG;
    if (i < len && ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) && !(i === 1 && first === 48 && (c === 120 || c === 98))) return STR_TAG;
    if (value.includes('.') && RE_FLOAT.test(value)) return FLOAT_TAG;
    if (RE_INT.test(value)) return INT_TAG;
    if (len >= 10 && value.charCodeAt(4) === 45 /* - */ && RE_TIMESTAMP.test(value)) return TIMESTAMP_TAG;
    return STR_TAG;
  }
  switch (first) {
    case 121: // y
    case 89: // Y
    case 116: // t
    case 84: // T
    case 102: // f
    case 70: // F
    case 111: // o
    case 79: // O
      if (len <= 6 && BOOL_WORDS.has(value)) return BOOL_TAG;
      break;
    case 110: // n
    case 78: // N
      if (len <= 6 && BOOL_WORDS.has(value)) return BOOL_TAG;
      if (len <= 6 && NULL_WORDS.has(value)) return NULL_TAG;
      break;
    case 45: // -
    case 43: // +
      if (value.includes('.') && RE_FLOAT.test(value)) return FLOAT_TAG;
      if (RE_INT.test(value)) return INT_TAG;
      break;
    case 46: // .
      if (RE_FLOAT.test(value)) return FLOAT_TAG;
      break;
    case 60: // <
      if (RE_MERGE.test(value)) return MERGE_TAG;
      break;
    case 126: // ~
      if (RE_NULL.test(value)) return NULL_TAG;
      break;
    case 61: // =
      if (RE_VALUE.test(value)) return VALUE_TAG;
      break;
    case 33: // !
    case 38: // &
    case 42: // *
      if (RE_YAML.test(value)) return YAML_TAG;
      break;
  }
  return STR_TAG;
}
