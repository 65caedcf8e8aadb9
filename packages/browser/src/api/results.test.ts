import { leadStatusCode, messageTemplates } from '@svc/types';
import { describe, expect, it } from 'vitest';
import { toResult, toSignupResult } from './results';

const platform = (status: number, message: string, details = {}) => ({
  data: null,
  error: { status, name: 'BadRequestError', message, details },
});

describe('toResult', () => {
  it('passes a 200 body through as the response', () => {
    const body = { success: true, click_id: 'clk_1', cookie_window_days: 30 };
    expect(toResult([200, body])).toEqual({ ok: true, response: body });
  });

  it('keeps the error of the platform envelope, the typed envelope and the click 410', () => {
    expect(toResult([400, platform(400, 'Referral link not found')])).toMatchObject({
      ok: false,
      status: 400,
      error: { message: 'Referral link not found' },
    });
    const disabled = { success: false, message: 'off', error: { code: 'link_disabled', message: 'off', hint: 'h' } };
    expect(toResult([410, disabled])).toEqual({ ok: false, status: 410, error: disabled.error });
    const limited = { error: { status: 429, code: 'rate_limited', message: 'Too many requests.', retry_after_seconds: 3 } };
    expect(toResult([429, limited])).toEqual({ ok: false, status: 429, error: limited.error });
  });

  it('describes an answer without a body by its status', () => {
    expect(toResult([502, undefined])).toEqual({ ok: false, status: 502, error: { message: 'HTTP 502' } });
  });
});

describe('toSignupResult', () => {
  it('decides by details.code, never by the message', () => {
    expect(toSignupResult([400, platform(400, messageTemplates.leadStatus('lead'))])).toMatchObject({ ok: false, status: 400 });
  });

  it.each(['lead', 'provisional_lead', 'converted'])('turns "Current status: %s" into success', (status) => {
    expect(toSignupResult([400, platform(400, messageTemplates.leadStatus(status), { code: leadStatusCode })])).toEqual({
      ok: true,
      response: { success: true },
      alreadyLead: true,
    });
  });

  it('keeps the other lead errors as failures', () => {
    const message = 'Customer not found. Provide a valid click_id or customer_key.';
    expect(toSignupResult([400, platform(400, message)])).toMatchObject({ ok: false, status: 400, error: { message } });
    expect(toSignupResult([500, platform(500, messageTemplates.leadStatus('lead'))])).toMatchObject({ ok: false, status: 500 });
  });

  it('passes a provisional lead through', () => {
    expect(toSignupResult([200, { success: true, provisional: true }])).toEqual({
      ok: true,
      response: { success: true, provisional: true },
    });
  });
});
