// Two bundles for the extension (client, server), as vscode-eslint does, and one for the CLI
// (bin/cloud-config-merge.js); the stdio server's bin runs from the tsc output.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';

// The engine's data files (server/src/engine/*/data/*.json: each cloud-init version's schema and plan facts,
// netplan's model, seed and distro facts) go in as a JSON string parsed on first use: V8 skims a string
// literal, where an object literal of the same size is parsed at start-up even when it is never used.
const lazyJson = {
  name: 'lazy-json',
  setup(b) {
    b.onLoad({ filter: /[\\/]engine[\\/]\w+[\\/]data[\\/][^\\/]+\.json$/ }, async (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(await readFile(args.path, 'utf8'))))});`,
      loader: 'js',
    }));
  },
};

// secretlint's recommended preset (engine/secrets/tokens.ts) loads node-forge, 870 KB, by a dynamic import only
// for its GCP rule's .p12 files, a rule we do not run: the bundles get a stub in its place.
const noForge = {
  name: 'no-forge',
  setup(b) {
    b.onResolve({ filter: /^\.\/index-[\w-]+\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && /secretlint-rule-preset-recommend/.test(args.importer) ? { path: args.path, namespace: 'no-forge' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'no-forge' }, () => ({ contents: "throw new Error('node-forge is not bundled: the GCP rule of secretlint is not run');", loader: 'js' }));
  },
};

// charset 'ascii' (esbuild's default, stated): every other character is escaped, so bin/compile-cache.js
// can read dist/cli.js as latin1, which node decodes many times faster than UTF-8.
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', charset: 'ascii', sourcemap: false, minify: true, logLevel: 'warning', plugins: [lazyJson, noForge] };
await Promise.all([
  build({ ...common, entryPoints: ['client/out/extension.js'], outfile: 'dist/client.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/out/server.js'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/out/cli/main.js'], outfile: 'dist/cli.js' }),
]);
