import { scriptSubmit } from './html';

/**
 * The Payouts section of a program (its script: client/payouts.ts): pick a partner, see what is due, confirm and
 * record the payout with how it was paid; the payout history with each payout's CSV; the commission CSV and the range
 * it will export. Filled from the partner and payout routes.
 */
export const payoutsSection = `<div class="card" id="payouts-card">
        <h3>Payouts</h3>
        <p class="hint">svc does not move money: pay the partner yourself (PayPal, Wise, a bank transfer), then record it here. Recording marks their due commissions paid. A refund after payment lowers the next payout.</p>
        <form id="payout-form">
          <label for="po-partner">Partner</label><select id="po-partner" name="partner_id" required></select>
          <p id="po-due" class="hint" aria-live="polite"></p>
          <div class="grid2">
            <div><label for="po-method">Method (optional)</label><input id="po-method" name="method" maxlength="100" placeholder="PayPal, Wise, bank transfer"></div>
            <div><label for="po-reference">Reference (optional)</label><input id="po-reference" name="reference" maxlength="200" placeholder="Transfer reference"></div>
          </div>
          <label for="po-note">Note (optional, only you see it)</label><textarea id="po-note" name="note" maxlength="1000"></textarea>
          ${scriptSubmit('Review payout')}
        </form>
        <div id="payout-confirm" class="confirm" hidden>
          <p id="payout-confirm-text"></p>
          <button type="button" id="payout-confirm-yes">Confirm payout</button>
          <button type="button" class="secondary" id="payout-confirm-no">Cancel</button>
        </div>
        <div id="payouts-result" aria-live="polite"></div>
        <h4>Payout history</h4>
        <div class="scroll" role="region" aria-label="Payout history" tabindex="0"><table><thead><tr><th>Date</th><th>Partner</th><th>Amount</th><th>Method</th><th>Reference</th><th>Recorded by</th><th><span class="visually-hidden">Actions</span></th></tr></thead>
        <tbody id="payouts-body"></tbody></table></div>
        <h4>Export commissions</h4>
        <div class="inline">
          <label for="csv-from">From</label><input id="csv-from" type="date">
          <label for="csv-to">To</label><input id="csv-to" type="date">
          <a id="csv-link" class="button secondary" href="#">Download CSV</a>
        </div>
        <p id="csv-range" class="hint" aria-live="polite"></p>
      </div>`;
