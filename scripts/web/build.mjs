// The web extension (dist/web/client.js, below) and the language server for a browser (dist/web/server.js): server/src/server.ts bundled to run in a Web Worker, its
// connection over the worker's messages (browser/shims/lspNode.ts), no file system (browser/shims/fs.ts: only open
// documents are read), node:path and node:url as POSIX paths and file URLs, and the engine's shims of the playground.
import { build } from 'esbuild';
import { join } from 'node:path';
import { browserOptions, root } from '../playground/browserBuild.mjs';

const shim = (name) => join(root, 'browser', 'shims', name);
const serverShims = {
  name: 'server-shims',
  setup(b) {
    b.onResolve({ filter: /^vscode-languageserver\/node$/ }, () => ({ path: shim('lspNode.ts') }));
    b.onResolve({ filter: /^(node:)?fs$/ }, () => ({ path: shim('fs.ts') }));
    b.onResolve({ filter: /^(node:)?url$/ }, () => ({ path: shim('url.ts') }));
    b.onResolve({ filter: /^(node:)?path$/ }, () => ({ path: join(root, 'node_modules', 'path-browserify', 'index.js') }));
  },
};

export async function buildWebServer(outfile = join(root, 'dist', 'web', 'server.js')) {
  await build({
    ...browserOptions,
    entryPoints: ['server/src/server.ts'],
    outfile,
    inject: [...browserOptions.inject, shim('process.ts')],
    plugins: [serverShims, ...browserOptions.plugins],
  });
  return outfile;
}

/** The web extension's client (dist/web/client.js): client/src with the browser language client (browser/client/). */
export async function buildWebClient(outfile = join(root, 'dist', 'web', 'client.js')) {
  const clientShims = {
    name: 'client-shims',
    setup(b) {
      b.onResolve({ filter: /^vscode-languageclient\/node$/ }, () => ({ path: join(root, 'browser', 'client', 'languageclientNode.ts') }));
      b.onResolve({ filter: /^(node:)?path$/ }, () => ({ path: join(root, 'node_modules', 'path-browserify', 'index.js') }));
    },
  };
  await build({
    ...browserOptions,
    entryPoints: ['browser/client/extension.ts'],
    outfile,
    format: 'cjs',
    external: ['vscode'],
    inject: [...browserOptions.inject, shim('process.ts')],
    plugins: [clientShims, ...browserOptions.plugins],
  });
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await buildWebServer(), await buildWebClient());
