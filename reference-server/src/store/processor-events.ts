import type { Kysely } from 'kysely';
import type { Database } from './schema';
import { isUniqueViolation } from './unique-violation';

export type ProcessorEventOutcome = 'recorded' | 'duplicate' | 'ignored' | 'not_attributed';

export interface HandledProcessorEvent {
  eventId: string;
  programId: number | null;
  type: string;
  outcome: ProcessorEventOutcome;
  now: number;
}

/** A processor event handled before (a redelivery), if any. */
export async function findProcessorEvent(db: Kysely<Database>, eventId: string) {
  return db.selectFrom('processor_events').selectAll().where('event_id', '=', eventId).executeTakeFirst();
}

/**
 * Remembers a handled event so a redelivery records nothing new. A concurrent delivery of the same event
 * may have remembered it first; that is the same fact, so the UNIQUE violation is not an error.
 */
export async function rememberProcessorEvent(db: Kysely<Database>, event: HandledProcessorEvent): Promise<void> {
  try {
    await db
      .insertInto('processor_events')
      .values({ event_id: event.eventId, program_id: event.programId, type: event.type, outcome: event.outcome, created_at: event.now })
      .execute();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}
