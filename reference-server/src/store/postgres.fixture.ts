import pg from 'pg';

/**
 * Ends, as a restart or an operator would, the connection running a statement text that starts with `prefix` once
 * it waits in `pg_sleep` (the tests hold one in the text), and resolves when it did. Found by what it waits for: the
 * text may be longer than the part of it `pg_stat_activity` shows.
 */
export async function endConnectionWhileItSleeps(url: string, prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let ended = 0; ended === 0;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const { rows } = await admin.query<{ n: number }>(
        `select count(pg_terminate_backend(pid))::int as n from pg_stat_activity where query like $1 and wait_event = 'PgSleep'`,
        [`${prefix}%`],
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
