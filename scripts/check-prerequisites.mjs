#!/usr/bin/env node
// Run first by `pnpm test`: what the suite needs besides Node, checked in seconds, so a missing browser or database
// is one line naming the fix instead of minutes of failing tests. Chromium and Firefox ESR (unless
// SVC_SKIP_BROWSERS=1), at CHROMIUM_PATH / FIREFOX_PATH or on PATH; PostgreSQL only when DATABASE_URL names one.
import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';

/** An executable file at `path`, or the first of `names` on PATH. */
function findExecutable(path, names) {
  const candidates = path ? [path] : names.flatMap((name) => (process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, name)));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Whether a TCP connection to the URL's host and port opens within 3 s. */
function reachable(url) {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname || '127.0.0.1', port: Number(url.port || 5432) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

const problems = [];
if (process.env.SVC_SKIP_BROWSERS !== '1') {
  const skip = 'or run without the browser tests: SVC_SKIP_BROWSERS=1 pnpm test';
  if (!findExecutable(process.env.CHROMIUM_PATH, ['chromium', 'chromium-browser'])) {
    problems.push(
      `Chromium not found (${process.env.CHROMIUM_PATH ? `CHROMIUM_PATH=${process.env.CHROMIUM_PATH}` : 'chromium on PATH'}). ` +
        `Install it: sudo apt-get install -y chromium firefox-esr (or set CHROMIUM_PATH), ${skip}`,
    );
  }
  if (!findExecutable(process.env.FIREFOX_PATH, ['firefox-esr'])) {
    problems.push(
      `Firefox ESR not found (${process.env.FIREFOX_PATH ? `FIREFOX_PATH=${process.env.FIREFOX_PATH}` : 'firefox-esr on PATH'}). ` +
        `Install it: sudo apt-get install -y chromium firefox-esr (or set FIREFOX_PATH), ${skip}`,
    );
  }
}
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl?.startsWith('postgres')) {
  const url = new URL(databaseUrl);
  if (!(await reachable(url))) {
    problems.push(
      `PostgreSQL not reachable at ${url.hostname}:${url.port || 5432} (DATABASE_URL). Start it, ` +
        'or unset DATABASE_URL to run the suite on SQLite only.',
    );
  }
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`✗ ${problem}`);
  process.exit(1);
}
