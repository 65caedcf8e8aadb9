import { CompiledQuery, type Insertable, type Kysely, type Updateable } from 'kysely';
import { BatchRead, inAdvance, type ReadInAdvance } from './batch-reads';
import { coalesced, listParameter, oneOf } from './coalesced';
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

/** The customer a click created (click ids are unique across programs). */
export function findCustomerByClick(db: Db, clickId: string): Promise<Customer | undefined> {
  return byClicks(db, clickId);
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

const byKeyList = compiled<{ programId: number; isTest: 0 | 1; keys: unknown }, Customer>((db, $) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where('program_id', '=', $('programId'))
    .where('is_test', '=', $('isTest'))
    .where(oneOf(db, 'customer_key', $('keys'))),
);
const keyName = (programId: number, isTest: number, key: string) => `${programId}|${isTest}|${key}`;

const byKeys = coalesced<CustomerKey, Customer>({
  // One statement per program and world: a batch of requests is nearly always one program's.
  read: async (db, keys) => {
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
  },
  readOne: async (trx, key) => (await byKey(trx, key)).rows[0],
  keyOf: (key) => keyName(key.programId, key.isTest, key.key),
  keyOfRow: (customer) => keyName(customer.program_id, customer.is_test, customer.customer_key ?? ''),
});

/** A customer key names one customer per program and world (real or test). */
export function findCustomerByKey(db: Db, programId: number, isTest: boolean, key: string): Promise<Customer | undefined> {
  return byKeys(db, { programId, isTest: isTest ? 1 : 0, key });
}

export async function insertCustomer(db: Db, customer: Insertable<CustomersTable>): Promise<void> {
  await insertRow(db, 'customers', customer);
}

export async function deleteCustomer(db: Db, id: number): Promise<void> {
  await db.deleteFrom('customers').where('id', '=', id).execute();
}

const update = compiledFamily<Record<string, unknown>, unknown, string[]>((db, $, columns) =>
  db
    .updateTable('customers')
    .set(Object.fromEntries(columns.map((column) => [column, $(column)])))
    .where('id', '=', $('id') as number),
);

export async function updateCustomer(db: Db, id: number, changes: Updateable<CustomersTable>): Promise<void> {
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

/** Whether a customer was converted, as a combined batch read it in advance (`conversionRead`). */
type Conversion = 'open' | 'converted';

const conversionsOf = compiled<{ ids: unknown }, Pick<Customer, 'id' | 'converted_at'>>((db, $) =>
  db
    .selectFrom('customers')
    .select(['id', 'converted_at'])
    .where(oneOf(db, 'id', $('ids'))),
);

const conversions = new BatchRead<number, Conversion>(async (trx, ids) => {
  const { rows } = await conversionsOf(trx, { ids: listParameter(trx, ids) });
  return new Map(rows.map((row) => [row.id, row.converted_at === null ? 'open' : 'converted']));
});

/**
 * What a sale's batch reads in advance so that `markConverted` needs no statement of its own: whether its customer
 * is converted, read in the batch for all its sales at once. Nothing when the customer was read converted already.
 */
export function conversionRead(customer: Customer | undefined): ReadInAdvance[] {
  return customer && customer.converted_at === null ? [inAdvance(conversions, customer.id)] : [];
}

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
 * In a combined batch that read the customer in advance (`conversionRead`), the answer comes from that read and
 * the sales of the batch before this one, and the update is held and written with the batch's other conversions
 * (store/deferred-inserts.ts): no statement per sale. Only sales write `converted_at`, always in a batch, and
 * batches run one at a time, so the batch's read stays true while it runs.
 */
export async function markConverted(db: Db, customer: Customer, occurredAt: number, now: number): Promise<boolean> {
  // Set once and never cleared: a customer read converted is converted still, and the update would change nothing.
  if (customer.converted_at !== null) return false;
  const keepStatus = customer.status === 'provisional_lead';
  const known = conversions.get(db, customer.id);
  const held = heldInsertsOf(db);
  if (known !== undefined && held) {
    if (known === 'converted') return false;
    conversions.set(db, customer.id, 'converted');
    held.holdStatement('customers', 'conversion', [customer.id, occurredAt, now, keepStatus], conversionStatement[held.placeholders]);
    return true;
  }
  const result = await convert(db, String(keepStatus), keepStatus, { id: customer.id, occurredAt, now });
  return Number(result.numAffectedRows ?? 0) > 0;
}
