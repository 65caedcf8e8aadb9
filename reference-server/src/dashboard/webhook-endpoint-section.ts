/**
 * A webhook endpoint's page (its script: client/webhook-endpoint.ts): the endpoint's address, state and events, then
 * its deliveries newest first with "Older deliveries", and for each the body sent, every attempt (when, how long, the
 * answer) and a Resend button. The section names the endpoint (`data-endpoint-id`), the page's root the program.
 * Stacked rows, so nothing is wider than a phone.
 */
export function webhookEndpointSection(programId: number, endpointId: number): string {
  return `<section class="card" id="webhook-endpoint-card" data-endpoint-id="${endpointId}" aria-labelledby="webhook-endpoint-url">
        <p><a href="/dashboard/programs/${programId}/webhooks">← All endpoints</a></p>
        <h2 class="mono" id="webhook-endpoint-url">Endpoint</h2>
        <dl class="facts" id="webhook-endpoint-facts"></dl>
        <h3 id="webhook-deliveries-title">Deliveries</h3>
        <p class="hint">Each delivery is one event sent to this endpoint, retried on failure for about a day. Resend sends the same event again (same <code>webhook-id</code> and body) as a new delivery.</p>
        <button type="button" class="secondary" id="webhook-endpoint-refresh">Refresh</button>
        <div id="webhook-endpoint-result" aria-live="polite"></div>
        <ol class="feed-list" id="webhook-deliveries" aria-labelledby="webhook-deliveries-title"></ol>
        <p class="muted" id="webhook-deliveries-empty" hidden>No deliveries yet.</p>
        <button type="button" class="secondary" id="webhook-deliveries-older" hidden>Older deliveries</button>
      </section>`;
}
