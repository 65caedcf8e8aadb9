import { CompiledQuery, sql, type Insertable, type Updateable } from 'kysely';
import {
  BatchAnswers,
  BatchRead,
  inAdvance,
  type ReadInAdvance,
  coalesced,
  eachKey,
  listParameter,
  compiled,
  compiledFamily,
  insertRow,
  rowValues,
  type Db,
  type DeferredInserts,
} from './engine';
import type { Customer, CustomersTable, RiskEventsTable } from './schema';

const byClick = compiled<{ clickId: string }, Customer>((db, $) =>
  db.selectFrom('customers').selectAll().where('click_id', '=', $('clickId')),
);

const byClickList = compiled<{ ids: unknown }, Customer>((db, $) =>
  eachKey(db, $('ids'), (matches) => db.selectFrom('customers').selectAll().where(matches('click_id'))),
);

/** The customers of several click ids, named by click id (for `coalesced` and `BatchRead`). */
const clickLookups = {
  read: async (db: Db, clickIds: string[]) => (await byClickList(db, { ids: listParameter(db, clickIds) })).rows,
  keyOf: (clickId: string) => clickId,
  keyOfRow: (customer: Customer) => customer.click_id ?? '',
};

const byClicks = coalesced<string, Customer>({
  ...clickLookups,
  readOne: async (trx, clickId) => (await byClick(trx, { clickId })).rows[0],
});

const byKey = compiled<{ programId: number; isTest: 0 | 1; key: string }, Customer>((db, $) =>
  db
    .selectFrom('customers')
    .selectAll()
    .where('program_id', '=', $('programId'))
    .where('is_test', '=', $('isTest'))
    .where('customer_key', '=', $('key')),
);

type CustomerKey = { programId: number; isTest: 0 | 1; key: string };

/** The customers of several keys in one program and world (`eachKey`: one index lookup per key). */
const byKeyList = compiled<{ programId: number; isTest: 0 | 1; keys: unknown }, Customer>((db, $) =>
  eachKey(db, $('keys'), (matches) =>
    db
      .selectFrom('customers')
      .selectAll()
      .where('program_id', '=', $('programId'))
      .where('is_test', '=', $('isTest'))
      .where(matches('customer_key')),
  ),
);

/** The customers of several keys, named by program, world and key (for `coalesced` and `BatchRead`). */
const keyLookups = {
  // One statement per program and world: a batch of requests is nearly always one program's.
  read: async (db: Db, keys: CustomerKey[]) => {
    const worlds = new Map<string, CustomerKey[]>();
    for (const key of keys) {
      const world = `${key.programId}|${key.isTest}`;
      const same = worlds.get(world);
      if (same) same.push(key);
      else worlds.set(world, [key]);
    }
    const rows: Customer[] = [];
    for (const [first, ...rest] of worlds.values()) {
      const list = listParameter(
        db,
        [first!, ...rest].map((key) => key.key),
      );
      rows.push(...(await byKeyList(db, { programId: first!.programId, isTest: first!.isTest, keys: list })).rows);
    }
    return rows;
  },
  keyOf: (key: CustomerKey) => `${key.programId}|${key.isTest}|${key.key}`,
  keyOfRow: (customer: Customer) => `${customer.program_id}|${customer.is_test}|${customer.customer_key ?? ''}`,
};

const byKeys = coalesced<CustomerKey, Customer>({
  ...keyLookups,
  readOne: async (trx, key) => (await byKey(trx, key)).rows[0],
});

/**
 * The customers a combined batch reads in advance for its sales (`saleCustomerRead`), by key and by click id; each
 * read also tells `conversions` whether the customers it found are converted.
 */
const learningConversions =
  <K>(read: (db: Db, keys: K[]) => Promise<Customer[]>) =>
  async (trx: Db, keys: K[]): Promise<Customer[]> => {
    const rows = await read(trx, keys);
    conversions.learn(trx, rows.map(conversionOf));
    return rows;
  };
