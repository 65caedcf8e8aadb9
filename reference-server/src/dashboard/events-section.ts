/**
 * The Events section of a program (its script: client/events.ts): the live feed, newest first, with partner names,
 * refunds on their sales and test events marked; filters by type and partner; "Older events" pages back. Rows are
 * a list that wraps at 390 px rather than a wide table.
 */
export const eventsSection = `<section class="card" id="events-card" aria-labelledby="events-title">
        <h3 id="events-title">Events <span class="badge" id="live-badge">live</span></h3>
        <p class="hint">Newest first; new events appear by themselves every few seconds. Test events are marked "test" and never count.</p>
        <div class="inline feed-filter">
          <label for="events-type">Type</label>
          <select id="events-type">
            <option value="">All types</option>
            <option value="click">Clicks</option>
            <option value="lead">Leads</option>
            <option value="sale">Sales</option>
            <option value="refund">Refunded sales</option>
          </select>
          <label for="events-partner">Partner</label>
          <select id="events-partner">
            <option value="">All partners</option>
          </select>
        </div>
        <div id="events-result" aria-live="polite"></div>
        <ol class="feed-list" id="events-list"></ol>
        <p class="muted" id="events-empty">No events yet. Send a test click, or open a referral link on your site.</p>
        <button type="button" class="secondary" id="events-older" hidden>Older events</button>
      </section>`;
