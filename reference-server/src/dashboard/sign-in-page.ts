import { escapeHtml, page } from './html';

export interface SignInView {
  /** The CLI login session being completed; absent when signing in to the dashboard. */
  state?: string;
  email?: string;
  error?: string;
}

/** The development identity provider's sign-in form (§CLI routes: the browser half of the CLI login). */
export function signInPage(view: SignInView): string {
  const forCli = view.state !== undefined;
  const lead = forCli
    ? 'Sign in to finish logging in the <code>svc</code> command-line tool.'
    : 'Sign in to manage your affiliate programs.';
  const error = view.error ? `<p class="notice error" role="alert">${escapeHtml(view.error)}</p>` : '';
  return page(
    'Sign in · svc',
    `<main class="narrow">
  <h1>Sign in to svc</h1>
  <p>${lead}</p>
  <p class="muted">Development sign-in: enter any email address. An account is created the first time you use it.</p>
  ${error}
  <form method="post" action="/auth/sign-in" class="card">
    <label for="email">Email address</label>
    <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(view.email ?? '')}">
    ${forCli ? `<input type="hidden" name="state" value="${escapeHtml(view.state ?? '')}">` : ''}
    <button type="submit">Sign in</button>
  </form>
</main>`,
  );
}

/** Shown after the CLI login completed in the browser. */
export function cliSignedInPage(email: string): string {
  return page(
    'Signed in · svc',
    `<main class="narrow">
  <h1>You are signed in</h1>
  <p class="notice ok">Signed in as <strong>${escapeHtml(email)}</strong>. Return to your terminal: the <code>svc</code> command-line tool picks up the login within a few seconds.</p>
  <p>You can close this tab, or <a href="/dashboard">open the dashboard</a>.</p>
</main>`,
  );
}

/** A sign-in that cannot go on (suspended account, expired CLI session). */
export function signInFailedPage(message: string, retryHint: string): string {
  return page(
    'Sign-in failed · svc',
    `<main class="narrow">
  <h1>Sign-in failed</h1>
  <p class="notice error" role="alert">${escapeHtml(message)}</p>
  <p>${escapeHtml(retryHint)}</p>
</main>`,
  );
}
