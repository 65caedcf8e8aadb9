import { createServer } from 'node:net';
import { startReferenceServer, type ReferenceServer } from '@svc/reference-server';
import { contractFetch } from '@svc/reference-server/testing';
import { Svc } from '@svc/server';
import type { WebhookEvent } from '@svc/server/webhooks';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildBackend } from '../src/app';
import { Users } from '../src/users';

// The backend's `/webhooks/svc` route, receiving real webhooks from the reference server: the server signs and
// delivers, `verifyWebhook` (`@svc/server/webhooks`) checks them, and the shop handles each event once.
let server: ReferenceServer;
beforeAll(async () => {
  server = await startReferenceServer({ testControl: true });
});
afterAll(() => server?.close());

let backend: FastifyInstance | undefined;
afterEach(() => backend?.close());

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor<T>(what: string, check: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A program with a link, and the backend listening with an svc endpoint pointed at its `/webhooks/svc`. */
async function shopWithWebhooks() {
  const program = await server.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
  const link = await server.control.createLink({ program_id: program.id });
  const { cookie } = await server.control.createDashboardSession(program.account_id);
  const port = await freePort();
  const created = await contractFetch(`${server.url}/api/dashboard/programs/${program.id}/webhook-endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/webhooks/svc` }),
  });
  expect(created.status).toBe(201);
  const { secret } = ((await created.json()) as { data: { secret: string } }).data;
  const events: WebhookEvent[] = [];
  const svc = new Svc({ apiKey: program.api_token, baseUrl: server.url, fetch: contractFetch });
  backend = buildBackend({
    svc,
    programId: program.id,
    users: new Users(),
    appUrl: 'https://shop.example.com',
    svcWebhookSecret: secret,
    onSvcEvent: (e) => void events.push(e),
  });
  // What reached the route, as sent: body and signature headers (to replay one).
  const requests: { body: string; headers: Record<string, string> }[] = [];
  backend.addHook('preHandler', async (request) => {
    if (request.url !== '/webhooks/svc') return;
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => [h, String(request.headers[h])]),
    );
    requests.push({ body: String(request.body), headers });
  });
  await backend.listen({ port, host: '127.0.0.1' });
  return { program, link, svc, events, requests, url: `http://127.0.0.1:${port}` };
}

describe('fastify-backend receives svc webhooks', () => {
  it('gets the lead, the sale and its commission of a customer who signed up and paid, verified and typed', async () => {
    const shop = await shopWithWebhooks();
    const click = await shop.svc.track.click({ affiliate_url: `https://shop.example.com/?aff=${shop.link.short_link}` });
    const signup = await backend!.inject({
      method: 'POST',
      url: '/signup',
      payload: { email: 'ada@example.com' },
      headers: { cookie: `svc_click_id=${click.click_id}` },
    });
    const session = [signup.headers['set-cookie']]
      .flat()
      .find((c) => c?.startsWith('sid='))!
      .split(';')[0]!;
    const paid = await backend!.inject({
      method: 'POST',
      url: '/invoices/77/paid',
      payload: { amount_cents: 20_000 },
      headers: { cookie: session },
    });
    const { sale_id } = paid.json<{ sale_id: number }>();

    await waitFor('three events', () => shop.events.length >= 3);
    const byType = new Map(shop.events.map((e) => [e.type, e]));
    const commission = byType.get('commission.created');
    expect(commission?.type === 'commission.created' && commission.data).toMatchObject({
      sale_id,
      amount_cents: 2_000,
      sale_amount_cents: 20_000,
      currency: 'USD',
    });
    const sale = byType.get('sale.created');
    expect(sale?.type === 'sale.created' && sale.data).toMatchObject({
      sale_id,
      transaction_id: 'inv_77',
      customer_key: signup.json<{ user_id: string }>().user_id,
    });
    expect(byType.get('lead.created')?.data).toMatchObject({ click_id: click.click_id, is_test: false });
  });

  it('refuses a forged or changed request (400) and handles a replayed webhook-id once', async () => {
    const shop = await shopWithWebhooks();
    const post = (body: string, headers: Record<string, string>) =>
      fetch(`${shop.url}/webhooks/svc`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const forged = await post('{"type":"commission.created","timestamp":"2025-01-01T00:00:00Z","data":{}}', {
      'webhook-id': 'msg_forged',
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
      'webhook-signature': 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: 'invalid_signature' });
    expect((await post('{}', {})).status).toBe(400);

    // A real delivery, captured on its way in, then sent again as is: handled once.
    await shop.svc.track.click({ affiliate_url: `https://shop.example.com/?aff=${shop.link.short_link}` }).then((click) =>
      backend!.inject({
        method: 'POST',
        url: '/signup',
        payload: { email: 'lin@example.com' },
        headers: { cookie: `svc_click_id=${click.click_id}` },
      }),
    );
    await waitFor('the lead event', () => shop.events.length === 1);
    const captured = shop.requests.find((r) => r.headers['webhook-id'] !== 'msg_forged' && r.headers['webhook-id'] !== 'undefined');
    const replay = await post(captured!.body, captured!.headers);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    const changed = await post(captured!.body.replace('"is_test":false', '"is_test":true'), captured!.headers);
    expect(changed.status).toBe(400);
    expect(shop.events).toHaveLength(1);
  });
});
