import { randomBytes } from 'node:crypto';
import { SvcApiError } from '@svc/server';
import type { TestEventResponse } from '@svc/types';
import type { Context } from '../../cli/context';
import { CommandFailure, ReportedFailure, UsageError } from '../../cli/failures';
import { didYouMean } from '../../cli/did-you-mean';
import { printError } from '../../output/error-report';
import { count } from '../../output/plural';
import { readTrail, saveTrail } from './test-trail';

export const testKinds = ['click', 'lead', 'sale', 'chain'] as const;
export type TestKind = (typeof testKinds)[number];

export function parseTestKind(value: string | undefined): TestKind {
  if (value !== undefined && (testKinds as readonly string[]).includes(value)) return value as TestKind;
  throw new UsageError(
    `Unknown test event "${value ?? ''}".${didYouMean(value ?? '', testKinds)} Use one of: ${testKinds.join(', ')}.`,
    'test',
  );
}

type Result = TestEventResponse['data'];
type Event = Result['events'][number];

const whatNext: Record<TestKind, string> = {
  click: 'svc test lead    record a test signup joined to this test click',
  lead: 'svc test sale    record a test sale for this test customer (no commission is created in test mode)',
  sale: 'svc status       see the test events counted apart from real ones',
  chain: 'svc status       see the test events; then send a real click, lead and sale',
};

export function eventLine(event: Event): string {
  const ids = [
    event.click_id && `click_id ${event.click_id}`,
    event.customer_key && `customer_key ${event.customer_key}`,
    event.sale_id !== undefined && `sale_id ${event.sale_id}`,
    event.transaction_id && `transaction_id ${event.transaction_id}`,
  ].filter(Boolean);
  // A refused step says why (the service's message), as the dashboard does.
  const why = !event.ok && event.error ? `: ${event.error}` : '';
  return `${event.ok ? '✔' : '✖'} test ${event.event_type}${ids.length ? ` (${ids.join(', ')})` : ''}${why}`;
}

/** The amount of a CLI test sale, as the service's own test sale (test sales create no commission). */
const testSaleCents = 4_900;
const testMode = { test_mode: true } as const;
const testId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;

/**
 * `svc test click|lead|sale|chain`: test-mode events, flagged `is_test`. Single events go through
 * `POST /cli/test-event`, except the steps that continue an earlier one, so that click → lead → sale is one
 * customer's real funnel: a lead after `svc test click` is that click's signup and a sale after `svc test lead` is
 * that customer's, both sent in test mode through the tracking routes a backend uses (`svc.track.lead`,
 * `svc.track.sale`, spec/rules.md "What the service does", item 6). The trail lives in the config file, per service and program.
 */
export async function testEvent(ctx: Context, apiKey: string, kind: TestKind): Promise<void> {
  const { output } = ctx;
  const client = ctx.client(apiKey);
  const trail = kind === 'lead' || kind === 'sale' ? await readTrail(ctx.configPath, ctx.baseUrl, apiKey) : {};
  let result: { data: Result; requestId: string; warnings?: TestEventResponse['warnings'] };
  if (kind === 'lead' && trail.click_id) {
    result = await leadForClick(ctx, apiKey, trail.click_id);
  } else if (kind === 'sale' && trail.customer_key) {
    const transactionId = testId('test_txn_');
    const sale = await client.track.sale({
      transaction_id: transactionId,
      amount_cents: testSaleCents,
      currency: 'USD',
      customer_key: trail.customer_key,
      additional_data: testMode,
    });
    const event = {
      event_type: 'sale',
      ok: true,
      customer_key: trail.customer_key,
      sale_id: sale.sale_id,
      transaction_id: transactionId,
    } as const;
    const warnings = sale.duplicate ? undefined : sale.warnings;
    result = { data: { mode: 'single', events: [event] }, requestId: sale.requestId, ...(warnings ? { warnings } : {}) };
  } else {
    result = await (kind === 'chain' ? client.cli.testEvent({ type: 'chain' }) : client.cli.testEvent({ event_type: kind }));
  }
  const { data } = result;
  const o = output.out;
  for (const event of data.events) {
    const line = eventLine(event);
    output.say(event.ok ? o.green(line) : o.red(line));
  }
  if (data.chains_remaining !== undefined) output.say(o.dim(`${count(data.chains_remaining, 'synthetic chain')} left this hour.`));
  const failed = data.events.filter((event) => !event.ok);
  if (failed.length) {
    printError(
      output,
      {
        message: `The test ${failed.map((event) => event.event_type).join(', ')} did not go through.`,
        code: 'test_event_failed',
        requestId: result.requestId,
        hint: 'Run svc status to see what the program is missing (for example an active referral link).',
      },
      { ...data },
    );
    throw new ReportedFailure('test event failed');
  }
  const [event] = data.events;
  if (kind === 'click' && event?.click_id) await saveTrail(ctx.configPath, ctx.baseUrl, apiKey, { click_id: event.click_id });
  if (kind === 'lead' && event?.customer_key) await saveTrail(ctx.configPath, ctx.baseUrl, apiKey, { customer_key: event.customer_key });
  output.document({ ok: true, ...data, ...(result.warnings ? { warnings: result.warnings } : {}), request_id: result.requestId });
  output.say('Test events are flagged is_test: they never create commissions or change real metrics.');
  output.next([o.cyan(whatNext[kind])]);
}

/**
 * A server-mode test lead joined to the last test click. A click takes one lead, so the trail forgets it either way;
 * a click the service no longer knows (its database was reset) is said as such.
 */
async function leadForClick(ctx: Context, apiKey: string, clickId: string) {
  const customerKey = testId('test_cust_');
  await saveTrail(ctx.configPath, ctx.baseUrl, apiKey, {});
  try {
    const lead = await ctx.client(apiKey).track.lead({ click_id: clickId, customer_key: customerKey, additional_data: testMode });
    const event = { event_type: 'lead', ok: true, click_id: clickId, customer_key: customerKey } as const;
    return {
      data: { mode: 'single', events: [event] } satisfies Result,
      requestId: lead.requestId,
      ...(lead.warnings ? { warnings: lead.warnings } : {}),
    };
  } catch (error) {
    if (!(error instanceof SvcApiError) || error.status !== 400) throw error;
    throw new CommandFailure(
      `The test click of your last svc test click (${clickId}) cannot take a lead: ${error.message}`,
      'test_click_unusable',
      'Run svc test click again, then svc test lead.',
      error.requestId,
    );
  }
}
