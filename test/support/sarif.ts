/**
 * Validates a SARIF log against the SARIF 2.1.0 schema (the copy @microsoft/jest-sarif ships, a
 * draft-04 schema, checked with ajv-draft-04; nothing is fetched).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

let validator: ((log: unknown) => boolean) & { errors?: unknown[] | null };

export function sarifValidator(): typeof validator {
  if (!validator) {
    const Ajv = require('ajv-draft-04').default;
    const schema = JSON.parse(readFileSync(require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'), 'utf8'));
    validator = new Ajv({ strict: false, allErrors: true, validateFormats: false, unicodeRegExp: false }).compile(schema);
  }
  return validator;
}

export function assertValidSarif(log: unknown): void {
  const validate = sarifValidator();
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 5)));
}
