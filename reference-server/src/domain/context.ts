import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { Faults } from '../faults';
import type { Database } from '../store/schema';

/** Where a rule logs what it swallows (a metrics failure after a sale, spec/rules.md "POST /api/v1/track/sale"). */
export interface DomainLog {
  error(details: object, message: string): void;
}

/**
 * What every domain rule needs, passed in (the domain never reaches into Fastify): the store, THE clock
 * (every time rule reads it), the armed faults (test control) and optionally a log.
 */
export interface DomainContext {
  db: Kysely<Database>;
  clock: Clock;
  faults: Faults;
  log?: DomainLog;
  /** Where this server is reached now (`PUBLIC_URL`): a program served by it (the demo's) has its links made from it. */
  publicUrl?: string;
}
