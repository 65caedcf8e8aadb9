import type { Colours } from './colour';
import type { WritableLike } from './output';

export interface Spinner {
  message(text: string): void;
  stop(finalLine: string): void;
}

const frames = ['◒', '◐', '◓', '◑'];

/**
 * A one-line spinner for a terminal. Unlike @clack/prompts' spinner it leaves stdin alone (no raw mode), so
 * Ctrl+C stays a SIGINT the caller decides about instead of an exit with status 0.
 */
export function startSpinner(stream: WritableLike, c: Colours, text: string, intervalMs = 120): Spinner {
  let frame = 0;
  let current = text;
  const render = () => stream.write(`\r\u001b[2K${c.cyan(frames[frame++ % frames.length] ?? '')}  ${current}`);
  render();
  const timer = setInterval(render, intervalMs);
  return {
    message: (next) => {
      current = next;
    },
    stop: (finalLine) => {
      clearInterval(timer);
      stream.write(`\r\u001b[2K${finalLine}\n`);
    },
  };
}
