#!/usr/bin/env node
import { main } from './cli/main';
import { printable } from './output/printable';
import { version } from '../package.json';

// `svc programs | head` closes stdout early: that is the reader's choice, not a failure.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env }, version).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Its message may hold a server's text: no escape sequence reaches the terminal.
    process.stderr.write(`svc: unexpected error: ${printable((error as Error)?.stack ?? String(error))}\n`);
    process.exitCode = 1;
  },
);
