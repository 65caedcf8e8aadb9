import { catalogue, leadStatusCode, messageTemplates } from '@svc/types';
import { describe, expect, it, vi } from 'vitest';
import { SvcApiError } from '../errors/errors';
import { customerStatus, recoverLead, recoverSale } from './recover';

const meta = { requestId: 'r', rateLimit: undefined };
const platform = (status: number, message: string, details = {}) =>
  new SvcApiError(status, { data: null, error: { status, name: 'x', message, details } }, meta);

describe('recoverLead', () => {
  it('decides by the catalogue code, never by the message', () => {
    expect(customerStatus).toBe(leadStatusCode);
    expect(recoverLead(platform(400, messageTemplates.leadStatus('lead')), true)).toBeUndefined();
  });

  it('counts the lead as recorded only after a failed attempt', () => {
    const already = platform(400, messageTemplates.leadStatus('lead'), { code: leadStatusCode });
    expect(recoverLead(already, true)).toEqual({ success: true, duplicate: true });
    expect(recoverLead(already, false)).toBeUndefined();
    expect(recoverLead(platform(400, catalogue.leadCustomerNotFound.message, { code: 'customer_not_found' }), true)).toBeUndefined();
  });
});

describe('recoverSale', () => {
  it('turns a 409 into the recorded sale', () => {
    const conflict = platform(409, catalogue.saleDuplicate.message, { sale_id: 1042 });
    expect(recoverSale({ transaction_id: 'txn_1', amount_cents: 100 })(conflict)).toEqual({
      success: true,
      duplicate: true,
      sale_id: 1042,
      transaction_id: 'txn_1',
      message: catalogue.saleDuplicate.message,
    });
    expect(recoverSale({ transaction_id: 'txn_1', amount_cents: 100 })(platform(400, 'x'))).toBeUndefined();
  });

  it("does not take another program's 409 (no sale_id) for the caller's sale, and warns once", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const foreign = platform(409, catalogue.saleDuplicateElsewhere.message);
    expect(recoverSale({ transaction_id: 'order_1002', amount_cents: 100 })(foreign)).toBeUndefined();
    expect(recoverSale({ transaction_id: 'order_1003', amount_cents: 100 })(foreign)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('another program');
    warn.mockRestore();
  });

  it('marks a reuse with another amount or currency as a mismatch, says what was stored, and warns once', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const conflict = platform(409, catalogue.saleDuplicate.message, { sale_id: 7, amount_cents: 2500, currency: 'USD' });
    const same = recoverSale({ transaction_id: 'pi_1', amount_cents: 2500, currency: 'usd' })(conflict);
    expect(same).not.toHaveProperty('mismatch');
    const other = recoverSale({ transaction_id: 'pi_1', amount_cents: 9999 })(conflict);
    expect(other).toMatchObject({
      duplicate: true,
      sale_id: 7,
      mismatch: { stored: { amount_cents: 2500, currency: 'USD' }, sent: { amount_cents: 9999, currency: 'USD' } },
    });
    recoverSale({ transaction_id: 'pi_1', amount_cents: 2500, currency: 'EUR' })(conflict);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('another amount');
    warn.mockRestore();
  });
});
