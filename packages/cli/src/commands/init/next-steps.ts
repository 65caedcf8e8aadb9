/** §What the service does, 8: the tracker script and its program attribute. */
export function scriptTag(baseUrl: string, programId: number): string {
  return `<script src="${baseUrl}/js/svc-tracker.js" data-svc-program-id="${programId}" async></script>`;
}

/** The server side (§What the service does, 9: sales from a server only), with `@svc/server`. */
export function serverSnippet(baseUrl: string): string {
  return [
    "import { Svc } from '@svc/server';",
    '',
    `// Reads SVC_API_KEY; SVC_BASE_URL=${baseUrl}`,
    'const svc = new Svc();',
    '',
    "// At signup: the visitor's svc_click_id cookie and your stable user id.",
    'await svc.track.lead({ click_id: cookies.svc_click_id, customer_key: user.id, email: user.email });',
    '',
    '// After each payment, from your server only (amounts in cents).',
    "await svc.track.sale({ transaction_id: payment.id, amount_cents: 4900, currency: 'USD', customer_key: user.id });",
  ].join('\n');
}
