/**
 * Spies for the security tests: every way Node can run a program, open a
 * network connection, resolve a name or evaluate code is replaced by a
 * recorder that also refuses to do it. Used in-process (installSpies), and
 * in the language server's process through
 * `NODE_OPTIONS=--require out/test/robustness/spy.js` with CCM_SECURITY_SPY=1,
 * where each attempt is written to stderr as a `SECURITY-SPY:` line.
 */
// The modules themselves (require), not the copies `import * as` makes: patches must be seen by all users.
const childProcess = require('node:child_process') as typeof import('node:child_process');
const dns = require('node:dns') as typeof import('node:dns');
const http = require('node:http') as typeof import('node:http');
const https = require('node:https') as typeof import('node:https');
const http2 = require('node:http2') as typeof import('node:http2');
const net = require('node:net') as typeof import('node:net');
const tls = require('node:tls') as typeof import('node:tls');
const vm = require('node:vm') as typeof import('node:vm');
const dgram = require('node:dgram') as typeof import('node:dgram');
const workerThreads = require('node:worker_threads') as typeof import('node:worker_threads');

export const SPY_MARKER = 'SECURITY-SPY:';

type Patch = { target: Record<string, unknown>; name: string; original: unknown };

/** Replaces the dangerous functions; returns a function that restores them. */
export function installSpies(report: (what: string) => void): () => void {
  const patches: Patch[] = [];
  const patch = (target: object, name: string, what: string) => {
    const t = target as Record<string, unknown>;
    const original = t[name];
    if (typeof original !== 'function') return;
    const replacement = function (this: unknown) {
      report(what);
      throw new Error(`${what} is forbidden in this test (security spy)`);
    };
    try {
      Object.defineProperty(t, name, { value: replacement, configurable: true, writable: true });
      patches.push({ target: t, name, original });
    } catch {
      /* a non-configurable property (an ES module namespace): leave it */
    }
  };
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) patch(childProcess, name, `child_process.${name}`);
  for (const name of ['connect', 'createConnection']) patch(net, name, `net.${name}`);
  patch(net.Socket.prototype, 'connect', 'net.Socket#connect');
  patch(tls, 'connect', 'tls.connect');
  for (const name of ['request', 'get']) {
    patch(http, name, `http.${name}`);
    patch(https, name, `https.${name}`);
  }
  patch(http2, 'connect', 'http2.connect');
  patch(dgram, 'createSocket', 'dgram.createSocket');
  for (const name of ['lookup', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveTxt', 'resolveSrv', 'resolveNs', 'resolveMx', 'reverse', 'lookupService']) {
    patch(dns, name, `dns.${name}`);
    patch(dns.promises, name, `dns.promises.${name}`);
  }
  for (const name of ['runInThisContext', 'runInNewContext', 'runInContext', 'compileFunction']) patch(vm, name, `vm.${name}`);
  patch(vm, 'Script', 'vm.Script');
  patch(workerThreads, 'Worker', 'worker_threads.Worker');
  if (typeof globalThis.fetch === 'function') patch(globalThis, 'fetch', 'fetch');
  // eval and new Function: the engine has no reason to build code from strings.
  patch(globalThis, 'eval', 'eval');
  const OriginalFunction = Function;
  const FunctionSpy = new Proxy(OriginalFunction, {
    construct(): never {
      report('new Function');
      throw new Error('new Function is forbidden in this test (security spy)');
    },
    apply(): never {
      report('Function()');
      throw new Error('Function() is forbidden in this test (security spy)');
    },
  });
  patches.push({ target: globalThis, name: 'Function', original: OriginalFunction });
  (globalThis as unknown as Record<string, unknown>).Function = FunctionSpy;
  return () => {
    for (const p of patches.reverse()) Object.defineProperty(p.target, p.name, { value: p.original, configurable: true, writable: true });
  };
}

if (process.env.CCM_SECURITY_SPY === '1') {
  installSpies((what) => process.stderr.write(`${SPY_MARKER} ${what}\n${new Error('here').stack}\n`));
}
