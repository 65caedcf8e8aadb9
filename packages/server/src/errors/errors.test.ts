import { catalogue, messageTemplates } from '@svc/types';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { client, platformError, typedError, url, useMsw } from '../../test/support/msw';
import {
  SvcApiError,
  SvcBadRequestError,
  SvcConflictError,
  SvcError,
  SvcForbiddenError,
  SvcGoneError,
  SvcInternalServerError,
  SvcNetworkError,
  SvcNotFoundError,
  SvcRateLimitedError,
  SvcRotationRequiredError,
  SvcUnauthorizedError,
  SvcUnprocessableEntityError,
} from './errors';

const server = useMsw();
const svc = client({ maxRetries: 0 });
const refund = url('/api/v1/track/refund');
const rejection = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(SvcError);
  return error as SvcApiError;
};

describe('platform envelope', () => {
  const cases = [
    [400, 'BadRequestError', catalogue.refundReasonInvalid, SvcBadRequestError],
    [401, 'UnauthorizedError', catalogue.authInvalidToken, SvcUnauthorizedError],
    [404, 'NotFoundError', catalogue.refundSaleNotFound, SvcNotFoundError],
    [500, 'InternalServerError', catalogue.refundFailed, SvcInternalServerError],
  ] as const;
  it.each(cases)('%i becomes its class with status, code, message, details and request id', async (status, name, entry, Class) => {
    server.use(http.post(refund, () => platformError(status, name, entry.message, { code: entry.code })));
    const error = await rejection(svc.track.refund({ transaction_id: 'txn_1' }));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({
      status,
      code: entry.code,
      message: entry.message,
      details: {},
      envelope: 'platform',
      requestId: `req-${status}`,
      rateLimit: { limit: 120, remaining: 119, reset: 1_700_000_060 },
      retryAfter: undefined,
    });
    expect(error.name).toBe(Class.name);
  });

  it('403, 409, 410 and 422 have their classes; code is undefined where the route sends none', async () => {
    server.use(
      http.post(url('/api/v1/track/lead'), () => platformError(403, 'ForbiddenError', catalogue.programMismatch.message)),
      http.post(url('/api/v1/cli/test-event'), () => platformError(410, 'GoneError', catalogue.stripeConnectRetired.message)),
      http.post(url('/api/v1/track/sale'), async ({ request }) => {
        const body = (await request.json()) as { currency: string };
        return platformError(422, 'UnprocessableEntityError', messageTemplates.saleCurrency(body.currency), { code: 'unsupported_currency' });
      }),
      http.post(url('/api/v1/cli/init'), () => platformError(409, 'ConflictError', 'conflict')),
    );
    const forbidden = await rejection(svc.track.lead({ customer_key: 'u1', additional_data: { test_mode: true, program_id: 2 } }));
    expect(forbidden).toBeInstanceOf(SvcForbiddenError);
    expect(forbidden.code).toBeUndefined();
    expect(await rejection(svc.cli.testEvent({ event_type: 'click' }))).toBeInstanceOf(SvcGoneError);
    expect(await rejection(svc.cli.init({ name: 'n', domain: 'd.test', commission_type: 'percent', commission_rate: 10 }, 'tok'))).toBeInstanceOf(SvcConflictError);
    const currency = await rejection(svc.track.sale({ transaction_id: 't', amount_cents: 1, currency: 'GBP' as 'USD' }));
    expect(currency).toBeInstanceOf(SvcUnprocessableEntityError);
    expect(currency).toMatchObject({ code: 'unsupported_currency', message: 'currency GBP is not supported', status: 422 });
  });

  it('keeps details such as ACCOUNT_BLOCKED and a CLI 500 request id', async () => {
    server.use(
      http.get(url('/api/v1/cli/programs'), () =>
        platformError(500, 'InternalServerError', messageTemplates.cliFailure('programs', 'rid-1'), { details: { request_id: 'rid-1' } }, { 'x-request-id': 'rid-1' }),
      ),
    );
    const error = await rejection(client({ maxRetries: 0 }).cli.programs('login-token'));
    expect(error).toMatchObject({ details: { request_id: 'rid-1' }, requestId: 'rid-1', message: 'Failed to list programs (request_id: rid-1)' });
  });
});

