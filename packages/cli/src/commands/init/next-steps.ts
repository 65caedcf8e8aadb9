/** The server side (spec/rules.md "What the service does", item 9: sales from a server only), with `@svc/server`. */
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
