/**
 * The overview page (served as /dashboard/assets/overview.js): integration status, readiness, verification and the
 * performance report for the period in the page's address (`?days=` or `?from=&to=`, kept there by the period
 * control in overview-sections.ts), against the period before it.
 */
import { drawChart, type Day } from './chart';
import { $, type Answer, all, clear, el, messageOf, notice, when } from './dom';
import { count, money, pct } from './format';
import { onProgram, type OpenProgram } from './program-event';
import { api } from './session-api';

type Performance = Answer<'dashboardPerformance'>['data'];
let current: OpenProgram | null = null;
let lastDays: Day[] = [];
/** What the status card counted last: when it changes, the rest is read again. */
let seen = '';

function program(): OpenProgram {
  if (!current) throw new Error('No program is open.');
  return current;
}

async function loadStatus(id: number): Promise<void> {
  const d = (await api<Answer<'dashboardStatus'>>('GET', '/api/tracking/status/' + id)).data;
  seen = JSON.stringify(d.metrics);
  const i = d.integration;
  const list = clear($('status-checklist'));
  const rows: [label: string, done: boolean, detail: string, optional?: boolean][] = [
    ['Tracker script: a real click from your site', i.tracker_seen, count(d.metrics.clicks, 'click', 'clicks') + ' so far'],
    ['Signups (leads) reported', i.leads_seen, count(d.metrics.leads, 'lead', 'leads') + ' so far'],
    ['Sales reported', i.sales_seen, count(d.metrics.sales, 'sale', 'sales') + ' so far'],
    ['Payment processor connected (optional)', i.processor_connected, i.processor_account || 'not connected', true],
  ];
  for (const [label, done, detail, optional] of rows) {
    const badge = done
      ? el('span', { className: 'badge ok', text: 'done' })
      : el('span', { className: optional ? 'badge' : 'badge warn', text: optional ? 'optional' : 'not yet' });
    list.appendChild(
      el('li', {}, [el('span', { text: label }), el('span', {}, [el('span', { className: 'muted', text: detail + ' ' }), badge])]),
    );
  }
  list.appendChild(
    el('li', {}, [el('span', { text: 'Last event' }), el('span', { className: 'muted', text: when(i.last_event_at, 'never') })]),
  );
}

const verdicts: Record<Answer<'dashboardReadiness'>['data']['verdict'], string> = {
  ready: 'Ready: real clicks, leads and sales are all arriving from your site.',
  in_progress: 'In progress: some real events have arrived from your site.',
  not_started: 'Not started: no real events from your site yet (test events do not count).',
};

async function loadReadiness(id: number): Promise<void> {
  const r = (await api<Answer<'dashboardReadiness'>>('GET', '/api/tracking/readiness/' + id)).data;
  const box = clear($('readiness-verdict'));
  box.appendChild(
    el('p', { className: 'notice ' + (r.ready ? 'ok' : 'warn') }, [
      el('strong', { text: verdicts[r.verdict] }),
      r.next_step ? el('span', { text: ' Next step: ' + r.next_step.message }) : '',
    ]),
  );
  const t = r.test_events;
  const tests = [count(t.click, 'click', 'clicks'), count(t.lead, 'lead', 'leads'), count(t.sale, 'sale', 'sales')];
  box.appendChild(el('p', { className: 'muted', text: 'Test events so far: ' + tests.join(', ') + '.' }));
}

/** The report's query: the page address's period, as the performance route takes it. */
function periodQuery(): string {
  const address = new URLSearchParams(window.location.search);
  const query = new URLSearchParams();
  for (const name of ['days', 'from', 'to']) {
    const value = address.get(name);
    if (value !== null) query.set(name, value);
  }
  return query.toString();
}

/** `+12 %` against the previous period (nothing to compare with: `new`; both zero: no change). */
function change(now: number, before: number): string {
  if (before === 0) return now === 0 ? 'no change' : 'new';
  const diff = Math.round(((now - before) / before) * 100);
  return (diff > 0 ? '+' : '') + diff + ' % vs previous';
}
function rateChange(now: number | null, before: number | null): string {
  if (now === null || before === null) return 'previous: ' + pct(before);
  const points = (now - before) * 100;
  return (points > 0 ? '+' : '') + points.toFixed(1) + ' pts vs previous';
}

