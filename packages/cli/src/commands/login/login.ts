import type { Context } from '../../cli/context';
import { saveLogin } from '../../config/config-file';
import { startSpinner } from '../../output/spinner';
import { openBrowser, refusalToOpen } from './open-browser';
import { waitForSignIn, type CompletedLogin, type WaitOptions } from './wait-for-sign-in';

export interface LoginOptions {
  /** `--no-browser`: only print the sign-in URL. */
  browser: boolean;
}

/** `svc login`: auth/start → browser sign-in → auth/poll → login token stored with mode 0600. */
export async function login(ctx: Context, options: LoginOptions): Promise<void> {
  const { output } = ctx;
  const client = ctx.client();
  const { data: session } = await client.cli.authStart();
  const { io } = output;
  // A browser only helps someone sitting at this terminal.
  const attended = io.stdin.isTTY === true && io.stderr.isTTY === true;
  const refusal = refusalToOpen(session.sign_in_url, ctx.baseUrl);
  const c = output.err;
  if (refusal && options.browser && attended) output.note(c.yellow(`Not opening the sign-in URL in your browser: ${refusal}.`));
  const opened = options.browser && attended && !refusal && (await openBrowser(session.sign_in_url, io.env));
  output.note(opened ? 'Opened your browser to sign in. If it did not open, visit:' : 'Open this URL in a browser to sign in:');
  output.note(`  ${c.cyan(session.sign_in_url)}`);
  output.note(c.dim(`  The link expires at ${session.expires_at}.`));
  // The browser shows this code beside Authorize; a different code there means someone else's sign-in link.
  output.note(`Your code: ${c.bold(session.user_code)}. Press Authorize in the browser only if it shows the same code.`);

  const completed = await withSpinner(ctx, (onPoll) =>
    waitForSignIn(client, { state: session.state, pollIntervalSeconds: session.poll_interval_seconds, onPoll }),
  );
  await saveLogin(ctx.configPath, ctx.baseUrl, { ...completed, signed_in_at: new Date().toISOString() });

  const o = output.out;
  output.say(`${o.green('✔')} Signed in to ${ctx.baseUrl} as ${o.bold(completed.email)}.`);
  output.say(`  Login token saved to ${ctx.configPath} (readable only by you), valid until ${completed.token_expires_at}.`);
  output.next([`${o.cyan('svc init')}       create a program and get its key`, `${o.cyan('svc programs')}   list your programs`]);
  output.document({
    ok: true,
    status: 'signed_in',
    base_url: ctx.baseUrl,
    email: completed.email,
    account_id: completed.account_id,
    advertiser_id: completed.advertiser_id ?? null,
    token_expires_at: completed.token_expires_at,
    config_path: ctx.configPath,
  });
}

/** A spinner on a terminal's stderr; elsewhere one "waiting" line, so logs do not fill with frames. */
async function withSpinner(
  ctx: Context,
  wait: (onPoll: NonNullable<WaitOptions['onPoll']>) => Promise<CompletedLogin>,
): Promise<CompletedLogin> {
  const { output } = ctx;
  if (output.io.stderr.isTTY !== true) {
    output.note('Waiting for you to sign in…');
    return wait(() => undefined);
  }
  const c = output.err;
  const spin = startSpinner(output.io.stderr, c, 'Waiting for you to sign in');
  // Ctrl+C: say so, and exit like an interrupted program (128 + SIGINT).
  const interrupted = () => {
    spin.stop(c.yellow('Login cancelled: nothing was stored.'));
    process.exit(130);
  };
  process.once('SIGINT', interrupted);
  try {
    const completed = await wait((elapsed) => spin.message(`Waiting for you to sign in (${Math.round(elapsed / 1000)} s)`));
    spin.stop(`${c.green('✔')} Signed in`);
    return completed;
  } catch (error) {
    spin.stop(`${c.red('✖')} Not signed in`);
    throw error;
  } finally {
    process.removeListener('SIGINT', interrupted);
  }
}
