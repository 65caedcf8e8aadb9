/** One deadline for a whole call, every attempt and every wait between attempts included. */
export interface Deadline {
  /** Aborts the attempt in flight when the time is up (its reason is a `TimeoutError`). */
  signal: AbortSignal;
  remainingMs(): number;
  /** Stops the timer once the call settles, so a short script exits after its last call, Deno included. */
  clear(): void;
}

export function startDeadline(ms: number): Deadline {
  const end = Date.now() + ms;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), ms);
  return { signal: controller.signal, remainingMs: () => end - Date.now(), clear: () => clearTimeout(timer) };
}
