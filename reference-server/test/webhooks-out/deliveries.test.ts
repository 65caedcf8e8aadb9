import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { startReceiver, waitFor, type Receiver } from './receiver';
import { addEndpoint, funnel, shop, type Shop } from './support';

// An endpoint's delivery history (spec/openapi.yaml, `dashboardListWebhookDeliveries`) and Resend
// (`dashboardResendWebhookDelivery`), against a real HTTP receiver that verifies every request with `standardwebhooks`.
const t = harnessPerFile();
let r: Receiver;
beforeEach(async () => {
  r = await startReceiver();
});
afterEach(() => r.close());

const advance = (seconds: number) => t.h.control.clock({ advance_seconds: seconds });

async function history(s: Shop, endpointId: number, query = '') {
  const res = await s.call('GET', `/webhook-endpoints/${endpointId}/deliveries${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any[]; next_cursor: string | null };
}

describe('delivery history', () => {
  it('shows each attempt: status, timing, the body sent and a bounded excerpt of the answer', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r, { events: ['sale.created'] });
    const long = 'x'.repeat(3000);
    r.answer = ({ count }) => (count === 1 ? { status: 500, body: `boom ${long}` } : { status: 200, body: 'thanks' });
    await funnel(t.h, s);
    await waitFor('first attempt recorded', async () => (await history(s, endpoint.id)).data[0]?.attempts === 1);
    await advance(5);
    const [delivery] = await waitFor('second attempt recorded', async () => {
      const page = await history(s, endpoint.id);
      return page.data[0]?.status === 'delivered' && page.data;
    });

    expect(delivery.event_type).toBe('sale.created');
    expect(delivery.request_body).toBe(r.received[0]!.body);
    expect(JSON.parse(delivery.request_body).type).toBe('sale.created');
    expect(delivery.attempt_history).toHaveLength(2);
    const [first, second] = delivery.attempt_history;
    expect(first).toMatchObject({ attempt: 1, response_status: 500, error: 'HTTP 500' });
    expect(first.response_body_excerpt).toBe(`boom ${long}`.slice(0, 1024));
    expect(second).toMatchObject({ attempt: 2, response_status: 200, response_body_excerpt: 'thanks', error: null });
    // The server's clock: the retry came 5 s after the first attempt.
    expect(Date.parse(second.at) - Date.parse(first.at)).toBeGreaterThanOrEqual(5_000);
    for (const a of delivery.attempt_history) expect(Number.isInteger(a.duration_ms) && a.duration_ms >= 0).toBe(true);
  });

  it('an answer holding NUL bytes is recorded, each NUL shown as U+FFFD', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r);
    r.answer = () => ({ status: 200, body: 'ok\0done' });
    await s.call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    const [delivery] = await waitFor('attempt recorded', async () => {
      const page = await history(s, endpoint.id);
      return page.data[0]?.status === 'delivered' && page.data;
    });
    expect(delivery.attempt_history[0].response_body_excerpt).toBe('ok\uFFFDdone');
  });

  it('an attempt with no answer has no status nor excerpt, and says why', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r);
    await r.close();
    await s.call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    const [delivery] = await waitFor('attempt recorded', async () => {
      const page = await history(s, endpoint.id);
      return page.data[0]?.status === 'failed' && page.data;
    });
    expect(delivery.attempt_history).toEqual([
      {
        attempt: 1,
        at: expect.any(String),
        duration_ms: expect.any(Number),
        response_status: null,
        response_body_excerpt: null,
        error: 'connection refused',
      },
    ]);
    r = await startReceiver();
  });

  it('pages newest first by cursor; bad parameters and another program endpoint are refused', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r);
    for (let i = 0; i < 5; i++) await s.call('POST', `/webhook-endpoints/${endpoint.id}/test`);
    const first = await history(s, endpoint.id, '?limit=2');
    expect(first.data).toHaveLength(2);
    const second = await history(s, endpoint.id, `?limit=2&cursor=${first.next_cursor}`);
    const third = await history(s, endpoint.id, `?limit=2&cursor=${second.next_cursor}`);
    expect(third.next_cursor).toBeNull();
    const ids = [...first.data, ...second.data, ...third.data].map((d) => d.id);
    expect(ids).toHaveLength(5);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const refused = async (query: string, status: number, message: string) => {
      const res = await s.call('GET', `/webhook-endpoints/${query}`);
      expect(res.status, query).toBe(status);
      expect(res.body.error.message).toBe(message);
    };
    await refused(`${endpoint.id}/deliveries?limit=0`, 400, 'limit must be an integer from 1 to 100');
    await refused(`${endpoint.id}/deliveries?limit=101`, 400, 'limit must be an integer from 1 to 100');
    await refused(`${endpoint.id}/deliveries?cursor=nope`, 400, 'cursor must be a next_cursor this list answered');
    const other = await shop(t.h);
    const foreign = await addEndpoint(other, r);
    await refused(`${foreign.id}/deliveries`, 404, 'Webhook endpoint not found');

    // Removing the endpoint removes its deliveries' attempts too.
    await waitFor('5 attempts', async () => (await history(s, endpoint.id)).data.every((d) => d.attempts === 1));
    const attempts = () => t.h.store.db.selectFrom('webhook_attempts').select('delivery_id').where('delivery_id', 'in', ids).execute();
    expect(await attempts()).toHaveLength(5);
    expect((await s.call('DELETE', `/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
    expect(await attempts()).toEqual([]);
  });
});

