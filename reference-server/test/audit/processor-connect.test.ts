import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { startStripeConnectStandIn, type StripeConnectStandIn } from '../processor-connect/stripe-connect-stand-in';

// The audit log of Connect with Stripe (against the local stand-in of Stripe's OAuth endpoints): a bind records
// `processor.connected` in the program; a bind that moves the account records `processor.disconnected` in the program
// that lost it too, in the same transaction; no Stripe token or secret is ever written in an entry.
describe('audit log: Connect with Stripe', () => {
  let h: Harness;
  let stripe: StripeConnectStandIn;

  beforeEach(async () => {
    stripe = await startStripeConnectStandIn();
    h = await createHarness({
      publicUrl: 'https://svc.example.test',
      stripeConnect: { clientId: stripe.clientId, secretKey: stripe.secretKey, connectUrl: stripe.url },
    });
  });
  afterEach(async () => {
    await h.close();
    await stripe.close();
  });

  async function owner(email: string) {
    const { account_id } = await h.control.createAccount({ email });
    const program = await h.control.createProgram({ account_id });
    const cookie = (await h.control.createDashboardSession(account_id)).cookie;
    const log = async () => {
      const res = await h.request('GET', `/api/dashboard/programs/${program.id}/audit-log`, { headers: { cookie } });
      expect(res.status).toBe(200);
      return res.body.data.entries as { actor: string; action: string; target: string; details: unknown; reason: string | null }[];
    };
    /** The dashboard's link, Stripe's consent, then the browser back at the callback; answers the callback's status. */
    const connect = async () => {
      const start = await h.request('GET', `/api/dashboard/programs/${program.id}/processor/connect`, { headers: { cookie } });
      expect(start.status).toBe(302);
      const answer = await fetch(String(start.headers.location), { redirect: 'manual' });
      const back = new URL(answer.headers.get('location')!);
      return (await h.app.inject({ method: 'GET', url: back.pathname + back.search, headers: { cookie } })).statusCode;
    };
    return { program, cookie, log, connect };
  }

  it('records the bind in the program, and in the program that lost the account, with the account that consented', async () => {
    const first = await owner('first@connect-audit.example');
    const second = await owner('second@connect-audit.example');
    stripe.account = 'acct_auditmove1';
    expect(await first.connect()).toBe(303);
    expect(await first.log()).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(String),
        actor: 'first@connect-audit.example',
        action: 'processor.connected',
        target: `program:${first.program.id}`,
        details: { processor_account: { from: null, to: 'acct_auditmove1' } },
        reason: null,
      },
    ]);

    expect(await second.connect()).toBe(303);
    expect(await second.log()).toMatchObject([
      {
        actor: 'second@connect-audit.example',
        action: 'processor.connected',
        details: { processor_account: { from: null, to: 'acct_auditmove1' } },
      },
    ]);
    // The program that lost the account belongs to another workspace: its log names no one of the winner's.
    expect((await first.log())[0]).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      actor: 'system',
      action: 'processor.disconnected',
      target: `program:${first.program.id}`,
      details: { processor_account: { from: 'acct_auditmove1', to: null } },
      reason: 'Connected to another program with Connect with Stripe',
    });

    // The same account bound again changes nothing: no entry. Another account replaces it: from → to.
    expect(await second.connect()).toBe(303);
    expect(await second.log()).toHaveLength(1);
    stripe.account = 'acct_auditmove2';
    expect(await second.connect()).toBe(303);
    expect((await second.log())[0]).toMatchObject({ details: { processor_account: { from: 'acct_auditmove1', to: 'acct_auditmove2' } } });
    expect(await first.log()).toHaveLength(2);

    // A declined consent binds nothing and records nothing.
    stripe.decline = true;
    expect(await first.connect()).toBe(400);
    expect(await first.log()).toHaveLength(2);

    const stored = JSON.stringify(await h.store.db.selectFrom('audit_log').selectAll().execute());
    expect(stored).not.toContain(stripe.secretKey);
    expect(stored).not.toMatch(/sk_test_|pk_test_|rt_[0-9a-f]{8}|ac_/);
  });
});
