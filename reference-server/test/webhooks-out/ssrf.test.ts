import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readConfig } from '../../src/config';
import { createHarness, type Harness } from '../harness';
import { sleep, startReceiver, waitFor, type Receiver } from './receiver';
import { endpoints, shop } from './support';

// The address guard (spec/openapi.yaml, tag `outbound-webhooks`, "Addresses"): a server without test control and
// without SVC_WEBHOOKS_ALLOW_PRIVATE=1 never connects to a loopback, private or link-local address. This server
// keeps test control (to build the situation) but turns the guard back on, as production has it.
let h: Harness;
let r: Receiver;
beforeAll(async () => {
  h = await createHarness({ webhooksAllowPrivate: false });
});
afterAll(() => h.close());
beforeEach(async () => {
  await h.control.reset();
  r = await startReceiver();
});
afterEach(() => r.close());

describe('the address guard, without SVC_WEBHOOKS_ALLOW_PRIVATE', () => {
  it('refuses to connect to a host name that resolves to loopback: the receiver, listening, gets nothing', async () => {
    const s = await shop(h);
    const created = await s.call('POST', '/webhook-endpoints', { url: `http://localhost:${r.port}/hook` });
    expect(created.status).toBe(201);
    r.secret = created.body.data.secret;
    const test = await s.call('POST', `/webhook-endpoints/${created.body.data.id}/test`);
    expect(test.status).toBe(202);
    const delivery = await waitFor(
      'the refused attempt',
      async () => {
        const [endpoint] = await endpoints(s);
        return endpoint.recent_deliveries[0].attempts === 1 && endpoint.recent_deliveries[0];
      },
      2_000,
    );
    expect(delivery).toMatchObject({ status: 'failed', last_response_status: null });
    // Which private address the name resolved to stays with the server: anyone signed in reads last_error.
    expect(delivery.last_error).toBe('address not public: refused (allowed only with test control or SVC_WEBHOOKS_ALLOW_PRIVATE=1)');

    // An event of the funnel is refused the same way, on every attempt.
    const click = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${s.shortLink}` } });
    await h.request('POST', '/api/v1/track/lead', { key: s.key, json: { click_id: click.body.click_id, customer_key: 'cust_ssrf' } });
    await waitFor(
      'the lead refused',
      async () =>
        (await endpoints(s))[0].recent_deliveries[0].event_type === 'lead.created' &&
        (await endpoints(s))[0].recent_deliveries[0].attempts === 1,
    );
    await h.control.clock({ advance_seconds: 5 });
    await waitFor('the retry refused', async () => (await endpoints(s))[0].recent_deliveries[0].attempts === 2, 2_000);
    await sleep(300);
    expect(r.received).toEqual([]);
  });

  it('refuses, when the endpoint is added, URLs whose host is written as a non-public address in any notation', async () => {
    const s = await shop(h);
    const message = 'url must not point at a loopback, private or link-local address';
    for (const url of [
      `http://127.0.0.1:${r.port}/hook`,
      `http://[::1]:${r.port}/hook`,
      'http://[::ffff:127.0.0.1]/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.7/hook',
      'https://192.168.1.1/hook',
      'http://[fd00::1]/hook',
      'http://0.0.0.0/hook',
      'http://2130706433/hook',
      'http://0x7f.1/hook',
    ]) {
      const res = await s.call('POST', '/webhook-endpoints', { url });
      expect(res.status, url).toBe(400);
      expect(res.body).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message, details: {} } });
    }
    expect(await endpoints(s)).toEqual([]);
    // A public address is fine.
    expect((await s.call('POST', '/webhook-endpoints', { url: 'http://93.184.216.34/hook' })).status).toBe(201);
  });
});

describe('SVC_WEBHOOKS_ALLOW_PRIVATE', () => {
  it('is off unless set to 1', () => {
    expect(readConfig({}).webhooksAllowPrivate).toBe(false);
    expect(readConfig({ SVC_WEBHOOKS_ALLOW_PRIVATE: 'true' }).webhooksAllowPrivate).toBe(false);
    expect(readConfig({ SVC_WEBHOOKS_ALLOW_PRIVATE: '1' }).webhooksAllowPrivate).toBe(true);
  });
});
