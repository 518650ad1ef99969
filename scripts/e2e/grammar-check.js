#!/usr/bin/env node
// Tokenizes sample lines with VS Code's own YAML grammar plus syntaxes/cloud-config.injection.tmLanguage.json,
// using the vscode-textmate and vscode-oniguruma that ship inside the e2e VS Code (code-server), and checks
// the scopes a theme would color. Prints "N passed, N failed".
'use strict';
const fs = require('fs');
const path = require('path');
const assert = require('assert');

const ROOT = path.resolve(__dirname, '../..');
const VSCODE = process.env.VSCODE_SERVER_ROOT || path.join(ROOT, '.vscode-test/code-server/node_modules/code-server/lib/vscode');
const tm = require(path.join(VSCODE, 'node_modules/vscode-textmate'));
const onig = require(path.join(VSCODE, 'node_modules/vscode-oniguruma'));
const pkg = require(path.join(ROOT, 'package.json'));

const yamlDir = path.join(VSCODE, 'extensions/yaml/syntaxes');
const grammarFiles = {};
for (const f of fs.readdirSync(yamlDir)) grammarFiles[JSON.parse(fs.readFileSync(path.join(yamlDir, f), 'utf8')).scopeName] = path.join(yamlDir, f);
const contributed = pkg.contributes.grammars.find((g) => g.injectTo && g.injectTo.includes('source.yaml'));
grammarFiles[contributed.scopeName] = path.join(ROOT, contributed.path);

