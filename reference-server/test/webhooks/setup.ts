import { randomBytes } from 'node:crypto';
import type { components } from '@svc/types';
import { expect } from 'vitest';
import type { Harness } from '../harness';
import { readProgramMetrics } from '../../src/store/engine';

type ProgramOptions = components['schemas']['TestProgramRequest'];

export interface ConnectedProgram {
  programId: number;
  apiKey: string;
  partnerId: number;
  shortLink: string;
  account: string;
  secret: string;
}

/** A program with one partner and link, connected to a fresh processor account. */
export async function connectedProgram(h: Harness, options: ProgramOptions = {}): Promise<ConnectedProgram> {
  const program = await h.control.createProgram({ commission_type: 'percent', commission_rate: 10, ...options });
  const partner = await h.control.createPartner({ program_id: program.id });
  const link = await h.control.createLink({ program_id: program.id, partner_id: partner.id });
  const account = `acct_${randomBytes(8).toString('hex')}`;
  const { webhook_secret } = await h.control.connectProcessor({ program_id: program.id, account });
  return {
    programId: program.id,
    apiKey: program.api_token,
    partnerId: partner.id,
    shortLink: link.short_link,
    account,
    secret: webhook_secret,
  };
}

export async function click(h: Harness, shortLink: string): Promise<string> {
  const res = await h.request('POST', '/api/v1/track/click', { json: { affiliate_url: `https://shop.example/pricing?aff=${shortLink}` } });
  expect(res.status, res.text).toBe(200);
  return res.body.click_id as string;
}

/** A server-mode lead (settled, counted per lead). */
export async function serverLead(h: Harness, apiKey: string, clickId: string, customerKey: string): Promise<void> {
  const res = await h.request('POST', '/api/v1/track/lead', { key: apiKey, json: { click_id: clickId, customer_key: customerKey } });
  expect(res.status, res.text).toBe(200);
}

/** The clock's time in unix seconds (Stripe's `created` and signature timestamps). */
export async function nowSeconds(h: Harness): Promise<number> {
  const { now } = await h.control.clock({ advance_seconds: 0 });
  return Math.floor(Date.parse(now) / 1000);
}

export async function advanceDays(h: Harness, days: number): Promise<number> {
  const { now } = await h.control.clock({ advance_seconds: days * 86_400 });
  return Math.floor(Date.parse(now) / 1000);
}

/** The webhook's metadata keys (spec/rules.md "What the service does", item 7); Stripe metadata values are strings. */
export function svcMetadata(programId: number, clickId: string | undefined, customerKey: string | undefined): Record<string, string> {
  return {
    ...(clickId ? { svc_click_id: clickId } : {}),
    ...(customerKey ? { svc_customer_key: customerKey } : {}),
    program_id: String(programId),
  };
}

/** Program totals as stored (metrics maintained by the sale and lead paths), summed over their shards. */
export async function programMetrics(h: Harness, programId: number) {
  return readProgramMetrics(h.store.db, programId);
}

export async function processorEventCount(h: Harness): Promise<number> {
  const rows = await h.store.db.selectFrom('processor_events').select('event_id').execute();
  return rows.length;
}
