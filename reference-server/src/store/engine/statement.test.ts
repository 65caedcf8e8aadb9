import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../schema';
import { OTHER, READ, statementOf } from './statement';

/** Builds and compiles statements as the store does, with no database behind them. */
const db = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (kysely) => new PostgresIntrospector(kysely),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('what a statement is, from the tree it was built from', () => {
  it('takes a plain insert, upsert or update of one table for a write of that table', () => {
    expect(
      statementOf(
        db
          .insertInto('sales')
          .values({ amount_cents: 1 } as never)
          .returning('id')
          .compile(),
      ),
    ).toEqual({
      kind: 'write',
      table: 'sales',
    });
    const upsert = db
      .insertInto('daily_metrics')
      .values({ program_id: 1, day: 'd', partner_id: 0, clicks: 1 })
      .onConflict((oc) =>
        oc.columns(['program_id', 'day', 'partner_id']).doUpdateSet({ clicks: sql`${sql.ref('daily_metrics.clicks')} + 1` }),
      );
    expect(statementOf(upsert.compile())).toEqual({ kind: 'write', table: 'daily_metrics' });
    const convert = db.updateTable('customers').set({ converted_at: 1 }).where('id', '=', 2).where('converted_at', 'is', null);
    expect(statementOf(convert.compile())).toEqual({ kind: 'write', table: 'customers' });
  });

  it('takes a select for a read, and anything that reads elsewhere, deletes or is raw text for other', () => {
    expect(statementOf(db.selectFrom('events').selectAll().compile())).toBe(READ);
    const counted = db
      .updateTable('customers')
      .set({ updated_at: (eb) => eb.selectFrom('events').select((e) => e.fn.countAll<number>().as('n')) });
    expect(statementOf(counted.compile())).toBe(OTHER);
    const fromSelect = db
      .insertInto('sales')
      .columns(['amount_cents'] as never)
      .expression(db.selectFrom('events').select('id') as never);
    expect(statementOf(fromSelect.compile())).toBe(OTHER);
    expect(statementOf(db.updateTable('customers').set({ updated_at: 1 }).from('events').compile())).toBe(OTHER);
    expect(statementOf(db.deleteFrom('customers').where('id', '=', 1).compile())).toBe(OTHER);
    expect(statementOf(CompiledQuery.raw('insert into "events" ("occurred_at") values ($1)', [1]))).toBe(OTHER);
    expect(statementOf(CompiledQuery.raw('commit'))).toBe(OTHER);
  });
});
