import pg from 'pg';

/**
 * Ends, as a restart or an operator would, the connection whose text holds `sleep` (a `select pg_sleep(…)` of a
 * duration no other test uses: test files run side by side on one database) once it waits there, and resolves when
 * it did. Found by what it waits for and by that statement: PostgreSQL shows only the start of a long text.
 */
export async function endConnectionWhileItSleeps(url: string, sleep: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let ended = 0; ended === 0;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows } = await admin.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
         where strpos(query, $1) > 0 and wait_event = 'PgSleep' and pid <> pg_backend_pid()`,
        [sleep],
      );
      ended = rows[0]!.n;
    }
  } finally {
    await admin.end();
  }
}

/** The texts pg's clients were asked to send, one per round trip, as a spy on `pg.Client.prototype.query` saw them. */
export function sentTexts(calls: unknown[][]): string[] {
  return calls.map(([query]) => (typeof query === 'string' ? query : String((query as { text?: unknown }).text)));
}
