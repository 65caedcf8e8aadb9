import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The built binary, as `npm install` would put it on PATH (`bin: { svc: ./dist/bin.js }`). */
export const binPath = fileURLToPath(new URL('../../dist/bin.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The parsed stdout of a `--json` run. */
  json: any;
}

export interface RunningCli {
  child: ChildProcess;
  /** Resolves with the first match of `pattern` in stderr. */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>;
  done: Promise<CliRun>;
}

/** Spawns `node dist/bin.js …` with only the environment given (no stray SVC_API_KEY from the machine). */
export function startCli(args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [binPath, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: env.HOME ?? '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const waiter of [...waiters]) {
      const match = stderr.match(waiter.pattern);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  const done = new Promise<CliRun>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      for (const waiter of waiters) waiter.resolve(Object.assign([], { input: stderr }) as unknown as RegExpMatchArray);
      resolve({ code, stdout, stderr, json });
    });
  });
  return {
    child,
    done,
    waitForStderr: (pattern) =>
      new Promise((resolve, reject) => {
        const match = stderr.match(pattern);
        if (match) return resolve(match);
        waiters.push({
          pattern,
          resolve: (found) => (found.length ? resolve(found) : reject(new Error(`svc exited before printing ${pattern}: ${stderr}`))),
        });
      }),
  };
}

export const runCli = (args: string[], env: Record<string, string>): Promise<CliRun> => startCli(args, env).done;
