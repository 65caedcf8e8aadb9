import { randomBytes } from 'node:crypto';
import type { components } from '@svc/types';
import { fail, failTemplated, ServiceError } from '../../errors/service-error';
import { chainRunsSince, insertChainRun } from '../../store/dashboard-chain-runs';
import type { Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { recordClick } from '../tracking/click';
import { recordLead } from '../tracking/lead';
import { ownSyntheticCall } from '../tracking/origin';
import { recordSale } from '../tracking/sale';
import { ensureTestLink, testAffiliateUrl } from './test-fixture';

export type TestEventResult = components['schemas']['TestEventResult'];
type StepResult = TestEventResult['events'][number];
export type TestEventType = 'click' | 'lead' | 'sale';

/** spec/rules.md "Limits": synthetic verification chain, 10 runs per program per hour. */
export const chainCapPerHour = 10;
const hourMs = 3_600_000;
/** The amount of a synthetic test sale (test sales create no commission). */
const testSaleCents = 4_900;

const testMode = (program: Program) => ({ test: true, programId: program.id });
const testCustomerKey = () => `test_cust_${randomBytes(8).toString('hex')}`;

/** spec/rules.md "CLI errors", POST /test-event: `Invalid event_type: <value>. Valid: click, lead, sale`. */
export function parseEventType(value: unknown): TestEventType {
  if (value === 'click' || value === 'lead' || value === 'sale') return value;
  throw failTemplated('testEventTypeInvalid', [String(value)]);
}

/**
 * Single mode: one test-mode record of the kind, through the same paths as the tracking routes (test mode on,
 * so nothing real is attributed, paid or counted). A lead or sale without an earlier click is recorded
 * unattributed under a fresh test customer key.
 */
export async function createTestEvent(deps: DomainContext, program: Program, type: TestEventType): Promise<TestEventResult> {
  deps.faults.check('cli');
  const link = type === 'click' ? await ensureTestLink(deps, program) : undefined;
  const step = await runStep(deps, program, type, { link, customerKey: testCustomerKey() });
  return { mode: 'single', events: [step] };
}

interface StepContext {
  link?: Awaited<ReturnType<typeof ensureTestLink>> | undefined;
  clickId?: string;
  customerKey: string;
}

async function runStep(deps: DomainContext, program: Program, type: TestEventType, ctx: StepContext): Promise<StepResult> {
  if (type === 'click') {
    if (!ctx.link) throw new Error('a test click needs the test link');
    const click = await recordClick(deps, {
      affiliateUrl: testAffiliateUrl(program, ctx.link),
      mode: testMode(program),
      keyProgramId: program.id,
      // The server's own click: allowed origins keep browsers on other sites out, not the program's own checks.
      origin: ownSyntheticCall,
    });
    return { event_type: 'click', ok: true, click_id: click.clickId };
  }
  if (type === 'lead') {
    await recordLead(deps, {
      keyProgram: program,
      customerKey: ctx.customerKey,
      ...(ctx.clickId === undefined ? {} : { clickId: ctx.clickId }),
      mode: testMode(program),
    });
    return { event_type: 'lead', ok: true, customer_key: ctx.customerKey, ...(ctx.clickId === undefined ? {} : { click_id: ctx.clickId }) };
  }
  const sale = await recordSale(deps, {
    program,
    amountCents: testSaleCents,
    currency: 'USD',
    customerKey: ctx.customerKey,
    occurredAt: deps.clock.now(),
    test: true,
    source: 'api',
  });
  return { event_type: 'sale', ok: true, customer_key: ctx.customerKey, sale_id: sale.saleId, transaction_id: sale.transactionId };
}

/**
 * Chain mode: click → lead → sale as one synthetic customer, all in test mode. The fixture link is created or
 * refreshed first; then the hourly cap is checked inside the route (spec/rules.md "Rate-limit response"), so a refused run
 * may have refreshed the fixture though no chain ran. A step refused by a tracking rule ends the chain with
 * `ok: false` and the refusal's message as `error`.
 */
export async function runSyntheticChain(deps: DomainContext, program: Program): Promise<TestEventResult> {
  const link = await ensureTestLink(deps, program);
  const now = deps.clock.now();
  const runs = await chainRunsSince(deps.db, program.id, now - hourMs);
  if (runs.count >= chainCapPerHour) {
    const retryAfter = Math.max(1, Math.ceil(((runs.oldest ?? now) + hourMs - now) / 1000));
    throw fail('chainCapReached', {
      extra: { status: 429, retry_after_seconds: retryAfter },
      headers: { 'Retry-After': retryAfter },
    });
  }
  deps.faults.check('cli');
  await insertChainRun(deps.db, program.id, now);

  const ctx: StepContext = { link, customerKey: testCustomerKey() };
  const events: StepResult[] = [];
  for (const type of ['click', 'lead', 'sale'] as const) {
    try {
      const step = await runStep(deps, program, type, ctx);
      if (step.click_id) ctx.clickId = step.click_id;
      events.push(step);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status >= 500) throw error;
      events.push({ event_type: type, ok: false, error: error.message });
      break;
    }
  }
  return { mode: 'chain', events, chains_remaining: Math.max(0, chainCapPerHour - runs.count - 1) };
}
