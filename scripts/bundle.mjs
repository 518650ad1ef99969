// Two bundles for the extension (client, server), as vscode-eslint does, and one for the CLI
// (bin/cloud-config-merge.js); the stdio server's bin runs from the tsc output.
import { build } from 'esbuild';
import { lazyJson, noForge } from './bundle-plugins.mjs';

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: false, minify: true, logLevel: 'warning', plugins: [lazyJson, noForge] };
await Promise.all([
  build({ ...common, entryPoints: ['client/out/extension.js'], outfile: 'dist/client.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/out/server.js'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/out/cli/main.js'], outfile: 'dist/cli.js' }),
]);
