#!/usr/bin/env node
'use strict';
// Runs from the bundle (dist/cli.js, built by npm run build) through a V8 code cache; from the
// compiled modules when there is no bundle (a checkout built with tsc only).
const path = require('node:path');
const fs = require('node:fs');

const bundle = path.join(__dirname, '..', 'dist', 'cli.js');
if (fs.existsSync(bundle)) {
  const { requireCached } = require('./compile-cache.js');
  const cli = requireCached(bundle);
  process.exitCode = cli.exports.main();
  cli.save();
} else {
  process.exitCode = require('../server/out/cli/main.js').main();
}
