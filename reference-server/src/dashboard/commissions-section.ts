import { scriptSubmit } from './html';

/**
 * The Commissions section of a program (its script: client/commissions.ts): the commission list with its filters,
 * approve and decline (with a reason) on pending and held commissions, and an adjustment form (owners only). Filled
 * from `GET …/commissions`, `POST …/commissions/{id}/approve|decline` and `POST …/partners/{id}/adjustments`.
 */
export const commissionsSection = `<section class="card" id="commissions-card" aria-labelledby="commissions-title">
        <h3 id="commissions-title">Commissions</h3>
        <p class="hint">Newest first. <b>Pending</b>: the hold period (Settings) is still running; <b>held</b>: waiting for you (earned while the partner was suspended); <b>due</b>: paid by the next payout.</p>
        <form id="commissions-filter" class="inline">
          <label for="cm-status">Status</label>
          <select id="cm-status" name="status">
            <option value="">Any</option>
            <option value="pending">Pending</option><option value="held">Held</option><option value="due">Due</option>
            <option value="paid">Paid</option><option value="reversed">Reversed</option><option value="declined">Declined</option>
          </select>
          <label for="cm-partner">Partner id</label><input id="cm-partner" name="partner_id" type="number" min="1" inputmode="numeric">
          <label for="cm-from">From</label><input id="cm-from" name="from" type="date">
          <label for="cm-to">To</label><input id="cm-to" name="to" type="date">
          ${scriptSubmit('Show')}
        </form>
        <div id="commissions-result" aria-live="polite"></div>
        <div class="scroll" role="region" aria-label="Commissions" tabindex="0"><table id="commissions-table"><thead><tr><th>Id</th><th>Created</th><th>Partner</th><th>Kind</th><th>Amount</th><th>Status</th><th>Due</th><th>Actions</th></tr></thead>
        <tbody id="commissions-body"></tbody></table></div>
        <p class="muted" id="commissions-empty" hidden>No commissions match.</p>
        <button type="button" class="secondary" id="commissions-more" hidden>Show more</button>
        <form id="adjustment-form">
          <h4>Bonus or clawback</h4>
          <p class="hint">A due commission without a sale, in the partner's balance and next payout. Negative claws back. Owners only.</p>
          <label for="adj-partner">Partner id</label><input id="adj-partner" name="partner_id" type="number" min="1" required inputmode="numeric">
          <label for="adj-amount">Amount in cents (negative for a clawback)</label><input id="adj-amount" name="amount_cents" type="number" step="1" required>
          <label for="adj-currency">Currency</label>
          <select id="adj-currency" name="currency"><option>USD</option><option>EUR</option><option>VND</option></select>
          <label for="adj-reason">Reason</label><input id="adj-reason" name="reason" type="text" required maxlength="500">
          ${scriptSubmit('Record adjustment')}
        </form>
      </section>`;