async function loadPerformance(id: number): Promise<void> {
  let d: Performance;
  try {
    const query = periodQuery();
    d = (await api<Answer<'dashboardPerformance'>>('GET', '/api/tracking/performance/' + id + (query ? '?' + query : ''))).data;
  } catch (e) {
    notice('perf-result', 'error', messageOf(e) + '. Pick another period.');
    return;
  }
  clear($('perf-result'));
  const t = d.totals;
  const p = d.previous.totals;
  const r = d.conversion_rates;
  const pr = d.previous.conversion_rates;
  $('perf-period').textContent = `${d.from} to ${d.to} (UTC), compared with ${d.previous.from} to ${d.previous.to}.`;
  const figures: [string, string, string][] = [
    ['Clicks', String(t.clicks), change(t.clicks, p.clicks)],
    ['Leads', String(t.leads), change(t.leads, p.leads)],
    ['Sales', String(t.sales), change(t.sales, p.sales)],
    ['Revenue', money(t.revenue_cents), 'previous: ' + money(p.revenue_cents)],
    ['Commissions', money(t.commissions_cents), 'previous: ' + money(p.commissions_cents)],
    ['Click → lead', pct(r.click_to_lead), rateChange(r.click_to_lead, pr.click_to_lead)],
    ['Lead → sale', pct(r.lead_to_sale), rateChange(r.lead_to_sale, pr.lead_to_sale)],
    ['Click → sale', pct(r.click_to_sale), rateChange(r.click_to_sale, pr.click_to_sale)],
  ];
  const stats = clear($('perf-stats'));
  for (const [label, value, compared] of figures)
    stats.appendChild(
      el('div', {}, [el('strong', { text: value }), el('span', { text: label }), el('span', { className: 'muted small', text: compared })]),
    );
  lastDays = d.by_day;
  drawChart($('perf-chart'), lastDays);
  const days = clear($('perf-days'));
  for (const day of d.by_day)
    days.appendChild(
      el('tr', {}, [
        el('th', { scope: 'row', text: day.date }),
        ...[day.clicks, day.leads, day.sales].map((n) => el('td', { text: String(n) })),
      ]),
    );
  const rows = clear($('perf-partners'));
  if (d.by_partner.length === 0)
    rows.appendChild(el('tr', {}, [el('td', { colspan: '7', className: 'muted', text: 'No partner traffic in this period.' })]));
  for (const partner of d.by_partner) {
    const link = el('a', { href: '/dashboard/programs/' + id + '/partners/' + partner.partner_id, text: partner.partner_name });
    const cells = [
      partner.clicks,
      partner.leads,
      partner.sales,
      money(partner.revenue_cents),
      money(partner.commissions_cents),
      pct(partner.conversion_rates.click_to_sale),
    ];
    rows.appendChild(el('tr', {}, [el('th', { scope: 'row' }, [link]), ...cells.map((v) => el('td', { text: String(v) }))]));
  }
}

let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => drawChart($('perf-chart'), lastDays), 150);
});

async function refresh(id: number): Promise<void> {
  await Promise.all([loadStatus(id), loadReadiness(id), loadPerformance(id)]);
}

/** Every few seconds: the figures follow new events without a reload. */
async function poll(id: number): Promise<void> {
  const metrics = (await api<Answer<'dashboardStatus'>>('GET', '/api/tracking/status/' + id)).data.metrics;
  if (JSON.stringify(metrics) !== seen) await refresh(id);
}
// Back on the page from the browser's history: what it shows may be old.
window.addEventListener('pageshow', (event) => {
  if (event.persisted && current) void refresh(current.id);
});

$('run-verification').addEventListener('click', () => {
  void (async () => {
    const id = program().id;
    notice('verify-result', 'warn', 'Running click → lead → sale…');
    try {
      const d = (await api<Answer<'dashboardRunVerification'>>('POST', '/api/tracking/run-verification/' + id, {})).data;
      const box = clear($('verify-result'));
      box.appendChild(
        el('p', {
          className: 'notice ' + (d.passed ? 'ok' : 'error'),
          role: 'status',
          text: d.passed
            ? 'svc itself works: its own synthetic test click, lead and sale were recorded (test mode). This does not check your site; the status card turns green when your site sends real events.'
            : 'Verification failed at one step (see below).',
        }),
      );
      const steps = d.result.events.map((e) =>
        el('li', {
          text: e.ok
            ? '✓ ' + e.event_type + ' ' + (e.transaction_id || e.customer_key || e.click_id || '')
            : '✗ ' + e.event_type + ': ' + (e.error || 'refused'),
        }),
      );
      box.appendChild(el('ul', { className: 'steps' }, steps));
      box.appendChild(el('p', { className: 'muted', text: d.result.chains_remaining + ' verification runs left this hour.' }));
      await refresh(id);
    } catch (e) {
      notice('verify-result', 'error', messageOf(e));
    }
  })();
});
for (const testButton of all('[data-test-event]')) {
  testButton.addEventListener('click', () => {
    void (async () => {
      const type = testButton.getAttribute('data-test-event');
      try {
        await api('POST', '/api/tracking/test', { program_id: program().id, event_type: type });
        notice('verify-result', 'ok', 'Test ' + type + ' sent; it appears under Events with a "test" badge.');
        await refresh(program().id);
      } catch (e) {
        notice('verify-result', 'error', messageOf(e));
      }
    })();
  });
}

let timer: ReturnType<typeof setInterval> | undefined;
onProgram((opened) => {
  current = opened;
  clearInterval(timer);
  refresh(opened.id).catch((e: unknown) => notice('verify-result', 'error', messageOf(e)));
  timer = setInterval(() => void poll(opened.id).catch(() => undefined), 3000);
});
