import { trackerSnippet } from '@svc/types';
import { dashboardAssetUrl } from './built-assets';
import { escapeHtml, page, scriptSubmit } from './html';
import { partnersSection, partnerViewSection } from './partners-section';
import { payoutsSection } from './payouts-section';
import { webhooksSection } from './webhooks-section';
import { commissionsSection } from './commissions-section';
import { auditSection } from './audit-section';
import { eventsSection } from './events-section';
import { teamSection } from './team-section';
import { webhookEndpointSection } from './webhook-endpoint-section';
import { riskSection } from './risk-section';

/** Where the page script puts the program id into the snippet. */
const programIdSlot = '{program_id}';

export interface DashboardView {
  email: string;
  publicUrl: string;
  /** `SVC_WORKSPACE_CREATORS` lets this account create programs; otherwise the page says how to get in instead. */
  canCreatePrograms: boolean;
  /** What to paste into Stripe's webhook endpoint form (docs/deploying.md, "Stripe"). */
  processorWebhook: { url: string; eventTypes: readonly string[]; secretConfigured: boolean };
  /** "Connect with Stripe" is configured (`SVC_STRIPE_CLIENT_ID`, `SVC_STRIPE_SECRET_KEY`). */
  stripeConnect: boolean;
}

/** The **New program** form, offered only to an account that may create programs. */
const newProgramForm = `<form class="card" id="new-program-form">
      <h3>New program</h3>
      <label for="np-name">Name</label><input id="np-name" name="name" required placeholder="Acme shop">
      <label for="np-domain">Website domain</label><input id="np-domain" name="domain" required placeholder="shop.example">
      <label for="np-type">Commission</label>
      <select id="np-type" name="commission_type">
        <option value="percent">Percent of the first sale</option>
        <option value="recurring_percent">Percent of every sale</option>
        <option value="fixed">Fixed amount on the first sale (cents)</option>
        <option value="recurring_fixed">Fixed amount on every sale (cents)</option>
      </select>
      <label for="np-rate">Rate</label><input id="np-rate" name="commission_rate" type="number" min="0" step="any" required value="20">
      ${scriptSubmit('Create program')}
      <div id="new-program-result" aria-live="polite"></div>
    </form>`;

/** What an account that may not create programs sees in the form's place (SVC_WORKSPACE_CREATORS). */
const newProgramClosed = `<div class="card" id="new-program-closed">
      <h3>New program</h3>
      <p class="hint">This account cannot create programs on this server. To work on a program, ask one of its workspace owners to invite you. Partner invitations appear on this page once a merchant adds your email.</p>
      <div id="new-program-result" aria-live="polite"></div>
    </div>`;

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The signed-in dashboard: a static frame the script (client/app.ts) fills from the dashboard routes. */
export function dashboardPage(view: DashboardView): string {
  const webhook = view.processorWebhook;
  return page(
    'Dashboard · svc',
    `<header class="top">
  <span class="brand">svc · affiliate tracking</span>
  <span>Signed in as <strong id="account-email">${escapeHtml(view.email)}</strong>
    <form method="post" action="/auth/sign-out"><button type="submit">Sign out</button></form></span>
</header>
<div class="layout" data-snippet="${escapeHtml(trackerSnippet(view.publicUrl, programIdSlot))}" id="app">
  <aside>
    <h2>Your programs</h2>
    <ul class="programs" id="program-list"><li class="muted">Loading…</li></ul>
    ${view.canCreatePrograms ? newProgramForm : newProgramClosed}
  </aside>
  <main>
    ${partnerViewSection}
    <section id="empty-view" class="card" hidden>
      <h3>Welcome</h3>
      <p class="hint">${
        view.canCreatePrograms
          ? 'Create your first program on the left. You will get its API key and the tracker snippet to paste on your site.'
          : 'You have no programs yet. Ask a workspace owner to invite you to theirs; invitations to be a partner show up on this page.'
      }</p>
    </section>
    <section id="program-view" hidden>
      <div class="title"><h1 id="pv-name"></h1><span class="badge" id="pv-role"></span><span class="muted" id="pv-domain"></span></div>
      <div id="pv-newkey"></div>
      <div class="grid2">
        <div class="card" id="status-card">
          <h3>Integration status</h3>
          <p class="hint">Real (non-test) events the service has seen for this program.</p>
          <div id="readiness-verdict"></div>
          <ul class="checklist" id="status-checklist"></ul>
        </div>
        <div class="card" id="verify-card">
          <h3>Verify your integration</h3>
          <p class="hint">Sends test-mode events through the same paths as your integration. Test events never count as real clicks, leads or sales and pay no commission.</p>
          <button type="button" id="run-verification">Run verification</button>
          <button type="button" class="secondary" data-test-event="click">Send test click</button>
          <button type="button" class="secondary" data-test-event="lead">Send test lead</button>
          <button type="button" class="secondary" data-test-event="sale">Send test sale</button>
          <div id="verify-result" aria-live="polite"></div>
        </div>
      </div>
      ${eventsSection}
      <div class="card" id="performance-card">
        <h3>Performance, last 30 days</h3>
        <div class="stats" id="perf-stats"></div>
        <div class="legend"><span><i class="swatch-click"></i>Clicks</span><span><i class="swatch-lead"></i>Leads</span><span><i class="swatch-sale"></i>Sales</span></div>
        <div id="perf-chart"></div>
        <table><thead><tr><th>Partner</th><th>Clicks</th><th>Leads</th><th>Sales</th><th>Revenue</th><th>Commissions</th><th>Click → sale</th></tr></thead>
        <tbody id="perf-partners"></tbody></table>
      </div>
      ${partnersSection}
      ${payoutsSection}
      ${commissionsSection}
      ${riskSection}
      ${webhooksSection}
      ${webhookEndpointSection}
      ${auditSection}
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
          <pre class="snippet" id="pv-snippet"></pre>
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
      </section>
      ${teamSection}
    </section>
  </main>
</div>`,
    [
      dashboardAssetUrl('app.js'),
      dashboardAssetUrl('partners.js'),
      dashboardAssetUrl('payouts.js'),
      dashboardAssetUrl('webhooks.js'),
      dashboardAssetUrl('commissions.js'),
      dashboardAssetUrl('audit.js'),
      dashboardAssetUrl('events.js'),
      dashboardAssetUrl('webhook-endpoint.js'),
      dashboardAssetUrl('team.js'),
      dashboardAssetUrl('risk.js'),
    ],
  );
}
