import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { ControlClient } from '../../src/testing/control-client';
import type { ServerProcess } from '../scale/server-process';

export interface SalesFixture {
  programId: number;
  key: string;
  customerKey: string;
}

/** A program paying on every sale (recurring_percent), with one attributed customer: each sale gets a commission. */
export async function salesFixture(server: ServerProcess): Promise<SalesFixture> {
  const program = await server.control.createProgram({ commission_type: 'recurring_percent', commission_rate: 10 });
  const partner = await server.control.createPartner({ program_id: program.id });
  const link = await server.control.createLink({ program_id: program.id, partner_id: partner.id });
  const post = async (path: string, body: unknown, key?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const click = await post('/api/v1/track/click', { affiliate_url: `https://shop.example.com/?aff=${link.short_link}` });
  const customerKey = `faults-${randomBytes(4).toString('hex')}`;
  await post('/api/v1/track/lead', { click_id: click.click_id, customer_key: customerKey }, program.api_token);
  return { programId: program.id, key: program.api_token, customerKey };
}

export function saleBody(fixture: SalesFixture, transactionId: string, amountCents = 1000) {
  return JSON.stringify({ transaction_id: transactionId, amount_cents: amountCents, currency: 'USD', customer_key: fixture.customerKey });
}

export interface SaleAnswer {
  /** The index in `targets` of the server it was sent to. */
  server: number;
  transactionId: string;
  status: number | 'no answer';
  body?: Record<string, any>;
}

export interface SaleStream {
  answers: SaleAnswer[];
  /** How many sales were answered 200 so far. */
  acknowledged(): number;
  /** Ends every loop after its current sale and resolves when all have ended. */
  stop(): Promise<void>;
}

/**
 * `workers` loops sending sales one after another, loop `w` to `targets[w % targets.length]`, each with a fresh
 * transaction id. A loop ends at its first sale sent but never answered (its server died): that sale may or may not
 * be stored, both are fine.
 */
export function saleStream(targets: ServerProcess[], fixture: SalesFixture, workers: number): SaleStream {
  const answers: SaleAnswer[] = [];
  let stopped = false;
  const loop = async (w: number) => {
    const server = w % targets.length;
    const target = targets[server]!;
    for (let i = 0; !stopped; i++) {
      const transactionId = `txn_stream_${w}_${i}_${randomBytes(3).toString('hex')}`;
      try {
        const res = await fetch(`${target.url}/api/v1/track/sale`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${fixture.key}` },
          body: saleBody(fixture, transactionId, 100 + i),
        });
        answers.push({ server, transactionId, status: res.status, body: (await res.json()) as Record<string, any> });
      } catch {
        answers.push({ server, transactionId, status: 'no answer' });
        return;
      }
    }
  };
  const loops = Promise.all(Array.from({ length: workers }, (_, w) => loop(w)));
  return {
    answers,
    acknowledged: () => answers.filter((a) => a.status === 200).length,
    async stop() {
      stopped = true;
      await loops;
    },
  };
}

/** Waits until `stream` has `count` sales answered 200 (checking every 5 ms). */
export async function untilAcknowledged(stream: SaleStream, count: number): Promise<void> {
  while (stream.acknowledged() < count) await new Promise((resolve) => setTimeout(resolve, 5));
}

/**
 * Nothing acknowledged is lost: every sale answered 200 is stored under the id it was answered with, with its
 * commission (pending). Every other answer is no answer at all. Returns the stored sales without a commission.
 */
export async function expectAcknowledgedKept(control: ControlClient, fixture: SalesFixture, answers: SaleAnswer[]): Promise<string[]> {
  const records = await control.records(fixture.programId);
  const salesByTxn = new Map(records.sales.map((s) => [s.processor_event_id, s]));
  const commissionBySale = new Map(records.commissions.map((c) => [c.sale_id, c]));
  expect(answers.every((a) => a.status === 200 || a.status === 'no answer')).toBe(true);
  for (const answer of answers.filter((a) => a.status === 200)) {
    const sale = salesByTxn.get(answer.transactionId);
    expect(sale, `acknowledged sale ${answer.transactionId} is lost`).toBeDefined();
    expect(sale!.id).toBe(answer.body!.sale_id);
    const commission = commissionBySale.get(sale!.id);
    expect(commission, `acknowledged sale ${answer.transactionId} lost its commission`).toBeDefined();
    expect(commission!.id).toBe(answer.body!.commission_id);
    expect(commission!.status).toBe('pending');
  }
  return records.sales.filter((s) => !commissionBySale.has(s.id)).map((s) => s.processor_event_id);
}
