import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { textCells } from '../security/fixtures';
import { checkoutSessionCompleted, deliver } from '../webhooks/stripe-events';
import { nowSeconds, svcMetadata } from '../webhooks/setup';
import { sleep, startReceiver, waitFor, type Receiver } from './receiver';
import { addEndpoint, endpoints, funnel, shop } from './support';

// Outbound webhooks (spec/openapi.yaml, tag `outbound-webhooks` and the top-level `webhooks`), end to end: the tracking
// routes write the outbox, the server's delivery loop sends to a real HTTP receiver, and the receiver verifies every
// request with the `standardwebhooks` reference package and checks its body against the spec.
const t = harnessPerFile();
let r: Receiver;
beforeEach(async () => {
  r = await startReceiver();
});
afterEach(() => r.close());

const advance = (seconds: number) => t.h.control.clock({ advance_seconds: seconds });
const attemptsAt = (path = '/hook') => r.received.filter((x) => x.path === path);
/** The newest delivery of the program's first endpoint once it shows `attempts` recorded (the dashboard's view). */
const recorded = (s: Awaited<ReturnType<typeof shop>>, attempts: number) =>
  waitFor(`attempt ${attempts} recorded`, async () => {
    const [endpoint] = await endpoints(s);
    const delivery = endpoint.recent_deliveries[0];
    return delivery?.attempts === attempts && delivery;
  });

