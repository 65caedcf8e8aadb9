import { spawn } from 'node:child_process';
import { binPath } from './run-cli';

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
// ANSI escape sequences (ESC [ … letter); the ESC is the point.
// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;?]*[A-Za-z]/g;

export interface TerminalRun {
  /** Types into the terminal (`\r` is Enter). */
  type(keys: string): void;
  /** Waits until the screen text (colour codes removed) contains `text`. */
  waitFor(text: string): Promise<void>;
  /** The screen text so far, colour codes removed. */
  screen(): string;
  done: Promise<{ code: number | null; raw: string; text: string }>;
}

/**
 * Runs `svc` on a real pseudo-terminal through util-linux `script` (Debian's essential bsdutils), so stdin,
 * stdout and stderr are TTYs as in a user's terminal: prompts, spinner and colour are on.
 */
export function runInTerminal(args: string[], env: Record<string, string>): TerminalRun {
  const command = `stty cols 120 rows 40; exec ${[process.execPath, binPath, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let raw = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (raw += chunk));
  const text = () => raw.replace(ansi, '');
  const done = new Promise<{ code: number | null; raw: string; text: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, raw, text: text() }));
  });
  return {
    type: (keys) => child.stdin.write(keys),
    screen: text,
    async waitFor(expected) {
      for (let waited = 0; waited < 10_000 && !text().includes(expected); waited += 25) await new Promise((r) => setTimeout(r, 25));
      if (!text().includes(expected)) throw new Error(`terminal never showed "${expected}":\n${text()}`);
    },
    done,
  };
}
