import type { Insertable, Kysely, Updateable } from 'kysely';
import { compiled, compiledFamily, insertRow } from './compiled';
import type { Customer, CustomersTable, Database } from './schema';

type Db = Kysely<Database>;

const byClick = compiled<{ clickId: string }, Customer>((db, $) =>
  db.selectFrom('customers').selectAll().where('click_id', '=', $('clickId')),
);

/** The customer a click created (click ids are unique across programs). */
export async function findCustomerByClick(db: Db, clickId: string): Promise<Customer | undefined> {
  return (await byClick(db, { clickId })).rows[0];
}

const byKey = compiled<{ programId: number; isTest: 0 | 1; key: string }, Customer>((db, $) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where('program_id', '=', $('programId'))
    .where('is_test', '=', $('isTest'))
    .where('customer_key', '=', $('key')),
);

/** A customer key names one customer per program and world (real or test). */
export async function findCustomerByKey(db: Db, programId: number, isTest: boolean, key: string): Promise<Customer | undefined> {
  return (await byKey(db, { programId, isTest: isTest ? 1 : 0, key })).rows[0];
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

/**
 * Records the customer's conversion once: true only for the sale that made it (a concurrent sale of the same
 * customer sees the row already converted). A provisional lead keeps its status (§States and transitions).
 */
export async function markConverted(db: Db, customer: Customer, occurredAt: number, now: number): Promise<boolean> {
  // Set once and never cleared: a customer read converted is converted still, and the update would change nothing.
  if (customer.converted_at !== null) return false;
  const keepStatus = customer.status === 'provisional_lead';
  const result = await convert(db, String(keepStatus), keepStatus, { id: customer.id, occurredAt, now });
  return Number(result.numAffectedRows ?? 0) > 0;
}