const keysInBatch = new BatchRead<CustomerKey, Customer>({ ...keyLookups, read: learningConversions(keyLookups.read) });
const clicksInBatch = new BatchRead<string, Customer>({ ...clickLookups, read: learningConversions(clickLookups.read) });

/** The customer a click created (click ids are unique across programs). */
export function findCustomerByClick(db: Db, clickId: string): Promise<Customer | undefined> {
  return clicksInBatch.lookup(db, clickId, () => byClicks(db, clickId));
}

/** A customer key names one customer per program and world (real or test). */
export function findCustomerByKey(db: Db, programId: number, isTest: boolean, key: string): Promise<Customer | undefined> {
  const customerKey = { programId, isTest: isTest ? 1 : 0, key } as const;
  return keysInBatch.lookup(db, customerKey, () => byKeys(db, customerKey));
}

/**
 * What a sale's batch reads in advance, with its other sales' (`BatchRead`, store/engine/batch.ts): the customer by key, else by
 * click (a key that finds no customer falls back to the click, read then).
 */
export function saleCustomerRead(
  programId: number,
  isTest: boolean,
  key: string | undefined,
  clickId: string | undefined,
): ReadInAdvance[] {
  if (key !== undefined) return [inAdvance(keysInBatch, { programId, isTest: isTest ? 1 : 0, key })];
  return clickId === undefined ? [] : [inAdvance(clicksInBatch, clickId)];
}

/**
 * What a lead's batch reads in advance, with its other leads' and sales' (`BatchRead`, store/engine/batch.ts): the
 * customer by key and by click, both (the lead decides between them: domain/tracking/lead.ts, `resolveCustomer`).
 */
export function leadCustomerRead(
  programId: number,
  isTest: boolean,
  key: string | undefined,
  clickId: string | undefined,
): ReadInAdvance[] {
  const reads: ReadInAdvance[] = [];
  if (key !== undefined) reads.push(inAdvance(keysInBatch, { programId, isTest: isTest ? 1 : 0, key }));
  if (clickId !== undefined) reads.push(inAdvance(clicksInBatch, clickId));
  return reads;
}

/** A write to customers in a batch the answers do not follow: every customer it read in advance is read again. */
function customersChanged(db: Db): void {
  keysInBatch.forget(db);
  clicksInBatch.forget(db);
}

const keyOfCustomer = (customer: { program_id: number; is_test: 0 | 1 }, key: string) =>
  ({ programId: customer.program_id, isTest: customer.is_test, key }) as const;

/**
 * A change of one customer in a batch: the batch's answers by its old key, its key and its click become `now` (null:
 * gone), so the requests after this one decide on it without reading again, and the other customers' answers stay.
 */
function customerNow(db: Db, before: Customer, now: Customer | null): void {
  if (before.customer_key !== null && before.customer_key !== now?.customer_key)
    keysInBatch.set(db, keyOfCustomer(before, before.customer_key), null);
  if (now?.customer_key != null) keysInBatch.set(db, keyOfCustomer(now, now.customer_key), now);
  if (before.click_id !== null) clicksInBatch.set(db, before.click_id, now);
}

/** Adds `kind` to the customer's flagged kinds (one statement, as `flagPartner` in store/risk-events.ts); the batch reads customers again. */
export async function flagCustomer(db: Db, customerId: number, kind: RiskEventsTable['kind']): Promise<void> {
  customersChanged(db);
  await db
    .updateTable('customers')
    .set({ risk_kinds: sql<string>`case when risk_kinds is null or risk_kinds = '' then ${kind} else risk_kinds || ',' || ${kind} end` })
    .where('id', '=', customerId)
    .where((eb) => eb.or([eb('risk_kinds', 'is', null), eb(sql`',' || risk_kinds || ','`, 'not like', `%,${kind},%`)]))
    .execute();
}

/** Inserts a customer: the batch's answers for its key and click are read again (its id is known once written). */
export async function insertCustomer(db: Db, customer: Insertable<CustomersTable>): Promise<void> {
  const key = customer.customer_key;
  if (key != null) keysInBatch.forgetKey(db, { programId: customer.program_id, isTest: customer.is_test, key });
  if (customer.click_id != null) clicksInBatch.forgetKey(db, customer.click_id);
  await insertRow(db, 'customers', customer);
}

