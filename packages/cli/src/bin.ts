#!/usr/bin/env node
import { main } from './cli/main';
import { version } from '../package.json';

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }, version).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`svc: unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
