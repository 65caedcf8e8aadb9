import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../db';

/** The counter tables, the columns of their key before this migration, and their primary key constraint's name. */
const tables = [
  { name: 'program_metrics', key: ['program_id'], constraint: { postgres: 'program_metrics_pkey' } },
  { name: 'daily_metrics', key: ['program_id', 'day', 'partner_id'], constraint: { postgres: 'daily_metrics_pk' } },
  { name: 'daily_amounts', key: ['program_id', 'day', 'partner_id', 'currency'], constraint: { postgres: 'daily_amounts_pk' } },
] as const;

/**
 * A `shard` column in each counter table's key: the rows of one program (and day, partner, currency) are split by
 * who writes them, and read summed. Every batch of the group commit updates its program's counter rows last, and on
 * PostgreSQL holds their locks until its commit is flushed; with one row per program, batches of several servers (or
 * two batches of one server) waited for each other's flush there (store/engine/metrics.ts). Existing rows become
 * shard 0, so the sums are what the rows held.
 *
 * PostgreSQL changes the key in place. SQLite cannot change a table's primary key: each table is copied into a new
 * one with the new key (its only writer is this process, which migrates before it serves).
 */
export function metricShardsMigration(dialect: Dialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      for (const table of tables) {
        const key = [...table.key, 'shard'].map((column) => sql.id(column));
        if (dialect === 'postgres') {
          await sql`alter table ${sql.id(table.name)} add column shard integer not null default 0`.execute(db);
          await sql`alter table ${sql.id(table.name)} drop constraint ${sql.id(table.constraint.postgres)}`.execute(db);
          await sql`alter table ${sql.id(table.name)} add constraint ${sql.id(`${table.name}_pk`)} primary key (${sql.join(key)})`.execute(
            db,
          );
          continue;
        }
        await rebuildSqlite(db, table.name, key);
      }
    },
  };
}

async function rebuildSqlite(db: Kysely<unknown>, name: string, key: ReturnType<typeof sql.id>[]): Promise<void> {
  // The table's own definition, with `shard` added and the key replaced: the columns stay as 0001_initial made them.
  const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where type = 'table' and name = ${name}`.execute(db);
  const columns = (await sql<{ name: string }>`select name from pragma_table_info(${name})`.execute(db)).rows.map((row) => row.name);
  const definition = rows[0]!.sql;
  const body = definition.slice(definition.indexOf('(') + 1, definition.lastIndexOf(')'));
  // 0001_initial writes the key either on `program_id` (`primary key` after its type) or as a named constraint.
  const withoutKey = body
    .replace(/\s+primary key(?=\s*,|\s*$)/i, ' not null')
    .replace(/,\s*constraint\s+"[a-z_]+"\s+primary key\s*\([^)]*\)/i, '');
  const copy = `${name}_sharded`;
  await sql`create table ${sql.id(copy)} (${sql.raw(withoutKey)}, "shard" integer not null default 0, primary key (${sql.join(key)}))`.execute(
    db,
  );
  const list = sql.join(columns.map((column) => sql.id(column)));
  await sql`insert into ${sql.id(copy)} (${list}) select ${list} from ${sql.id(name)}`.execute(db);
  await sql`drop table ${sql.id(name)}`.execute(db);
  await sql`alter table ${sql.id(copy)} rename to ${sql.id(name)}`.execute(db);
}
