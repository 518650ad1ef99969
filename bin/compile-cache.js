'use strict';
// Loads a CommonJS bundle through a V8 code cache kept in the user's cache folder
// ($XDG_CACHE_HOME or ~/.cache, /cloud-config-merge): compiling the CLI's bundle costs about as much
// as starting node itself, and a cached compile is nearly free. The cache is keyed by the bundle's
// size and time and by the node version; V8 rejects data that does not match the source, and then
// it is written anew. Any failure to read or write the cache only costs the compile.
// CLOUD_CONFIG_MERGE_NO_COMPILE_CACHE=1 turns it off.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

function cacheFileFor(file, stat) {
  if (process.env.CLOUD_CONFIG_MERGE_NO_COMPILE_CACHE) return null;
  const base = process.env.XDG_CACHE_HOME || (os.homedir() && path.join(os.homedir(), '.cache'));
  if (!base) return null;
  return path.join(base, 'cloud-config-merge', `${path.basename(file)}-${stat.size}-${Math.trunc(stat.mtimeMs)}-${process.version}.v8`);
}

/** Caches of earlier builds of the same bundle (another size, time or node version) are never read again: each upgrade would leave one behind. */
function removeOlderCaches(cacheFile, file) {
  const dir = path.dirname(cacheFile);
  const prefix = `${path.basename(file)}-`;
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(prefix) && name.endsWith('.v8') && name !== path.basename(cacheFile)) fs.rmSync(path.join(dir, name), { force: true });
  }
}

/**
 * The module's exports, and a function that saves the code cache (call it after the work, so lazily compiled functions are in it).
 * The bundle is ASCII (scripts/bundle.mjs builds it with charset 'ascii'), so latin1 reads it to the same string, and
 * node decodes latin1 many times faster than UTF-8 (a tenth of the CLI's start-up above node's own).
 */
function requireCached(file) {
  const source = fs.readFileSync(file, 'latin1');
  const cacheFile = cacheFileFor(file, fs.statSync(file));
  let cachedData;
  if (cacheFile) {
    try {
      cachedData = fs.readFileSync(cacheFile);
    } catch {
      /* no cache yet */
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const module = new Module(file, null);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  script.runInThisContext().call(module.exports, module.exports, Module.createRequire(file), module, file, path.dirname(file));
  const save = () => {
    if (!cacheFile || (cachedData && !script.cachedDataRejected)) return;
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
      const temporary = `${cacheFile}.${process.pid}`;
      fs.writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(temporary, cacheFile);
      removeOlderCaches(cacheFile, file);
    } catch {
      /* a read-only home: no cache */
    }
  };
  return { exports: module.exports, save };
}

module.exports = { requireCached };