describe('events of the funnel', () => {
  it('click → lead → sale → refund delivers lead.created, sale.created, commission.created, commission.updated and sale.refunded within 5 s, each verified', async () => {
    const s = await shop(t.h);
    await addEndpoint(s, r);
    const f = await funnel(t.h, s);
    // Due at once: delivered by the dispatcher's polls (every 500 ms) without the clock moving; waitFor gives up at 5 s.
    const got = await waitFor('5 deliveries', () => r.received.length >= 5 && r.received);

    for (const request of got) {
      expect(request.verifyError, request.body).toBeUndefined();
      expect(request.specErrors, request.body).toEqual([]);
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
      // The attempt's real time, in Unix seconds.
      expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(10);
    }
    const byType = Object.fromEntries(got.map((x) => [x.event.type, x.event]));
    expect(Object.keys(byType).sort()).toEqual([
      'commission.created',
      'commission.updated',
      'lead.created',
      'sale.created',
      'sale.refunded',
    ]);
    const ids = { program_id: s.program.id, partner_id: s.partnerId, customer_key: f.customerKey };
    expect(byType['lead.created'].data).toEqual({ ...ids, click_id: f.clickId, is_test: false });
    expect(byType['sale.created'].data).toEqual({
      ...ids,
      click_id: f.clickId,
      sale_id: f.saleId,
      transaction_id: f.transactionId,
      amount_cents: 12_000,
      currency: 'EUR',
      source: 'api',
      occurred_at: expect.any(String),
      is_test: false,
    });
    expect(byType['commission.created'].data).toEqual({
      ...ids,
      commission_id: f.commissionId,
      sale_id: f.saleId,
      transaction_id: f.transactionId,
      amount_cents: 2_400,
      sale_amount_cents: 12_000,
      currency: 'EUR',
      is_test: false,
    });
    // The refund reversed the due commission.
    expect(byType['commission.updated'].data).toEqual({
      program_id: s.program.id,
      commission_id: f.commissionId,
      partner_id: s.partnerId,
      sale_id: f.saleId,
      kind: 'sale',
      amount_cents: 2_400,
      currency: 'EUR',
      old_status: 'due',
      new_status: 'reversed',
      due_at: expect.any(String),
      is_test: false,
    });
    expect(byType['sale.refunded'].data).toEqual({
      ...ids,
      sale_id: f.saleId,
      transaction_id: f.transactionId,
      amount_cents: 12_000,
      currency: 'EUR',
      commission_id: f.commissionId,
      commission_status: 'reversed',
      reason: 'chargeback',
      is_test: false,
    });
    expect(new Set(got.map((x) => x.headers['webhook-id'])).size).toBe(5);

    // Once each, and the dashboard shows each delivered on its first attempt under the same webhook-id.
    await sleep(1_200);
    expect(r.received).toHaveLength(5);
    const [endpoint] = await endpoints(s);
    expect(endpoint.recent_deliveries).toHaveLength(5);
    for (const d of endpoint.recent_deliveries) {
      expect(d).toMatchObject({ status: 'delivered', attempts: 1, next_attempt_at: null, last_response_status: 204, last_error: null });
      expect(got.find((x) => x.headers['webhook-id'] === d.webhook_id)?.event.type).toBe(d.event_type);
    }
  });

  it('sends only the types an endpoint receives, and a second refund sends nothing more', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r, { events: ['sale.refunded', 'lead.created'] });
    expect(endpoint.events).toEqual(['lead.created', 'sale.refunded']);
    const f = await funnel(t.h, s);
    const again = await t.h.request('POST', '/api/v1/track/refund', { key: s.key, json: { transaction_id: f.transactionId } });
    expect(again.body.already_refunded).toBe(true);
    await waitFor('2 deliveries', () => r.received.length >= 2);
    await sleep(1_200);
    expect(r.received.map((x) => x.event.type).sort()).toEqual(['lead.created', 'sale.refunded']);
  });

  it('a refused sale sends nothing; a sale whose commission failed sends sale.created without commission.created', async () => {
    const s = await shop(t.h);
    await addEndpoint(s, r, { events: ['sale.created', 'commission.created'] });
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` } });
    await t.h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: 'cust_fault' } });
    const refused = await t.h.request('POST', '/api/v1/track/sale', {
      key: s.key,
      json: { transaction_id: 'txn_refused', amount_cents: 100, customer_key: 'nobody' },
    });
    expect(refused.status).toBe(400);

    await t.h.control.armFault({ point: 'commission' });
    const failed = await t.h.request('POST', '/api/v1/track/sale', {
      key: s.key,
      json: { transaction_id: 'txn_fault', amount_cents: 100, customer_key: 'cust_fault' },
    });
    expect(failed.status).toBe(500);
    expect(failed.body.error.message).toBe('Failed to create commission');

    const [sale] = await waitFor('the sale.created', () => r.received.length >= 1 && r.received);
    expect(sale!.event).toMatchObject({ type: 'sale.created', data: { transaction_id: 'txn_fault', sale_id: expect.any(Number) } });
    await sleep(1_200);
    expect(r.received).toHaveLength(1);
  });

  it('test-mode records are sent with is_test: the CLI chain (lead and sale, no commission) and processor payments (source: processor)', async () => {
    const s = await shop(t.h);
    await addEndpoint(s, r);
    const chain = await t.h.request('POST', '/api/v1/cli/test-event', { key: s.key, json: { type: 'chain' } });
    expect(chain.status, chain.text).toBe(200);
    const test = await waitFor('the chain events', () => r.received.length >= 2 && r.received);
    expect(test.map((x) => [x.event.type, x.event.data.is_test])).toEqual([
      ['lead.created', true],
      ['sale.created', true],
    ]);
    expect(test.every((x) => x.verifyError === undefined && x.specErrors.length === 0)).toBe(true);

    // A processor payment, attributed from its metadata, is sent like a sale of the sale endpoint.
    const account = `acct_${randomBytes(6).toString('hex')}`;
    const { webhook_secret } = await t.h.control.connectProcessor({ program_id: s.program.id, account });
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` } });
    await t.h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: 'cust_stripe' } });
    const paymentIntent = `pi_${randomBytes(6).toString('hex')}`;
    const event = checkoutSessionCompleted({
      account,
      created: await nowSeconds(t.h),
      paymentIntent,
      amountTotal: 4_900,
      currency: 'usd',
      metadata: svcMetadata(s.program.id, click.body.click_id, 'cust_stripe'),
    });
    const answer = await deliver(t.h, webhook_secret, event);
    expect(answer.body.outcome).toBe('recorded');
    const processor = await waitFor('the processor sale', () =>
      r.received.find((x) => x.event?.data?.transaction_id === paymentIntent && x.event.type === 'sale.created'),
    );
    expect(processor.event.data).toMatchObject({
      source: 'processor',
      amount_cents: 4_900,
      currency: 'USD',
      is_test: false,
      customer_key: 'cust_stripe',
      partner_id: s.partnerId,
    });
    await waitFor('its commission', () =>
      r.received.find((x) => x.event?.type === 'commission.created' && x.event.data.transaction_id === paymentIntent),
    );
  });
});

