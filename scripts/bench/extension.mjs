/** Section 5 (`--only extension`): the packaged .vsix and the bundle's cold load and activate(). */
import * as path from 'node:path';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import { ROOT, BENCH, ctx, progress, run, runJson } from './context.mjs';

/** The entries of a zip (a .vsix), from its central directory: name and sizes. */
function zipEntries(file) {
  const buf = readFileSync(file);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return [];
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let i = 0; i < count && buf.readUInt32LE(at) === 0x02014b50; i++) {
    const compressed = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    entries.push({ name: buf.subarray(at + 46, at + 46 + nameLength).toString('utf8'), compressed, size });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

export async function benchExtension() {
  const out = { vsix: null, activation: [], bundle: null };
  const vsix = path.join(ROOT, 'cloud-config-merge.vsix');
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const bundle = path.join(ROOT, (pkg.main ?? './dist/client.js').replace(/^\.\//, ''));
  if (ctx.config.packageVsix && pkg.scripts?.package && !existsSync(vsix)) {
    progress('extension: npm run package (builds, then vsce package)');
    const r = await run('npm', ['run', 'package'], { timeoutMs: 10 * 60000 });
    out.packaged = r.code === 0;
    if (r.code !== 0) out.packageError = r.stderr.trim().split('\n').slice(-5).join(' ');
  }
  if (existsSync(vsix)) {
    const st = statSync(vsix);
    const entries = zipEntries(vsix);
    out.vsix = {
      bytes: st.size,
      mtime: st.mtime.toISOString().replace(/\.\d+Z$/, 'Z'),
      entries: entries.length,
      largest: entries.sort((a, b) => b.compressed - a.compressed).slice(0, 6),
      fresh: out.packaged === true,
      olderThanBundles: ['dist/client.js', 'dist/server.js'].some((f) => existsSync(path.join(ROOT, f)) && statSync(path.join(ROOT, f)).mtimeMs > st.mtimeMs),
    };
  }
  // What the current bundles would weigh in a .vsix (deflate, as vsce's zip does), in case the package is older.
  out.bundles = ['dist/client.js', 'dist/server.js']
    .filter((f) => existsSync(path.join(ROOT, f)))
    .map((f) => {
      const bytes = readFileSync(path.join(ROOT, f));
      return { file: f, bytes: bytes.length, deflated: deflateRawSync(bytes, { level: 9 }).length };
    });
  if (existsSync(bundle)) {
    out.bundle = { file: path.relative(ROOT, bundle), bytes: statSync(bundle).size };
    progress(`extension: cold require of ${out.bundle.file} with a stubbed vscode, then activate(), ${ctx.config.activations} fresh processes`);
    for (let i = 0; i < ctx.config.activations; i++) {
      try {
        out.activation.push(await runJson(process.execPath, [path.join(BENCH, 'activate-child.cjs'), bundle], { timeoutMs: 60000 }));
      } catch (e) {
        out.activationError = String(e.message ?? e);
        break;
      }
    }
  }
  return out;
}
