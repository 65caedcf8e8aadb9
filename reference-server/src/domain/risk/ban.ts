import type { Kysely } from 'kysely';
import { declineCommissions, disableLinksOfPartner, openCommissionsOfPartner } from '../../store/ban';
import { updatePartner } from '../../store/partners';
import type { Database, Partner } from '../../store/schema';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/record';
import { commissionWireStatus } from '../commissions/status';
import { queueCommissionUpdated } from '../commissions/updated-event';

/**
 * A decline with `ban: true` (spec, `dashboardDeclineCommission`): in `trx`, the decline's transaction, on the
 * partner's row lock, suspends the partner, turns off their links and declines their other unpaid commissions with
 * the same reason; each declined one sends `commission.updated`, and one `partner.banned` entry records it all. A ban
 * that changes nothing (sent again) records nothing.
 */
export async function banPartner(
  trx: Kysely<Database>,
  ban: { programId: number; partner: Partner; by: Actor; reason: string; now: number },
): Promise<void> {
  const { partner, now } = ban;
  if (partner.status !== 'suspended') await updatePartner(trx, partner.id, { status: 'suspended' });
  const links = await disableLinksOfPartner(trx, partner.id);
  const open = await openCommissionsOfPartner(trx, partner.id);
  const before = new Map(open.map((row) => [row.id, commissionWireStatus(row, now)]));
  const declined = await declineCommissions(
    trx,
    open.map((row) => row.id),
    { reason: ban.reason, by: ban.by.accountId, now },
  );
  for (const row of declined) await queueCommissionUpdated(trx, row, before.get(row.id)!, now);
  if (partner.status === 'suspended' && links.length === 0 && declined.length === 0) return;
  const totals = new Map<string, number>();
  for (const row of declined) totals.set(row.currency, (totals.get(row.currency) ?? 0) + Number(row.amount_cents));
  await recordAudit(trx, {
    programId: ban.programId,
    actor: ban.by,
    action: 'partner.banned',
    target: `partner:${partner.id}`,
    details: {
      status: { from: partner.status, to: 'suspended' },
      links,
      commissions: {
        count: declined.length,
        ids: declined.map((row) => row.id),
        totals: [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([currency, amount_cents]) => ({ currency, amount_cents })),
      },
    },
    reason: ban.reason,
    now,
  });
}
