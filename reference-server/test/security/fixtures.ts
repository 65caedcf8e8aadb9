import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from '../../src/store/db';
import type { Harness } from '../harness';

export interface ProgramFixture {
  id: number;
  key: string;
  accountId: number;
  shortLink: string;
  clickId: string;
  customerKey: string;
  transactionId: string;
  saleId: number;
  /** Distinct per program, so a response showing it shows this program's sale. */
  amountCents: number;
}

/** A program with a partner, a link, a click, a settled lead and a sale: every kind of resource a key can name. */
export async function programWithRecords(h: Harness, options: { allowed_origins?: string[] } = {}): Promise<ProgramFixture> {
  const tag = randomBytes(4).toString('hex');
  const program = await h.control.createProgram({ commission_type: 'recurring_percent', commission_rate: 10, ...options });
  const partner = await h.control.createPartner({ program_id: program.id });
  const link = await h.control.createLink({ program_id: program.id, partner_id: partner.id, short_link: `sec-${tag}` });
  const origin = options.allowed_origins?.[0];
  const click = await h.request('POST', '/api/v1/track/click', {
    json: { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` },
    ...(origin ? { headers: { origin } } : {}),
  });
  if (click.status !== 200) throw new Error(`click: ${click.text}`);
  const customerKey = `sec-customer-${tag}`;
  const lead = await h.request('POST', '/api/v1/track/lead', {
    json: { click_id: click.body.click_id, customer_key: customerKey },
    key: program.api_token,
  });
  if (lead.status !== 200) throw new Error(`lead: ${lead.text}`);
  const transactionId = `sec-txn-${tag}`;
  const amountCents = 10_000 + randomBytes(2).readUInt16BE(0);
  const sale = await h.request('POST', '/api/v1/track/sale', {
    json: { transaction_id: transactionId, amount_cents: amountCents, currency: 'USD', customer_key: customerKey },
    key: program.api_token,
  });
  if (sale.status !== 200) throw new Error(`sale: ${sale.text}`);
  return {
    id: program.id,
    key: program.api_token,
    accountId: program.account_id,
    shortLink: link.short_link,
    clickId: String(click.body.click_id),
    customerKey,
    transactionId,
    saleId: sale.body.sale_id as number,
    amountCents,
  };
}

/** Row counts of every table: "nothing changed" means equal before and after. */
export async function rowCounts(store: Store): Promise<Record<string, number>> {
  const tables = (await store.db.introspection.getTables()).filter((t) => !t.isView && !t.name.startsWith('kysely_'));
  const schema =
    store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]?.s : undefined;
  const counts: Record<string, number> = {};
  for (const t of tables.filter((t) => schema === undefined || t.schema === schema)) {
    const row = (await sql<{ n: number | string }>`select count(*) as n from ${sql.id(t.name)}`.execute(store.db)).rows[0];
    counts[t.name] = Number(row?.n ?? 0);
  }
  return counts;
}

/** Every text value of every column of every table, with where it was found. */
export async function textCells(store: Store): Promise<{ where: string; value: string }[]> {
  const tables = await store.db.introspection.getTables();
  const schema =
    store.dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(store.db)).rows[0]?.s : undefined;
  const cells: { where: string; value: string }[] = [];
  for (const table of tables.filter((t) => !t.isView && (schema === undefined || t.schema === schema))) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.id(table.name)}`.execute(store.db)).rows;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === 'string') cells.push({ where: `${table.name}.${column}`, value });
        else if (Buffer.isBuffer(value)) cells.push({ where: `${table.name}.${column}`, value: value.toString('utf8') });
      }
    }
  }
  return cells;
}
