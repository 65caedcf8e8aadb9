import type { Insertable, Kysely } from 'kysely';
import { insertRow } from './engine';
import type { Database, EventsTable } from './schema';

/** One record per tracking request (spec/rules.md "Events"); the dashboard's event feed. */
export async function insertEvent(db: Kysely<Database>, event: Insertable<EventsTable>): Promise<void> {
  await insertRow(db, 'events', event);
}
