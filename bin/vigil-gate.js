#!/usr/bin/env node
'use strict';
// Runs the compiled gate client; exit 4 (usage error, never "passed") when it has not been built.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const cli = join(__dirname, '..', 'dist', 'libs', 'gate-client', 'cli.js');
if (!existsSync(cli)) {
  process.stderr.write('vigil-gate: run `npm run build` first\n');
  process.exit(4);
}
require(cli);
