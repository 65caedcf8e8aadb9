import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Customer, CustomersTable, Database } from './schema';

type Db = Kysely<Database>;

/** The customer a click created (click ids are unique across programs). */
export function findCustomerByClick(db: Db, clickId: string): Promise<Customer | undefined> {
  return db.selectFrom('customers').selectAll().where('click_id', '=', clickId).executeTakeFirst();
}

/** A customer key names one customer per program and world (real or test). */
export function findCustomerByKey(db: Db, programId: number, isTest: boolean, key: string): Promise<Customer | undefined> {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('program_id', '=', programId)
    .where('is_test', '=', isTest ? 1 : 0)
    .where('customer_key', '=', key)
    .executeTakeFirst();
}

export async function insertCustomer(db: Db, customer: Insertable<CustomersTable>): Promise<void> {
  await db.insertInto('customers').values(customer).execute();
}

export async function deleteCustomer(db: Db, id: number): Promise<void> {
  await db.deleteFrom('customers').where('id', '=', id).execute();
}

export async function updateCustomer(db: Db, id: number, changes: Updateable<CustomersTable>): Promise<void> {
  await db.updateTable('customers').set(changes).where('id', '=', id).execute();
}

/**
 * Records the customer's conversion once: true only for the sale that made it (a concurrent sale of the same
 * customer sees the row already converted). A provisional lead keeps its status (§States and transitions).
 */
export async function markConverted(db: Db, customer: Customer, occurredAt: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('customers')
    .set({ converted_at: occurredAt, updated_at: now, ...(customer.status === 'provisional_lead' ? {} : { status: 'converted' }) })
    .where('id', '=', customer.id)
    .where('converted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
