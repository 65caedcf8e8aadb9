import { catalogue, leadStatusCode, type CatalogueEntry } from '@svc/types';
import { describe, expect, it } from 'vitest';
import { cliFailure, fail, failTemplated } from './service-error';

// spec/openapi.yaml, PlatformErrorDetails: the errors a client acts on carry a stable `details.code`.
describe('details.code', () => {
  it("carries every catalogue entry's client code, so no client decides by message text", () => {
    const withCode = Object.entries(catalogue as Record<string, Pick<CatalogueEntry, 'clientCode'>>).filter(
      ([, entry]) => entry.clientCode,
    );
    expect(withCode.map(([key]) => key).sort()).toEqual([
      'clickLinkNotFound',
      'clickNoAff',
      'commissionFailed',
      'leadCustomerNotFound',
      'leadStatusInvalid',
      'pollSessionConsumed',
    ]);
    for (const [key, entry] of withCode) {
      if (key === 'leadStatusInvalid') continue;
      expect(fail(key as 'clickNoAff').details).toEqual({ code: entry.clientCode });
    }
    expect(failTemplated('leadStatusInvalid', ['lead']).details).toEqual({ code: leadStatusCode });
  });

  it('keeps the details a route adds, and adds nothing where the entry has no code', () => {
    expect(fail('saleDuplicate', { details: { sale_id: 7 } }).details).toEqual({ sale_id: 7 });
    expect(fail('accountBlocked', { details: { code: 'ACCOUNT_BLOCKED' } }).details).toEqual({ code: 'ACCOUNT_BLOCKED' });
  });
});

describe('templated entries', () => {
  it('build their message from the values, keeping the entry’s status, envelope and codes', () => {
    const error = failTemplated('saleCurrencyUnsupported', ['GBP']);
    expect(error).toMatchObject({
      status: 422,
      envelope: 'platform',
      code: 'unsupported_currency',
      message: 'currency GBP is not supported',
    });
  });

  it('the CLI 500 names what failed and carries the request id', () => {
    const error = cliFailure('status', 'req-7', new Error('boom'));
    expect(error).toMatchObject({ status: 500, message: 'Failed to get status (request_id: req-7)', details: { request_id: 'req-7' } });
    expect(error.cause).toEqual(new Error('boom'));
  });
});
