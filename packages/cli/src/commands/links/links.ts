import { shortLinkPattern, type ReferralLink } from '@svc/types';
import type { Context } from '../../cli/context';
import { UsageError } from '../../cli/failures';
import { didYouMean } from '../../cli/did-you-mean';
import type { Colours } from '../../output/colour';
import { tableLines } from '../../output/table';

export const linkActions = ['create', 'list', 'disable'] as const;
export type LinkAction = (typeof linkActions)[number];

export function parseLinkAction(value: string | undefined): LinkAction {
  if (value !== undefined && (linkActions as readonly string[]).includes(value)) return value as LinkAction;
  throw new UsageError(
    `Unknown links action "${value ?? ''}".${didYouMean(value ?? '', linkActions)} Use one of: ${linkActions.join(', ')}.`,
    'links',
  );
}

/** A positive integer from `--partner`, or a usage error before anything is sent. */
export function partnerIdOption(value: string | undefined, required: boolean): number | undefined {
  if (value === undefined && !required) return undefined;
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError('--partner must be a partner id (svc partners list shows them).', 'links');
  }
  return Number(value);
}

function linkLines(links: ReferralLink[], c: Colours): string[] {
  if (links.length === 0) return [c.dim('(no referral links yet)')];
  const rows = links.map((l) => [l.short_link, String(l.partner_id), l.enabled ? 'on' : 'off', l.url]);
  const header = ['SHORT LINK', 'PARTNER', 'STATE', 'URL'];
  return tableLines(header, rows, c);
}

/** `svc links create --partner <id> [--short-link …]`: prints the full URL the partner shares (`POST /api/v1/links`). */
export async function createLink(
  ctx: Context,
  apiKey: string,
  input: { partner: string | undefined; shortLink: string | undefined },
): Promise<void> {
  const partnerId = partnerIdOption(input.partner, true) as number;
  // The service's rule (@svc/types), checked here so a bad value is a usage error and nothing is sent.
  if (input.shortLink !== undefined && !shortLinkPattern.test(input.shortLink)) {
    throw new UsageError('--short-link must be 3 to 64 characters: letters, digits, _ or -.', 'links');
  }
  const { output } = ctx;
  const o = output.out;
  const { data: link } = await ctx
    .client(apiKey)
    .links.create({ partner_id: partnerId, ...(input.shortLink ? { short_link: input.shortLink } : {}) });
  output.say(o.green(`✔ Referral link ${link.short_link} created for partner ${link.partner_id}. The partner shares:`));
  output.say(`  ${o.bold(link.url)}`);
  output.next([
    'Visits through it are recorded once svc-tracker.js is on your site (svc init printed the tag).',
    `${o.cyan('svc status')}   see the first click arrive`,
  ]);
  output.document({ ok: true, link });
}

/** `svc links list [--partner <id>]`. */
export async function listLinks(ctx: Context, apiKey: string, input: { partner: string | undefined }): Promise<void> {
  const partnerId = partnerIdOption(input.partner, false);
  const { output } = ctx;
  const { data } = await ctx.client(apiKey).links.list(partnerId === undefined ? {} : { partner_id: partnerId });
  for (const line of linkLines(data.links, output.out)) output.say(line);
  output.document({ ok: true, links: data.links });
}

/** `svc links disable <short_link>`: clicks through it answer 410 and record nothing (`PATCH /api/v1/links/{short_link}`). */
export async function disableLink(ctx: Context, apiKey: string, shortLink: string | undefined): Promise<void> {
  if (!shortLink) throw new UsageError('Name the link: svc links disable <short_link> (svc links list shows them).', 'links');
  const { output } = ctx;
  const { data: link } = await ctx.client(apiKey).links.update(shortLink, { enabled: false });
  output.say(output.out.green(`✔ Referral link ${link.short_link} is off: visits through it are no longer recorded.`));
  output.document({ ok: true, link });
}
