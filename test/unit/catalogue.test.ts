/**
 * The catalogue (engine/spec/catalogue.ts) is the one source of merger documentation: hover, completion, the
 * spec findings and the README read it. These tests tie its "options each merger reads" to what the
 * merger classes (engine/merge/*) actually do with each option, so neither can change alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MERGERS, MERGER_NAMES, OPTIONS, OPTION_NAMES, canonicalMergerName, describeEffective, mergerClause, optionsReadBy, type MergerName, type OptionName } from '../../server/src/engine/spec/catalogue';
import { BUILTIN_MERGERS } from '../../server/src/engine/merge/construct';
import { RootMerger } from '../../server/src/engine/merge/root';

/** Python's str() of the merger built with these options: it shows every setting the class keeps. */
function described(merger: MergerName, options: string[]): string {
  const factory = BUILTIN_MERGERS.get(`m_${merger}`);
  assert.ok(factory, `a builtin m_${merger}`);
  return factory(new RootMerger(), options).describe();
}

/** The option changes what the class does: adding it to some other option set changes its settings. */
function classReads(merger: MergerName, option: OptionName): boolean {
  const bases: string[][] = [[], ...OPTION_NAMES.filter((o) => o !== option).map((o) => [o])];
  return bases.some((base) => described(merger, base) !== described(merger, [...base, option]));
}

/** The option names the method the class uses when none is given (`dict(no_replace)` = `dict()`). */
function namesDefaultMethod(merger: MergerName, option: OptionName): boolean {
  return described(merger, []).includes(`method=${option},`);
}

test('every option a merger class reacts to is listed as read by that merger in the catalogue', () => {
  for (const merger of MERGER_NAMES) {
    for (const option of OPTION_NAMES) {
      if (classReads(merger, option)) assert.ok(optionsReadBy(merger).includes(option), `${merger}() reads ${option}: the catalogue must say so`);
    }
  }
});

test('every option the catalogue lists for a merger changes it, names its default, or is documented as having no effect', () => {
  const unread: string[] = [];
  for (const merger of MERGER_NAMES) {
    for (const option of optionsReadBy(merger)) {
      if (classReads(merger, option) || namesDefaultMethod(merger, option)) continue;
      assert.match(OPTIONS[option].effect[merger] ?? '', /^No effect/, `${merger}(${option}) does nothing in the class: the catalogue must say "No effect"`);
      unread.push(`${merger}(${option})`);
    }
  }
  assert.deepEqual(unread, ['dict(recurse_dict)'], 'the only documented no-op (dict always recurses into mappings)');
});

test('options the catalogue does not list for a merger leave that merger as it is', () => {
  for (const merger of MERGER_NAMES) {
    for (const option of OPTION_NAMES.filter((o) => !optionsReadBy(merger).includes(o))) {
      assert.equal(classReads(merger, option), false, `${merger}() is not documented to read ${option}`);
      assert.ok(OPTIONS[option].ignoredNote, `${option} says what happens when ${merger}() is given it`);
    }
  }
});

test('each option explains its effect exactly for the mergers that read it', () => {
  for (const option of OPTION_NAMES) {
    const documented = Object.keys(OPTIONS[option].effect).sort();
    const readers = MERGER_NAMES.filter((m) => MERGERS[m].options.includes(option)).sort();
    assert.deepEqual(documented, readers, option);
    assert.equal(OPTIONS[option].name, option);
  }
  for (const merger of MERGER_NAMES) assert.equal(MERGERS[merger].name, merger);
});

test('merger names as cloud-init finds them, and the effective settings in words', () => {
  assert.equal(canonicalMergerName('dict'), 'dict');
  assert.equal(canonicalMergerName('m_list'), 'list', 'the module name cloud-init imports');
  assert.equal(canonicalMergerName('Dict'), undefined, 'module names are case-sensitive');
  assert.equal(canonicalMergerName('yaml'), undefined);
  const words = describeEffective({ dict: { method: 'no_replace', recurse_list: true, recurse_str: false, allow_delete: false, recurse_dict: true }, list: { method: 'append' }, str: null });
  assert.deepEqual(words, [
    'mappings: keep existing values, merge new mappings recursively; recurse into lists',
    'lists: append the new items',
    'strings: no str merger, so an existing string is never changed by a recursive merge',
  ]);
  assert.equal(mergerClause('list', (o) => o === 'append'), 'lists get the new items appended');
  assert.match(mergerClause('list', () => false), /^lists are overwritten item by item/, 'list() alone is the index-wise overwrite');
});
