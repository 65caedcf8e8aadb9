import type { TestEventResponse } from '@svc/types';
import type { Context } from '../../cli/context';
import { ReportedFailure, UsageError } from '../../cli/failures';
import { printError } from '../../output/error-report';
import { count } from '../../output/plural';

export const testKinds = ['click', 'lead', 'sale', 'chain'] as const;
export type TestKind = (typeof testKinds)[number];

export function parseTestKind(value: string | undefined): TestKind {
  if (value !== undefined && (testKinds as readonly string[]).includes(value)) return value as TestKind;
  throw new UsageError(`Unknown test event "${value ?? ''}". Use one of: ${testKinds.join(', ')}.`, 'test');
}

type Result = TestEventResponse['data'];
type Event = Result['events'][number];

const whatNext: Record<TestKind, string> = {
  click: 'svc test lead    record a test signup for a test click',
  lead: 'svc test sale    record a test sale (no commission is created in test mode)',
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
  return `${event.ok ? '✔' : '✖'} test ${event.event_type}${ids.length ? ` (${ids.join(', ')})` : ''}`;
}

/** `svc test click|lead|sale|chain`: test-mode events through `POST /cli/test-event` (records flagged `is_test`). */
export async function testEvent(ctx: Context, apiKey: string, kind: TestKind): Promise<void> {
  const { output } = ctx;
  const client = ctx.client(apiKey);
  const result = await (kind === 'chain' ? client.cli.testEvent({ type: 'chain' }) : client.cli.testEvent({ event_type: kind }));
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
  output.document({ ok: true, ...data, ...(result.warnings ? { warnings: result.warnings } : {}), request_id: result.requestId });
  output.say('Test events are flagged is_test: they never create commissions or change real metrics.');
  output.next([o.cyan(whatNext[kind])]);
}
