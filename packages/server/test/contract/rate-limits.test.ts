import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Svc, SvcForbiddenError, SvcRateLimitedError, type SvcLogEvent } from '../../src';

// 429 against the real reference server, with an operator-set lead limit of 2 a minute (SVC_RATE_LIMITS=lead=2):
// the SDK waits out Retry-After within its deadline and retries, or gives up at once with the 429 when the wait
// is longer than what is left. Every response is validated against the spec by contractFetch. The server's clock
// (test control) is moved near a window's end, so Retry-After is a second.
let server: ReferenceServer;
let apiKey: string;
let programId: number;

beforeAll(async () => {
  server = await startReferenceServer({
    testControl: true,
    rateLimitOverrides: { lead: 2 },
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10, lead_auth: 'server_required' });
  apiKey = program.api_token;
  programId = program.id;
});
afterAll(() => server.close());

/** The clock at `offsetMs` into the next rate-limit window (fresh counters). */
async function windowAt(offsetMs: number): Promise<number> {
  const now = Date.parse((await server.control.clock({ advance_seconds: 0 })).now);
  const start = Math.floor(now / 60_000) * 60_000 + 60_000;
  await server.control.clock({ now: new Date(start + offsetMs).toISOString() });
  return start;
}

function client(timeout: number) {
  const events: SvcLogEvent[] = [];
  const svc = new Svc({ baseUrl: server.url, apiKey, fetch: contractFetch, timeout, logger: (event) => events.push(event) });
  return { svc, retries: () => events.filter((event) => event.type === 'retry') };
}

const customers = async () => (await server.control.records(programId)).customers.map((c) => c.customer_key).sort();

describe('a 429 from a configured limit', () => {
  it('is waited out (Retry-After) and retried once the window passed; the refused attempt recorded nothing', async () => {
    const start = await windowAt(1_000);
    const { svc, retries } = client(10_000);
    await svc.track.lead({ customer_key: 'wait_1' });
    const second = await svc.track.lead({ customer_key: 'wait_2' });
    expect(second.rateLimit).toMatchObject({ limit: 2, remaining: 0 });
    // Same window, 0.9 s before its end: the third lead is refused with Retry-After 1.
    await server.control.clock({ now: new Date(start + 59_100).toISOString() });
    const third = await svc.track.lead({ customer_key: 'wait_3' });
    expect(third).toMatchObject({ success: true, duplicate: false });
    expect(third.rateLimit).toMatchObject({ limit: 2, remaining: 1 });
    expect(retries()).toEqual([expect.objectContaining({ reason: '429', delayMs: 1_000 })]);
    expect(await customers()).toEqual(['wait_1', 'wait_2', 'wait_3']);
  });

  it('gives up at once with SvcRateLimitedError when Retry-After is longer than the deadline left', async () => {
    await windowAt(1_000);
    const { svc, retries } = client(5_000);
    await svc.track.lead({ customer_key: 'late_1' });
    await svc.track.lead({ customer_key: 'late_2' });
    const error = await svc.track.lead({ customer_key: 'late_3' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SvcRateLimitedError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', retryAfter: 59 });
    expect(retries()).toEqual([]);
    expect(await customers()).not.toContain('late_3');
  });
});

describe('forwarding a click from a backend when the program restricts origins', () => {
  it('sends the storefront’s origin (one of the allowed ones); without it the click is refused', async () => {
    const program = await server.control.createProgram({
      commission_type: 'percent',
      commission_rate: 10,
      allowed_origins: ['https://shop.example'],
    });
    const partner = await server.control.createPartner({ program_id: program.id });
    const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
    const click = { affiliate_url: `https://shop.example/?aff=${link.short_link}` };

    const bare = new Svc({ baseUrl: server.url, apiKey: '', fetch: contractFetch });
    await expect(bare.track.click(click)).rejects.toBeInstanceOf(SvcForbiddenError);

    // What packages/server/README.md shows: a fetch that adds the storefront's Origin to every call.
    const storefront = new Svc({
      baseUrl: server.url,
      apiKey: '',
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set('origin', 'https://shop.example');
        return contractFetch(request);
      },
    });
    const forwarded = await storefront.track.click(click);
    expect(forwarded.click_id).toMatch(/\S/);
  });
});
