import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { Svc } from '@svc/server';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildBackend } from '../src/app';
import { Users } from '../src/users';
import { startStripeStub, type StripeStub } from './stripe-stub';

let server: ReferenceServer;
let stripe: StripeStub;
beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
  stripe = await startStripeStub();
});
afterAll(async () => {
  await stripe?.close();
  await server?.close();
});

let backend: FastifyInstance;
let programId: number;
let svc: Svc;
let shortLink: string;
beforeEach(async () => {
  // The default program: browser leads stay provisional (`server_required`), so only the backend's lead counts.
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  const link = await server.control.createLink({ program_id: program.id });
  programId = program.id;
  shortLink = link.short_link;
  svc = new Svc({ apiKey: program.api_token, baseUrl: server.url, fetch: contractFetch });
  backend = buildBackend({
    svc,
    stripe: { client: stripe.stripe, prices: { monthly: 'price_monthly', lifetime: 'price_lifetime' } },
    programId,
    users: new Users(),
    appUrl: 'https://shop.example.com',
  });
});

/** What svc-tracker.js does on the landing page: record the click and keep its id in the svc_click_id cookie. */
const landThroughReferralLink = async () =>
  (await svc.track.click({ affiliate_url: `https://shop.example.com/?aff=${shortLink}` })).click_id;

async function signUp(email: string, clickId?: string): Promise<{ userId: string; session: string }> {
  const response = await backend.inject({
    method: 'POST',
    url: '/signup',
    payload: { email },
    headers: clickId ? { cookie: `svc_click_id=${clickId}` } : {},
  });
  expect(response.statusCode).toBe(200);
  const session = [response.headers['set-cookie']]
    .flat()
    .find((c) => c?.startsWith('sid='))!
    .split(';')[0]!;
  return { userId: response.json<{ user_id: string }>().user_id, session };
}

describe('fastify-backend against the reference server', () => {
  it('reports a settled (server-mode) lead tied to the referral click', async () => {
    const clickId = await landThroughReferralLink();
    const { userId } = await signUp('ada@example.com', clickId);

    expect((await server.control.records(programId)).customers).toMatchObject([
      { customer_key: userId, click_id: clickId, status: 'lead', provisional: false },
    ]);
  });

  it('reports an invoice paid outside Stripe once, with a 10 percent commission, even when reported twice', async () => {
    const { session } = await signUp('grace@example.com', await landThroughReferralLink());
    const pay = () =>
      backend.inject({ method: 'POST', url: '/invoices/2024-0042/paid', payload: { amount_cents: 12_000 }, headers: { cookie: session } });

    const first = (await pay()).json<{ sale_id: number; duplicate: boolean }>();
    const second = (await pay()).json<{ sale_id: number; duplicate: boolean }>();

    expect(first).toMatchObject({ duplicate: false });
    expect(second).toEqual({ sale_id: first.sale_id, commission_id: null, duplicate: true });
    const records = await server.control.records(programId);
    expect(records.sales).toMatchObject([{ processor_event_id: 'inv_2024-0042', amount_cents: 12_000 }]);
    expect(records.commissions).toMatchObject([{ sale_id: first.sale_id, amount_cents: 1_200 }]);
  });

  it('answers a sale for a customer who never clicked a referral link as not attributed, and svc records none', async () => {
    const { session } = await signUp('lin@example.com');
    const response = await backend.inject({
      method: 'POST',
      url: '/invoices/7/paid',
      payload: { amount_cents: 500 },
      headers: { cookie: session },
    });
    expect(response.json()).toEqual({ sale_id: null, reason: 'no_attribution' });
    expect((await server.control.records(programId)).sales).toEqual([]);
  });

  it('does not take another refusal of the sale for "not attributed": it fails loudly', async () => {
    // An amount svc refuses (over its 10^12 cap) is invalid_request, not no_attribution: the shop must see it.
    const { session } = await signUp('big@example.com', await landThroughReferralLink());
    const response = await backend.inject({
      method: 'POST',
      url: '/invoices/8/paid',
      payload: { amount_cents: 2e12 },
      headers: { cookie: session },
    });
    // Fastify reports the SDK's error with its status and code instead of a quiet "not attributed".
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_request' });
    expect((await server.control.records(programId)).sales.filter((sale) => sale.amount_cents === 2e12)).toEqual([]);
  });

  it('puts svc metadata on the Stripe checkout session and, for a subscription, on the subscription too', async () => {
    const clickId = await landThroughReferralLink();
    const { userId, session } = await signUp('joan@example.com', clickId);
    const response = await backend.inject({
      method: 'POST',
      url: '/checkout',
      payload: { plan: 'monthly' },
      headers: { cookie: `${session}; svc_click_id=${clickId}` },
    });

    expect(response.json()).toMatchObject({ url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) });
    const form = stripe.sessions.at(-1)!;
    const expected = { svc_click_id: clickId, svc_customer_key: userId, program_id: String(programId) };
    for (const [key, value] of Object.entries(expected)) {
      expect(form[`metadata[${key}]`], key).toBe(value);
      expect(form[`subscription_data[metadata][${key}]`], key).toBe(value);
    }
    expect(form).toMatchObject({ mode: 'subscription', 'metadata[plan]': 'monthly', 'line_items[0][price]': 'price_monthly' });
  });

  it('runs without Stripe: signups and invoices work, /checkout says what to configure', async () => {
    const plain = buildBackend({ svc, programId, users: new Users(), appUrl: 'https://shop.example.com' });
    const signup = await plain.inject({ method: 'POST', url: '/signup', payload: { email: 'nostripe@example.com' } });
    expect(signup.statusCode).toBe(200);
    const checkout = await plain.inject({ method: 'POST', url: '/checkout', payload: { plan: 'monthly' } });
    expect(checkout.statusCode).toBe(501);
    expect(checkout.json()).toEqual({
      message: 'Stripe is not configured: set STRIPE_SECRET_KEY, STRIPE_PRICE_MONTHLY and STRIPE_PRICE_LIFETIME',
    });
    await plain.close();
  });

  it('re-issues the click cookie from the server so Safari keeps it for the attribution window', async () => {
    const clickId = await landThroughReferralLink();
    const expires = Math.floor(Date.now() / 1000) + 50 * 86_400;
    const response = await backend.inject({
      method: 'POST',
      url: '/checkout',
      payload: { plan: 'lifetime' },
      headers: { host: 'shop.example.com', cookie: `svc_click_id=${clickId}; svc_click_exp=${expires}` },
    });
    const cookies = [response.headers['set-cookie']].flat().filter((c): c is string => c !== undefined);
    expect(cookies.find((c) => c.startsWith(`svc_click_id=${clickId};`))).toMatch(/Domain=example\.com.*SameSite=Lax/i);
  });
});
