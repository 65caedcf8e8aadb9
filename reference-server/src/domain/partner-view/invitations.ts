import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { answerInvitation, findPartnerOfEmail } from '../../store/partners';
import { lockRow } from '../../store/row-lock';
import type { Account, PartnerInvitation } from '../../store/schema';
import { accountActor } from '../audit/actor';
import { recordAudit } from '../audit/record';
import type { DomainContext } from '../context';
import { positiveId } from '../partners/fields';

export type InvitationAnswer = components['schemas']['PartnerInvitationAnswer'];

/**
 * The invited account accepts (the program then shows in its partner view) or declines (the invitation leaves its
 * view; an accepted one may be declined to leave the program). Idempotent; a declined invitation cannot be
 * accepted (404, as a partner that is not the account's), the merchant invites again by setting the email anew.
 * A change of the answer is in the program's audit log under the partner's account (who joined or left).
 */
export async function answerPartnerInvitation(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  account: Account,
  rawPartnerId: unknown,
  answer: 'accept' | 'decline',
): Promise<InvitationAnswer> {
  const id = positiveId(rawPartnerId, 'partnerIdInvalid');
  const email = account.email.toLowerCase();
  const from: PartnerInvitation[] = answer === 'accept' ? ['pending', 'accepted'] : ['pending', 'accepted', 'declined'];
  const to = answer === 'accept' ? 'accepted' : 'declined';
  const changed = await deps.db.transaction().execute(async (trx) => {
    // Read under the partner's row lock: the entry's old state is the one this answer replaced.
    await lockRow(trx, 'partners', id);
    const before = await findPartnerOfEmail(trx, id, email);
    const after = await answerInvitation(trx, { id, email, from, to });
    if (before && after && before.invitation !== after.invitation) {
      await recordAudit(trx, {
        programId: after.program_id,
        actor: accountActor(account),
        action: 'partner.invitation_answered',
        target: `partner:${id}`,
        details: { invitation: { from: before.invitation, to: after.invitation } },
        now: deps.clock.now(),
      });
    }
    return after;
  });
  if (!changed) throw fail('partnerNotFound');
  return { partner_id: changed.id, invitation: changed.invitation };
}
