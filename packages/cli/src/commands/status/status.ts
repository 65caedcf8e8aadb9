import type { CliStatusResponse, Metrics } from '@svc/types';
import type { Context } from '../../cli/context';
import type { Colours } from '../../output/colour';
import { count } from '../../output/plural';

type Status = CliStatusResponse['data'];

const amounts = (byCurrency: Metrics['revenue_cents']) =>
  Object.entries(byCurrency)
    .map(([currency, cents]) => `${(cents / 100).toFixed(2)} ${currency}`)
    .join(', ') || '0';

const seen = (check: { seen: boolean; count: number }, c: Colours) => (check.seen ? c.green(`✔ ${check.count}`) : c.dim('– none yet'));

export function statusLines(status: Status, c: Colours): string[] {
  const { program, metrics, readiness } = status;
  const verdict = readiness.ready ? c.green('ready') : c.yellow(readiness.verdict.replace('_', ' '));
  return [
    `${c.bold(program.name)} (id ${program.id}, ${program.domain}): ${verdict}`,
    `  key ${program.api_token} · ${program.commission_type} ${program.commission_rate} · window ${program.attribution_window_days} days · leads ${program.lead_auth}`,
    '',
    c.bold('Real events seen'),
    `  click  ${seen(readiness.seen.click, c)}`,
    `  lead   ${seen(readiness.seen.lead, c)}`,
    `  sale   ${seen(readiness.seen.sale, c)}   processor sale ${seen(readiness.seen.processor_sale, c)}`,
    `  test events: ${count(readiness.test_events.click, 'click')}, ${count(readiness.test_events.lead, 'lead')}, ${count(readiness.test_events.sale, 'sale')} (never counted)`,
    '',
    c.bold('Metrics'),
    `  ${count(metrics.clicks, 'click')} · ${count(metrics.leads, 'lead')} · ${count(metrics.sales, 'sale')}`,
    `  revenue ${amounts(metrics.revenue_cents)} · commissions ${amounts(metrics.commissions_cents)}`,
    ...(readiness.configuration.key_rotation
      ? ['', c.yellow(`This key must be rotated by ${readiness.configuration.key_rotation.rotate_by}.`)]
      : []),
  ];
}

/** `svc status`: program, metrics and readiness from `GET /cli/status` with the program key. */
export async function status(ctx: Context, apiKey: string): Promise<void> {
  const { output } = ctx;
  const result = await ctx.client(apiKey).cli.status();
  for (const line of statusLines(result.data, output.out)) output.say(line);
  const o = output.out;
  const next = result.data.readiness.next_step;
  output.next(
    next
      ? [
          next.message,
          ...(next.code === 'create_link'
            ? [`${o.cyan('svc partners add --name "Jane Doe"')} then ${o.cyan('svc links create --partner <id>')}   from here`]
            : []),
          `${o.cyan('svc test chain')}   check the wiring with a synthetic click, lead and sale`,
        ]
      : ['The integration is live: real clicks, leads and sales are being recorded.'],
  );
  output.document({ ok: true, ...result.data, ...(result.warnings ? { warnings: result.warnings } : {}), request_id: result.requestId });
}
