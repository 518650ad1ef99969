// `npm run playground`: the playground page (playground/) as a static site in site/: index.html, style.css and
// app.js, one bundle of the engine for the browser (no file system, no LSP; node:zlib, node:crypto, node:path and Buffer
// replaced by playground/shims/). Open site/index.html, or serve the folder; it makes no request after load.
// Prints what the page weighs (raw and gzipped).
import { build } from 'esbuild';
import { copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { browserOptions, root } from './browserBuild.mjs';

const out = join(root, process.argv.includes('--out') ? process.argv[process.argv.indexOf('--out') + 1] : 'site');
await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({ ...browserOptions, entryPoints: ['playground/src/main.ts'], outfile: join(out, 'app.js') });
await copyFile(join(root, 'playground', 'index.html'), join(out, 'index.html'));
await copyFile(join(root, 'playground', 'style.css'), join(out, 'style.css'));

let raw = 0;
let gz = 0;
for (const f of ['index.html', 'style.css', 'app.js']) {
  const bytes = await readFile(join(out, f));
  raw += (await stat(join(out, f))).size;
  gz += gzipSync(bytes, { level: 9 }).length;
}
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
console.log(`playground: ${out} (${kb(raw)}, ${kb(gz)} gzipped)`);
