import { randomBytes } from 'node:crypto';
import type { StripeConnectConfig } from '../../../config';
import { fail } from '../../../errors/service-error';
import type { Role } from '../../../store/accounts';
import { insertConnectState } from '../../../store/processor-connect-states';
import type { Account, Program } from '../../../store/schema';
import type { DomainContext } from '../../context';
import { hashToken } from '../../login/opaque-token';

/** How long the owner has between leaving for Stripe and coming back (as a sign-in attempt). */
export const connectStateMs = 10 * 60_000;

/**
 * `GET /api/dashboard/programs/{programId}/processor/connect`: "Connect with Stripe" begins. Owners only (the bound
 * account decides which payments pay commissions). A fresh state, bound to this account and program and kept only
 * hashed, then Stripe's OAuth authorize URL (Stripe Connect, standard accounts: `scope=read_write`).
 */
export async function beginStripeConnect(
  deps: Pick<DomainContext, 'db' | 'clock'>,
  connect: StripeConnectConfig | undefined,
  request: { account: Account; program: Program; role: Role; redirectUri: string },
): Promise<URL> {
  if (request.role !== 'owner') throw fail('dashboardProcessorOwnerOnly');
  if (!connect) throw fail('stripeConnectNotConfigured');
  const state = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  await insertConnectState(deps.db, {
    stateHash: hashToken(state),
    accountId: request.account.id,
    programId: request.program.id,
    now,
    expiredBefore: now - connectStateMs,
  });
  const url = new URL('/oauth/authorize', connect.connectUrl);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: connect.clientId,
    scope: 'read_write',
    state,
    redirect_uri: request.redirectUri,
  }).toString();
  return url;
}
