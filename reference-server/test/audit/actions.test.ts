import { describe, expect, it } from 'vitest';
import { harnessPerFile } from '../harness';
import { account, acceptInvitations } from '../partners/support';
import { auditedMerchant, type Entry } from './support';

// The audit log (domain/audit/): each money or access action appends exactly one entry with who acted and what changed,
// in the change's own transaction: a refused change (400, 403, 409) or one that changes nothing appends none.
const t = harnessPerFile();

const only = (entries: Entry[]) => {
  expect(entries).toHaveLength(1);
  return entries[0]!;
};

describe('audit log: partners and links', () => {
  it('records partner creation and changes with the session account, each changed field as from → to', async () => {
    const m = await auditedMerchant(t.h);
    let mark = await m.log();
    const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane@example.com' })).body.data;
    expect(only(await m.since(mark))).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      actor: m.ownerEmail,
      action: 'partner.created',
      target: `partner:${jane.id}`,
      details: { name: 'Jane', email: 'jane@example.com', invitation: 'pending' },
      reason: null,
    });

    mark = await m.log();
    expect((await m.call('PATCH', `/partners/${jane.id}`, { name: 'Jane Doe', email: 'jd@example.com', status: 'suspended' })).status).toBe(
      200,
    );
    expect(only(await m.since(mark))).toMatchObject({
      actor: m.ownerEmail,
      action: 'partner.updated',
      target: `partner:${jane.id}`,
      details: {
        name: { from: 'Jane', to: 'Jane Doe' },
        email: { from: 'jane@example.com', to: 'jd@example.com' },
        status: { from: 'active', to: 'suspended' },
      },
    });

    // Nothing changed, or refused: no entry.
    mark = await m.log();
    expect((await m.call('PATCH', `/partners/${jane.id}`, { name: 'Jane Doe', status: 'suspended' })).status).toBe(200);
    expect((await m.call('PATCH', `/partners/${jane.id}`, { name: 'Ann', status: 'gone' })).status).toBe(400);
    expect((await m.call('PATCH', `/partners/${jane.id}`, {})).status).toBe(400);
    expect((await m.call('POST', '/partners', { name: '' })).status).toBe(400);
    expect(await m.since(mark)).toEqual([]);
  });

  it('chains simultaneous changes of one partner: each entry starts from what the one before left', async () => {
    const m = await auditedMerchant(t.h);
    const jane = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    const mark = await m.log();
    const names = ['A', 'B', 'C', 'D'];
    const answers = await Promise.all(names.map((name) => m.call('PATCH', `/partners/${jane.id}`, { name })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const changes = (await m.since(mark)).map((e) => e.details.name as { from: string; to: string });
    expect(changes).toHaveLength(4);
    expect(changes[0]!.from).toBe('Jane');
    for (let i = 1; i < changes.length; i++) expect(changes[i]!.from).toBe(changes[i - 1]!.to);
    expect(changes.map((c) => c.to).sort()).toEqual(names);
  });

  it('records what the program key does as "api key …last4"', async () => {
    const m = await auditedMerchant(t.h);
    const key = m.program.api_token;
    const created = await t.h.request('POST', '/api/v1/partners', { key, json: { name: 'Keyed' } });
    expect(created.status).toBe(201);
    const link = await t.h.request('POST', '/api/v1/links', {
      key,
      json: { partner_id: created.body.data.id, short_link: `keyed-${m.program.id}` },
    });
    expect(link.status).toBe(201);
    const off = await t.h.request('PATCH', `/api/v1/links/keyed-${m.program.id}`, { key, json: { enabled: false } });
    expect(off.status).toBe(200);
    const renamed = await t.h.request('PATCH', `/api/v1/partners/${created.body.data.id}`, { key, json: { name: 'Keyed Two' } });
    expect(renamed.status).toBe(200);

    const entries = (await m.log()).reverse();
    expect(entries.map((e) => [e.actor, e.action])).toEqual([
      [m.keyActor, 'partner.created'],
      [m.keyActor, 'link.created'],
      [m.keyActor, 'link.updated'],
      [m.keyActor, 'partner.updated'],
    ]);
    expect(entries[1]).toMatchObject({
      target: `link:${link.body.data.id}`,
      details: { partner_id: created.body.data.id, short_link: `keyed-${m.program.id}` },
    });
    expect(entries[2]!.details).toEqual({
      short_link: `keyed-${m.program.id}`,
      enabled: { from: true, to: false },
      disabled_by: { from: null, to: 'merchant' },
    });
  });

  it("records a link's creation and the merchant's and the partner's on/off, each with its own account", async () => {
    const m = await auditedMerchant(t.h);
    const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane.links@example.com' })).body.data;
    const janeCookie = await account(t.h, 'jane.links@example.com');
    await acceptInvitations(t.h, janeCookie);
    let mark = await m.log();
    const link = (await m.call('POST', '/links', { partner_id: jane.id })).body.data;
    expect(only(await m.since(mark))).toMatchObject({
      actor: m.ownerEmail,
      action: 'link.created',
      target: `link:${link.id}`,
      details: { partner_id: jane.id, short_link: link.short_link },
    });
    // A taken short link is refused: nothing recorded.
    mark = await m.log();
    expect((await m.call('POST', '/links', { partner_id: jane.id, short_link: link.short_link })).status).toBe(409);
    expect(await m.since(mark)).toEqual([]);

    const partnerSets = (enabled: boolean) =>
      t.h.request('PATCH', `/api/partner/links/${link.id}`, { headers: { cookie: janeCookie }, json: { enabled } });
    mark = await m.log();
    expect((await partnerSets(false)).status).toBe(200);
    expect((await partnerSets(false)).status).toBe(200); // already off: no change, no entry
    expect((await partnerSets(true)).status).toBe(200);
    expect((await m.call('PATCH', `/links/${link.id}`, { enabled: false })).status).toBe(200);
    expect((await partnerSets(true)).status).toBe(403); // the merchant's off stands: refused, nothing recorded
    expect((await m.call('PATCH', `/links/${link.id}`, { enabled: 'yes' })).status).toBe(400);
    const changes = await m.since(mark);
    expect(changes.map((e) => [e.actor, e.action, e.target, e.details.enabled, e.details.disabled_by])).toEqual([
      ['jane.links@example.com', 'link.updated', `link:${link.id}`, { from: true, to: false }, { from: null, to: 'partner' }],
      ['jane.links@example.com', 'link.updated', `link:${link.id}`, { from: false, to: true }, { from: 'partner', to: null }],
      [m.ownerEmail, 'link.updated', `link:${link.id}`, { from: true, to: false }, { from: null, to: 'merchant' }],
    ]);
  });
});