/**
 * What a lead decided on when it read its customer before its batch: the customer's status, key, and whether it is
 * provisional or vouched for by a browser only. Two leads of one customer at once both read it so; the writes below
 * change it only while it is still as read, so the database decides which lead changed it
 * (test/tracking/concurrency.test.ts).
 */
const stateAsRead = (customer: Customer) => ({
  id: customer.id,
  wasStatus: customer.status,
  wasKey: customer.customer_key,
  wasProvisional: customer.provisional,
  wasLeadByBrowser: customer.lead_by_browser,
});

type AsRead = ReturnType<typeof stateAsRead>;

const remove = compiled<AsRead, unknown>((db, $) =>
  db
    .deleteFrom('customers')
    .where('id', '=', $('id'))
    .where('status', '=', $('wasStatus'))
    .where('customer_key', 'is not distinct from', $('wasKey'))
    .where('provisional', '=', $('wasProvisional'))
    .where('lead_by_browser', '=', $('wasLeadByBrowser')),
);

const update = compiledFamily<Record<string, unknown>, unknown, string[]>((db, $, columns) =>
  db
    .updateTable('customers')
    .set(Object.fromEntries(columns.map((column) => [column, $(column)])))
    .where('id', '=', $('id') as number)
    .where('status', '=', $('wasStatus') as Customer['status'])
    .where('customer_key', 'is not distinct from', $('wasKey') as string | null)
    .where('provisional', '=', $('wasProvisional') as Customer['provisional'])
    .where('lead_by_browser', '=', $('wasLeadByBrowser') as Customer['lead_by_browser']),
);

/** Deletes `customer` unless its lead state changed since it was read (`stateAsRead`): whether it did. */
export async function deleteCustomer(db: Db, customer: Customer): Promise<boolean> {
  const result = await remove(db, stateAsRead(customer));
  const removed = Number(result.numAffectedRows ?? 0) > 0;
  if (removed) customerNow(db, customer, null);
  else customersChanged(db);
  return removed;
}

/**
 * Changes `customer` unless its lead state changed since it was read (`stateAsRead`): whether it did.
 *
 * In a combined batch the change is held (`heldLeadChange`) and answered true at once: the batch's changes are
 * written together (on PostgreSQL with its commit), each checked against the customer as read. When one finds its
 * customer changed (another server's lead, a sale of the batch, a lead outside the batch), the statement fails,
 * nothing of the batch is stored, and it runs again request by request (store/engine/group-commit.ts), where each
 * change is made here alone and a stale one answers false (its lead is decided again). Waiting for each lead's
 * answer was one round trip per lead on PostgreSQL, a statement per lead on SQLite. The batch's answers for the
 * customer follow the change (`customerNow`): the leads after it in the batch decide on it as changed.
 */
export async function updateCustomer(db: Db, customer: Customer, changes: Updateable<CustomersTable>): Promise<boolean> {
  const columns = Object.keys(changes);
  const held = db.batch?.held;
  // One held change per customer and batch: a second would be checked against the customer before the first.
  if (held && leadChanges.known(db, customer.id) === undefined && isLeadChange(columns)) {
    leadChanges.learn(db, [[customer.id, true]]);
    heldLeadChange(held, customer, columns, changes);
    customerNow(db, customer, changed(customer, changes));
    return true;
  }
  // The changes added to the state's object, not both spread into a new one: in the server V8 gave every such spread
  // a hidden class of its own, allocated outside the young generation, 1.3 KB of old space per lead
  // (docs/performance-notes.md, "The hot path, seventh pass").
  const result = await update(db, columns.join(','), columns, Object.assign(stateAsRead(customer), changes));
  const done = Number(result.numAffectedRows ?? 0) > 0;
  if (done) customerNow(db, customer, changed(customer, changes));
  else customersChanged(db);
  return done;
}

