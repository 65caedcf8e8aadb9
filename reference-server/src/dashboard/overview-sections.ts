import { escapeHtml } from './html';

/**
 * The overview page's sections (their script: client/overview.ts): integration status, verification, and the
 * performance report for the period in the address (`?days=` or `?from=&to=`), with the period before it beside it.
 */
export const statusSections = `<div class="grid2">
        <section class="card" id="status-card" aria-labelledby="status-title">
          <h2 id="status-title">Integration status</h2>
          <p class="hint">Real (non-test) events the service has seen for this program.</p>
          <div id="readiness-verdict"></div>
          <ul class="checklist" id="status-checklist"></ul>
        </section>
        <section class="card" id="verify-card" aria-labelledby="verify-title">
          <h2 id="verify-title">Verify your integration</h2>
          <p class="hint">Sends test-mode events through the same paths as your integration. Test events never count as real clicks, leads or sales and pay no commission.</p>
          <div class="actions">
            <button type="button" id="run-verification">Run verification</button>
            <button type="button" class="secondary" data-test-event="click">Send test click</button>
            <button type="button" class="secondary" data-test-event="lead">Send test lead</button>
            <button type="button" class="secondary" data-test-event="sale">Send test sale</button>
          </div>
          <div id="verify-result" aria-live="polite"></div>
        </section>
      </div>`;

/** The periods offered as links; a custom one is the form's `from` and `to`. */
const presets = [
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
];

/** What the address asks the report for: `days`, or `from` and `to` (checked by the performance route, not here). */
export interface RangeQuery {
  days?: string;
  from?: string;
  to?: string;
}

/**
 * The period control: links for 7, 30 and 90 days and this month, and a form for any other period. It is a plain
 * GET form, so each choice is an address (reload, back button, a shared link keep it) and works without the script.
 */
export function rangeControl(query: RangeQuery, today: string): string {
  const custom = query.from !== undefined || query.to !== undefined;
  const monthStart = `${today.slice(0, 8)}01`;
  const thisMonth = custom && query.from === monthStart && query.to === today;
  const days = custom ? undefined : (query.days ?? '30');
  const link = (href: string, label: string, current: boolean) =>
    `<li><a class="chip" href="${escapeHtml(href)}"${current ? ' aria-current="true"' : ''}>${escapeHtml(label)}</a></li>`;
  return `<nav class="range" aria-label="Report period">
          <ul class="chips">
            ${presets.map((p) => link(`?days=${p.days}`, p.label, days === String(p.days))).join('\n            ')}
            ${link(`?from=${monthStart}&to=${today}`, 'This month', thisMonth)}
          </ul>
          <form class="inline" method="get" id="range-form">
            <label for="range-from">From</label><input id="range-from" name="from" type="date" required value="${escapeHtml(query.from ?? '')}">
            <label for="range-to">To</label><input id="range-to" name="to" type="date" required value="${escapeHtml(query.to ?? '')}">
            <button type="submit" class="secondary">Show</button>
          </form>
        </nav>`;
}

/** The performance report: figures against the previous period, the chart by day (and its table), partners. */
export function performanceSection(query: RangeQuery, today: string): string {
  return `<section class="card" id="performance-card" aria-labelledby="performance-title">
        <h2 id="performance-title">Performance</h2>
        ${rangeControl(query, today)}
        <p class="hint" id="perf-period" aria-live="polite"></p>
        <div id="perf-result" aria-live="polite"></div>
        <div class="stats" id="perf-stats"></div>
        <p class="hint">Conversion rates count each customer once per stage: of the period's clicks, those that became a lead, and of those, the ones who bought (a refunded sale does not count). They never pass 100 %.</p>
        <div class="legend" aria-hidden="true"><span><i class="swatch-click"></i>Clicks</span><span><i class="swatch-lead"></i>Leads</span><span><i class="swatch-sale"></i>Sales</span></div>
        <div id="perf-chart"></div>
        <details class="chart-table">
          <summary>The chart as a table</summary>
          <div class="scroll" role="region" aria-label="Clicks, leads and sales per day" tabindex="0">
            <table><thead><tr><th scope="col">Day</th><th scope="col">Clicks</th><th scope="col">Leads</th><th scope="col">Sales</th></tr></thead>
            <tbody id="perf-days"></tbody></table>
          </div>
        </details>
        <h3>By partner</h3>
        <div class="scroll" role="region" aria-label="Performance by partner" tabindex="0">
          <table><thead><tr><th scope="col">Partner</th><th scope="col">Clicks</th><th scope="col">Leads</th><th scope="col">Sales</th><th scope="col">Revenue</th><th scope="col">Commissions</th><th scope="col">Click → sale</th></tr></thead>
          <tbody id="perf-partners"></tbody></table>
        </div>
      </section>`;
}