describe('Resend', () => {
  it('queues a new delivery of the same event (same webhook-id and body, signed again) and keeps the original', async () => {
    const s = await shop(t.h);
    const endpoint = await addEndpoint(s, r, { events: ['lead.created'] });
    await funnel(t.h, s);
    await waitFor('first delivery', () => r.received.length === 1);
    const [original] = (await history(s, endpoint.id)).data;

    const res = await s.call('POST', `/webhook-endpoints/${endpoint.id}/deliveries/${original.id}/resend`);
    expect(res.status, res.text).toBe(202);
    expect(res.body.data).toMatchObject({ webhook_id: original.webhook_id, event_type: 'lead.created', status: 'pending', attempts: 0 });
    expect(res.body.data.id).toBeGreaterThan(original.id);
    await waitFor('resent delivery', () => r.received.length === 2);
    const [first, again] = r.received;
    expect(again!.verifyError).toBeUndefined();
    expect(again!.body).toBe(first!.body);
    expect(again!.headers['webhook-id']).toBe(first!.headers['webhook-id']);

    const page = await waitFor('resend recorded', async () => {
      const p = await history(s, endpoint.id);
      return p.data[0]?.status === 'delivered' && p;
    });
    expect(page.data.map((d) => d.id)).toEqual([res.body.data.id, original.id]);
    expect(page.data[1].attempt_history).toHaveLength(1);
  });

  it('any member may resend; a delivery of another endpoint, or a malformed id, is refused', async () => {
    const s = await shop(t.h);
    const a = await addEndpoint(s, r, { path: '/a' });
    const b = await addEndpoint(s, r, { path: '/b' });
    const queued = (await s.call('POST', `/webhook-endpoints/${a.id}/test`)).body.data;

    const wrong = await s.call('POST', `/webhook-endpoints/${b.id}/deliveries/${queued.id}/resend`);
    expect(wrong.status).toBe(404);
    expect(wrong.body.error.message).toBe('Webhook delivery not found');
    const malformed = await s.call('POST', `/webhook-endpoints/${a.id}/deliveries/x/resend`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toBe('deliveryId must be a positive integer');

    const { account_id } = await t.h.control.createAccount({ email: `member-${a.id}@example.com` });
    await t.h.control.addMembership({ account_id, program_id: s.program.id, role: 'member' });
    const member = (await t.h.control.createDashboardSession(account_id)).cookie;
    const resent = await s.call('POST', `/webhook-endpoints/${a.id}/deliveries/${queued.id}/resend`, undefined, member);
    expect(resent.status, resent.text).toBe(202);

    const other = await shop(t.h);
    const outsider = await s.call('POST', `/webhook-endpoints/${a.id}/deliveries/${queued.id}/resend`, undefined, other.cookie);
    expect(outsider.status).toBe(403);
  });
});
