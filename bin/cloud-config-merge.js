#!/usr/bin/env node
'use strict';
process.exitCode = require('../server/out/cli/main.js').main();
