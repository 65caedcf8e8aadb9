import { CompiledQuery, sql, type DatabaseConnection } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, uniqueSchemaName, type Store } from '../db';
import { endConnectionWhileItSleeps } from '../postgres.fixture';
import { JOINED, RoundTrips, statementRefused } from './round-trips';
import { isUniqueViolation } from '../unique-violation';

const url = process.env.DATABASE_URL ?? 'sqlite::memory:';
let store: Store | undefined;
afterEach(async () => store?.close());

const raw = (text: string, parameters: unknown[] = []) => CompiledQuery.raw(text, parameters);

/**
 * A real PostgreSQL connection of the store, seen through a connection that records each text it is asked to run
 * (one per round trip) before handing it on, with the store's `RoundTrips` above it.
 */
async function recorded(run: (connection: DatabaseConnection, sent: string[], roundTrips: RoundTrips) => Promise<void>): Promise<void> {
  store = await openStore(url, { pgSchema: uniqueSchemaName(), dropSchemaOnClose: true });
  await sql`create table probe (id int8 primary key, label text)`.execute(store.db);
  await store.db.connection().execute(async (db) => {
    await db.getExecutor().provideConnection(async (real) => {
      const sent: string[] = [];
      const sending: DatabaseConnection = {
        executeQuery: (query) => {
          sent.push(query.sql);
          return real.executeQuery(query);
        },
        streamQuery: (query, chunkSize) => real.streamQuery(query, chunkSize),
      };
      const connection: DatabaseConnection = { ...sending };
      const roundTrips = new RoundTrips((query) => sending.executeQuery(query));
      connection.executeQuery = ((query: CompiledQuery) => roundTrips.run(query)) as DatabaseConnection['executeQuery'];
      await run(connection, sent, roundTrips);
    });
  });
}

describe.runIf(url.startsWith('postgres'))('round trips of a batch connection on PostgreSQL', () => {
  it('sends deferred statements with the next one waited for, and the statements of one turn together, each answered its own rows', async () => {
    await recorded(async (connection, sent, roundTrips) => {
      roundTrips.defer(raw('begin'));
      roundTrips.defer(raw('insert into probe (id, label) values ($1, $2)', [1, "it's one"]));
      const [one, none] = await Promise.all([
        connection.executeQuery(raw('select label from probe where id = $1', [1])),
        connection.executeQuery(raw('select label from probe where id = $1', [2])),
      ]);
      expect(one.rows).toEqual([{ label: "it's one" }]);
      expect(none.rows).toEqual([]);
      roundTrips.defer(raw('insert into probe (id, label) values ($1, $2)', [2, 'two']));
      await connection.executeQuery(raw('commit'));
      expect(sent).toEqual([
        `${JOINED}begin; insert into probe (id, label) values ('1', 'it''s one'); select label from probe where id = '1'; select label from probe where id = '2'`,
        `${JOINED}insert into probe (id, label) values ('2', 'two'); commit`,
      ]);
      // Committed: another connection sees both rows.
      expect((await sql`select id from probe order by id`.execute(store!.db)).rows).toEqual([{ id: 1 }, { id: 2 }]);
      // With nothing deferred a statement runs at once, alone, as it is.
      const alone = connection.executeQuery(raw('select $1::int as n', [7]));
      expect(sent.at(-1)).toBe('select $1::int as n');
      expect((await alone).rows).toEqual([{ n: 7 }]);
    });
  });

  it('fails the failing statement and every one after it with its error, which says nothing was committed', async () => {
    await recorded(async (connection, sent, roundTrips) => {
      roundTrips.defer(raw('begin'));
      roundTrips.defer(raw('insert into probe (id, label) values ($1, $2)', [1, 'a']));
      roundTrips.defer(raw('insert into probe (id, label) values ($1, $2)', [1, 'again']));
      const commit = connection.executeQuery(raw('commit'));
      const error: unknown = await commit.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(isUniqueViolation(error)).toBe(true);
      expect(statementRefused(error)).toBe(true);
      expect(sent).toHaveLength(1);
      await connection.executeQuery(raw('rollback'));
      expect((await sql`select count(*)::int as n from probe`.execute(store!.db)).rows).toEqual([{ n: 0 }]);
    });
  });

  it('runs a statement that cannot share a text alone, in its turn, the ones around it joined', async () => {
    await recorded(async (connection, sent, roundTrips) => {
      roundTrips.defer(raw('begin'));
      // A Buffer cannot be written in as a literal.
      roundTrips.defer(raw('insert into probe (id, label) values ($1, convert_from($2, $3))', [1, Buffer.from('bytes'), 'UTF8']));
      roundTrips.defer(raw('insert into probe (id, label) values ($1, $2)', [2, 'text']));
      await connection.executeQuery(raw('commit'));
      expect(sent).toEqual([
        'begin',
        'insert into probe (id, label) values ($1, convert_from($2, $3))',
        `${JOINED}insert into probe (id, label) values ('2', 'text'); commit`,
      ]);
      expect((await sql`select label from probe order by id`.execute(store!.db)).rows).toEqual([{ label: 'bytes' }, { label: 'text' }]);
    });
  });

  it('answers each write of a joined text with the rows it changed, as a statement alone is answered', async () => {
    await recorded(async (connection, sent, roundTrips) => {
      roundTrips.defer(raw('begin'));
      roundTrips.defer(raw('insert into probe (id, label) values ($1, $2)', [1, 'a']));
      const [changed, unchanged, read] = await Promise.all([
        connection.executeQuery(raw('update probe set label = $1 where id = $2', ['b', 1])),
        connection.executeQuery(raw('update probe set label = $1 where id = $2', ['c', 2])),
        connection.executeQuery(raw('select label from probe')),
      ]);
      expect(sent).toHaveLength(1);
      expect([changed.numAffectedRows, unchanged.numAffectedRows, read.numAffectedRows]).toEqual([1n, 0n, undefined]);
      expect(read.rows).toEqual([{ label: 'b' }]);
      await connection.executeQuery(raw('commit'));
    });
  });

  it('leaves the outcome unknown when the connection is lost in the text that holds the commit', async () => {
    await recorded(async (connection, _sent, roundTrips) => {
      roundTrips.defer(raw('begin'));
      roundTrips.defer(raw('insert into probe (id, label) values ($1, $2)', [1, 'a']));
      roundTrips.defer(raw('select pg_sleep(5.022)'));
      const outcome = connection.executeQuery(raw('commit')).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      // The server ends the connection while the text runs (a restart, an operator).
      await endConnectionWhileItSleeps(url, 'select pg_sleep(5.022)');
      const error = await outcome;
      expect(error).toBeInstanceOf(Error);
      expect(statementRefused(error)).toBe(false);
    });
  });
});