describe('audit log: invitations', () => {
  it("records the partner's own answer to an invitation under their account, once per change", async () => {
    const m = await auditedMerchant(t.h);
    const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane.invited@example.com' })).body.data;
    const janeCookie = await account(t.h, 'jane.invited@example.com');
    const stranger = await account(t.h, 'someone.else@example.com');
    const answer = (what: 'accept' | 'decline', cookie = janeCookie) =>
      t.h.request('POST', `/api/partner/invitations/${jane.id}/${what}`, { headers: { cookie } });
    const mark = await m.log();
    expect((await answer('accept', stranger)).status).toBe(404);
    expect((await answer('accept')).status).toBe(200);
    expect((await answer('accept')).status).toBe(200); // idempotent: nothing new
    expect((await answer('decline')).status).toBe(200);
    expect((await answer('accept')).status).toBe(404); // a declined invitation cannot be accepted
    expect((await m.since(mark)).map((e) => [e.actor, e.action, e.target, e.details])).toEqual([
      [
        'jane.invited@example.com',
        'partner.invitation_answered',
        `partner:${jane.id}`,
        { invitation: { from: 'pending', to: 'accepted' } },
      ],
      [
        'jane.invited@example.com',
        'partner.invitation_answered',
        `partner:${jane.id}`,
        { invitation: { from: 'accepted', to: 'declined' } },
      ],
    ]);
  });
});

