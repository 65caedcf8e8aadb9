import { randomBytes } from 'node:crypto';
import { fail } from '../../errors/service-error';
import { findLinkInProgram, insertLink, listLinks, setLinkEnabledById } from '../../store/links';
import type { Kysely } from 'kysely';
import type { Database, Program, ReferralLink } from '../../store/schema';
import { isUniqueViolation } from '../../store/unique-violation';
import type { DomainContext } from '../context';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/record';
import { lockRow } from '../../store/row-lock';
import { enabledFlag, positiveId, shortLink } from './fields';
import { partnerOf } from './partners';
import { linkView, type LinkWire } from './view';

type Body = Record<string, unknown>;

/** 8 characters of [A-Za-z0-9_-]: 48 random bits, so a collision (retried) is rare even with millions of links. */
function generatedShortLink(): string {
  return randomBytes(6).toString('base64url');
}

/**
 * Creates a referral link for a partner of the program. `short_link` is the caller's (409 when taken, in any
 * program: the click route finds a link by it alone) or generated. A suspended partner may get links; they take
 * clicks once the partner is active again.
 */
export async function createLink(
  deps: Pick<DomainContext, 'db' | 'clock' | 'publicUrl'>,
  program: Program,
  body: Body,
  by: Actor,
): Promise<LinkWire> {
  if (body.partner_id === undefined) throw fail('partnerIdInvalid');
  const partnerId = positiveId(body.partner_id, 'partnerIdInvalid');
  const chosen = body.short_link === undefined ? undefined : shortLink(body.short_link);
  const partner = await partnerOf(deps, program, partnerId);
  for (let attempt = 0; ; attempt++) {
    const short = chosen ?? generatedShortLink();
    try {
      const now = deps.clock.now();
      // One transaction per attempt: a taken short link rolls back its own attempt only (PostgreSQL aborts it).
      const id = await deps.db.transaction().execute(async (trx) => {
        const id = await insertLink(trx, { programId: program.id, partnerId: partner.id, shortLink: short, now });
        const details = { partner_id: partner.id, short_link: short };
        await recordAudit(trx, { programId: program.id, actor: by, action: 'link.created', target: `link:${id}`, details, now });
        return id;
      });
      return linkView((await findLinkInProgram(deps.db, program.id, { id })) as ReferralLink, program.domain, deps.publicUrl);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      if (chosen !== undefined || attempt >= 2) throw fail('linkShortLinkTaken');
    }
  }
}

/** The program's links (with a partner), optionally one partner's; `partner_id` of another program is 404. */
export async function listProgramLinks(
  deps: Pick<DomainContext, 'db' | 'publicUrl'>,
  program: Program,
  rawPartnerId?: unknown,
): Promise<LinkWire[]> {
  let partnerId: number | undefined;
  if (rawPartnerId !== undefined) partnerId = (await partnerOf(deps, program, positiveId(rawPartnerId, 'partnerIdInvalid'))).id;
  return (await listLinks(deps.db, program.id, partnerId)).map((l) => linkView(l, program.domain, deps.publicUrl));
}

/**
 * The merchant turns a link of the program on or off (spec/rules.md "Resources/Referral link": "can be turned off by the partner or
 * the brand"): off is recorded as the merchant's, so the partner cannot turn it back on; on clears that.
 */
export async function setProgramLinkEnabled(
  deps: Pick<DomainContext, 'db' | 'clock' | 'publicUrl'>,
  program: Program,
  which: { id: number } | { shortLink: string },
  body: Body,
  by: Actor,
): Promise<LinkWire> {
  const enabled = enabledFlag(body.enabled);
  const link = await findLinkInProgram(deps.db, program.id, which);
  if (!link) throw fail('linkNotFound');
  const changed = await deps.db.transaction().execute(async (trx) => {
    // The partner's row holds their own link changes too, so the old state read here is the one replaced.
    if (link.partner_id !== null) await lockRow(trx, 'partners', link.partner_id);
    const before = (await findLinkInProgram(trx, program.id, { id: link.id })) as ReferralLink;
    const after = await setLinkEnabledById(trx, link.id, enabled);
    await recordLinkChange(trx, { programId: program.id, actor: by, now: deps.clock.now() }, before, after);
    return after;
  });
  return linkView(changed, program.domain, deps.publicUrl);
}

/** A link's on/off change, by the merchant or its partner; nothing when the link already was so. */
export async function recordLinkChange(
  trx: Kysely<Database>,
  audit: { programId: number; actor: Actor; now: number },
  before: ReferralLink,
  after: ReferralLink,
): Promise<void> {
  if (before.enabled === after.enabled && before.disabled_by === after.disabled_by) return;
  await recordAudit(trx, {
    ...audit,
    action: 'link.updated',
    target: `link:${after.id}`,
    details: {
      short_link: after.short_link,
      enabled: { from: before.enabled === 1, to: after.enabled === 1 },
      disabled_by: { from: before.disabled_by, to: after.disabled_by },
    },
  });
}
