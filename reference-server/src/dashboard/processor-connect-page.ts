import { escapeHtml, page } from './html';

/**
 * The page "Connect with Stripe" ends on when it could not bind the account: what happened (the catalogue's message,
 * and Stripe's own words when it gave any) and the way back to the program's settings.
 */
export function connectFailedPage(view: { message: string; stripeSays: string | undefined; backTo: string }): string {
  return page(
    'Stripe not connected · svc',
    `<main class="narrow">
  <h1>Stripe not connected</h1>
  <p class="notice error" role="alert">${escapeHtml(view.message)}</p>
  ${view.stripeSays === undefined ? '' : `<p>Stripe said: ${escapeHtml(view.stripeSays)}</p>`}
  <p><a class="button" id="back-to-dashboard" href="${escapeHtml(view.backTo)}">Back to the dashboard</a></p>
</main>`,
  );
}
