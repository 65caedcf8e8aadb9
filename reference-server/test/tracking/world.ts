import { platformErrorNames, type PlatformStatus } from '@svc/types';
import { expect } from 'vitest';
import { harnessPerFile, type Harness, type HarnessResponse } from '../harness';

export interface World {
  programId: number;
  key: string;
  partnerId: number;
  shortLink: string;
  click(extra?: Record<string, unknown>, headers?: Record<string, string>): Promise<HarnessResponse>;
  /** Records a click and returns its click id. */
  clickId(extra?: Record<string, unknown>): Promise<string>;
  lead(body: Record<string, unknown>, key?: string | null): Promise<HarnessResponse>;
  sale(body: Record<string, unknown>, key?: string): Promise<HarnessResponse>;
  refund(body: Record<string, unknown>, key?: string): Promise<HarnessResponse>;
  records(): ReturnType<Harness['control']['records']>;
}

/**
 * The set-up every tracking test file shares: `harnessPerFile`, then a fresh world before each test (after
 * `prepare`, if given). Tests read `t.h` and `t.w`.
 */
export function trackingSuite(prepare?: (h: Harness) => Promise<void>): { h: Harness; w: World } {
  const t = harnessPerFile(async (h) => {
    await prepare?.(h);
    t.w = await createWorld(h);
  }) as { h: Harness; w: World };
  return t;
}

let counter = 0;

/** A program with one partner and one enabled link, plus shorthands for the tracking routes. */
export async function createWorld(h: Harness, program: Parameters<Harness['control']['createProgram']>[0] = {}): Promise<World> {
  const created = await h.control.createProgram(program);
  const partner = await h.control.createPartner({ program_id: created.id, name: 'Ann' });
  const shortLink = `ann-${created.id}-${++counter}`;
  await h.control.createLink({ program_id: created.id, partner_id: partner.id, short_link: shortLink });
  const world: World = {
    programId: created.id,
    key: created.api_token,
    partnerId: partner.id,
    shortLink,
    click: (extra = {}, headers = {}) =>
      h.request('POST', '/api/v1/track/click', {
        json: { affiliate_url: `https://shop.example.com/?aff=${shortLink}`, ...extra },
        headers,
      }),
    async clickId(extra = {}) {
      const res = await world.click(extra);
      if (res.status !== 200) throw new Error(`click answered ${res.status}: ${res.text}`);
      return res.body.click_id as string;
    },
    lead: (body, key = created.api_token) => h.request('POST', '/api/v1/track/lead', { json: body, ...(key === null ? {} : { key }) }),
    sale: (body, key = created.api_token) => h.request('POST', '/api/v1/track/sale', { json: body, key }),
    refund: (body, key = created.api_token) => h.request('POST', '/api/v1/track/refund', { json: body, key }),
    records: () => h.control.records(created.id),
  };
  return world;
}

let txn = 0;
/** A transaction id unique across the run. */
export function txnId(): string {
  return `ch_${process.pid}_${Date.now()}_${++txn}`;
}

/**
 * Asserts the platform envelope with the exact message, the name of its status, `details` empty except on the
 * 409 (which names `sale_id`), and `error.code` when given.
 */
export function platformError(res: HarnessResponse, status: number, message: string, code?: string): void {
  const details = status === 409 ? { sale_id: expect.any(Number) } : {};
  const expected: Record<string, unknown> = { status, name: platformErrorNames[status as PlatformStatus], message, details };
  if (code) expected.code = code;
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
  expect(res.body.data).toBeNull();
  expect(res.body.error).toMatchObject(expected);
  if (!code) expect(res.body.error.code).toBeUndefined();
}
