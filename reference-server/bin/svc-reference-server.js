#!/usr/bin/env node
// Committed so pnpm can link the bin at install time, before `pnpm build` has written dist/.
import '../dist/server.js';
