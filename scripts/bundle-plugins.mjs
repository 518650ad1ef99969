// The esbuild plugins every bundle uses: the extension's and the CLI's (bundle.mjs), the browser's (scripts/playground/browserBuild.mjs).
import { readFile } from 'node:fs/promises';

// The engine's data files (server/src/engine/*/data/*.json: each cloud-init version's schema and plan facts,
// netplan's model, seed and distro facts) go in as a JSON string parsed on first use: V8 skims a string
// literal, where an object literal of the same size is parsed at start-up even when it is never used.
export const DATA = /[\\/]engine[\\/]\w+[\\/]data[\\/][^\\/]+\.json$/;
export const lazyJson = {
  name: 'lazy-json',
  setup(b) {
    b.onLoad({ filter: DATA }, async (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(await readFile(args.path, 'utf8'))))});`,
      loader: 'js',
    }));
  },
};

// secretlint's recommended preset (engine/secrets/tokens.ts) loads node-forge, 870 KB, by a dynamic import only
// for its GCP rule's .p12 files, a rule we do not run: the bundles get a stub in its place.
export const noForge = {
  name: 'no-forge',
  setup(b) {
    b.onResolve({ filter: /^\.\/index-[\w-]+\.js$/ }, (args) =>
      args.kind === 'dynamic-import' && /secretlint-rule-preset-recommend/.test(args.importer) ? { path: args.path, namespace: 'no-forge' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'no-forge' }, () => ({ contents: "throw new Error('node-forge is not bundled: the GCP rule of secretlint is not run');", loader: 'js' }));
  },
};
