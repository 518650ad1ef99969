// The floors of ARCHITECTURE.md, kept true: the engine imports nothing of VS Code, LSP or the file
// system; its folders import one way (no two of them import each other, directly or around a loop);
// no source file grows past 800 lines (a file that does is usually two concerns).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const ENGINE = path.join(ROOT, 'server', 'src', 'engine');

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) {
      if (name !== 'node_modules' && name !== 'out' && name !== 'data') sources(file, out);
    } else if (/\.(ts|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(file);
  }
  return out;
}

/** The modules a file imports at run time (`import type` does not count), as written. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(import(?!\s+type\b)[^;]*?from\s*|export[^;]*?from\s*)'([^']+)'/gm)) out.push(m[2]);
  for (const m of text.matchAll(/require\('([^']+)'\)/g)) out.push(m[1]);
  return out;
}

/** The engine's folder a file is in (`(top)` for the loose leaves). */
function folderOf(file: string): string {
  const relative = path.relative(ENGINE, file).split(path.sep);
  return relative.length > 1 ? relative[0] : '(top)';
}

test('the engine imports nothing of VS Code, LSP or the file system', () => {
  const offending = sources(ENGINE).flatMap((file) =>
    imports(file)
      .filter((m) => /^(vscode|vscode-languageserver|vscode-languageclient)(\/|$)|^(node:)?(fs|child_process|net|http|https)(\/|$)/.test(m))
      .map((m) => `${path.relative(ROOT, file)} imports ${m}`),
  );
  assert.deepEqual(offending, []);
});

test("the engine's folders import one way: no loop between two of them", () => {
  const edges = new Map<string, Map<string, string>>();
  for (const file of sources(ENGINE)) {
    const from = folderOf(file);
    for (const m of imports(file)) {
      if (!m.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), m);
      if (!target.startsWith(ENGINE + path.sep)) continue;
      const to = folderOf(target + '.ts');
      if (to === from) continue;
      const out = edges.get(from) ?? new Map<string, string>();
      if (!out.has(to)) out.set(to, path.relative(ROOT, file));
      edges.set(from, out);
    }
  }
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length) {
      const at = stack.pop() as string;
      for (const next of edges.get(at)?.keys() ?? []) {
        if (next === to) return true;
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return false;
  };
  const loops: string[] = [];
  for (const [from, out] of edges) for (const [to, file] of out) if (reaches(to, from)) loops.push(`${from} -> ${to} (${file}) and back`);
  assert.deepEqual(loops, []);
});

test('no source file is over 800 lines', () => {
  const long = ['server/src', 'client/src', 'common', 'test', 'scripts']
    .flatMap((dir) => sources(path.join(ROOT, dir)))
    .filter((file) => !file.includes(`${path.sep}e2e${path.sep}workspace${path.sep}`))
    .map((file) => [path.relative(ROOT, file), readFileSync(file, 'utf8').split('\n').length] as const)
    .filter(([, lines]) => lines > 800);
  assert.deepEqual(long, []);
});
