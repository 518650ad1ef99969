/**
 * One loader measurement in a fresh process (scripts/bench/loader.mjs): node loader-child.mjs DIR ROUNDS.
 * Each round loads every part of DIR with loadYaml and with js-yaml's load, then dumps the loaded values
 * with dumpPyYaml and js-yaml's dump, each timed in CPU; the order of the two rotates every round.
 * Prints one JSON line: cold (first round) and warm (median of the others) per operation.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const { loadYaml } = require(path.join(ROOT, 'server/out/engine/yaml/load.js'));
const { dumpPyYaml } = require(path.join(ROOT, 'server/out/engine/yaml/dump.js'));
const jsyaml = require('js-yaml');

const [dir, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg) || 10;
const texts = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => readFileSync(path.join(dir, f), 'utf8'));

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const timed = (f) => {
  const t0 = cpu();
  const r = f();
  return { ms: cpu() - t0, r };
};

const ops = {
  load: () => texts.map((t, i) => {
    const r = loadYaml(t, { source: i });
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  }),
  jsLoad: () => texts.map((t) => jsyaml.load(t)),
};
const times = { load: [], jsLoad: [], dump: [], jsDump: [] };
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? ['jsLoad', 'load'] : ['load', 'jsLoad'];
  const loaded = {};
  for (const op of order) {
    const { ms, r } = timed(ops[op]);
    times[op].push(ms);
    loaded[op] = r;
  }
  const dumps = { dump: () => loaded.load.map((v) => dumpPyYaml(v)), jsDump: () => loaded.jsLoad.map((v) => jsyaml.dump(v)) };
  for (const op of round % 2 ? ['jsDump', 'dump'] : ['dump', 'jsDump']) times[op].push(timed(dumps[op]).ms);
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const summary = (xs) => ({ cold: xs[0], warm: median(xs.slice(1)) });
const out = { rounds, bytes: texts.reduce((a, t) => a + Buffer.byteLength(t), 0) };
for (const k of Object.keys(times)) out[k] = summary(times[k]);
process.stdout.write(JSON.stringify(out) + '\n');
