import { scriptSubmit } from './html';

/**
 * The Partners section of a program (its script: client/partners.ts): add a partner, create and copy a link,
 * turn a link off, per-partner figures and terms. Filled from the partner routes (payouts: payouts-section.ts).
 */
export const partnersSection = `<div class="card" id="partners-card">
        <h3>Partners</h3>
        <p class="hint">Each partner shares their referral links; a visit through one is recorded as a click once the tracker snippet is on your site. Invite a partner by email: signing in with it, they accept the invitation, then see their own links and figures. A suspended partner's new commissions are held until you reactivate them.</p>
        <div class="scroll" role="region" aria-label="Partners and their figures" tabindex="0"><table><thead><tr><th>Partner</th><th>Status</th><th>Terms</th><th>Clicks</th><th>Leads</th><th>Sales</th><th>Revenue</th><th>Due</th><th>Held</th><th>Paid</th><th>Reversed</th><th>Balance</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody id="partners-body"></tbody></table></div>
        <div class="grid2">
          <form id="new-partner-form">
            <h4>Add a partner</h4>
            <label for="pa-name">Partner name</label><input id="pa-name" name="name" required maxlength="200" placeholder="Jane Doe">
            <label for="pa-email">Email (optional: their sign-in to the partner view)</label><input id="pa-email" name="email" type="email" placeholder="jane@example.com">
            ${scriptSubmit('Add partner')}
          </form>
          <form id="new-link-form">
            <h4>Create a referral link</h4>
            <label for="ln-partner">Partner</label><select id="ln-partner" name="partner_id" required></select>
            <label for="ln-short">Short link (optional: 3 to 64 letters, digits, _ or -)</label><input id="ln-short" name="short_link" pattern="[A-Za-z0-9_\\-]{3,64}" placeholder="generated when empty">
            ${scriptSubmit('Create link')}
          </form>
        </div>
        <form id="terms-form" hidden>
          <h4>Terms of <span id="terms-partner"></span></h4>
          <p class="hint">Applied to the sales recorded after you save; earlier commissions keep their amount.</p>
          <label for="terms-type">Commission type</label>
          <select id="terms-type"><option value="">The program's terms</option><option value="percent">percent</option><option value="fixed">fixed (cents)</option><option value="recurring_percent">recurring percent</option><option value="recurring_fixed">recurring fixed (cents)</option></select>
          <label for="terms-rate">Partner's rate</label><input id="terms-rate" type="number" min="0" step="any">
          ${scriptSubmit('Save terms')}
        </form>
        <div id="partners-result" aria-live="polite"></div>
        <h4>Referral links</h4>
        <div class="scroll" role="region" aria-label="Referral links" tabindex="0"><table><thead><tr><th>Partner</th><th>Link to share</th><th>State</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody id="links-body"></tbody></table></div>
      </div>`;

/** What a signed-in partner sees: invitations to accept or decline, and their own links and figures per accepted program. */
export const partnerViewSection = `<section id="partner-view" hidden>
      <h2>Your partner links</h2>
      <div id="partner-view-body"></div>
      <div id="partner-view-result" aria-live="polite"></div>
    </section>`;
