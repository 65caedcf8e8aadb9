import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { nowSeconds } from './setup';
import { checkoutSessionCompleted, deliver } from './stripe-events';

describe('POST /_test/processor-connections', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ secrets: { webhook: 'whsec_fixed_for_this_test' } });
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

  it('answers 404 for an unknown program and 400 for a bad body', async () => {
    const missing = await h.request('POST', '/_test/processor-connections', { json: { program_id: 999_999, account: 'acct_x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Program 999999 not found');
    for (const json of [{ account: 'acct_x' }, { program_id: 1 }, { program_id: 1, account: '' }, { program_id: 1, account: 'a', extra: true }, []]) {
      const res = await h.request('POST', '/_test/processor-connections', { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
  });
});
