import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../harness';
import { click, connectedProgram, nowSeconds, processorEventCount, serverLead, svcMetadata } from './setup';
import { checkoutSessionCompleted, deliver, invoicePaymentSucceeded, type InvoiceShape } from './stripe-events';

// The default setup (docs/deploying.md, "Stripe"): the operator's own Stripe account, no Connect. Its events carry no
// `account`; the endpoint secret proves them the operator's, so the metadata's program_id names the program.
const secret = 'whsec_operator_own_account_endpoint';

describe("POST /api/v1/webhooks/processor: the operator's own Stripe account (events without account)", () => {
  let h: Harness;
  let programId: number;
  let apiKey: string;
  let clickId: string;
  const customerKey = 'user_own_account';

  beforeEach(async () => {
    h = await createHarness({ processorWebhookSecrets: [secret] });
    const program = await h.control.createProgram({ commission_type: 'percent', commission_rate: 10 });
    const partner = await h.control.createPartner({ program_id: program.id });
    const link = await h.control.createLink({ program_id: program.id, partner_id: partner.id });
    programId = program.id;
    apiKey = program.api_token;
    clickId = await click(h, link.short_link);
    await serverLead(h, apiKey, clickId, customerKey);
  });
  afterEach(() => h.close());

  it('a checkout whose metadata names the program records the sale there, with no processor account bound', async () => {
    const event = checkoutSessionCompleted({
      account: undefined,
      created: await nowSeconds(h),
      paymentIntent: 'pi_own_1',
      amountTotal: 4900,
      metadata: svcMetadata(programId, clickId, customerKey),
    });
    expect(event).not.toHaveProperty('account');
    const res = await deliver(h, secret, event);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ received: true, outcome: 'recorded', sale_id: expect.any(Number) });
    const records = await h.control.records(programId);
    expect(records.sales).toMatchObject([{ id: res.body.sale_id, processor_event_id: 'pi_own_1', amount_cents: 4900 }]);
    expect(records.commissions).toMatchObject([{ sale_id: res.body.sale_id, amount_cents: 490, status: 'pending' }]);
    const row = await h.store.db.selectFrom('programs').select('processor_account').where('id', '=', programId).executeTakeFirstOrThrow();
    expect(row.processor_account).toBeNull();
  });

  it.each<InvoiceShape>(['current', 'previous', 'lines'])(
    "a subscription invoice (%s API shape) is placed by the subscription's metadata",
    async (shape) => {
      const res = await deliver(
        h,
        secret,
        invoicePaymentSucceeded({
          account: undefined,
          created: await nowSeconds(h),
          shape,
          amountPaid: 1500,
          metadata: svcMetadata(programId, clickId, customerKey),
        }),
      );
      expect(res.body).toEqual({ received: true, outcome: 'recorded', sale_id: expect.any(Number) });
      expect((await h.control.records(programId)).commissions).toMatchObject([{ amount_cents: 150 }]);
    },
  );

  it('without a usable program_id (absent, malformed, unknown, another server’s) answers alike: not_attributed no_program, nothing recorded', async () => {
    const other = await h.control.createProgram({});
    const created = await nowSeconds(h);
    const { program_id: _none, ...withoutProgram } = svcMetadata(programId, clickId, customerKey);
    const answers = [];
    for (const program_id of [undefined, '', 'abc', '01', '-1', `${programId}.0`, '999999', '99999999999999999999']) {
      const metadata = program_id === undefined ? withoutProgram : { ...withoutProgram, program_id };
      const res = await deliver(h, secret, checkoutSessionCompleted({ account: undefined, created, metadata }));
      expect(res.status, `${program_id}: ${res.text}`).toBe(200);
      answers.push(res.body);
    }
    expect(new Set(answers.map((a) => JSON.stringify(a)))).toEqual(
      new Set([JSON.stringify({ received: true, outcome: 'not_attributed', reason: 'no_program' })]),
    );
    expect((await h.control.records(programId)).sales).toEqual([]);
    expect((await h.control.records(other.id)).sales).toEqual([]);
    expect(await processorEventCount(h)).toBe(answers.length);
  });

  it('a redelivered unplaced payment answers duplicate and records nothing', async () => {
    const event = checkoutSessionCompleted({ account: undefined, created: await nowSeconds(h), metadata: { svc_click_id: clickId } });
    expect((await deliver(h, secret, event)).body).toEqual({ received: true, outcome: 'not_attributed', reason: 'no_program' });
    expect((await deliver(h, secret, event)).body).toEqual({ received: true, outcome: 'duplicate' });
    expect((await h.control.records(programId)).sales).toEqual([]);
  });

  it('a Connect event is never placed by its metadata: an unbound account answers 400 even with a valid program_id', async () => {
    const res = await deliver(
      h,
      secret,
      checkoutSessionCompleted({
        account: 'acct_nobodybound',
        created: await nowSeconds(h),
        metadata: svcMetadata(programId, clickId, customerKey),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('No program is connected to this processor account');
    expect((await h.control.records(programId)).sales).toEqual([]);
  });

  it('a Connect event bound to one program and a program_id naming another is still refused (webhookProgramMismatch)', async () => {
    const connected = await connectedProgram(h);
    const res = await deliver(
      h,
      connected.secret,
      checkoutSessionCompleted({
        account: connected.account,
        created: await nowSeconds(h),
        metadata: svcMetadata(programId, clickId, customerKey),
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('metadata.program_id does not match the program connected to this processor account');
    expect((await h.control.records(programId)).sales).toEqual([]);
    expect((await h.control.records(connected.programId)).sales).toEqual([]);
  });
});
