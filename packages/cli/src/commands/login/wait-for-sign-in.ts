import { catalogue, type CliAuthPollResponse } from '@svc/types';
import { SvcBadRequestError, type Svc } from '@svc/server';
import { CommandFailure } from '../../cli/failures';

export type CompletedLogin = Required<Pick<CliAuthPollResponse['data'], 'token' | 'token_expires_at' | 'account_id' | 'email'>> &
  Pick<CliAuthPollResponse['data'], 'advertiser_id'>;

/** spec/rules.md "Limits": a CLI login session expires after 5 minutes. */
export const loginSessionMs = 5 * 60_000;

export interface WaitOptions {
  state: string;
  pollIntervalSeconds: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Called before each poll (the spinner's elapsed-time message). */
  onPoll?: (elapsedMs: number) => void;
}

export const expiredFailure = () =>
  new CommandFailure(
    'The sign-in link expired before you signed in (login sessions last 5 minutes).',
    'login_expired',
    'Run svc login again for a new link.',
  );

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `auth/poll` every `poll_interval_seconds` until the session is complete (spec/rules.md "CLI routes": the token comes
 * once, on the first poll after sign-in) or expired. The server's clock decides expiry; the local deadline
 * only stops a CLI talking to a server that never answers `expired`.
 */
export async function waitForSignIn(client: Svc, options: WaitOptions): Promise<CompletedLogin> {
  const sleep = options.sleep ?? sleepFor;
  const now = options.now ?? Date.now;
  const started = now();
  const intervalMs = Math.max(1, options.pollIntervalSeconds) * 1000;
  for (;;) {
    options.onPoll?.(now() - started);
    const { data } = await client.cli.authPoll(options.state).catch((error: unknown) => {
      throw consumedFailure(error) ?? error;
    });
    if (data.status === 'complete') {
      if (data.token === undefined || data.token_expires_at === undefined || data.account_id === undefined || data.email === undefined) {
        throw new CommandFailure('The service answered "complete" without a login token.', 'login_incomplete', 'Run svc login again.');
      }
      const { token, token_expires_at, account_id, email, advertiser_id } = data;
      return { token, token_expires_at, account_id, email, ...(advertiser_id === undefined ? {} : { advertiser_id }) };
    }
    if (data.status === 'expired' || now() - started > loginSessionMs + intervalMs) throw expiredFailure();
    await sleep(intervalMs);
  }
}

/** spec/rules.md "CLI errors", poll 400 `Session already consumed`: another process took this session's token. */
function consumedFailure(error: unknown): CommandFailure | undefined {
  if (!(error instanceof SvcBadRequestError) || error.code !== catalogue.pollSessionConsumed.clientCode) return undefined;
  return new CommandFailure(
    'Session already consumed: this sign-in was already used to issue a login token (another svc login, or a second poll).',
    'session_consumed',
    'Run svc login again to sign in on this machine.',
    error.requestId,
  );
}
