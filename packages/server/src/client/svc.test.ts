import { catalogue, messageTemplates } from '@svc/types';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { client, ok, platformError, typedError, url, useMsw } from '../../test/support/msw';
import { SvcInternalServerError, SvcRateLimitedError, SvcTimeoutError, type SvcError } from '../errors/errors';
import type { SvcLogEvent } from '../logging/log';
import { Svc } from './svc';

const server = useMsw();
const sale = url('/api/v1/track/sale');
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('resolved'),
    (e: unknown) => e as SvcError,
  );

/** Records every request body a handler sees, then answers with the scripted responses in order. */
function script(method: 'get' | 'post', path: string, responses: Array<() => Response | Promise<Response>>) {
  const bodies: unknown[] = [];
  const headers: Headers[] = [];
  server.use(
    http[method](url(path), async ({ request }) => {
      headers.push(request.headers);
      bodies.push(method === 'post' ? await request.json().catch(() => undefined) : undefined);
      const next = responses[Math.min(bodies.length, responses.length) - 1]!;
      return next();
    }),
  );
  return { bodies, headers };
}

const saleOk =
  (transaction_id = 'txn_1') =>
  () =>
    ok({ success: true, sale_id: 7, commission_id: 9, message: 'Sale recorded', transaction_id });
const saleFailed = () => platformError(500, 'InternalServerError', catalogue.saleFailed.message, { code: 'internal_error' });

describe('results', () => {
  it('are the spec body plus requestId and rateLimit, with the key as Bearer', async () => {
    const seen = script('post', '/api/v1/track/sale', [saleOk()]);
    const result = await client().track.sale({ transaction_id: 'txn_1', amount_cents: 4_900, currency: 'USD' });
    expect(result).toEqual({
      success: true,
      sale_id: 7,
      commission_id: 9,
      message: 'Sale recorded',
      transaction_id: 'txn_1',
      duplicate: false,
      requestId: 'req-ok',
      rateLimit: { limit: 120, remaining: 119, reset: 1_700_000_060 },
    });
    expect(seen.headers[0]!.get('authorization')).toBe('Bearer svc_live_secret_key_1234');
    expect(seen.bodies[0]).toEqual({ transaction_id: 'txn_1', amount_cents: 4_900, currency: 'USD' });
  });

  it('carry the id the SDK sent when the response has none (GET /cli/status 200)', async () => {
    const seen = script('get', '/api/v1/cli/status', [() => HttpResponse.json({ data: {} })]);
    const result = await client().cli.status();
    expect(result.requestId).toBe(seen.headers[0]!.get('x-request-id'));
    expect(result.rateLimit).toBeUndefined();
  });

  it('send the login token to account routes and no credential to login routes', async () => {
    const init = script('post', '/api/v1/cli/init', [() => ok({ data: { program: {} } })]);
    const start = script('post', '/api/v1/cli/auth/start', [() => ok({ data: { state: 's' } })]);
    const poll = script('get', '/api/v1/cli/auth/poll', [() => ok({ data: { status: 'pending' } })]);
    const programs = script('get', '/api/v1/cli/programs', [() => ok({ data: { programs: [] } })]);
    const svc = client();
    await svc.cli.init({ name: 'Shop', domain: 'shop.test', commission_type: 'percent', commission_rate: 10 }, 'login-tok');
    await svc.cli.programs('login-tok');
    await svc.cli.authStart();
    await svc.cli.authPoll('state-1');
    expect(init.headers[0]!.get('authorization')).toBe('Bearer login-tok');
    expect(programs.headers[0]!.get('authorization')).toBe('Bearer login-tok');
    expect(start.headers[0]!.get('authorization')).toBeNull();
    expect(poll.headers[0]!.get('authorization')).toBeNull();
  });

  it('default the key and base URL from SVC_API_KEY and SVC_BASE_URL, and use an injected fetch', async () => {
    vi.stubEnv('SVC_API_KEY', 'from-env');
    vi.stubEnv('SVC_BASE_URL', 'http://env.svc.test/');
    const requests: Request[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      requests.push(new Request(input, init));
      return Response.json({ ready: true });
    };
    await new Svc({ fetch }).readiness();
    expect(requests[0]!.url).toBe('http://env.svc.test/api/v1/programs/me/readiness');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer from-env');
    vi.unstubAllEnvs();
  });

  it('start where reading the environment throws (Deno without --allow-env): the defaults are simply absent', async () => {
    const denied = new Proxy(
      {},
      {
        get: () => {
          throw new Error('NotCapable: Requires env access to "SVC_API_KEY"');
        },
      },
    );
    vi.stubGlobal('process', { env: denied });
    const requests: Request[] = [];
    const fetch = async (input: string | URL | Request, init?: RequestInit) => {
      requests.push(new Request(input, init));
      return Response.json({ ready: true });
    };
    // No key from the environment: the missing key is named, not the denied read.
    expect(() => new Svc({ baseUrl: 'http://deno.svc.test', fetch })).toThrow(/no API key/);
    const svc = new Svc({ baseUrl: 'http://deno.svc.test', fetch, apiKey: '' });
    vi.unstubAllGlobals();
    await svc.readiness();
    expect(requests[0]!.url).toBe('http://deno.svc.test/api/v1/programs/me/readiness');
    expect(requests[0]!.headers.get('authorization')).toBeNull();
  });
});