describe('audit log: commissions', () => {
  /** Jane with a link and customers who came through it; she is then suspended, so each of their sales is held. */
  async function heldSales(cents: number[]) {
    const m = await auditedMerchant(t.h);
    const jane = (await m.call('POST', '/partners', { name: 'Jane' })).body.data;
    const short = `jane-audit-${m.program.id}`;
    await m.call('POST', '/links', { partner_id: jane.id, short_link: short });
    const key = m.program.api_token;
    const customers: string[] = [];
    for (const _ of cents) {
      // Clicks before the suspension: a suspended partner's link refuses them.
      const click = await t.h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${short}` } });
      const customerKey = `cust_audit_${click.body.click_id}`;
      expect(
        (await t.h.request('POST', '/api/v1/track/lead', { key, json: { click_id: click.body.click_id, customer_key: customerKey } }))
          .status,
      ).toBe(200);
      customers.push(customerKey);
    }
    expect((await m.call('PATCH', `/partners/${jane.id}`, { status: 'suspended' })).status).toBe(200);
    const commissionIds: number[] = [];
    for (const [i, amount] of cents.entries()) {
      const sale = await t.h.request('POST', '/api/v1/track/sale', {
        key,
        json: { transaction_id: `txn_${customers[i]}`, amount_cents: amount, currency: 'USD', customer_key: customers[i] },
      });
      expect(sale.status).toBe(200);
      commissionIds.push(sale.body.commission_id);
    }
    return { m, jane, commissionIds };
  }

  it('records approve and decline with the commission, its amount, the status change and the reason; refusals record nothing', async () => {
    const { m, jane, commissionIds } = await heldSales([10_000, 20_000]);
    const [first, second] = commissionIds as [number, number];
    let mark = await m.log();
    expect((await m.call('POST', `/commissions/${first}/approve`)).status).toBe(200);
    expect((await m.call('POST', `/commissions/${first}/approve`)).status).toBe(200); // idempotent: nothing new
    expect(only(await m.since(mark))).toEqual({
      id: expect.any(Number),
      at: expect.any(String),
      actor: m.ownerEmail,
      action: 'commission.approved',
      target: `commission:${first}`,
      details: { partner_id: jane.id, amount_cents: 2_000, currency: 'USD', status: { from: 'held', to: 'due' } },
      reason: null,
    });

    mark = await m.log();
    expect((await m.call('POST', `/commissions/${second}/decline`, { reason: '' })).status).toBe(400);
    const member = await account(t.h, 'member.audit@example.com', { programId: m.program.id, role: 'member' });
    expect((await m.call('POST', `/commissions/${second}/decline`, { reason: 'Fraud' }, member)).status).toBe(403);
    expect((await m.call('POST', `/commissions/${second}/decline`, { reason: 'Fraudulent order' })).status).toBe(200);
    expect((await m.call('POST', `/commissions/${second}/decline`, { reason: 'Again' })).status).toBe(200); // idempotent
    const conflict = await m.call('POST', `/commissions/${second}/approve`);
    expect(conflict.status).toBe(409);
    expect(only(await m.since(mark))).toMatchObject({
      actor: m.ownerEmail,
      action: 'commission.declined',
      target: `commission:${second}`,
      details: { partner_id: jane.id, amount_cents: 4_000, currency: 'USD', status: { from: 'held', to: 'declined' } },
      reason: 'Fraudulent order',
    });
  });

  it('records two approvals at once as one entry: the conditional UPDATE changed the row once', async () => {
    const { m, commissionIds } = await heldSales([5_000]);
    const mark = await m.log();
    const answers = await Promise.all([1, 2, 3].map(() => m.call('POST', `/commissions/${commissionIds[0]}/approve`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect((await m.since(mark)).map((e) => e.action)).toEqual(['commission.approved']);
  });

  it('records one release per reactivation with the count and the amounts per currency, beside the status change', async () => {
    const { m, jane } = await heldSales([10_000, 5_000]);
    const mark = await m.log();
    // Two reactivations at once: the held commissions are released once, so one release entry.
    const answers = await Promise.all([1, 2].map(() => m.call('PATCH', `/partners/${jane.id}`, { status: 'active' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const entries = await m.since(mark);
    expect(entries.filter((e) => e.action === 'commission.released')).toEqual([
      {
        id: expect.any(Number),
        at: expect.any(String),
        actor: m.ownerEmail,
        action: 'commission.released',
        target: `partner:${jane.id}`,
        details: { count: 2, totals: [{ currency: 'USD', amount_cents: 3_000 }] },
        reason: null,
      },
    ]);
    expect(entries.filter((e) => e.action === 'partner.updated').map((e) => e.details)).toEqual([
      { status: { from: 'suspended', to: 'active' } },
    ]);
  });
});

describe('audit log: program settings, key, processor', () => {
  it('records settings changes field by field, old → new, and nothing for a refused or empty change', async () => {
    const m = await auditedMerchant(t.h);
    let mark = await m.log();
    const changed = await t.h.request('PATCH', m.base, {
      headers: { cookie: m.cookie },
      json: { attribution_window_days: 14, allowed_origins: ['https://shop.example'], lead_auth: 'server_required' },
    });
    expect(changed.status).toBe(200);
    const entry = only(await m.since(mark));
    expect(entry).toMatchObject({ actor: m.ownerEmail, action: 'program.updated', target: `program:${m.program.id}` });
    expect(entry.details).toEqual({
      attribution_window_days: { from: 60, to: 14 },
      allowed_origins: { from: null, to: ['https://shop.example'] },
    });
    mark = await m.log();
    for (const json of [{ attribution_window_days: 0 }, { lead_auth: 'nobody' }, {}]) {
      expect((await t.h.request('PATCH', m.base, { headers: { cookie: m.cookie }, json })).status).toBe(400);
    }
    expect((await t.h.request('PATCH', m.base, { headers: { cookie: m.cookie }, json: { attribution_window_days: 14 } })).status).toBe(200);
    expect(await m.since(mark)).toEqual([]);
  });

  it('records key regeneration with the last four characters only; a member is refused and nothing is recorded', async () => {
    const m = await auditedMerchant(t.h);
    const member = await account(t.h, 'member.key@example.com', { programId: m.program.id, role: 'member' });
    const mark = await m.log();
    expect((await t.h.request('POST', `${m.base}/regenerate-key`, { headers: { cookie: member } })).status).toBe(403);
    const regenerated = await t.h.request('POST', `${m.base}/regenerate-key`, { headers: { cookie: m.cookie } });
    expect(regenerated.status).toBe(200);
    const newKey: string = regenerated.body.data.program.api_token;
    expect(only(await m.since(mark))).toMatchObject({
      actor: m.ownerEmail,
      action: 'program.key_regenerated',
      target: `program:${m.program.id}`,
      details: { api_key_last4: { from: m.program.api_token.slice(-4), to: newKey.slice(-4) } },
    });
  });

  it("records the dashboard's Disconnect of a connected account, and nothing when none was connected", async () => {
    const m = await auditedMerchant(t.h);
    const disconnect = () =>
      t.h.request('PUT', `${m.base}/processor`, { headers: { cookie: m.cookie }, json: { processor_account: null } });
    let mark = await m.log();
    expect((await disconnect()).status).toBe(200);
    expect(await m.since(mark)).toEqual([]);
    await t.h.control.connectProcessor({ program_id: m.program.id, account: 'acct_auditdisc1' });
    mark = await m.log();
    expect(
      (await t.h.request('PUT', `${m.base}/processor`, { headers: { cookie: m.cookie }, json: { processor_account: 'acct_typed1' } }))
        .status,
    ).toBe(400);
    expect((await disconnect()).status).toBe(200);
    expect(only(await m.since(mark))).toMatchObject({
      actor: m.ownerEmail,
      action: 'processor.disconnected',
      details: { processor_account: { from: 'acct_auditdisc1', to: null } },
    });
  });
});

describe('audit log: webhook endpoints', () => {
  it('records creation, pause, resume and deletion, never the signing secret', async () => {
    const m = await auditedMerchant(t.h);
    const mark = await m.log();
    const created = await m.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/svc', events: ['sale.created'] });
    expect(created.status).toBe(201);
    const id: number = created.body.data.id;
    expect((await m.call('POST', '/webhook-endpoints', { url: 'ftp://nope' })).status).toBe(400);
    expect((await m.call('PATCH', `/webhook-endpoints/${id}`, { enabled: false })).status).toBe(200);
    expect((await m.call('PATCH', `/webhook-endpoints/${id}`, { enabled: false })).status).toBe(200);
    expect((await m.call('PATCH', `/webhook-endpoints/${id}`, { enabled: true })).status).toBe(200);
    expect((await m.call('DELETE', `/webhook-endpoints/${id}`)).status).toBe(204);
    expect((await m.call('DELETE', `/webhook-endpoints/${id}`)).status).toBe(404);
    const entries = await m.since(mark);
    expect(entries.map((e) => [e.actor, e.action, e.target, e.details])).toEqual([
      [
        m.ownerEmail,
        'webhook_endpoint.created',
        `webhook_endpoint:${id}`,
        { url: 'https://hooks.example.com/svc', events: ['sale.created'] },
      ],
      [
        m.ownerEmail,
        'webhook_endpoint.updated',
        `webhook_endpoint:${id}`,
        { url: 'https://hooks.example.com/svc', enabled: { from: true, to: false } },
      ],
      [
        m.ownerEmail,
        'webhook_endpoint.updated',
        `webhook_endpoint:${id}`,
        { url: 'https://hooks.example.com/svc', enabled: { from: false, to: true } },
      ],
      [
        m.ownerEmail,
        'webhook_endpoint.deleted',
        `webhook_endpoint:${id}`,
        { url: 'https://hooks.example.com/svc', events: ['sale.created'] },
      ],
    ]);
    const secret: string = created.body.data.secret;
    const stored = JSON.stringify(await t.h.store.db.selectFrom('audit_log').selectAll().execute());
    expect(stored).not.toContain(secret.slice('whsec_'.length));
  });
});

describe('audit log: no secret in any entry', () => {
  it('holds no program key, key hash, webhook secret or part of one after every kind of action', async () => {
    const m = await auditedMerchant(t.h);
    const secrets: string[] = [m.program.api_token];
    const jane = (await m.call('POST', '/partners', { name: 'Jane', email: 'jane.secret@example.com' })).body.data;
    const link = (await m.call('POST', '/links', { partner_id: jane.id })).body.data;
    await m.call('PATCH', `/links/${link.id}`, { enabled: false });
    await m.call('PATCH', `/partners/${jane.id}`, { status: 'suspended' });
    await m.call('PATCH', `/partners/${jane.id}`, { status: 'active' });
    await t.h.request('PATCH', m.base, { headers: { cookie: m.cookie }, json: { lead_auth: 'browser_allowed' } });
    const regenerated = await t.h.request('POST', `${m.base}/regenerate-key`, { headers: { cookie: m.cookie } });
    secrets.push(regenerated.body.data.program.api_token);
    const endpoint = await m.call('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/secret' });
    secrets.push(endpoint.body.data.secret);
    await m.call('PATCH', `/webhook-endpoints/${endpoint.body.data.id}`, { enabled: false });
    await m.call('DELETE', `/webhook-endpoints/${endpoint.body.data.id}`);

    const program = await t.h.store.db.selectFrom('programs').selectAll().where('id', '=', m.program.id).executeTakeFirstOrThrow();
    secrets.push(program.api_key_hash);
    const rows = await t.h.store.db.selectFrom('audit_log').selectAll().where('program_id', '=', m.program.id).execute();
    expect(new Set(rows.map((r) => r.action)).size).toBeGreaterThanOrEqual(8);
    const stored = JSON.stringify(rows);
    for (const secret of secrets) {
      // The whole value and any 12-character run of it (a key without its prefix, a secret's body).
      for (let i = 0; i + 12 <= secret.length; i += 4) expect(stored).not.toContain(secret.slice(i, i + 12));
    }
  });
});
