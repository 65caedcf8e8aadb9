import { escapeHtml, scriptSubmit } from './html';

/** What the settings page shows of the server's own configuration. */
export interface SettingsView {
  /** What to paste into Stripe's webhook endpoint form (docs/deploying.md, "Stripe"). */
  processorWebhook: { url: string; eventTypes: readonly string[]; secretConfigured: boolean };
  /** "Connect with Stripe" is configured (`SVC_STRIPE_CLIENT_ID`, `SVC_STRIPE_SECRET_KEY`). */
  stripeConnect: boolean;
  /** The tracker snippet with this program's id. */
  snippet: string;
}

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * The settings page's sections (their script: client/settings.ts): the API key and snippet, the program's settings,
 * and the payment processor.
 */
export function settingsSections(view: SettingsView): string {
  const webhook = view.processorWebhook;
  return `<div id="pv-newkey"></div>
      <div class="grid2">
        <div class="card" id="key-card">
          <h3>API key</h3>
          <p class="hint">Your server sends it as <code>Authorization: Bearer …</code> on sales and refunds. It is shown in full only once, when issued.</p>
          <div class="keybox"><code id="pv-key"></code></div>
          <button type="button" class="danger" id="regenerate-key">Regenerate key</button>
          <div id="regenerate-confirm" hidden>
            <p class="notice warn">The current key stops working immediately. Update <code>SVC_API_KEY</code> on your servers right after.</p>
            <button type="button" class="danger" id="regenerate-yes">Yes, regenerate</button>
            <button type="button" class="secondary" id="regenerate-no">Cancel</button>
          </div>
          <p class="muted" id="regenerate-owner-only" hidden>Only a workspace owner can regenerate the key.</p>
          <div id="key-result" aria-live="polite"></div>
          <h3 class="spaced">Tracker snippet</h3>
          <p class="hint">Paste on every page of your site, before <code>&lt;/head&gt;</code>. The first line lets <code>svc(…)</code> calls made before the script loads wait for it.</p>
          <pre class="snippet" id="pv-snippet" tabindex="0">${escapeHtml(view.snippet)}</pre>
        </div>
<form class="card" id="settings-form">
          <h3>Settings</h3>
          <label for="st-window">Attribution window (days)</label>
          <input id="st-window" name="attribution_window_days" type="number" min="1" max="365" required>
          <label for="st-leadauth">Lead authentication</label>
          <select id="st-leadauth" name="lead_auth">
            <option value="server_required">Server required (recommended)</option>
            <option value="browser_allowed">Browser allowed</option>
          </select>
          <p class="hint">Server required: a signup reported from the browser stays provisional until your server confirms it with the API key. Browser allowed: it counts at once.</p>
          <label for="st-origins">Allowed origins (one per line; empty = any origin)</label>
          <textarea id="st-origins" name="allowed_origins" placeholder="https://shop.example"></textarea>
          <label for="st-hold">Commission hold period (days, 0 to 365)</label>
          <input id="st-hold" name="commission_hold_days" type="number" min="0" max="365" required>
          <p class="hint">New commissions stay pending this long (your refund window), then become due. 0: due at once.</p>
          <label for="st-min-payout">Minimum payout (cents)</label>
          <input id="st-min-payout" name="min_payout_cents" type="number" min="0" step="1" required>
          ${scriptSubmit('Save settings')}
          <div id="settings-result" aria-live="polite"></div>
        </form>
      </div>
      <section class="card" id="processor-form" aria-labelledby="processor-title">
        <h3 id="processor-title">Payment processor</h3>
        <p class="hint">Stripe payments and full refunds are recorded automatically from its webhooks. Put <code>svc_click_id</code>, <code>svc_customer_key</code> and <code>program_id</code> in the checkout metadata (and in the subscription's metadata for renewals).</p>
        <div class="notice" id="processor-webhook">
          <p>In Stripe, add a webhook endpoint with this URL and these events:</p>
          <pre class="snippet" id="processor-webhook-url">${escapeHtml(webhook.url)}</pre>
          <p>${listed(webhook.eventTypes.map((type) => `<code>${escapeHtml(type)}</code>`))}</p>
          <p id="processor-secret-state">${
            webhook.secretConfigured
              ? 'Signing secret: configured on this server.'
              : 'Signing secret: not configured. Set <code>SVC_PROCESSOR_WEBHOOK_SECRET</code> to the endpoint&#39;s signing secret (<code>whsec_…</code>) and restart; until then the server refuses processor webhooks.'
          }</p>
        </div>
        <p>With your own Stripe account, that is all. A Stripe Connect platform connects each seller's account here: Stripe asks its owner to agree, which proves the account is theirs.</p>
        <p id="processor-state"></p>
        ${
          view.stripeConnect
            ? '<p id="processor-connect-row"><a class="button" id="processor-connect" href="/dashboard">Connect with Stripe</a></p>'
            : '<p class="muted" id="processor-connect-off">Connect with Stripe is not configured on this server (<code>SVC_STRIPE_CLIENT_ID</code>, <code>SVC_STRIPE_SECRET_KEY</code>).</p>'
        }
        <button type="button" class="secondary" id="processor-disconnect">Disconnect</button>
        <div id="processor-result" aria-live="polite"></div>
      </section>`;
}
