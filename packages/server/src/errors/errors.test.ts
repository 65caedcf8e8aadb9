import { readFileSync } from 'node:fs';
import { catalogue, clientErrorCodes, isFixedEntry, messageTemplates, saleErrorCodes, typedErrorCodes } from '@svc/types';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { baseUrl, client, platformError, typedError, url, useMsw } from '../../test/support/msw';
import {
  errorPage,
  hints,
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
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
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
      // A refused key is one code whatever the envelope (`unauthorized` here, `invalid_key` on readiness).
      code: entry.code === 'unauthorized' ? 'invalid_key' : entry.code,
      message: entry.message,
      details: {},
      envelope: 'platform',
      requestId: `req-${status}`,
      rateLimit: { limit: 120, remaining: 119, reset: 1_700_000_060 },
      retryAfter: undefined,
    });
    expect(error.name).toBe(Class.name);
  });

  it('403, 409, 410 and 422 have their classes; where the route sends no code, the status gives one', async () => {
    server.use(
      http.post(url('/api/v1/track/lead'), () => platformError(403, 'ForbiddenError', catalogue.programMismatch.message)),
      http.post(url('/api/v1/cli/test-event'), () => platformError(410, 'GoneError', catalogue.stripeConnectRetired.message)),
      http.post(url('/api/v1/track/sale'), async ({ request }) => {
        const body = (await request.json()) as { currency: string };
        return platformError(422, 'UnprocessableEntityError', messageTemplates.saleCurrency(body.currency), {
          code: 'unsupported_currency',
        });
      }),
      http.post(url('/api/v1/cli/init'), () => platformError(409, 'ConflictError', 'conflict')),
    );
    const forbidden = await rejection(svc.track.lead({ customer_key: 'u1', additional_data: { test_mode: true, program_id: 2 } }));
    expect(forbidden).toBeInstanceOf(SvcForbiddenError);
    expect(forbidden.code).toBe('forbidden');
    expect(await rejection(svc.cli.testEvent({ event_type: 'click' }))).toMatchObject({ constructor: SvcGoneError, code: 'gone' });
    const conflict = await rejection(svc.cli.init({ name: 'n', domain: 'd.test', commission_type: 'percent', commission_rate: 10 }, 'tok'));
    expect(conflict).toMatchObject({
      constructor: SvcConflictError,
      code: 'conflict',
      hint: undefined,
      docsUrl: `${baseUrl}/docs/errors/conflict`,
    });
    const currency = await rejection(svc.track.sale({ transaction_id: 't', amount_cents: 1, currency: 'GBP' as 'USD' }));
    expect(currency).toBeInstanceOf(SvcUnprocessableEntityError);
    expect(currency).toMatchObject({ code: 'unsupported_currency', message: 'currency GBP is not supported', status: 422 });
  });

  it('keeps details such as ACCOUNT_BLOCKED and a CLI 500 request id', async () => {
    server.use(
      http.get(url('/api/v1/cli/programs'), () =>
        platformError(
          500,
          'InternalServerError',
          messageTemplates.cliFailure('programs', 'rid-1'),
          { details: { request_id: 'rid-1' } },
          { 'x-request-id': 'rid-1' },
        ),
      ),
    );
    const error = await rejection(client({ maxRetries: 0 }).cli.programs('login-token'));
    expect(error).toMatchObject({
      details: { request_id: 'rid-1' },
      requestId: 'rid-1',
      message: 'Failed to list programs (request_id: rid-1)',
    });
  });
});

