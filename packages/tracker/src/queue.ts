/** One call recorded by the queue stub: `svc('signup', 'user_42', { email })` before the script loaded. */
export type QueuedCall = ArrayLike<unknown>;

/**
 * Replays the calls the stub queued, in order. One failing call does not stop the others (the tracker
 * never throws into the page).
 */
export function drainQueue(queue: readonly QueuedCall[] | undefined, run: (command: string, ...args: unknown[]) => unknown): void {
  for (const call of queue || []) {
    try {
      run(...(call as [string, ...unknown[]]));
    } catch {
      // A bad queued call is the page's; the next ones still run.
    }
  }
}