async function main() {
  const wasm = fs.readFileSync(path.join(VSCODE, 'node_modules/vscode-oniguruma/release/onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new tm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (p) => new onig.OnigScanner(p), createOnigString: (s) => new onig.OnigString(s) }),
    loadGrammar: async (scope) => (grammarFiles[scope] ? tm.parseRawGrammar(fs.readFileSync(grammarFiles[scope], 'utf8'), grammarFiles[scope]) : null),
    getInjections: (scope) => (scope === 'source.yaml' ? [contributed.scopeName] : undefined),
  });
  const grammar = await registry.loadGrammar('source.yaml');

  /** scopes of each token of each line: [[text, 'scope scope …'], …] */
  const tokenize = (text) => {
    let state = tm.INITIAL;
    return text.split('\n').map((line) => {
      const r = grammar.tokenizeLine(line, state);
      state = r.ruleStack;
      return r.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes.join(' ')]);
    });
  };
  const scopeOf = (lines, lineNo, text) => {
    const tok = lines[lineNo].find(([t]) => t === text);
    assert.ok(tok, `no token "${text}" on line ${lineNo}: ${JSON.stringify(lines[lineNo])}`);
    return tok[1];
  };

  const results = [];
  const check = (name, fn) => {
    try { fn(); results.push([true, name]); } catch (e) { results.push([false, name, e.message]); }
  };

  check('#cloud-config on the first line is a directive', () => {
    const l = tokenize('#cloud-config\npackages: [git]\n');
    assert.match(scopeOf(l, 0, 'cloud-config'), /keyword\.control\.directive\.cloud-config/);
  });
  check('#cloud-config-archive and #cloud-config-jsonp are directives', () => {
    assert.match(scopeOf(tokenize('#cloud-config-archive\n- type: text/cloud-config\n'), 0, 'cloud-config-archive'), /keyword\.control\.directive/);
    assert.match(scopeOf(tokenize('#cloud-config-jsonp\n'), 0, 'cloud-config-jsonp'), /keyword\.control\.directive/);
  });
  check('## template: jinja, then #cloud-config on line 2', () => {
    const l = tokenize('## template: jinja\n#cloud-config\nhostname: {{ v1.local_hostname }}\n');
    assert.match(scopeOf(l, 0, 'jinja'), /entity\.name\.type\.template\.cloud-config/);
    assert.match(scopeOf(l, 1, 'cloud-config'), /keyword\.control\.directive/);
  });
  check('#include, #include-once, #cloud-boothook, #part-handler on the first line', () => {
    for (const h of ['include', 'include-once', 'cloud-boothook', 'part-handler']) {
      assert.match(scopeOf(tokenize(`#${h}\n`), 0, h), /keyword\.control\.directive/, h);
    }
  });
  check('#include further down is only a comment', () => {
    const l = tokenize('#cloud-config\n#include http://example.invalid/x\n');
    assert.ok(l[1].every(([, s]) => !/directive/.test(s)), JSON.stringify(l[1]));
    assert.ok(l[1].some(([, s]) => /comment/.test(s)));
  });
  check('merge_how string value: merger names, options, separators', () => {
    const l = tokenize('#cloud-config\nmerge_how: "list(append)+dict(no_replace,recurse_list)+str()"\n');
    assert.match(scopeOf(l, 1, 'merge_how'), /entity\.name\.tag\.yaml/);
    assert.match(scopeOf(l, 1, 'list'), /support\.function\.merger\.cloud-config/);
    assert.match(scopeOf(l, 1, 'dict'), /support\.function\.merger/);
    assert.match(scopeOf(l, 1, 'str'), /support\.function\.merger/);
    assert.match(scopeOf(l, 1, 'append'), /variable\.parameter\.merger-option\.cloud-config/);
    assert.match(scopeOf(l, 1, 'no_replace'), /variable\.parameter\.merger-option/);
    assert.match(scopeOf(l, 1, 'recurse_list'), /variable\.parameter\.merger-option/);
    assert.match(scopeOf(l, 1, '+'), /keyword\.operator\.combine/);
    assert.match(scopeOf(l, 1, 'append'), /string\.quoted\.double\.yaml/);
  });
  check('merge_type plain and single-quoted values, indented, with a trailing comment', () => {
    const l = tokenize("#cloud-config\nmerge_type: list(prepend)+dict(replace)  # later wins\n  merge_how: 'dict(allow_delete)'\n");
    assert.match(scopeOf(l, 1, 'prepend'), /variable\.parameter\.merger-option/);
    assert.match(scopeOf(l, 1, 'replace'), /variable\.parameter\.merger-option/);
    assert.match(scopeOf(l, 1, '# later wins'), /comment\.line/);
    assert.match(scopeOf(l, 2, 'allow_delete'), /variable\.parameter\.merger-option/);
  });
  check('unknown option words are not highlighted as options', () => {
    const l = tokenize('#cloud-config\nmerge_how: list(apend)\n');
    assert.doesNotMatch(scopeOf(l, 1, 'apend'), /merger-option/);
  });
  check('merge_how in a comment or another key stays plain YAML', () => {
    const l = tokenize('#cloud-config\n# merge_how: list(append)\nnot_merge_how: list(append)\n');
    assert.ok(l[1].every(([, s]) => !/merger/.test(s)), JSON.stringify(l[1]));
    assert.ok(l[2].every(([, s]) => !/merger/.test(s)), JSON.stringify(l[2]));
  });
  check('the grammar knows exactly the options in the catalogue', () => {
    const catalogue = fs.readFileSync(path.join(ROOT, 'server/src/engine/spec/catalogue.ts'), 'utf8');
    const m = /export type OptionName =([^;]*);/.exec(catalogue);
    assert.ok(m, 'OptionName not found in catalogue.ts');
    const fromCatalogue = [...m[1].matchAll(/'([a-z_]+)'/g)].map((x) => x[1]).sort();
    const g = JSON.parse(fs.readFileSync(grammarFiles[contributed.scopeName], 'utf8'));
    const rule = g.repository.merger.patterns.find((p) => /merger-option/.test(p.name));
    const fromGrammar = /\\b\(([^)]*)\)\\b/.exec(rule.match)[1].split('|').sort();
    assert.deepStrictEqual(fromGrammar, fromCatalogue);
  });

  let failed = 0;
  for (const [ok, name, err] of results) {
    console.log(`${ok ? 'ok  ' : 'FAIL'} grammar: ${name}${ok ? '' : `\n       ${err}`}`);
    if (!ok) failed++;
  }
  console.log(`${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}
main().catch((e) => { console.error(e); console.log('0 passed, 1 failed'); process.exit(1); });
