/**
 * A proxy for the extension's activation cost, outside VS Code: the cold
 * `require` of the client bundle (dist/client.js) with a stubbed `vscode`
 * module, then `activate()` with a stub ExtensionContext. The stub answers
 * every property and call with another stub, so activate() runs its own
 * code (creating the output channel, registering commands and providers)
 * against no-op APIs; nothing of VS Code itself is measured.
 * Prints one JSON line: {"requireMs", "requireCpuMs", "activateMs", "reportedMs", "error"}.
 */
'use strict';
const Module = require('node:module');
const path = require('node:path');

function stub(name) {
  const target = function () {};
  return new Proxy(target, {
    get(_t, key) {
      if (key === 'then') return undefined;
      if (key === Symbol.toPrimitive) return () => '';
      if (key === Symbol.iterator) return function* () {};
      if (key === 'prototype') return target.prototype;
      if (key === 'length') return 0;
      if (key === 'forEach' || key === 'map' || key === 'filter' || key === 'some' || key === 'find') return () => (key === 'some' ? false : key === 'map' || key === 'filter' ? [] : undefined);
      if (key === 'push') return () => 0;
      if (key === 'version') return '1.100.0';
      return stub(`${name}.${String(key)}`);
    },
    apply() {
      return stub(`${name}()`);
    },
    construct() {
      return stub(`new ${name}`);
    },
  });
}

const vscodeStub = stub('vscode');
const originalLoad = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return vscodeStub;
  return originalLoad.call(this, request, parent, isMain);
};

const bundle = path.resolve(process.argv[2]);
const out = { requireMs: null, requireCpuMs: null, activateMs: null, reportedMs: null, error: null };
const c0 = process.cpuUsage();
const t0 = performance.now();
let ext;
try {
  ext = require(bundle);
  out.requireMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  out.requireCpuMs = (c.user + c.system) / 1000;
} catch (e) {
  out.error = `require: ${e && e.message}`;
}
if (ext && typeof ext.activate === 'function') {
  const context = {
    subscriptions: [],
    extensionPath: path.resolve(__dirname, '..', '..'),
    extensionUri: stub('extensionUri'),
    asAbsolutePath: (p) => path.resolve(__dirname, '..', '..', p),
    globalState: stub('globalState'),
    workspaceState: stub('workspaceState'),
    storageUri: undefined,
    globalStorageUri: stub('globalStorageUri'),
    logUri: stub('logUri'),
    extensionMode: 1,
    environmentVariableCollection: stub('env'),
    secrets: stub('secrets'),
  };
  const t1 = performance.now();
  try {
    const api = ext.activate(context);
    out.activateMs = performance.now() - t1;
    if (api && typeof api.activationMs === 'number') out.reportedMs = api.activationMs;
  } catch (e) {
    out.activateMs = null;
    out.error = `activate: ${e && e.message}`;
  }
}
process.stdout.write(JSON.stringify(out) + '\n');
process.exit(0);
