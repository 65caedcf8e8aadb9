import { catalogue } from '@svc/types';
import { fail } from '../../errors/service-error';
import { insertClick } from '../../store/clicks';
import { findCustomerByClick, insertCustomer } from '../../store/customers';
import { insertRow, writeTransaction } from '../../store/engine';
import { findLinkForClick } from '../../store/links';
import { findProgramById } from '../../store/programs';
import type { Program, ReferralLink } from '../../store/schema';
import type { DomainContext } from '../context';
import { countClick } from '../metrics/record';
import { clickFloodsOf, floodWindowMs } from '../risk/flood';
import { ipHash } from '../risk/ip';
import { recordRiskSignals, type RiskSignal } from '../risk/record';
import { newClickId } from './ids';
import { checkOrigin, type CallOrigin } from './origin';
import { checkProgramMatchesKey, type TestMode } from './test-mode';

export interface ClickInput {
  affiliateUrl: string;
  /** The visitor's existing `svc_click_id` (first click wins). */
  existingClickId?: string;
  mode: TestMode;
  /** The program of a valid Bearer key, if one was sent (only for the test-mode check). */
  keyProgramId?: number;
  /** The request's `Origin` header (browser calls), or the server's own synthetic click. */
  origin?: CallOrigin;
  /** The visitor's IP (behind `TRUST_PROXY`): the click-flood and fast-conversion signals. */
  ip?: string;
}

export interface ClickResult {
  /** The id to keep in the cookie: the first click's when the visitor was already attributed. */
  clickId: string;
  /** The program's attribution window (the cookie's lifetime). */
  cookieWindowDays: number;
  program: Program;
}

/** spec/rules.md "POST /api/v1/track/click": records a click and the customer-to-partner relationship. */
export async function recordClick(deps: DomainContext, input: ClickInput): Promise<ClickResult> {
  const link = await linkOf(deps, input.affiliateUrl, input.mode.test);
  const program = await findProgramById(deps.db, link.program_id as number);
  if (!program) throw fail('clickLinkMisconfigured');
  checkOrigin(program, input.origin);
  checkProgramMatchesKey(input.mode, input.keyProgramId);
  deps.faults.check('click');

  const now = deps.clock.now();
  const isTest = input.mode.test;
  const partnerId = link.partner_id as number;
  const clickId = newClickId(now);
  const first = await firstClick(deps, program, input.existingClickId, isTest, now);
  // Counted by the address itself, in memory only: a flood is repeat clicks, and those need no hash.
  const flood = isTest || !input.ip ? undefined : clickFlood(deps, program, link, input.ip, now);

  // Group commit on SQLite (store/engine/group-commit.ts): resolves once the COMMIT holding this click returned.
  await writeTransaction(deps.db, async (trx) => {
    // First click wins: a new click is logged for the new partner; the customer stays with the first.
    await insertClick(trx, { clickId, programId: program.id, partnerId, linkId: link.id, isTest, now });
    if (!first) {
      await insertCustomer(trx, {
        program_id: program.id,
        customer_key: null,
        click_id: clickId,
        partner_id: partnerId,
        status: 'clicked',
        is_test: isTest ? 1 : 0,
        email: null,
        lead_at: null,
        converted_at: null,
        clicked_at: now,
        // Only a hash is stored, and only here, for a new customer (domain/risk/ip.ts).
        click_ip: ipHash(input.ip) ?? null,
        created_at: now,
        updated_at: now,
      });
    }
    await insertRow(trx, 'events', {
      program_id: program.id,
      type: 'click',
      is_test: isTest ? 1 : 0,
      occurred_at: now,
      partner_id: partnerId,
      click_id: clickId,
      customer_key: null,
      sale_id: null,
      amount_cents: null,
      currency: null,
      source: null,
    });
    await countClick(trx, { programId: program.id, partnerId, isTest, now });
    // The click is recorded and counted all the same: the signal only informs the merchant.
    if (flood) await recordRiskSignals(trx, program.id, [flood], now);
  });
  return { clickId: first ?? clickId, cookieWindowDays: program.attribution_window_days, program };
}

/**
 * The `click_flood` signal when this click makes one (counted in memory: no read per click; domain/risk/flood.ts).
 */
function clickFlood(deps: DomainContext, program: Program, link: ReferralLink, ip: string, now: number): RiskSignal | undefined {
  const threshold = Number(program.click_flood_threshold);
  if (!clickFloodsOf(deps.db).count(link.id, ip, threshold, now)) return undefined;
  const partnerId = link.partner_id as number;
  return {
    kind: 'click_flood',
    partnerId,
    subject: { type: 'link', id: String(link.id) },
    flags: { partnerId },
    details: { short_link: link.short_link, ip, clicks: threshold + 1, window_seconds: floodWindowMs / 1000 },
  };
}

/**
 * The referral link named by the URL's `aff` parameter, usable for a click (spec/rules.md "Message catalogue", 400 and 410).
 * `Invalid affiliate_url` is exactly "not parseable as an absolute URL": the scheme is not checked.
 */
async function linkOf(deps: DomainContext, affiliateUrl: string, test: boolean): Promise<ReferralLink> {
  let url: URL;
  try {
    url = new URL(affiliateUrl);
  } catch {
    throw fail('clickUrlInvalid');
  }
  const aff = url.searchParams.get('aff');
  if (!aff) throw fail('clickNoAff');
  const link = await findLinkForClick(deps.db, aff);
  // The CLI's test link (domain/cli/test-fixture.ts) is none of the program's links to real traffic: a real click
  // there would earn a commission for a partner nobody can see or pay.
  if (!link || (link.partner_is_test === 1 && !test)) throw fail('clickLinkNotFound');
  if (link.program_id === null || link.partner_id === null) throw fail('clickLinkMisconfigured');
  // A suspended partner's links answer exactly as a disabled link: a visitor learns nothing about the partner.
  if (link.enabled !== 1 || link.partner_status === 'suspended') {
    throw fail('clickLinkDisabled', {
      topLevel: { success: false, message: catalogue.clickLinkDisabled.message },
      extra: {
        hint: 'The partner or the brand turned this link off; no click was recorded. It works again once the link is turned back on.',
      },
    });
  }
  return link;
}

/** The visitor's first click id, when the cookie names a click of this program and world still inside the window. */
async function firstClick(
  deps: DomainContext,
  program: Program,
  existingClickId: string | undefined,
  isTest: boolean,
  now: number,
): Promise<string | undefined> {
  if (existingClickId === undefined) return undefined;
  const customer = await findCustomerByClick(deps.db, existingClickId);
  if (customer) {
    const same = customer.program_id === program.id && customer.is_test === (isTest ? 1 : 0);
    return same && clickStillAttributes(customer.clicked_at, now, program.attribution_window_days) ? existingClickId : undefined;
  }
  // Unknown, or a later click's id (never handed out as the cookie value): the visitor starts afresh.
  return undefined;
}

/** First click wins only while the first click is inside the window (spec/openapi.yaml `ClickRequest.click_id`). */
export function clickStillAttributes(clickedAt: number | null, now: number, windowDays: number): boolean {
  return clickedAt !== null && now - clickedAt <= windowDays * 86_400_000;
}
