import type { StripeConnectConfig } from '../../../config';
import { fail } from '../../../errors/service-error';
import { findConnectState, useConnectState } from '../../../store/processor-connect-states';
import type { Account } from '../../../store/schema';
import { accountActor } from '../../audit/actor';
import { requireMembership } from '../../dashboard/access';
import type { DomainContext } from '../../context';
import { hashToken } from '../../login/opaque-token';
import { connectStateMs } from './begin';
import { bindProcessorAccount } from './bind';
import { exchangeConnectCode } from './token';

export interface ConnectCallback {
  state: string | undefined;
  code: string | undefined;
  /** Stripe's `error` (e.g. `access_denied` when the owner declined). */
  error: string | undefined;
}

/**
 * `GET /processor/callback`: the state must be one this server issued to this signed-in account, unused and under
 * 10 minutes old; it is used up before anything else, so a replayed callback is refused. The account must still
 * own the program. A declined consent ends here; otherwise the code is exchanged and the account Stripe names is
 * bound to the program, moved from any program that held it (`bind.ts`, with its audit entries). Answers the program id.
 */
export async function finishStripeConnect(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  connect: StripeConnectConfig,
  account: Account,
  callback: ConnectCallback,
): Promise<{ programId: number; processorAccount: string }> {
  const now = deps.clock.now();
  const attempt = callback.state === undefined ? undefined : await findConnectState(deps.db, hashToken(callback.state));
  if (!attempt || attempt.account_id !== account.id || now - attempt.created_at > connectStateMs) throw fail('stripeConnectStateInvalid');
  if (!(await useConnectState(deps.db, attempt.id, now))) throw fail('stripeConnectStateInvalid');
  const { role } = await requireMembership(deps, account, attempt.program_id);
  if (role !== 'owner') throw fail('dashboardProcessorOwnerOnly');
  if (callback.error !== undefined) throw fail('stripeConnectDenied', { details: { stripe_error: callback.error } });
  if (callback.code === undefined) throw fail('stripeConnectRefused');

  const processorAccount = await exchangeConnectCode(connect, callback.code);
  await bindProcessorAccount(deps, attempt.program_id, processorAccount, accountActor(account));
  return { programId: attempt.program_id, processorAccount };
}