describe('a missing API key', () => {
  afterEach(() => vi.unstubAllEnvs());
  const never = vi.fn(async () => Response.json({}));

  it.each([
    ['unset', undefined],
    ['empty', ''],
  ])('fails in the constructor, before any request, when SVC_API_KEY is %s and no apiKey is given', (_what, value) => {
    vi.stubEnv('SVC_API_KEY', value);
    expect(() => new Svc({ baseUrl: 'http://svc.test', fetch: never })).toThrow(
      "svc: no API key: pass { apiKey } or set SVC_API_KEY ('' for keyless calls)",
    );
    expect(never).not.toHaveBeenCalled();
  });

  it("apiKey: '' is a client without a program key: the login calls work and send no credential", async () => {
    vi.stubEnv('SVC_API_KEY', undefined);
    const start = script('post', '/api/v1/cli/auth/start', [() => ok({ data: { state: 's', login_url: 'http://svc.test/l' } })]);
    const result = await new Svc({ apiKey: '', baseUrl: url('') }).cli.authStart();
    expect(result.data.state).toBe('s');
    expect(start.headers[0]!.get('authorization')).toBeNull();
  });
});

describe('money safety', () => {
  it('retries a sale after a 500 with the same transaction_id', async () => {
    const seen = script('post', '/api/v1/track/sale', [saleFailed, saleOk('txn_same')]);
    const result = await client().track.sale({ transaction_id: 'txn_same', amount_cents: 100 });
    expect(result).toMatchObject({ success: true, sale_id: 7, duplicate: false });
    expect(seen.bodies).toEqual([
      { transaction_id: 'txn_same', amount_cents: 100 },
      { transaction_id: 'txn_same', amount_cents: 100 },
    ]);
    expect(seen.headers[0]!.get('x-request-id')).not.toBe(seen.headers[1]!.get('x-request-id'));
  });

  it('resolves a 409 (also after a 500 that recorded the sale) as duplicate with the recorded sale_id', async () => {
    const duplicate = () =>
      platformError(409, 'ConflictError', catalogue.saleDuplicate.message, { code: 'duplicate_transaction', details: { sale_id: 1042 } });
    script('post', '/api/v1/track/sale', [saleFailed, duplicate]);
    const result = await client().track.sale({ transaction_id: 'txn_2', amount_cents: 100 });
    expect(result).toEqual({
      success: true,
      duplicate: true,
      sale_id: 1042,
      transaction_id: 'txn_2',
      message: catalogue.saleDuplicate.message,
      requestId: 'req-409',
      rateLimit: { limit: 120, remaining: 119, reset: 1_700_000_060 },
    });
    script('post', '/api/v1/track/sale', [duplicate]);
    expect(await client().track.sale({ transaction_id: 'txn_2', amount_cents: 100 })).toMatchObject({ duplicate: true, sale_id: 1042 });
  });

  it('never retries after Failed to create commission', async () => {
    const seen = script('post', '/api/v1/track/sale', [
      () =>
        platformError(500, 'InternalServerError', catalogue.commissionFailed.message, {
          code: 'internal_error',
          details: { code: 'commission_failed' },
        }),
      saleOk(),
    ]);
    const error = await rejection(client().track.sale({ transaction_id: 'txn_3', amount_cents: 100 }));
    expect(error).toBeInstanceOf(SvcInternalServerError);
    expect(error.message).toBe('Failed to create commission');
    expect(seen.bodies).toHaveLength(1);
  });

  it('does not retry a test sale without transaction_id after a 500 or a network failure', async () => {
    const seen = script('post', '/api/v1/track/sale', [saleFailed, saleOk()]);
    await expect(client().track.sale({ amount_cents: 100, additional_data: { test_mode: true } })).rejects.toBeInstanceOf(
      SvcInternalServerError,
    );
    expect(seen.bodies).toHaveLength(1);
  });

  it('retries a refund after a network failure', async () => {
    const seen = script('post', '/api/v1/track/refund', [
      () => HttpResponse.error(),
      () =>
        ok({
          success: true,
          sale_id: 7,
          commission_id: 9,
          transaction_id: 'txn_1',
          commission_status: 'reversed',
          already_refunded: false,
        }),
    ]);
    expect(await client().track.refund({ transaction_id: 'txn_1', reason: 'refund' })).toMatchObject({ commission_status: 'reversed' });
    expect(seen.bodies).toHaveLength(2);
  });

  it('counts a lead as recorded when the retry after a 500 answers Customer status cannot be updated to lead', async () => {
    const already = () =>
      platformError(400, 'BadRequestError', messageTemplates.leadStatus('lead'), { details: { code: 'customer_status' } });
    const seen = script('post', '/api/v1/track/lead', [
      () => platformError(500, 'InternalServerError', catalogue.leadFailed.message),
      already,
    ]);
    expect(await client().track.lead({ customer_key: 'u1' })).toMatchObject({ success: true, duplicate: true, requestId: 'req-400' });
    expect(seen.bodies).toHaveLength(2);
    script('post', '/api/v1/track/lead', [already]);
    await expect(client().track.lead({ customer_key: 'u1' })).rejects.toMatchObject({
      status: 400,
      message: 'Customer status cannot be updated to lead. Current status: lead',
    });
  });

  it('a plain lead resolves with duplicate false', async () => {
    script('post', '/api/v1/track/lead', [() => ok({ success: true })]);
    expect(await client().track.lead({ customer_key: 'u1', email: 'a@b.test' })).toMatchObject({ success: true, duplicate: false });
  });

  it('does not retry a click after a 500, but does after a 429', async () => {
    const failed = script('post', '/api/v1/track/click', [() => platformError(500, 'InternalServerError', catalogue.clickFailed.message)]);
    await expect(client().track.click({ affiliate_url: 'https://shop.test/?aff=a' })).rejects.toBeInstanceOf(SvcInternalServerError);
    expect(failed.bodies).toHaveLength(1);
    const limited = script('post', '/api/v1/track/click', [
      () =>
        typedError(
          429,
          { status: 429, code: 'rate_limited', message: 'Too many requests.', retry_after_seconds: 0 },
          { 'retry-after': '0' },
        ),
      () => ok({ success: true, click_id: 'clk_1', cookie_window_days: 60 }),
    ]);
    expect(await client().track.click({ affiliate_url: 'https://shop.test/?aff=a' })).toMatchObject({ click_id: 'clk_1' });
    expect(limited.bodies).toHaveLength(2);
  });

  it('retries a login poll after a 500 or a network failure: a failed poll hands out no token (spec/rules.md "Errors/Status codes")', async () => {
    const pollFailed = () =>
      platformError(500, 'InternalServerError', messageTemplates.cliFailure('authPoll', 'req-1'), { details: { request_id: 'req-1' } });
    const complete = () =>
      ok({
        data: { status: 'complete', token: 'svc_login_x', token_expires_at: '2030-01-01T00:00:00.000Z', account_id: 1, email: 'a@b.test' },
      });
    const seen = script('get', '/api/v1/cli/auth/poll', [pollFailed, () => HttpResponse.error(), complete]);
    expect((await client().cli.authPoll('state-1')).data).toMatchObject({ status: 'complete', token: 'svc_login_x' });
    expect(seen.headers).toHaveLength(3);
    // A retry after a lost answer that did hand the token out: the 400 is not retried, the caller reports it.
    const consumed = script('get', '/api/v1/cli/auth/poll', [
      () => platformError(400, 'BadRequestError', catalogue.pollSessionConsumed.message),
    ]);
    await expect(client().cli.authPoll('state-1')).rejects.toMatchObject({ status: 400, message: 'Session already consumed' });
    expect(consumed.headers).toHaveLength(1);
  });

  it('gives up after maxRetries with the last error', async () => {
    const seen = script('post', '/api/v1/track/sale', [saleFailed]);
    await expect(client({ maxRetries: 3 }).track.sale({ transaction_id: 't', amount_cents: 1 })).rejects.toBeInstanceOf(
      SvcInternalServerError,
    );
    expect(seen.bodies).toHaveLength(4);
  });
});