describe('retries', () => {
  it('retries a failed attempt (500) with the same webhook-id and body once the server clock reaches 5 s, then 5 min; timestamps stay real', async () => {
    const s = await shop(t.h);
    await addEndpoint(s, r, { events: ['lead.created'] });
    r.answer = ({ count }) => (count <= 2 ? 500 : 200);
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` } });
    await t.h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: 'cust_retry' } });

    await waitFor('the first attempt', () => attemptsAt().length === 1);
    let delivery = await recorded(s, 1);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, last_response_status: 500, last_error: 'HTTP 500' });
    expect(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at)).toBe(5_000);

    // The second attempt waits for the clock (5 s): moved, it goes out within 2 s.
    await advance(5);
    await waitFor('the second attempt', () => attemptsAt().length === 2, 2_000);
    delivery = await recorded(s, 2);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 2, last_response_status: 500 });
    expect(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at)).toBe(300_000);
    // Nothing before the next step of the schedule…
    await sleep(2_000);
    expect(attemptsAt()).toHaveLength(2);
    // …which goes out within 2 s once the clock is 5 h later: the timestamp is still the real time.
    await advance(5 * 3600);
    await waitFor('the third attempt', () => attemptsAt().length === 3, 2_000);
    delivery = await recorded(s, 3);
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempts: 3,
      next_attempt_at: null,
      last_response_status: 200,
      last_error: null,
    });

    const attempts = attemptsAt();
    expect(new Set(attempts.map((x) => x.headers['webhook-id'])).size).toBe(1);
    expect(attempts[0]!.headers['webhook-id']).toBe(delivery.webhook_id);
    expect(new Set(attempts.map((x) => x.body)).size).toBe(1);
    for (const attempt of attempts) {
      expect(attempt.verifyError).toBeUndefined();
      expect(Math.abs(Number(attempt.headers['webhook-timestamp']) * 1000 - attempt.at)).toBeLessThan(5_000);
    }
  });

  it('gives up after 8 attempts (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h apart) and shows the delivery failed', async () => {
    const s = await shop(t.h);
    await addEndpoint(s, r, { events: ['lead.created'] });
    r.answer = () => 503;
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` } });
    await t.h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: 'cust_give_up' } });
    await waitFor('the first attempt', () => attemptsAt().length === 1);
    const delays = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
    for (const [i, seconds] of delays.entries()) {
      const delivery = await recorded(s, i + 1);
      expect(delivery).toMatchObject({ status: 'pending', attempts: i + 1 });
      expect(Date.parse(delivery.next_attempt_at) - Date.parse(delivery.last_attempt_at)).toBe(seconds * 1000);
      await advance(seconds);
      await waitFor(`attempt ${i + 2}`, () => attemptsAt().length === i + 2, 2_000);
    }
    expect(await recorded(s, 8)).toMatchObject({
      status: 'failed',
      attempts: 8,
      next_attempt_at: null,
      last_response_status: 503,
      last_error: 'HTTP 503',
    });
    await advance(2 * 86_400);
    await sleep(1_200);
    expect(attemptsAt()).toHaveLength(8);
  });

  it('a redirect is a failed attempt and is not followed; a refused connection and a timeout are failed attempts too', async () => {
    const s = await shop(t.h);
    await addEndpoint(s, r, { events: ['lead.created'] });
    r.answer = ({ path }) => (path === '/hook' ? 'redirect' : 204);
    const lead = async (key: string) => {
      const click = await t.h.request('POST', '/api/v1/track/click', {
        json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` },
      });
      await t.h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: key } });
    };
    await lead('cust_redirect');
    await waitFor('the redirected attempt', () => attemptsAt().length === 1);
    expect(await recorded(s, 1)).toMatchObject({
      status: 'pending',
      last_response_status: 302,
      last_error: 'HTTP 302: redirects are not followed',
    });
    await sleep(600);
    expect(attemptsAt('/elsewhere')).toEqual([]);

    // Nobody listening: connection refused. A receiver that never answers: timed out after 10 s.
    const closed = await startReceiver();
    await closed.close();
    const refused = await s.call('POST', '/webhook-endpoints', { url: `${closed.url}/gone`, events: ['lead.created'] });
    const hanging = await s.call('POST', '/webhook-endpoints', { url: `${r.url}/slow`, events: ['lead.created'] });
    r.answer = ({ path }) => (path === '/slow' ? 'hang' : path === '/hook' ? 'redirect' : 204);
    await lead('cust_unreachable');
    const byId = async (id: number) => (await endpoints(s)).find((e) => e.id === id).recent_deliveries[0];
    expect(
      await waitFor('the refused attempt', async () => (await byId(refused.body.data.id))?.attempts === 1 && byId(refused.body.data.id)),
    ).toMatchObject({
      status: 'pending',
      last_response_status: null,
      last_error: 'connection refused',
    });
    expect(
      await waitFor(
        'the timed-out attempt',
        async () => (await byId(hanging.body.data.id))?.attempts === 1 && byId(hanging.body.data.id),
        13_000,
      ),
    ).toMatchObject({
      status: 'pending',
      last_response_status: null,
      last_error: 'timed out after 10 s',
    });
  }, 30_000);
});

describe('the test-send, pausing and removing', () => {
  it('POST …/test answers 202 and sends one webhook.test to that endpoint only, whatever its events; a failed test is not retried', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r, { events: ['sale.refunded'] });
    const other = await s.call('POST', '/webhook-endpoints', { url: `${r.url}/other` });
    const res = await s.call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({
      event_type: 'webhook.test',
      webhook_id: expect.stringMatching(/^msg_/),
      created_at: expect.any(String),
    });
    const [ping] = await waitFor('the test event', () => attemptsAt().length === 1 && attemptsAt(), 2_000);
    expect(ping!.verifyError).toBeUndefined();
    expect(ping!.specErrors).toEqual([]);
    expect(ping!.event).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { program_id: s.program.id, endpoint_id: endpoint.id, is_test: true },
    });
    expect(ping!.headers['webhook-id']).toBe(res.body.data.webhook_id);
    expect(attemptsAt('/other')).toEqual([]);

    r.answer = () => 500;
    await s.call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    await waitFor('the failing test event', () => attemptsAt().length === 2, 2_000);
    const failed = await waitFor('its failed state', async () => {
      const d = (await endpoints(s)).find((e) => e.id === endpoint.id).recent_deliveries[0];
      return d.status === 'failed' && d;
    });
    expect(failed).toMatchObject({ event_type: 'webhook.test', attempts: 1, next_attempt_at: null, last_response_status: 500 });
    await advance(3600);
    await sleep(1_000);
    expect(attemptsAt()).toHaveLength(2);
    expect(other.status).toBe(201);
  });

  it('a paused endpoint gets nothing new and its queued deliveries wait; resumed, they go out', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r, { events: ['lead.created'] });
    r.answer = ({ count }) => (count === 1 ? 500 : 204);
    const lead = async (key: string) => {
      const click = await t.h.request('POST', '/api/v1/track/click', {
        json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` },
      });
      await t.h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: key } });
    };
    await lead('cust_before_pause');
    await waitFor('the failed first attempt', () => attemptsAt().length === 1);
    const paused = await s.call('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: false });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ id: endpoint.id, enabled: false, secret_hint: `whsec_…${endpoint.secret.slice(-4)}` });
    await lead('cust_while_paused');
    await advance(60);
    await sleep(1_200);
    expect(attemptsAt()).toHaveLength(1);
    expect((await endpoints(s))[0].recent_deliveries).toHaveLength(1);

    const resumed = await s.call('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: true });
    expect(resumed.body.data.enabled).toBe(true);
    await waitFor('the retry after resuming', () => attemptsAt().length === 2, 2_000);
    expect(attemptsAt()[1]!.headers['webhook-id']).toBe(attemptsAt()[0]!.headers['webhook-id']);
    await lead('cust_after_resume');
    await waitFor('the new lead', () => attemptsAt().length === 3, 2_000);
  });

  it('removing an endpoint drops what was queued for it: nothing more is sent', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r, { events: ['lead.created'] });
    r.answer = () => 500;
    const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` } });
    await t.h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: 'cust_removed' } });
    await waitFor('the first attempt', () => attemptsAt().length === 1);
    expect((await s.call('DELETE', `/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
    expect(await endpoints(s)).toEqual([]);
    const left = await t.h.store.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpoint.id).execute();
    expect(left).toEqual([]);
    await advance(3600);
    await sleep(1_200);
    expect(attemptsAt()).toHaveLength(1);
  });

  it('keeps delivered deliveries 30 days (server clock), then prunes them with their events', async () => {
    const s = await shop(t.h);
    await addEndpoint(s, r);
    await funnel(t.h, s);
    await waitFor('5 deliveries', () => r.received.length === 5);
    await waitFor(
      '5 delivered',
      async () => (await endpoints(s))[0].recent_deliveries.filter((d: any) => d.status === 'delivered').length === 5,
    );
    await advance(29 * 86_400);
    // Sessions last 7 days: a fresh one reads the list a month later.
    const cookie = (await t.h.control.createDashboardSession(s.program.account_id)).cookie;
    await sleep(1_200);
    expect((await endpoints(s, cookie))[0].recent_deliveries).toHaveLength(5);
    await advance(2 * 86_400);
    await waitFor('the prune', async () => (await endpoints(s, cookie))[0].recent_deliveries.length === 0, 3_000);
    expect(await t.h.store.db.selectFrom('webhook_events').select('id').execute()).toEqual([]);
    // The attempts go with their deliveries.
    expect(await t.h.store.db.selectFrom('webhook_attempts').select('id').execute()).toEqual([]);
  });
});

describe('the signing secret at rest', () => {
  it('is stored sealed: no text column holds the secret, or any 16 characters of it', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r);
    const key = endpoint.secret.slice('whsec_'.length);
    const fragments = [endpoint.secret, key, key.slice(0, 16), key.slice(-16)];
    for (const cell of await textCells(t.h.store)) {
      for (const fragment of fragments) expect(cell.value.includes(fragment), `${cell.where} holds the secret`).toBe(false);
    }
    // It still signs: a test event verifies with the secret shown once.
    await s.call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    const [ping] = await waitFor('the test event', () => r.received.length === 1 && r.received, 2_000);
    expect(ping!.verifyError).toBeUndefined();
  });
});
