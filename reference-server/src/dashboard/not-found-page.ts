import { escapeHtml, page } from './html';

/** A dashboard address that names nothing this account may see (no such program, partner or endpoint, or another's). */
export function notFoundPage(message: string): string {
  return page(
    'Not found · svc',
    `<main class="narrow" id="main">
  <h1>Not found</h1>
  <p class="notice error" role="alert">${escapeHtml(message)}</p>
  <p><a href="/dashboard">Open the dashboard</a></p>
</main>`,
  );
}