describe('typed envelope', () => {
  it('429 carries code rate_limited and Retry-After', async () => {
    server.use(
      http.post(refund, () => typedError(429, { ...catalogue.rateLimited, status: 429, retry_after_seconds: 42 }, { 'retry-after': '42' })),
    );
    const error = await rejection(svc.track.refund({ transaction_id: 'txn_1' }));
    expect(error).toBeInstanceOf(SvcRateLimitedError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', envelope: 'typed', retryAfter: 42, message: 'Too many requests.', details: {} });
  });

  it('401 api_key_rotation_required is SvcRotationRequiredError with hint and docsUrl', async () => {
    const body = { code: 'api_key_rotation_required', message: catalogue.keyRotationRequired.message, hint: 'Regenerate it.', docs_url: 'https://docs.svc.test/rotation' };
    server.use(http.post(refund, () => typedError(401, body)));
    const error = await rejection(svc.track.refund({ transaction_id: 'txn_1' }));
    expect(error).toBeInstanceOf(SvcRotationRequiredError);
    expect(error).toBeInstanceOf(SvcUnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: 'api_key_rotation_required', hint: 'Regenerate it.', docsUrl: 'https://docs.svc.test/rotation', envelope: 'typed' });
  });

  it('readiness 401 invalid_key and the click 410 link_disabled with its hint', async () => {
    server.use(
      http.get(url('/api/v1/programs/me/readiness'), () => typedError(401, { code: 'invalid_key', message: catalogue.readinessInvalidToken.message })),
      http.post(url('/api/v1/track/click'), () =>
        typedError(410, { code: 'link_disabled', message: catalogue.clickLinkDisabled.message, hint: 'Turned off.' }, {}, { success: false, message: catalogue.clickLinkDisabled.message }),
      ),
    );
    expect(await rejection(svc.readiness())).toMatchObject({ code: 'invalid_key', envelope: 'typed', status: 401 });
    const gone = await rejection(svc.track.click({ affiliate_url: 'https://shop.test/?aff=x' }));
    expect(gone).toBeInstanceOf(SvcGoneError);
    expect(gone).toMatchObject({ code: 'link_disabled', hint: 'Turned off.', envelope: 'typed' });
  });
});

describe('other failures', () => {
  it('a body that is no svc envelope still becomes an error with its status, and unknown codes pass through', async () => {
    server.use(
      http.post(refund, () => new HttpResponse('<html>Bad gateway</html>', { status: 502 })),
      http.post(url('/api/v1/track/click'), () => typedError(418, { code: 'brand_new_code', message: 'New.' })),
    );
    const gateway = await rejection(svc.track.refund({ transaction_id: 'txn_1' }));
    expect(gateway.constructor).toBe(SvcApiError);
    expect(gateway).toMatchObject({ status: 502, message: 'HTTP 502', envelope: undefined, body: '<html>Bad gateway</html>', code: undefined });
    expect(gateway.requestId).toMatch(/\S/);
    const unknown = await rejection(svc.track.click({ affiliate_url: 'https://shop.test/?aff=x' }));
    expect(unknown).toMatchObject({ status: 418, code: 'brand_new_code' });
  });

  it('a network failure is SvcNetworkError keeping the cause and the id the SDK sent', async () => {
    let sent: string | null = null;
    server.use(
      http.post(refund, ({ request }) => {
        sent = request.headers.get('x-request-id');
        return HttpResponse.error();
      }),
    );
    const error = await rejection(svc.track.refund({ transaction_id: 'txn_1' }));
    expect(error).toBeInstanceOf(SvcNetworkError);
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.requestId).toBe(sent);
    expect(error.rateLimit).toBeUndefined();
  });
});
