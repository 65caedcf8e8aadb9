import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

/**
 * The demo program's key, kept beside the demo database (mode 0600) so `pnpm start` prints the same key on every
 * start: a key the newcomer already pasted into `.env` keeps working. Only the demo does this; a real server stores
 * keys hashed and shows them once.
 */
export function readDemoKey(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const key = readFileSync(path, 'utf8').trim();
  return /^svc_live_[A-Za-z0-9_-]{43}$/.test(key) ? key : undefined;
}

export function writeDemoKey(path: string, key: string): void {
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
}

/** `pnpm start --fresh`: the demo database and its key file go; the next seed starts over. */
export function removeDemoFiles(paths: string[]): void {
  for (const path of paths) for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}
