import { CompiledQuery, sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { BatchAnswers, BatchRead, inAdvance, type ReadInAdvance } from './batch-reads';
import { coalesced, isPostgres, listParameter, oneOf } from './coalesced';
import { compiled, compiledFamily, insertRow } from './compiled';
import { heldInsertsOf } from './deferred-inserts';
import type { Customer, CustomersTable, Database } from './schema';

type Db = Kysely<Database>;

const byClick = compiled<{ clickId: string }, Customer>((db, $) =>
  db.selectFrom('customers').selectAll().where('click_id', '=', $('clickId')),
);

const byClickList = compiled<{ ids: unknown }, Customer>((db, $) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where(oneOf(db, 'click_id', $('ids'))),
);

const byClicks = coalesced<string, Customer>({
  read: async (db, clickIds) => (await byClickList(db, { ids: listParameter(db, clickIds) })).rows,
  readOne: async (trx, clickId) => (await byClick(trx, { clickId })).rows[0],
  keyOf: (clickId) => clickId,
  keyOfRow: (customer) => customer.click_id ?? '',
});

/**
 * The customers a combined batch read in advance for its sales (`saleCustomerRead`), by click id and by
 * `keyName`; each read also tells `conversions` whether the customers it found are converted.
 */
const clicksInBatch = new BatchRead<string, Customer>(async (trx, clickIds) => {
  const { rows } = await byClickList(trx, { ids: listParameter(trx, clickIds) });
  conversions.learn(trx, rows.map(conversionOf));
  return new Map(rows.map((row) => [row.click_id ?? '', row]));
});

/** The customer a click created (click ids are unique across programs). */
export function findCustomerByClick(db: Db, clickId: string): Promise<Customer | undefined> {
  return clicksInBatch.lookup(db, clickId, () => byClicks(db, clickId));
}

const byKey = compiled<{ programId: number; isTest: 0 | 1; key: string }, Customer>((db, $) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where('program_id', '=', $('programId'))
    .where('is_test', '=', $('isTest'))
    .where('customer_key', '=', $('key')),
);

type CustomerKey = { programId: number; isTest: 0 | 1; key: string };

/**
 * The customers of several keys in one program and world. PostgreSQL: one index lookup per key (a lateral join;
 * its `limit 1` keeps the planner from flattening it), because `customer_key = any($3)` was planned from the
 * statistics of a table that had just grown (the first minutes of a deployment, every bench run) as a scan of the
 * whole program's customers, 15 ms for 25 keys at 60,000 customers (BENCHMARKS.md, "The hot path, fifth pass").
 * SQLite: `oneOf` (store/coalesced.ts), whose plan is one lookup per key.
 */
const byKeyList = compiled<{ programId: number; isTest: 0 | 1; keys: unknown }, Customer>((db, $) =>
  isPostgres(db)
    ? db
        .selectFrom(sql<{ k: string }>`unnest(${$('keys')}::text[])`.as('k'))
        .innerJoinLateral(
          (eb) =>
            eb
              .selectFrom('customers')
              .selectAll()
              .where('program_id', '=', $('programId'))
              .where('is_test', '=', $('isTest'))
              .whereRef('customer_key', '=', sql.ref('k.k'))
              .limit(1)
              .as('c'),
          (join) => join.onTrue(),
        )
        .selectAll('c')
    : db
        .selectFrom('customers')
        .selectAll()
        .where('program_id', '=', $('programId'))
        .where('is_test', '=', $('isTest'))
        .where(oneOf(db, 'customer_key', $('keys'))),
);
const keyName = (key: CustomerKey) => `${key.programId}|${key.isTest}|${key.key}`;
const keyNameOfRow = (customer: Customer) =>
  keyName({ programId: customer.program_id, isTest: customer.is_test, key: customer.customer_key ?? '' });

/** The customers of `keys`: one statement per program and world (a batch of requests is nearly always one program's). */
async function readKeys(db: Db, keys: CustomerKey[]): Promise<Customer[]> {
  const worlds = new Map<string, CustomerKey[]>();
  for (const key of keys) {
    const world = `${key.programId}|${key.isTest}`;
    worlds.set(world, [...(worlds.get(world) ?? []), key]);
  }
  const rows: Customer[] = [];
  for (const [first, ...rest] of worlds.values()) {
    const keys = listParameter(
      db,
      [first!, ...rest].map((key) => key.key),
    );
    rows.push(...(await byKeyList(db, { programId: first!.programId, isTest: first!.isTest, keys })).rows);
  }
  return rows;
}

const byKeys = coalesced<CustomerKey, Customer>({
  read: readKeys,
  readOne: async (trx, key) => (await byKey(trx, key)).rows[0],
  keyOf: keyName,
  keyOfRow: keyNameOfRow,
});

const keysInBatch = new BatchRead<string, Customer>(async (trx, names) => {
  const rows = await readKeys(
    trx,
    names.map((name) => keyOfName(name)),
  );
  conversions.learn(trx, rows.map(conversionOf));
  return new Map(rows.map((row) => [keyNameOfRow(row), row]));
});

/** `keyName` read back: the program and world first, the key (which may hold `|`) after them. */
function keyOfName(name: string): CustomerKey {
  const [programId, isTest] = name.split('|', 2);
  return { programId: Number(programId), isTest: isTest === '1' ? 1 : 0, key: name.slice(programId!.length + isTest!.length + 2) };
}

/** A customer key names one customer per program and world (real or test). */
export function findCustomerByKey(db: Db, programId: number, isTest: boolean, key: string): Promise<Customer | undefined> {
  const customerKey = { programId, isTest: isTest ? 1 : 0, key } as const;
  return keysInBatch.lookup(db, keyName(customerKey), () => byKeys(db, customerKey));
}

/**
 * What a sale's batch reads in advance, with its other sales' (store/batch-reads.ts): the customer by key, else by
 * click (a key that finds no customer falls back to the click, read then).
 */
export function saleCustomerRead(
  programId: number,
  isTest: boolean,
  key: string | undefined,
  clickId: string | undefined,
): ReadInAdvance[] {
  if (key !== undefined) return [inAdvance(keysInBatch, keyName({ programId, isTest: isTest ? 1 : 0, key }))];
  return clickId === undefined ? [] : [inAdvance(clicksInBatch, clickId)];
}

/** A write to customers in a batch: the customers it read in advance are read again (the sales after it see it). */
function customersChanged(db: Db): void {
  keysInBatch.forget(db);
  clicksInBatch.forget(db);
}

export async function insertCustomer(db: Db, customer: Insertable<CustomersTable>): Promise<void> {
  customersChanged(db);
  await insertRow(db, 'customers', customer);
}

export async function deleteCustomer(db: Db, id: number): Promise<void> {
  customersChanged(db);
  await db.deleteFrom('customers').where('id', '=', id).execute();
}

const update = compiledFamily<Record<string, unknown>, unknown, string[]>((db, $, columns) =>
  db
    .updateTable('customers')
    .set(Object.fromEntries(columns.map((column) => [column, $(column)])))
    .where('id', '=', $('id') as number),
);

export async function updateCustomer(db: Db, id: number, changes: Updateable<CustomersTable>): Promise<void> {
  customersChanged(db);
  const columns = Object.keys(changes);
  await update(db, columns.join(','), columns, { ...changes, id });
}

const convert = compiledFamily<{ id: number; occurredAt: number; now: number }, unknown, boolean>((db, $, keepStatus) =>
  db
    .updateTable('customers')
    .set({ converted_at: $('occurredAt'), updated_at: $('now'), ...(keepStatus ? {} : { status: 'converted' as const }) })
    .where('id', '=', $('id'))
    .where('converted_at', 'is', null),
);

/** Whether a customer was converted, as a combined batch read it in advance (`saleCustomerRead`). */
type Conversion = 'open' | 'converted';

/** What the batch knows of its customers' conversions: as read, then as its sales converted them. */
const conversions = new BatchAnswers<number, Conversion>();

const conversionOf = (customer: Customer): [number, Conversion] => [customer.id, customer.converted_at === null ? 'open' : 'converted'];

/** The conversions of a combined batch: one statement for all of them, fixed text (one array or JSON per column). */
const conversionStatement: Record<'numbered' | 'question', (rows: unknown[][]) => CompiledQuery> = {
  numbered: (rows) =>
    CompiledQuery.raw(
      `update "customers" set "converted_at" = v.converted_at, "updated_at" = v.updated_at, ` +
        `"status" = case when v.keep_status then "customers"."status" else 'converted' end ` +
        `from unnest($1::int8[], $2::int8[], $3::int8[], $4::bool[]) as v(id, converted_at, updated_at, keep_status) ` +
        `where "customers"."id" = v.id`,
      [0, 1, 2, 3].map((column) => rows.map((row) => row[column])),
    ),
  question: (rows) =>
    CompiledQuery.raw(
      `update "customers" set "converted_at" = v.converted_at, "updated_at" = v.updated_at, ` +
        `"status" = case when v.keep_status then "customers"."status" else 'converted' end ` +
        `from (select value ->> 0 as id, value ->> 1 as converted_at, value ->> 2 as updated_at, value ->> 3 as keep_status ` +
        `from json_each(?)) as v where "customers"."id" = v.id`,
      [JSON.stringify(rows)],
    ),
};

/**
 * Records the customer's conversion once: true only for the sale that made it (a concurrent sale of the same
 * customer sees the row already converted). A provisional lead keeps its status (§States and transitions).
 *
 * In a combined batch that read the customer in advance (`saleCustomerRead`), the answer comes from that read and
 * the sales of the batch before this one, and the update is held and written with the batch's other conversions
 * (store/deferred-inserts.ts): no statement per sale. Only sales write `converted_at`, always in a batch, and
 * batches run one at a time, so the batch's read stays true while it runs.
 */
export async function markConverted(db: Db, customer: Customer, occurredAt: number, now: number): Promise<boolean> {
  // Set once and never cleared: a customer read converted is converted still, and the update would change nothing.
  if (customer.converted_at !== null) return false;
  const keepStatus = customer.status === 'provisional_lead';
  const known = conversions.known(db, customer.id);
  const held = heldInsertsOf(db);
  if (known && held) {
    if (known === 'converted') return false;
    conversions.set(db, customer.id, 'converted');
    held.holdStatement('customers', 'conversion', [customer.id, occurredAt, now, keepStatus], conversionStatement[held.placeholders]);
    return true;
  }
  const result = await convert(db, String(keepStatus), keepStatus, { id: customer.id, occurredAt, now });
  return Number(result.numAffectedRows ?? 0) > 0;
}
