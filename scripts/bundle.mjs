// Two bundles for the extension (client, server), as vscode-eslint does, and one for the CLI
// (bin/cloud-config-merge.js); the stdio server's bin runs from the tsc output.
import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';

// The schema data of each cloud-init version (server/src/engine/schema/data/*.json) goes in as a JSON
// string parsed on first use: V8 skims a string literal, where an object literal of the same size is
// parsed at start-up even when its version is never used.
const lazyJson = {
  name: 'lazy-json',
  setup(b) {
    b.onLoad({ filter: /[\\/]schema[\\/]data[\\/][^\\/]+\.json$/ }, async (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(await readFile(args.path, 'utf8'))))});`,
      loader: 'js',
    }));
  },
};

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: false, minify: true, logLevel: 'warning', plugins: [lazyJson] };
await Promise.all([
  build({ ...common, entryPoints: ['client/out/extension.js'], outfile: 'dist/client.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/out/server.js'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/out/cli/main.js'], outfile: 'dist/cli.js' }),
]);
