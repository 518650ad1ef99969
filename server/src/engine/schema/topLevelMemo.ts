/**
 * The schema check's memo of the merged result's top-level keys (the preview's refresh), used by the
 * validator's `properties` keyword at the top level (pyjsonschema.ts `descendProperty`).
 */
import type { PyValue } from '../py/values';
import type { PyDict } from '../py/values';
import { PyError } from '../py/errors';
import type { SchemaNode, ValidationError, Validator } from './pyjsonschema';

/**
 * The errors of the top level's properties kept from one validation to the next (the preview validates
 * the merged result again after every edit, and most of its keys are as they were). Validation is a
 * function of the instance and the schema, so the errors of `descend(config[key], subschema)` are those
 * of the last validation when the key's value is the same: `fingerprint(key)` says so (the key's text in
 * the dump that was read back: the same text, the same value). The errors are kept as they leave that
 * descend (above it the top level's keywords only add to `schemaPath`, which no keyword reads) and
 * copied at each use, since callers change errors in place. Only what the last validation used is kept.
 */
export class TopLevelMemo {
  private previous = new Map<SchemaNode, Map<string, ValidationError[]>>();
  private current = new Map<SchemaNode, Map<string, ValidationError[]>>();
  /** Walks saved so far (a test checks the memo is used, not only that it is right). */
  hits = 0;

  get(schema: SchemaNode, fingerprint: string): ValidationError[] | undefined {
    const hit = this.current.get(schema)?.get(fingerprint) ?? this.previous.get(schema)?.get(fingerprint);
    if (hit) {
      this.hits++;
      this.set(schema, fingerprint, hit);
    }
    return hit;
  }

  set(schema: SchemaNode, fingerprint: string, errors: ValidationError[]): void {
    let bySchema = this.current.get(schema);
    if (!bySchema) this.current.set(schema, (bySchema = new Map<string, ValidationError[]>()));
    bySchema.set(fingerprint, errors);
  }

  /** A validation is over: what it did not use is dropped. */
  endRun(): void {
    this.previous = this.current;
    this.current = new Map();
  }
}

/** The memo of one validation: its root instance and each top-level key's fingerprint (undefined: not kept). */
export interface TopLevelMemoUse {
  root: PyValue;
  memo: TopLevelMemo;
  fingerprint(key: string): string | undefined;
}

/** Copies of `errors` that share among themselves what the originals share. */
export function copyAll(errors: readonly ValidationError[]): ValidationError[] {
  const copies = new Map<ValidationError, ValidationError>();
  return errors.map((e) => e.copy(copies));
}

/**
 * Most errors of one top-level key kept: past this many (a generated list whose every item fails) the key
 * is walked lazily as without the memo, so a caller that stops at its bound (maxProblems) stops the walk.
 */
export const MAX_KEPT_ERRORS = 256;

/** The top level's `descend(instance[property], …)` (validator `descendProperty`): the kept errors when the key's text is as it was. */
export function* memoizedDescend(v: Validator, use: TopLevelMemoUse, instance: PyDict, property: string, subschema: SchemaNode): Generator<ValidationError> {
  const fingerprint = use.fingerprint(property);
  const value = instance.get(property) as PyValue;
  if (fingerprint === undefined) {
    yield* v.descend(value, subschema, property, property);
    return;
  }
  const kept = use.memo.get(subschema, fingerprint);
  if (kept) {
    yield* copyAll(kept);
    return;
  }
  const walk = v.descend(value, subschema, property, property);
  const errors: ValidationError[] = [];
  for (;;) {
    let step: IteratorResult<ValidationError>;
    try {
      step = walk.next();
    } catch (e) {
      // Raised part-way (a TypeError of Python's) before anything was handed on: walked again lazily, the
      // caller sees the same errors before it, and may stop before the raise (maxProblems).
      if (!(e instanceof PyError)) throw e;
      yield* v.descend(value, subschema, property, property);
      return;
    }
    if (step.done) break;
    errors.push(step.value);
    if (errors.length > MAX_KEPT_ERRORS) {
      // Too many to keep: handed on as they come, the rest of the walk as the caller asks for it.
      yield* errors;
      for (let next = walk.next(); !next.done; next = walk.next()) yield next.value;
      return;
    }
  }
  use.memo.set(subschema, fingerprint, copyAll(errors));
  yield* errors;
}
