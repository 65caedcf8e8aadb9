import type { Context } from '../../cli/context';
import { UsageError } from '../../cli/failures';
import { didYouMean } from '../../cli/did-you-mean';
import { partnerLines } from './partner-lines';

export const partnerActions = ['add', 'list'] as const;
export type PartnerAction = (typeof partnerActions)[number];

export function parsePartnerAction(value: string | undefined): PartnerAction {
  if (value !== undefined && (partnerActions as readonly string[]).includes(value)) return value as PartnerAction;
  throw new UsageError(
    `Unknown partners action "${value ?? ''}".${didYouMean(value ?? '', partnerActions)} Use one of: ${partnerActions.join(', ')}.`,
    'partners',
  );
}

/** `svc partners add --name … [--email …]`: adds a partner to the key's program (`POST /api/v1/partners`). */
export async function addPartner(
  ctx: Context,
  apiKey: string,
  input: { name: string | undefined; email: string | undefined },
): Promise<void> {
  if (!input.name) throw new UsageError("--name is required: the partner's name.", 'partners');
  const { output } = ctx;
  const o = output.out;
  const { data: partner } = await ctx.client(apiKey).partners.create({ name: input.name, ...(input.email ? { email: input.email } : {}) });
  output.say(o.green(`✔ Partner ${partner.name} added (id ${partner.id}).`));
  if (partner.email) output.say(`  Invited as ${partner.email}: signing in to the dashboard with it shows their own links and figures.`);
  output.next([`${o.cyan(`svc links create --partner ${partner.id}`)}   give them a referral link to share`]);
  output.document({ ok: true, partner });
}

/** `svc partners list`: every partner with clicks, leads, sales, revenue and commissions (`GET /api/v1/partners`). */
export async function listPartners(ctx: Context, apiKey: string): Promise<void> {
  const { output } = ctx;
  const { data } = await ctx.client(apiKey).partners.list();
  for (const line of partnerLines(data.partners, output.out)) output.say(line);
  if (data.partners.length === 0)
    output.next([`${output.out.cyan('svc partners add --name "Jane Doe" --email jane@example.com')}   add your first partner`]);
  output.document({ ok: true, partners: data.partners });
}
