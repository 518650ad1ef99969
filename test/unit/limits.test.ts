// The limits as the CLI's --limit and the editor's cloudConfigMerge.limits.* settings give them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS, LIMIT_NAMES, withLimits } from '../../server/src/engine/limits';
import { parseArgs } from '../../server/src/cli/args';
import { DEFAULT_SETTINGS, analysisKey, normalizeSettings } from '../../server/src/features/common/settings';

describe('limits', () => {
  test('every limit has a default and a name', () => {
    assert.deepEqual([...LIMIT_NAMES].sort(), Object.keys(DEFAULT_LIMITS).sort());
  });

  test('withLimits takes positive safe integers only; anything else keeps the default', () => {
    assert.deepEqual(withLimits({ maxParts: 7, maxDepth: 3 }), { ...DEFAULT_LIMITS, maxParts: 7, maxDepth: 3 });
    for (const bad of [0, -1, 1.5, NaN, Infinity, '7', null, true, 2 ** 60]) {
      assert.deepEqual(withLimits({ maxParts: bad }), DEFAULT_LIMITS, String(bad));
    }
    assert.deepEqual(withLimits({ notALimit: 3 }), DEFAULT_LIMITS);
  });

  test('--limit NAME=N, repeatable, in both spellings', () => {
    const o = parseArgs(['--limit', 'maxParts=3', '--limit=maxDepth=40', 'f']);
    assert.deepEqual(o.limits, { ...DEFAULT_LIMITS, maxParts: 3, maxDepth: 40 });
    assert.deepEqual(parseArgs(['f']).limits, DEFAULT_LIMITS);
    assert.throws(() => parseArgs(['--limit', 'maxParts=0']), /--limit maxParts must be a positive integer/);
    assert.throws(() => parseArgs(['--limit', 'maxParts']), /--limit wants NAME=N/);
    assert.throws(() => parseArgs(['--limit', 'depth=3']), /unknown limit 'depth' \(expected maxFileBytes, /);
  });

  test('settings: nested (VS Code) and dotted (other editors) keys; nonsense falls back to the default', () => {
    assert.deepEqual(normalizeSettings({}).limits, DEFAULT_LIMITS);
    assert.deepEqual(normalizeSettings({ limits: { maxFileBytes: 100, maxParts: 'x' } }).limits, { ...DEFAULT_LIMITS, maxFileBytes: 100 });
    assert.deepEqual(normalizeSettings({ 'limits.maxDepth': 50 }).limits, { ...DEFAULT_LIMITS, maxDepth: 50 });
    assert.deepEqual(normalizeSettings({ limits: { maxDepth: -5 } }).limits, DEFAULT_LIMITS);
    assert.deepEqual(DEFAULT_SETTINGS.limits, DEFAULT_LIMITS);
  });

  test('the limits that change what the analysis finds are part of its cache key', () => {
    const key = (raw: unknown) => analysisKey(normalizeSettings(raw));
    assert.notEqual(key({ limits: { maxDepth: 50 } }), key({}));
    assert.notEqual(key({ limits: { maxFileBytes: 50 } }), key({}));
  });
});
