import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { nowSeconds } from './setup';
import { checkoutSessionCompleted, deliver, signPayload } from './stripe-events';
import { buildApp } from '../../src/app';
import { assertValidResponse } from '../../src/testing/validate';

describe('POST /_test/processor-connections', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ processorWebhookSecrets: ['whsec_fixed_for_this_test', 'whsec_older_one_still_accepted'] });
  });
  afterEach(() => h.close());

  it('stores the connected account and returns the server webhook secret', async () => {
    const program = await h.control.createProgram({});
    const res = await h.request('POST', '/_test/processor-connections', { json: { program_id: program.id, account: 'acct_shop_1' } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ webhook_secret: 'whsec_fixed_for_this_test' });
    const row = await h.store.db.selectFrom('programs').select('processor_account').where('id', '=', program.id).executeTakeFirstOrThrow();
    expect(row.processor_account).toBe('acct_shop_1');
  });

  it('reconnecting moves the program to the new account; the old one is no longer known', async () => {
    const program = await h.control.createProgram({});
    await h.control.connectProcessor({ program_id: program.id, account: 'acct_old' });
    await h.control.connectProcessor({ program_id: program.id, account: 'acct_new' });
    const created = await nowSeconds(h);
    const old = await deliver(h, 'whsec_fixed_for_this_test', checkoutSessionCompleted({ account: 'acct_old', created, metadata: {} }));
    expect(old.status).toBe(400);
    const fresh = await deliver(h, 'whsec_fixed_for_this_test', checkoutSessionCompleted({ account: 'acct_new', created, metadata: {} }));
    expect(fresh.body).toEqual({ received: true, outcome: 'not_attributed', reason: 'no_metadata' });
  });

  it('refuses an account already connected to another program', async () => {
    const a = await h.control.createProgram({});
    const b = await h.control.createProgram({});
    await h.control.connectProcessor({ program_id: a.id, account: 'acct_shared' });
    const res = await h.request('POST', '/_test/processor-connections', { json: { program_id: b.id, account: 'acct_shared' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Account acct_shared is already connected to another program');
  });

  it('accepts an event signed with any configured secret (rotation) and refuses one signed with any other', async () => {
    const program = await h.control.createProgram({});
    await h.control.connectProcessor({ program_id: program.id, account: 'acct_rotating' });
    const created = await nowSeconds(h);
    const event = () => checkoutSessionCompleted({ account: 'acct_rotating', created, metadata: {} });
    expect((await deliver(h, 'whsec_fixed_for_this_test', event())).status).toBe(200);
    expect((await deliver(h, 'whsec_older_one_still_accepted', event())).status).toBe(200);
    const unlisted = await deliver(h, 'whsec_not_on_the_list', event());
    expect(unlisted.status).toBe(400);
    expect(unlisted.body.error.message).toBe('Invalid Stripe-Signature');
  });

  it('answers 404 for an unknown program and 400 for a bad body', async () => {
    const missing = await h.request('POST', '/_test/processor-connections', { json: { program_id: 999_999, account: 'acct_x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Program 999999 not found');
    for (const json of [
      { account: 'acct_x' },
      { program_id: 1 },
      { program_id: 1, account: '' },
      { program_id: 1, account: 'a', extra: true },
      [],
    ]) {
      const res = await h.request('POST', '/_test/processor-connections', { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });
});

describe('processor webhooks without a configured secret (no test control)', () => {
  it('refuse every delivery with 500 naming SVC_PROCESSOR_WEBHOOK_SECRET, so Stripe redelivers once it is set', async () => {
    const h = await createHarness();
    const app = buildApp({ store: h.store });
    try {
      const payload = JSON.stringify(checkoutSessionCompleted({ account: 'acct_x', created: Math.floor(Date.now() / 1000), metadata: {} }));
      const res = await app.inject({
        method: 'POST',
        url: '/api/v1/webhooks/processor',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': signPayload(payload, 'whsec_anything', Math.floor(Date.now() / 1000)),
        },
        payload,
      });
      assertValidResponse({
        method: 'POST',
        url: '/api/v1/webhooks/processor',
        status: res.statusCode,
        headers: res.headers,
        body: res.body,
      });
      expect(res.statusCode).toBe(500);
      expect(JSON.parse(res.body).error.message).toBe(
        'Processor webhooks are not configured: set SVC_PROCESSOR_WEBHOOK_SECRET (see docs/deploying.md)',
      );
    } finally {
      await app.close();
      await h.close();
    }
  });
});
