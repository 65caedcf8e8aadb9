import { escapeHtml, page } from './html';

export interface SignInView {
  /** The CLI login session being completed; absent when signing in to the dashboard. */
  state?: string;
  email?: string;
  error?: string;
  /** The form's CSRF token (bound to the browser's `svc_form` cookie). */
  csrf: string;
  /** OpenID Connect is configured too: offer it beside the dev form. */
  oidc: boolean;
  /** Shown above the form (the demo names its accounts). */
  hint?: string | undefined;
}

/** The development sign-in form (spec/rules.md "CLI routes": the browser half of the CLI login). */
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
  ${view.oidc ? `<p><a class="button" href="${escapeHtml(oidcHref(view.state))}">Sign in with your identity provider</a></p>` : ''}
  <p class="muted">Development sign-in (SVC_DEV_SIGN_IN): enter any email address. An account is created the first time you use it.</p>
  ${view.hint ? `<p class="notice ok" id="sign-in-hint">${escapeHtml(view.hint)}</p>` : ''}
  ${error}
  <form method="post" action="/auth/sign-in" class="card">
    <label for="email">Email address</label>
    <input id="email" name="email" type="email" autocomplete="email" required value="${escapeHtml(view.email ?? '')}">
    ${forCli ? `<input type="hidden" name="state" value="${escapeHtml(view.state ?? '')}">` : ''}
    <input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
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

const oidcHref = (state: string | undefined) =>
  `/auth/sign-in?provider=oidc${state === undefined ? '' : `&state=${encodeURIComponent(state)}`}`;

/** The signed-out dashboard: one button into whichever sign-in the server has. */
export function signedOutPage(): string {
  return page(
    'Sign in · svc',
    `<main class="narrow">
  <h1>svc dashboard</h1>
  <p>Sign in to manage your affiliate programs, partners and payouts.</p>
  <p><a class="button" id="sign-in" href="/auth/sign-in">Sign in</a></p>
</main>`,
  );
}

/** Neither OpenID Connect nor the development sign-in is configured (docs/deploying.md, "Sign-in"). */
export function signInNotConfiguredPage(message: string): string {
  return page(
    'Sign-in not configured · svc',
    `<main class="narrow">
  <h1>Sign-in is not configured</h1>
  <p class="notice error" role="alert">${escapeHtml(message)}</p>
</main>`,
  );
}

/**
 * The last step of a CLI login: the person compares the code with the one `svc login` printed and presses
 * Authorize. The hidden token is the form's CSRF protection and names the login.
 */
export function authorizeCliPage(view: { email: string; userCode: string; confirmToken: string }): string {
  return page(
    'Authorize the svc CLI · svc',
    `<main class="narrow">
  <h1>Authorize the svc command-line tool?</h1>
  <p>Signed in as <strong>${escapeHtml(view.email)}</strong>. Check that your terminal shows this code:</p>
  <p class="user-code" id="user-code">${escapeHtml(view.userCode)}</p>
  <p class="notice warn">Only continue if you ran <code>svc login</code> yourself and the codes match. If they differ, close this tab: someone else is trying to sign in as you.</p>
  <form method="post" action="/auth/cli/authorize" class="card">
    <input type="hidden" name="confirm" value="${escapeHtml(view.confirmToken)}">
    <button type="submit" id="authorize">Authorize</button>
  </form>
</main>`,
  );
}
