export interface ShutdownOptions {
  signals?: readonly NodeJS.Signals[];
  /** After this long the process exits even if requests are still running (a stuck client must not block a deploy). */
  graceMs?: number;
  exit?: (code: number) => void;
  log?: (message: string) => void;
}

/**
 * Graceful shutdown: on the first signal, run `close` (stop accepting connections, let in-flight requests
 * finish, then close the database) and exit 0; exit 1 if closing fails or outlasts `graceMs`.
 */
export function handleShutdownSignals(close: () => Promise<void>, options: ShutdownOptions = {}): void {
  const { signals = ['SIGTERM', 'SIGINT'], graceMs = 10_000, exit = (code) => process.exit(code), log = console.error } = options;
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log(`${signal}: finishing in-flight requests, then closing the database`);
    const deadline = setTimeout(() => {
      log(`shutdown did not finish within ${graceMs} ms; exiting`);
      exit(1);
    }, graceMs);
    deadline.unref();
    close()
      .then(() => {
        clearTimeout(deadline);
        exit(0);
      })
      .catch((error: unknown) => {
        log(String(error instanceof Error ? (error.stack ?? error.message) : error));
        exit(1);
      });
  };
  for (const signal of signals) process.on(signal, () => shutdown(signal));
}
