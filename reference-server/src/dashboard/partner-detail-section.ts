/**
 * One partner's page (its script: client/partner-detail.ts): their figures and terms, links, commissions, payouts
 * and the audit entries about them. The section names the partner (`data-partner-id`), the page's root the program.
 */
export function partnerDetailSection(programId: number, partnerId: number): string {
  const back = `/dashboard/programs/${programId}/partners`;
  return `<section id="partner-detail" data-partner-id="${partnerId}" aria-labelledby="page-title">
        <p><a href="${back}">← All partners</a></p>
        <div id="partner-result" aria-live="polite"></div>
        <div class="card" id="partner-summary">
          <h2 id="partner-name">Partner</h2>
          <p class="hint" id="partner-terms"></p>
          <div class="stats" id="partner-figures"></div>
        </div>
        <section class="card" aria-labelledby="partner-links-title">
          <h2 id="partner-links-title">Links</h2>
          <ul class="partner-links" id="partner-links"></ul>
        </section>
        <section class="card" aria-labelledby="partner-commissions-title">
          <h2 id="partner-commissions-title">Latest commissions</h2>
          <div class="scroll" role="region" aria-label="The partner's latest commissions" tabindex="0">
            <table><thead><tr><th scope="col">Created</th><th scope="col">Amount</th><th scope="col">Status</th><th scope="col">Sale</th></tr></thead>
            <tbody id="partner-commissions"></tbody></table>
          </div>
        </section>
        <section class="card" aria-labelledby="partner-payouts-title">
          <h2 id="partner-payouts-title">Payouts</h2>
          <ul id="partner-payouts"></ul>
        </section>
        <section class="card" aria-labelledby="partner-audit-title">
          <h2 id="partner-audit-title">Audit entries</h2>
          <p class="hint">Changes to this partner (terms, status, invitation), newest first.</p>
          <ol class="audit-list" id="partner-audit"></ol>
        </section>
      </section>`;
}
