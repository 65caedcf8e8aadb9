import type { Harness } from '../harness';

let sequence = 0;

/** A merchant: a program (percent 20) and its owner's dashboard cookie, plus shorthands for the partner routes. */
export async function merchant(h: Harness, domain = 'shop.example') {
  const program = await h.control.createProgram({ name: 'Shop', domain, commission_type: 'percent', commission_rate: 20 });
  const cookie = (await h.control.createDashboardSession(program.account_id)).cookie;
  const base = `/api/dashboard/programs/${program.id}`;
  const call = (method: string, path: string, json?: unknown, as = cookie) =>
    h.request(method, `${base}${path}`, { headers: { cookie: as }, ...(json === undefined ? {} : { json }) });
  return { program, cookie, base, call };
}

/** A signed-in account with this email (the partner view's join), optionally a member of a program. */
export async function account(h: Harness, email: string, member?: { programId: number; role: 'owner' | 'member' }) {
  const { account_id } = await h.control.createAccount({ email });
  if (member) await h.control.addMembership({ account_id, program_id: member.programId, role: member.role });
  return (await h.control.createDashboardSession(account_id)).cookie;
}

/** A visitor through `shortLink`: click, server-mode lead, then a sale of `amountCents`; returns the transaction id. */
export async function visitorBuys(h: Harness, key: string, shortLink: string, amountCents: number, currency = 'USD'): Promise<string> {
  const n = ++sequence;
  const click = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/?aff=${shortLink}` } });
  if (click.status !== 200) throw new Error(`click answered ${click.status}: ${click.text}`);
  const customerKey = `cust_${n}_${Date.now()}`;
  const lead = await h.request('POST', '/api/v1/track/lead', { key, json: { click_id: click.body.click_id, customer_key: customerKey } });
  if (lead.status !== 200) throw new Error(`lead answered ${lead.status}: ${lead.text}`);
  const transactionId = `txn_partners_${n}_${Date.now()}`;
  const sale = await h.request('POST', '/api/v1/track/sale', {
    key,
    json: { transaction_id: transactionId, amount_cents: amountCents, currency, customer_key: customerKey },
  });
  if (sale.status !== 200) throw new Error(`sale answered ${sale.status}: ${sale.text}`);
  return transactionId;
}

/** The signed-in account accepts every pending partner invitation (the partner view shows a program only then). */
export async function acceptInvitations(h: Harness, cookie: string): Promise<void> {
  const view = await h.request('GET', '/api/partner', { headers: { cookie } });
  for (const invitation of view.body.data.invitations as { partner_id: number }[]) {
    const accepted = await h.request('POST', `/api/partner/invitations/${invitation.partner_id}/accept`, { headers: { cookie } });
    if (accepted.status !== 200) throw new Error(`accept answered ${accepted.status}: ${accepted.text}`);
  }
}
