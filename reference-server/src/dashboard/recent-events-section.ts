/**
 * The program's recent events (its script: client/recent-events.ts), newest first, polled every few seconds. The
 * events page's body until the events feed section takes its place (program-pages.ts).
 */
export const recentEventsSection = `<section class="card" id="events-card" aria-labelledby="events-title">
        <h2 id="events-title">Recent events <span class="badge" id="live-badge">live</span></h2>
        <p class="hint">Newest first; updates by itself every few seconds.</p>
        <div class="scroll" role="region" aria-label="Recent events" tabindex="0">
          <table><thead><tr><th scope="col">When</th><th scope="col">Type</th><th scope="col">Partner</th><th scope="col">Click / customer</th><th scope="col">Amount</th><th scope="col"><span class="visually-hidden">Test</span></th></tr></thead>
          <tbody id="events-body"></tbody></table>
        </div>
        <p class="muted" id="events-empty">No events yet. Send a test click from the overview, or open a referral link on your site.</p>
      </section>`;
