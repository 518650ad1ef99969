// Two bundles for the extension (client, server), as vscode-eslint does;
// the CLI and the stdio server run from the tsc output instead.
import { build } from 'esbuild';

const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: false, minify: true, logLevel: 'warning' };
await Promise.all([
  build({ ...common, entryPoints: ['client/out/extension.js'], outfile: 'dist/client.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/out/server.js'], outfile: 'dist/server.js' }),
]);
