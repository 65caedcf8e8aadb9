import { catalogue, leadStatusCode, type CatalogueEntry } from '@svc/types';
import { describe, expect, it } from 'vitest';
import { leadStatusError } from '../domain/tracking/errors';
import { fail } from './service-error';

// spec/openapi.yaml, PlatformErrorDetails: the errors a client acts on carry a stable `details.code`.
describe('details.code', () => {
  it("carries every catalogue entry's client code, so no client decides by message text", () => {
    const withCode = Object.entries(catalogue as Record<string, CatalogueEntry>).filter(([, entry]) => entry.clientCode);
    expect(withCode.map(([key]) => key).sort()).toEqual([
      'clickLinkNotFound',
      'clickNoAff',
      'commissionFailed',
      'leadCustomerNotFound',
      'pollSessionConsumed',
    ]);
    for (const [key, entry] of withCode) expect(fail(key as keyof typeof catalogue).details).toEqual({ code: entry.clientCode });
    expect(leadStatusError('lead').details).toEqual({ code: leadStatusCode });
  });

  it('keeps the details a route adds, and adds nothing where the entry has no code', () => {
    expect(fail('saleDuplicate', { details: { sale_id: 7 } }).details).toEqual({ sale_id: 7 });
    expect(fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } }).details).toEqual({ code: 'ACCOUNT_BLOCKED' });
  });
});