/**
 * Waits and the deadline on fake timers: the SDK's timers (the deadline, the wait between attempts) and msw's
 * `delay` run on vitest's clock, so each test says exactly when a call settles, without waiting in real time.
 */
describe('Retry-After and the deadline', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const limited = (seconds: string) => () =>
    typedError(
      429,
      { status: 429, code: 'rate_limited', message: 'Too many requests.', retry_after_seconds: Number(seconds) },
      { 'retry-after': seconds },
    );
  /** The call, and whether it has settled yet. */
  const watch = <T>(call: Promise<T>) => {
    const watched = { call: call.catch((e: unknown) => e as SvcError), settled: false };
    void watched.call.finally(() => (watched.settled = true));
    return watched;
  };

  it('waits Retry-After before retrying a 429', async () => {
    const seen = script('get', '/api/v1/programs/me/readiness', [limited('1'), () => ok({ ready: true })]);
    const readiness = watch(client().readiness());
    await vi.advanceTimersByTimeAsync(999);
    expect(seen.headers).toHaveLength(1);
    expect(readiness.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await readiness.call).toMatchObject({ ready: true });
    expect(seen.headers).toHaveLength(2);
  });

  it('stops at once when Retry-After exceeds 60 s or the remaining deadline', async () => {
    const long = script('get', '/api/v1/programs/me/readiness', [limited('61'), () => ok({ ready: true })]);
    const error = await rejection(client({ maxRetries: 5 }).readiness());
    expect(error).toBeInstanceOf(SvcRateLimitedError);
    expect(error).toMatchObject({ retryAfter: 61 });
    expect(long.bodies).toHaveLength(1);

    // Settles without the clock moving: no wait was scheduled.
    const beyond = script('post', '/api/v1/track/refund', [limited('5'), () => ok({ success: true })]);
    const events: SvcLogEvent[] = [];
    const refund = watch(client({ timeout: 2_000, logger: (event) => events.push(event) }).track.refund({ transaction_id: 't' }));
    await vi.advanceTimersByTimeAsync(0);
    expect(refund.settled).toBe(true);
    expect(await refund.call).toBeInstanceOf(SvcRateLimitedError);
    expect(events.map((e) => e.type)).toEqual(['request', 'response']);
    expect(beyond.bodies).toHaveLength(1);
  });

  it('times out a hanging attempt at the deadline', async () => {
    server.use(
      http.get(url('/api/v1/programs/me/readiness'), async () => {
        await delay(2_000);
        return ok({ ready: true });
      }),
    );
    const readiness = watch(client({ timeout: 150 }).readiness());
    await vi.advanceTimersByTimeAsync(149);
    expect(readiness.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await readiness.call;
    expect(error).toBeInstanceOf(SvcTimeoutError);
    expect(error.requestId).toMatch(/\S/);
  });

  it('one deadline covers every attempt: retries never multiply the timeout', async () => {
    let attempts = 0;
    server.use(
      http.post(sale, async () => {
        attempts++;
        await delay(80);
        return saleFailed();
      }),
    );
    // Attempts at 0 and about 81 ms fail after 80 ms each; the third, at about 163 ms, is cut at 200 ms.
    const call = watch(client({ timeout: 200, maxRetries: 50, backoffMs: 1 }).track.sale({ transaction_id: 't', amount_cents: 1 }));
    await vi.advanceTimersByTimeAsync(199);
    expect(call.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await call.call).toBeInstanceOf(SvcTimeoutError);
    expect(attempts).toBe(3);
  });
});