/** `customer` with `changes` made: a copy by `Object.assign` onto a literal (the hidden-class note above). */
const changed = (customer: Customer, changes: Updateable<CustomersTable>): Customer =>
  Object.assign<object, Customer, object>({}, customer, changes);

/** The customers whose change a combined batch holds (`updateCustomer`). */
const leadChanges = new BatchAnswers<number, true>();

/** The columns a lead changes, with their PostgreSQL types (the held statement's arrays are typed by them). */
const leadColumnTypes: Record<string, string> = {
  status: 'text',
  provisional: 'int4',
  lead_by_browser: 'int4',
  customer_key: 'text',
  email: 'text',
  lead_at: 'int8',
  updated_at: 'int8',
};

const isLeadChange = (columns: string[]) => columns.length > 0 && columns.every((column) => column in leadColumnTypes);

/** The held statements of each column set and dialect, built once. */
const leadStatements = new Map<string, LeadStatements>();

interface LeadStatements {
  change: (rows: unknown[][]) => CompiledQuery;
  /** PostgreSQL: the read that fails for a customer gone since read (SQLite counts the rows the change made). */
  check?: (rows: unknown[][]) => CompiledQuery;
}

/**
 * Holds a lead's change of `customer` with the batch's others of the same columns: one `update … from` the rows.
 * PostgreSQL (`unnest` of one array per column): its condition fails the statement (a cast that cannot succeed,
 * depending on the row so that PostgreSQL cannot raise it while planning) for a customer no longer as read; then
 * one read, held apart, failing the same way for a customer that is gone (an update finds no row to check). SQLite
 * (`rowValues`: the rows bound as a `values` table): the condition is in the `where`, and the batch fails when the
 * statement changed fewer rows than it holds (`each`, store/engine/deferred-inserts.ts).
 */
function heldLeadChange(held: DeferredInserts, customer: Customer, columns: string[], changes: Record<string, unknown>): void {
  const key = columns.join(',');
  const numbered = held.placeholders === 'numbered';
  const name = `${held.placeholders}|${key}`;
  let statements = leadStatements.get(name);
  if (!statements) {
    statements = numbered ? pgLeadStatements(columns) : sqliteLeadStatements(columns);
    leadStatements.set(name, statements);
  }
  const asRead = stateAsRead(customer);
  const row = [
    asRead.id,
    asRead.wasStatus,
    asRead.wasKey,
    asRead.wasProvisional,
    asRead.wasLeadByBrowser,
    ...columns.map((c) => changes[c]),
  ];
  held.holdStatement('customers', `lead:${key}`, row, statements.change, { each: !numbered });
  if (statements.check) held.holdStatement('customers', `lead-check:${key}`, [asRead.id], statements.check, { alone: true });
}

const leadRowNames = (columns: string[]) => [
  'id',
  'was_status',
  'was_key',
  'was_provisional',
  'was_lead_by_browser',
  ...columns.map((column) => `new_${column}`),
];

function pgLeadStatements(columns: string[]): LeadStatements {
  const arrays = [
    '$1::int8[]',
    '$2::text[]',
    '$3::text[]',
    '$4::int4[]',
    '$5::int4[]',
    ...columns.map((column, index) => `$${index + 6}::${leadColumnTypes[column]}[]`),
  ];
  const names = leadRowNames(columns);
  const changeText =
    `update "customers" set ${columns.map((column) => `"${column}" = v.new_${column}`).join(', ')} ` +
    `from unnest(${arrays.join(', ')}) as v(${names.join(', ')}) ` +
    `where "customers"."id" = v.id and "customers"."id" = any($1::int8[]) and case when "customers"."status" = v.was_status ` +
    `and "customers"."customer_key" is not distinct from v.was_key and "customers"."provisional" = v.was_provisional ` +
    `and "customers"."lead_by_browser" = v.was_lead_by_browser then true ` +
    `else cast('svc: customer changed since read: ' || v.id as int8) is null end`;
  const checkText =
    `select cast('svc: customer gone since read: ' || v.id as int8) from unnest($1::int8[]) as v(id) ` +
    `where not exists (select 1 from "customers" where "customers"."id" = v.id)`;
  const byColumn = (rows: unknown[][]) => names.map((_, column) => rows.map((row) => row[column]));
  return {
    change: (rows) => CompiledQuery.raw(changeText, byColumn(rows)),
    check: (rows) => CompiledQuery.raw(checkText, [rows.map((row) => row[0])]),
  };
}