describe('typed envelope', () => {
  it('429 carries code rate_limited and Retry-After', async () => {
    server.use(
      http.post(refund, () => typedError(429, { ...catalogue.rateLimited, status: 429, retry_after_seconds: 42 }, { 'retry-after': '42' })),
    );
    const error = await rejection(svc.track.refund({ transaction_id: 'txn_1' }));
    expect(error).toBeInstanceOf(SvcRateLimitedError);
    expect(error).toMatchObject({
      status: 429,
      code: 'rate_limited',
      envelope: 'typed',
      retryAfter: 42,
      message: 'Too many requests.',
      details: {},
    });
  });

  it('401 api_key_rotation_required is SvcRotationRequiredError with hint and docsUrl', async () => {
    const body = {
      code: 'api_key_rotation_required',
      message: catalogue.keyRotationRequired.message,
      hint: 'Regenerate it.',
      docs_url: 'https://docs.svc.test/rotation',
    };
    server.use(http.post(refund, () => typedError(401, body)));
    const error = await rejection(svc.track.refund({ transaction_id: 'txn_1' }));
    expect(error).toBeInstanceOf(SvcRotationRequiredError);
    expect(error).toBeInstanceOf(SvcUnauthorizedError);
    expect(error).toMatchObject({
      status: 401,
      code: 'api_key_rotation_required',
      hint: 'Regenerate it.',
      docsUrl: 'https://docs.svc.test/rotation',
      envelope: 'typed',
    });
  });

  it('readiness 401 invalid_key and the click 410 link_disabled with its hint', async () => {
    server.use(
      http.get(url('/api/v1/programs/me/readiness'), () =>
        typedError(401, { code: 'invalid_key', message: catalogue.readinessInvalidToken.message }),
      ),
      http.post(url('/api/v1/track/click'), () =>
        typedError(
          410,
          { code: 'link_disabled', message: catalogue.clickLinkDisabled.message, hint: 'Turned off.' },
          {},
          { success: false, message: catalogue.clickLinkDisabled.message },
        ),
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
    expect(gateway).toMatchObject({
      status: 502,
      message: 'HTTP 502',
      envelope: undefined,
      body: '<html>Bad gateway</html>',
      code: 'http_502',
    });
    expect(gateway.requestId).toMatch(/\S/);
    const unknown = await rejection(svc.track.click({ affiliate_url: 'https://shop.test/?aff=x' }));
    expect(unknown).toMatchObject({ status: 418, code: 'brand_new_code' });
    // Every http_<status> shares one page.
    expect(gateway.docsUrl).toBe(`${baseUrl}/docs/errors/http_status`);
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
    expect(error.code).toBe('network_error');
    expect(error.docsUrl).toBe(`${baseUrl}/docs/errors/network_error`);
    expect(error.message).toMatch(/^Network failure: .+ \(POST http:\/\/svc\.test\/api\/v1\/track\/refund\)$/);
    expect(error.stack).toContain('(POST http://svc.test/api/v1/track/refund)');
  });
});

describe('every error has a stable code and its page; the common first-hour errors say what to do', () => {
  const troubleshooting = readFileSync(new URL('../../../../docs/troubleshooting.md', import.meta.url), 'utf8');
  const page = (code: string) => readFileSync(new URL(`../../../../docs/errors/${code}.md`, import.meta.url), 'utf8');
  const click = url('/api/v1/track/click');
  const lead = url('/api/v1/track/lead');

  it.each([
    ['an unknown aff value', catalogue.clickLinkNotFound, 'link_not_found'],
    ['a URL without aff', catalogue.clickNoAff, 'missing_aff'],
    ['a click refused for its URL', catalogue.clickUrlInvalid, 'invalid_request'],
  ] as const)('the click: %s', async (_what, entry, code) => {
    // As the service answers: the entry's client code in `details.code` (spec/openapi.yaml, PlatformErrorDetails).
    const details = 'clientCode' in entry ? { code: entry.clientCode } : {};
    server.use(http.post(click, () => platformError(400, 'BadRequestError', entry.message, { details })));
    const error = await rejection(svc.track.click({ affiliate_url: 'https://shop.test/?aff=nope' }));
    expect(error).toMatchObject({
      constructor: SvcBadRequestError,
      code,
      message: entry.message,
      hint: hints[code],
      docsUrl: errorPage(baseUrl, code),
    });
  });

  it('an unknown click on a lead: customer_not_found, with what to do and where it is explained', async () => {
    server.use(
      http.post(lead, () =>
        platformError(400, 'BadRequestError', catalogue.leadCustomerNotFound.message, { details: { code: 'customer_not_found' } }),
      ),
    );
    const error = await rejection(svc.track.lead({ click_id: 'clk_other_server', customer_key: 'u1' }));
    expect(error).toMatchObject({
      code: 'customer_not_found',
      message: catalogue.leadCustomerNotFound.message,
      hint: expect.stringContaining('svc_click_id'),
      docsUrl: 'http://svc.test/docs/errors/customer_not_found',
    });
  });

  it('no attribution on a sale keeps the wire code and gains the hint', async () => {
    const entry = catalogue.saleOutsideWindow;
    server.use(http.post(url('/api/v1/track/sale'), () => platformError(400, 'BadRequestError', entry.message, { code: entry.code })));
    const error = await rejection(svc.track.sale({ transaction_id: 'pi_1', amount_cents: 100, customer_key: 'u1' }));
    expect(error).toMatchObject({
      code: 'no_attribution',
      message: entry.message,
      hint: hints.no_attribution,
      docsUrl: `${baseUrl}/docs/errors/no_attribution`,
    });
  });

  it('a 401 without a wire code is invalid_key, as a sale unauthorized; ACCOUNT_BLOCKED keeps its details code', async () => {
    server.use(
      http.post(lead, () => platformError(401, 'UnauthorizedError', catalogue.authInvalidToken.message)),
      http.get(url('/api/v1/cli/status'), () => platformError(401, 'UnauthorizedError', catalogue.cliAuthInvalidToken.message)),
      http.get(url('/api/v1/cli/programs'), () =>
        platformError(403, 'ForbiddenError', catalogue.accountBlocked.message, { details: { code: 'ACCOUNT_BLOCKED' } }),
      ),
    );
    expect(await rejection(svc.track.lead({ customer_key: 'u1' }))).toMatchObject({ status: 401, code: 'invalid_key' });
    expect(await rejection(svc.cli.status())).toMatchObject({ status: 401, code: 'invalid_key' });
    expect(await rejection(svc.cli.programs('tok'))).toMatchObject({ status: 403, code: 'ACCOUNT_BLOCKED' });
  });

  it('gives hints only for codes the catalogue knows', () => {
    const known: readonly string[] = [...saleErrorCodes, ...typedErrorCodes, ...clientErrorCodes];
    for (const code of Object.keys(hints)) expect(known).toContain(code);
  });

  it.each(Object.entries(hints))(
    'the page of docsUrl, docs/errors/<code>.md, of %s has the hint and the messages word for word',
    (code, hint) => {
      const section = page(code);
      expect(section).toContain(hint);
      const entries = Object.values(catalogue)
        .filter(isFixedEntry)
        .filter((entry) => (entry.code ?? entry.clientCode) === code);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) expect(section).toContain(`\`${entry.message}\``);
    },
  );

  it('the message table of docs/troubleshooting.md quotes the catalogue word for word', () => {
    const table = troubleshooting.slice(troubleshooting.indexOf('## Error messages you may meet'));
    const quoted = [...table.matchAll(/^\| (?:\d{3} )?`([^`]+)`/gm)].map((m) => m[1]!);
    expect(quoted.length).toBeGreaterThan(5);
    const messages = Object.values(catalogue)
      .filter(isFixedEntry)
      .flatMap((entry) => [entry.message, entry.code]);
    for (const text of quoted) {
      const known = messages.includes(text) || text === `${messageTemplates.leadStatus('…')}`;
      expect(known, text).toBe(true);
    }
  });
});
