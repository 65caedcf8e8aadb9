/** `count(1, 'click')` → `1 click`, `count(2, 'click')` → `2 clicks`: what the CLI prints is read by people. */
export function count(n: number, noun: string): string {
  return `${n} ${n === 1 ? noun : `${noun}s`}`;
}
