/**
 * One webhook endpoint's delivery history (its script: client/webhook-endpoint.ts): the section carries the
 * endpoint's id in `data-endpoint-id` (set by the page, or by the Webhooks section's "Deliveries" button), lists its
 * deliveries newest first with "Older deliveries", and for each the body sent, every attempt (when, how long, the
 * answer) and a Resend button. Stacked rows, so nothing is wider than a phone.
 */
export const webhookEndpointSection = `<section class="card" id="webhook-endpoint-card" data-endpoint-id="" aria-labelledby="webhook-endpoint-title" tabindex="-1" hidden>
        <h3 id="webhook-endpoint-title">Deliveries</h3>
        <p class="hint" id="webhook-endpoint-url"></p>
        <p class="hint">Each delivery is one event sent to this endpoint, retried on failure for about a day. Resend sends the same event again (same <code>webhook-id</code> and body) as a new delivery.</p>
        <div class="inline">
          <button type="button" class="secondary" id="webhook-endpoint-refresh">Refresh</button>
          <button type="button" class="secondary" id="webhook-endpoint-close">Close</button>
        </div>
        <div id="webhook-endpoint-result" aria-live="polite"></div>
        <ol class="feed-list" id="webhook-deliveries"></ol>
        <p class="muted" id="webhook-deliveries-empty" hidden>No deliveries yet.</p>
        <button type="button" class="secondary" id="webhook-deliveries-older" hidden>Older deliveries</button>
      </section>`;
