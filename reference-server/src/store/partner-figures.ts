import type { Kysely } from 'kysely';
import type { Database } from './schema';

type Db = Kysely<Database>;

/** All-time click, lead and sale counts by partner from the daily rollups (never from the events), optionally one partner's. */
export function partnerCounts(db: Db, programId: number, partnerId?: number) {
  let q = db
    .selectFrom('daily_metrics')
    .select((eb) => [
      'partner_id',
      eb.fn.sum<number>('clicks').as('clicks'),
      eb.fn.sum<number>('leads').as('leads'),
      eb.fn.sum<number>('sales').as('sales'),
    ])
    .where('program_id', '=', programId);
  q = partnerId === undefined ? q.where('partner_id', '!=', 0) : q.where('partner_id', '=', partnerId);
  return q.groupBy('partner_id').execute();
}

/** All-time revenue by partner and currency from the daily rollups (refunds already taken out), optionally one partner's. */
export function partnerRevenue(db: Db, programId: number, partnerId?: number) {
  let q = db
    .selectFrom('daily_amounts')
    .select((eb) => ['partner_id', 'currency', eb.fn.sum<number>('revenue_cents').as('revenue_cents')])
    .where('program_id', '=', programId);
  q = partnerId === undefined ? q.where('partner_id', '!=', 0) : q.where('partner_id', '=', partnerId);
  return q.groupBy(['partner_id', 'currency']).execute();
}
