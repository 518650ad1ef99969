// Two bundles for the extension (client, server), as vscode-eslint does, and one for the CLI
// (bin/cloud-config-merge.js, with its data files in dist/cli-data/); the stdio server's bin runs from the tsc output.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { DATA, lazyJson, noForge } from './bundle-plugins.mjs';

// The CLI's bundle leaves the data out (about 650 KB of its 1.5 MB): each file goes to dist/cli-data/ and is read
// when the run first needs it, so a run that never looks at netplan's model or a version's schema does not
// read them at start-up (issue 44). The server bundle keeps them in (the language server loads them anyway).
const CLI_DATA = 'dist/cli-data';
const dataFiles = {
  name: 'data-files',
  setup(b) {
    b.onLoad({ filter: DATA }, async (args) => {
      const name = `${path.basename(path.dirname(path.dirname(args.path)))}-${path.basename(args.path)}`;
      await writeFile(path.join(CLI_DATA, name), JSON.stringify(JSON.parse(await readFile(args.path, 'utf8'))));
      return {
        contents: `module.exports = JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, 'cli-data', ${JSON.stringify(name)}), 'utf8'));`,
        loader: 'js',
      };
    });
  },
};
await rm(CLI_DATA, { recursive: true, force: true });
await mkdir(CLI_DATA, { recursive: true });

// charset 'ascii' (esbuild's default, stated): every other character is escaped, so bin/compile-cache.js
// can read dist/cli.js as latin1, which node decodes many times faster than UTF-8.
const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', charset: 'ascii', sourcemap: false, minify: true, logLevel: 'warning', plugins: [lazyJson, noForge] };
await Promise.all([
  build({ ...common, entryPoints: ['client/out/extension.js'], outfile: 'dist/client.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/out/server.js'], outfile: 'dist/server.js' }),
  build({ ...common, plugins: [dataFiles, noForge], entryPoints: ['server/out/cli/main.js'], outfile: 'dist/cli.js' }),
]);
