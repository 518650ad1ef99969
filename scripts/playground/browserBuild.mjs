// The engine bundled for the browser: node:zlib, node:crypto, node:path and Buffer replaced by playground/shims/
// (pako, @noble/hashes, buffer), the schema data and secretlint's preset as the other bundles take them. Used by
// the playground (build.mjs) and the browser benchmark (bench.mjs).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyJson, noForge } from '../bundle-plugins.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const shim = (name) => join(root, 'playground', 'shims', name);

// node:zlib, node:crypto (the engine) and node:path (secretlint's preset), resolved to the shims.
const nodeShims = {
  name: 'node-shims',
  setup(b) {
    b.onResolve({ filter: /^(node:)?(zlib|crypto|path)$/ }, (args) => ({ path: shim(`${args.path.replace(/^node:/, '')}.ts`) }));
  },
};

/** esbuild's options for a browser bundle of the engine (add entryPoints or stdin, and outfile). */
export const browserOptions = {
  absWorkingDir: root,
  bundle: true,
  platform: 'browser',
  format: 'iife',
  target: ['chrome110', 'firefox115', 'safari16'],
  minify: true,
  sourcemap: false,
  legalComments: 'eof',
  logLevel: 'warning',
  inject: [shim('buffer.ts')],
  plugins: [nodeShims, lazyJson, noForge],
};