describe('warnings', () => {
  const rotation = {
    code: 'api_key_rotation_required' as const,
    message: 'This API key is marked for rotation.',
    hint: 'Regenerate the key in the dashboard.',
    rotate_by: '2030-01-01T00:00:00Z',
    docs_url: 'https://docs.svc.test/rotation',
  };
  const rotationHeaders = {
    deprecation: '@1700000000',
    sunset: 'Tue, 01 Jan 2030 00:00:00 GMT',
    link: '<https://docs.svc.test/rotation>; rel="deprecation"',
  };
  afterEach(() => vi.resetModules());

  it('reach onWarning with the body warnings and the headers', async () => {
    script('post', '/api/v1/track/lead', [() => ok({ success: true, warnings: [rotation] }, rotationHeaders)]);
    const onWarning = vi.fn();
    const result = await client({ onWarning }).track.lead({ customer_key: 'u1' });
    expect(result.warnings).toEqual([rotation]);
    expect(onWarning).toHaveBeenCalledOnce();
    expect(onWarning).toHaveBeenCalledWith({ warnings: [rotation], ...rotationHeaders, requestId: 'req-ok' });
  });

  it('headers alone are a warning too; a clean response is none', async () => {
    script('get', '/api/v1/programs/me/readiness', [() => ok({ ready: true }, rotationHeaders), () => ok({ ready: true })]);
    const onWarning = vi.fn();
    const svc = client({ onWarning });
    await svc.readiness();
    await svc.readiness();
    expect(onWarning).toHaveBeenCalledOnce();
    expect(onWarning.mock.calls[0]![0]).toMatchObject({ warnings: [], sunset: rotationHeaders.sunset });
  });

  it('by default print one console warning per process', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { Svc: FreshSvc } = await import('./svc');
    script('post', '/api/v1/track/lead', [() => ok({ success: true, warnings: [rotation] }, rotationHeaders)]);
    const a = new FreshSvc({ apiKey: 'k', baseUrl: url('') });
    const b = new FreshSvc({ apiKey: 'k', baseUrl: url('') });
    await a.track.lead({ customer_key: 'u1' });
    await b.track.lead({ customer_key: 'u1' });
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0]![0]).toContain('2030-01-01T00:00:00Z');
    expect(warn.mock.calls[0]![0]).toContain(rotation.docs_url);
  });
});

describe('logging', () => {
  it('reports each attempt and retry without the API key', async () => {
    script('post', '/api/v1/track/sale', [saleFailed, saleOk()]);
    const events: SvcLogEvent[] = [];
    await client({ logger: (event) => events.push(event) }).track.sale({ transaction_id: 'txn_1', amount_cents: 1 });
    expect(events.map((e) => e.type)).toEqual(['request', 'response', 'retry', 'request', 'response']);
    expect(events[0]).toMatchObject({ method: 'POST', attempt: 1, headers: { authorization: 'Bearer [redacted]' } });
    expect(events[2]).toMatchObject({ type: 'retry', reason: '500' });
    expect(JSON.stringify(events)).not.toContain('secret_key');
  });
});