function sqliteLeadStatements(columns: string[]): LeadStatements {
  const change = rowValues(
    leadRowNames(columns),
    `update "customers" set ${columns.map((column) => `"${column}" = v.new_${column}`).join(', ')} from v ` +
      `where "customers"."id" = v.id and "customers"."status" = v.was_status and "customers"."customer_key" is v.was_key ` +
      `and "customers"."provisional" = v.was_provisional and "customers"."lead_by_browser" = v.was_lead_by_browser`,
  );
  return { change };
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

/** The conversions of a combined batch: one statement for all of them (PostgreSQL: one array per column; SQLite: `rowValues`). */
const conversionStatement: Record<'numbered' | 'question', (rows: unknown[][]) => CompiledQuery> = {
  numbered: (rows) =>
    CompiledQuery.raw(
      `update "customers" set "updated_at" = v.updated_at, ` +
        `"status" = case when v.keep_status then "customers"."status" else 'converted' end ` +
        // Read open in advance, but another server's batch may have converted it since (no lock between servers):
        // then this statement fails, and the batch runs again request by request, each sale converting only a
        // customer still open (`convert`). Not a constant, so that PostgreSQL cannot raise it while planning.
        `, "converted_at" = case when "customers"."converted_at" is null then v.converted_at ` +
        `else cast('svc: stale conversion of customer ' || v.id as int8) end ` +
        `from unnest($1::int8[], $2::int8[], $3::int8[], $4::bool[]) as v(id, converted_at, updated_at, keep_status) ` +
        // The ids again as an array: by their index, whatever the planner makes of the table's size (joined alone,
        // a table of a few thousand customers was read whole for every batch: BENCHMARKS.md, "The hot path, sixth
        // pass").
        `where "customers"."id" = v.id and "customers"."id" = any($1::int8[])`,
      [0, 1, 2, 3].map((column) => rows.map((row) => row[column])),
    ),
  question: rowValues(
    ['id', 'converted_at', 'updated_at', 'keep_status'],
    `update "customers" set "converted_at" = v.converted_at, "updated_at" = v.updated_at, ` +
      `"status" = case when v.keep_status then "customers"."status" else 'converted' end from v where "customers"."id" = v.id`,
  ),
};

/**
 * Records the customer's conversion once: true only for the sale that made it (a concurrent sale of the same
 * customer sees the row already converted). A provisional lead keeps its status (spec/rules.md "States and transitions").
 *
 * In a combined batch that read the customer in advance (`saleCustomerRead`), the answer comes from that read and
 * the sales of the batch before this one, and the update is held and written with the batch's other conversions
 * (store/engine/deferred-inserts.ts): no statement per sale. Only sales write `converted_at`, always in a batch; a
 * server runs its batches one at a time, so within it the batch's read stays true while it runs. Another server's
 * batch may convert the customer meanwhile: the held statement then fails rather than convert it twice
 * (`conversionStatement`), and the sale runs again alone.
 */
export async function markConverted(db: Db, customer: Customer, occurredAt: number, now: number): Promise<boolean> {
  // Set once and never cleared: a customer read converted is converted still, and the update would change nothing.
  if (customer.converted_at !== null) return false;
  const keepStatus = customer.status === 'provisional_lead';
  const known = conversions.known(db, customer.id);
  const held = db.batch?.held;
  if (known && held) {
    if (known === 'converted') return false;
    conversions.set(db, customer.id, 'converted');
    held.holdStatement('customers', 'conversion', [customer.id, occurredAt, now, keepStatus], conversionStatement[held.placeholders]);
    return true;
  }
  const result = await convert(db, String(keepStatus), keepStatus, { id: customer.id, occurredAt, now });
  return Number(result.numAffectedRows ?? 0) > 0;
}
