import type { KnownErrorCode, SaleRequest } from '@svc/types';
import { describe, expectTypeOf, it } from 'vitest';
import type { SvcErrorCode } from '../errors/errors';
import { Svc } from './svc';
import type { DuplicateSale, LeadResult, SaleResult } from './types';

// Type-level tests: `tsc -p tsconfig.json` (in `pnpm lint`) fails if a `@ts-expect-error` line compiles.
const svc = new Svc({ apiKey: 'k', baseUrl: 'http://never.test' });

describe('request types', () => {
  it('reject excess properties, in literals and in variables', () => {
    const typo = { transaction_id: 't', amount_cents: 1, amount: 1 };
    const exact = { transaction_id: 't', amount_cents: 1, currency: 'EUR' } as const;
    // Never sent: only compiled.
    if (Math.random() > 2) {
      // @ts-expect-error `amount` is not a SaleRequest field
      void svc.track.sale(typo);
      // @ts-expect-error misspelt field in a literal
      void svc.track.sale({ transaction_id: 't', amount_cent: 1 });
      // @ts-expect-error `amount_cents` is required
      void svc.track.sale({ transaction_id: 't' });
      // @ts-expect-error `gbp` is not a spec currency (`usd` is: any case is accepted)
      void svc.track.sale({ transaction_id: 't', amount_cents: 1, currency: 'gbp' });
      // @ts-expect-error `reason` must be refund or chargeback
      void svc.track.refund({ transaction_id: 't', reason: 'fraud' });
      // @ts-expect-error camelCase is not the wire name
      void svc.track.lead({ customerKey: 'u1' });
      void svc.track.sale(exact);
    }
    expectTypeOf<Parameters<typeof svc.track.sale>[0]>().toMatchTypeOf<SaleRequest>();
  });
});

describe('result types', () => {
  it('keep snake_case bodies plus requestId, and narrow sale on duplicate', () => {
    expectTypeOf<SaleResult['requestId']>().toEqualTypeOf<string>();
    expectTypeOf<Extract<SaleResult, { duplicate: true }>>().toMatchTypeOf<DuplicateSale>();
    expectTypeOf<Extract<SaleResult, { duplicate: false }>['commission_id']>().toEqualTypeOf<number | null>();
    expectTypeOf<LeadResult['duplicate']>().toEqualTypeOf<boolean>();
  });

  it('type error codes as the known union that still accepts new strings', () => {
    expectTypeOf<KnownErrorCode>().toMatchTypeOf<SvcErrorCode>();
    expectTypeOf<'a_future_code'>().toMatchTypeOf<SvcErrorCode>();
  });
});
