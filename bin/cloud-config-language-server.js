#!/usr/bin/env node
'use strict';
// The Cloud-Config Merge language server over stdio, for any LSP client (Neovim, Helix, Emacs ...).
// Extra arguments (e.g. --clientProcessId=N) are passed on. Runs the bundle the VS Code client runs
// (dist/server.js, one file to load), or the compiled modules in a checkout built with tsc only.
const path = require('node:path');
const fs = require('node:fs');

const bundle = path.join(__dirname, '..', 'dist', 'server.js');
const main = fs.existsSync(bundle) ? bundle : path.join(__dirname, '..', 'server', 'out', 'server.js');
const args = process.argv.slice(2).filter((a) => !/^--(stdio|node-ipc|socket|pipe)\b/.test(a));
process.argv = [process.argv[0], main, '--stdio', ...args];
require(main);
