import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceServer, type ReferenceServer } from '../../src/start';
import { contractFetch } from '../../src/testing/fetch';
import { signInOverHttp } from '../oidc/http-sign-in';
import { startIssuer, type TestIssuer } from '../oidc/issuer';

// Done when: the whole partners journey on a production-shaped server (OpenID Connect sign-in through a real
// OpenID Provider, no test control), through the public routes only. Every answer is checked against the spec.
let issuer: TestIssuer;
let server: ReferenceServer;

beforeAll(async () => {
  issuer = await startIssuer({
    mia: { email: 'mia@shop.example', email_verified: true },
    // The partner's provider spells the email its own way; the merchant invites it in lower case.
    dana: { email: 'Dana@Partners.Example', email_verified: true },
  });
  server = await startReferenceServer({
    oidc: { issuer: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret },
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  issuer.serve(`${server.url}/auth/callback`);
});
afterAll(async () => {
  await server?.close();
  await issuer?.close();
});

async function call(method: string, path: string, options: { cookie?: string; key?: string; json?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.cookie) headers.cookie = options.cookie;
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await contractFetch(`${server.url}${path}`, {
    method,
    headers,
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return { status: response.status, body: type.startsWith('application/json') ? JSON.parse(text) : undefined, text };
}

const today = () => new Date().toISOString().slice(0, 10);

describe('partners journey on a server without test control', () => {
  it('has no test-control route: /_test/reset is not found', async () => {
    const reset = await fetch(`${server.url}/_test/reset`, { method: 'POST' });
    expect(reset.status).toBe(404);
    expect(server.app.printRoutes()).not.toContain('_test');
  });

  it('merchant signs in, adds a partner and a link; a visitor buys; the partner sees it; the merchant exports and pays', async () => {
    // The merchant signs in through the issuer and creates a program from the dashboard API.
    const merchant = await signInOverHttp(server.url, 'mia');
    expect((await call('GET', '/api/dashboard/session', { cookie: merchant })).body.data.email).toBe('mia@shop.example');
    const created = await call('POST', '/api/dashboard/programs', {
      cookie: merchant,
      json: { name: 'Shop', domain: 'shop.example', commission_type: 'percent', commission_rate: 20 },
    });
    expect(created.status).toBe(201);
    const program = created.body.data.program;
    const key: string = program.api_token;
    const base = `/api/dashboard/programs/${program.id}`;

    const partner = await call('POST', `${base}/partners`, { cookie: merchant, json: { name: 'Dana', email: 'dana@partners.example' } });
    expect(partner.status).toBe(201);
    const link = await call('POST', `${base}/links`, { cookie: merchant, json: { partner_id: partner.body.data.id } });
    expect(link.status).toBe(201);
    expect(link.body.data.url).toBe(`https://shop.example/?aff=${link.body.data.short_link}`);

    // A visitor follows the link, signs up and pays; the merchant's backend reports the lead and the sale.
    const click = await call('POST', '/api/v1/track/click', { json: { affiliate_url: link.body.data.url } });
    expect(click.status).toBe(200);
    const lead = await call('POST', '/api/v1/track/lead', { key, json: { click_id: click.body.click_id, customer_key: 'customer_1' } });
    expect(lead.status).toBe(200);
    const sale = await call('POST', '/api/v1/track/sale', {
      key,
      json: { transaction_id: 'pi_journey_1', amount_cents: 12_500, currency: 'USD', customer_key: 'customer_1' },
    });
    expect(sale.status).toBe(200);

    // The partner signs in through the issuer with their own email and sees the click, the sale and the commission.
    // First as an invitation to accept: the program's name and who invited them, nothing else.
    const dana = await signInOverHttp(server.url, 'dana');
    const invited = await call('GET', '/api/partner', { cookie: dana });
    expect(invited.body.data).toEqual({
      partners: [],
      invitations: [{ partner_id: partner.body.data.id, program_name: 'Shop', invited_by: 'mia@shop.example' }],
    });
    expect((await call('POST', `/api/partner/invitations/${partner.body.data.id}/accept`, { cookie: dana })).status).toBe(200);
    const view = await call('GET', '/api/partner', { cookie: dana });
    expect(view.status).toBe(200);
    expect(view.body.data.partners).toEqual([
      {
        program: { id: program.id, name: 'Shop', domain: 'shop.example' },
        partner: {
          ...partner.body.data,
          invitation: 'accepted',
          terms: { commission_type: expect.any(String), commission_rate: expect.any(Number), source: 'program' },
          figures: {
            clicks: 1,
            leads: 1,
            sales: 1,
            revenue_cents: { USD: 12_500 },
            commissions: {
              due_cents: { USD: 2_500 },
              held_cents: {},
              pending_cents: {},
              paid_cents: {},
              reversed_cents: {},
              balance_cents: { USD: 2_500 },
            },
          },
        },
        links: [link.body.data],
        commissions: [
          {
            id: expect.any(Number),
            kind: 'sale',
            status: 'due',
            due_at: expect.any(String),
            amount_cents: 2_500,
            currency: 'USD',
            created_at: expect.any(String),
          },
        ],
        payouts: [],
      },
    ]);
    expect(view.text).not.toContain(key);

    // The merchant downloads the commissions, pays, and records the payout.
    const csvPath = `${base}/commissions.csv?from=${today()}&to=${today()}`;
    const due = await call('GET', csvPath, { cookie: merchant });
    expect(due.status).toBe(200);
    const [, row, end] = due.text.split('\r\n');
    expect(row).toMatch(new RegExp(`^\\d+,${partner.body.data.id},Dana,dana@partners.example,\\d+,pi_journey_1,12500,2500,USD,due,`));
    expect(end).toBe('');
    const payout = await call('POST', `${base}/payouts`, {
      cookie: merchant,
      json: { partner_id: partner.body.data.id, through: today() },
    });
    expect(payout.status).toBe(201);
    expect(payout.body.data.totals).toEqual({ USD: { amount_cents: 2_500, commissions: 1, clawbacks: 0, carried_cents: 0 } });

    const paid = await call('GET', csvPath, { cookie: merchant });
    expect(paid.text.split('\r\n')[1]).toMatch(new RegExp(`,USD,paid,[^,]+Z,[^,]+Z,[^,]+Z,,${payout.body.data.id},sale,[^,]+Z$`));
    const after = (await call('GET', '/api/partner', { cookie: dana })).body.data.partners[0].partner.figures.commissions;
    expect(after).toEqual({
      due_cents: {},
      held_cents: {},
      pending_cents: {},
      paid_cents: { USD: 2_500 },
      reversed_cents: {},
      balance_cents: {},
    });
  });
});
