import { scriptSubmit } from './html';

/**
 * The Webhooks section of a program (its script: client/webhooks.ts): add an endpoint and copy its signing
 * secret (shown once), list endpoints with their recent deliveries, send a test event, pause and remove. Filled from
 * the webhook-endpoint routes (spec tag `outbound-webhooks`).
 */
export const webhooksSection = `<div class="card" id="webhooks-card">
        <h3>Webhooks</h3>
        <p class="hint">svc POSTs <code>lead.created</code>, <code>sale.created</code>, <code>commission.created</code>, <code>commission.updated</code>, <code>sale.refunded</code> and <code>payout.created</code> to your endpoints, signed per Standard Webhooks (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>). Verify them with <code>verifyWebhook</code> from <code>@svc/server/webhooks</code>. Failed deliveries are retried for about a day.</p>
        <form id="new-webhook-form">
          <label for="wh-url">Endpoint URL</label><input id="wh-url" name="url" type="url" required maxlength="2048" placeholder="https://shop.example/webhooks/svc">
          <fieldset id="wh-events" class="inline">
            <legend class="muted">Events (none ticked: all of them)</legend>
            <label><input type="checkbox" name="events" value="lead.created"> lead.created</label>
            <label><input type="checkbox" name="events" value="sale.created"> sale.created</label>
            <label><input type="checkbox" name="events" value="commission.created"> commission.created</label>
            <label><input type="checkbox" name="events" value="commission.updated"> commission.updated</label>
            <label><input type="checkbox" name="events" value="sale.refunded"> sale.refunded</label>
            <label><input type="checkbox" name="events" value="payout.created"> payout.created</label>
          </fieldset>
          ${scriptSubmit('Add endpoint')}
        </form>
        <div id="webhooks-result" aria-live="polite"></div>
        <div id="webhooks-list"></div>
      </div>`;
