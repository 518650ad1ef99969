#!/usr/bin/env node
'use strict';
// The Cloud-Config Merge language server over stdio, for any LSP client (Neovim, Helix, Emacs ...).
// Extra arguments (e.g. --clientProcessId=N) are passed on.
const path = require('node:path');

const args = process.argv.slice(2).filter((a) => !/^--(stdio|node-ipc|socket|pipe)\b/.test(a));
process.argv = [process.argv[0], path.join(__dirname, '..', 'server', 'out', 'server.js'), '--stdio', ...args];
require('../server/out/server.js');
