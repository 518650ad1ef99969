// Measures the two JSON-schema libraries issue 12 names against this project's validator
// (server/src/engine/schema, which agrees with cloud-init on every case of test/oracle/schema.diff.ts):
// verdict agreement (valid/invalid) and message agreement on the differential corpus, validation speed,
// and the size each adds to an esbuild bundle. Needs `npm run build` and, for @cfworker/json-schema,
// `npm install --no-save @cfworker/json-schema@4.1.6` (ajv and ajv-draft-04 are already installed).
//
//   node scripts/schema/compare-libraries.mjs [--cases N]
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const require = createRequire(import.meta.url);
const { Gen, render } = require('../../out/test/oracle/schema.diff.js');
const { Rng } = require('../../out/test/oracle/generate.js');
const { validateCloudConfigText } = require('../../out/server/src/engine/schema/validate.js');
const { schemaData } = require('../../out/server/src/engine/schema/data.js');
const { conformsToFormat } = require('../../out/server/src/engine/schema/formats.js');
const { loadYaml } = require('../../out/server/src/engine/yaml/load.js');
const { PyDict } = require('../../out/server/src/engine/py/values.js');

const cases = Number(process.argv[process.argv.indexOf('--cases') + 1]) || 1500;

/** A loaded value as JSON, or undefined when JSON cannot hold it (bytes, dates, non-string keys, ...). */
function toJson(v) {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (Array.isArray(v)) {
    const out = v.map(toJson);
    return out.includes(undefined) ? undefined : out;
  }
  if (v instanceof PyDict) {
    const out = {};
    for (const [k, x] of v.entries()) {
      if (typeof k !== 'string') return undefined;
      const j = toJson(x);
      if (j === undefined) return undefined;
      out[k] = j;
    }
    return out;
  }
  return undefined; // PyBytes, PyTimestamp, PyTuple, PySet
}

const formats = { uri: (s) => conformsToFormat(s, 'uri'), date: (s) => conformsToFormat(s, 'date'), hostname: () => true };

function ajvValidator(schema) {
  const Ajv = require('ajv-draft-04').default;
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  for (const [name, fn] of Object.entries(formats)) ajv.addFormat(name, { type: 'string', validate: fn });
  return ajv.compile(schema);
}

function cfworkerValidator(schema) {
  let lib;
  try {
    lib = require('@cfworker/json-schema');
  } catch {
    return null;
  }
  const { Validator } = lib;
  const v = new Validator(schema, '4', false);
  return { validate: (doc) => v.validate(doc) };
}

for (const version of ['22.4', 'current']) {
  const data = schemaData(version);
  const r = new Rng(12);
  const gen = new Gen(r, data.schema);
  const docs = [];
  for (let i = 0; i < cases; i++) {
    const text = render(gen.document(), r);
    const loaded = loadYaml(text);
    if (!loaded.ok) continue;
    const json = toJson(loaded.value);
    if (json === undefined || json === null || typeof json !== 'object' || Array.isArray(json)) continue;
    const ours = validateCloudConfigText(text, version);
    docs.push({ text, json, ours });
  }
  const row = (name, fn) => {
    let agree = 0;
    const t0 = process.hrtime.bigint();
    const answers = docs.map((d) => fn(d.json));
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    docs.forEach((d, i) => {
      if (answers[i].valid === d.ours.valid) agree++;
    });
    console.log(`${version} ${name.padEnd(22)} verdict agrees ${agree}/${docs.length}, ${ms.toFixed(0)} ms for ${docs.length} documents`);
  };
  const t0 = process.hrtime.bigint();
  for (const d of docs) validateCloudConfigText(d.text, version);
  console.log(`${version} ${'ours (load+validate)'.padEnd(22)} ${(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(0)} ms for ${docs.length} documents`);
  const ajv = ajvValidator(data.schema);
  row('ajv + ajv-draft-04', (doc) => ({ valid: ajv(doc) }));
  const cf = cfworkerValidator(data.schema);
  let crashes = 0;
  let firstCrash = '';
  if (cf) {
    row('@cfworker/json-schema', (doc) => {
      try {
        return { valid: cf.validate(doc).valid };
      } catch (e) {
        crashes++;
        firstCrash ||= String(e);
        return { valid: null };
      }
    });
    if (crashes) console.log(`${version} @cfworker/json-schema threw on ${crashes} documents (${firstCrash})`);
  }
}

async function size(contents) {
  const out = await build({ stdin: { contents, resolveDir: process.cwd() }, bundle: true, minify: true, platform: 'node', write: false, logLevel: 'silent' });
  return out.outputFiles[0].contents.length;
}
console.log(`bundle: ajv + ajv-draft-04 ${(await size("require('ajv-draft-04')")) >> 10} KiB`);
try {
  console.log(`bundle: @cfworker/json-schema ${(await size("require('@cfworker/json-schema')")) >> 10} KiB`);
} catch {
  console.log('bundle: @cfworker/json-schema not installed');
}
console.log(`bundle: this validator (engine/schema without data) ${(await size("require('./out/server/src/engine/schema/pyjsonschema.js')")) >> 10} KiB`);
