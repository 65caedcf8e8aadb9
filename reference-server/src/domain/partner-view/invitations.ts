import type { components } from '@svc/types';
import { fail } from '../../errors/service-error';
import { answerInvitation } from '../../store/partners';
import type { Account } from '../../store/schema';
import type { DomainDeps } from '../deps';
import { positiveId } from '../partners/fields';

export type InvitationAnswer = components['schemas']['PartnerInvitationAnswer'];

/**
 * The invited account accepts (the program then shows in its partner view) or declines (the invitation leaves its
 * view; an accepted one may be declined to leave the program). Idempotent; a declined invitation cannot be
 * accepted (404, as a partner that is not the account's), the merchant invites again by setting the email anew.
 */
export async function answerPartnerInvitation(
  deps: Pick<DomainDeps, 'db'>,
  account: Account,
  rawPartnerId: unknown,
  answer: 'accept' | 'decline',
): Promise<InvitationAnswer> {
  const id = positiveId(rawPartnerId, 'partnerIdInvalid');
  const email = account.email.toLowerCase();
  const changed =
    answer === 'accept'
      ? await answerInvitation(deps.db, { id, email, from: ['pending', 'accepted'], to: 'accepted' })
      : await answerInvitation(deps.db, { id, email, from: ['pending', 'accepted', 'declined'], to: 'declined' });
  if (!changed) throw fail('partnerNotFound');
  return { partner_id: changed.id, invitation: changed.invitation };
}
