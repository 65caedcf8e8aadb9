/**
 * The dashboard script (served as /dashboard/assets/app.js): the programs list and routing (#/programs/<id>), the
 * open program's status, readiness, performance, verification, key, settings and processor. It only calls the
 * dashboard routes (/api/dashboard/*, /api/tracking/*) with the session cookie, and announces the open program to
 * the sections' scripts with a `svc:program` event (program-event.ts). The events feed is events.ts: its fresh
 * events reload the figures here (feed-signal.ts).
 */
import { $, ApiError, api as call, type Answer, all, clear, el, messageOf, notice, onSubmit, when } from './dom';
import { onFreshEvents, requestEventsRefresh } from './feed-signal';
import { announceProgram } from './program-event';

type Status = Answer<'dashboardStatus'>['data'];
type Program = Status['program'];

const app = $('app');
const state: {
  programs: Answer<'dashboardListPrograms'>['data']['programs'];
  program: Program | null;
  role: Status['role'] | null;
  pendingKey: { key: string; text: string } | null;
} = { programs: [], program: null, role: null, pendingKey: null };

/** The open program (every control below acts on it; none is shown before one is open). */
function openProgramId(): number {
  if (!state.program) throw new Error('No program is open.');
  return state.program.id;
}

/** A dashboard call; a 401 (the session ended) goes back to the page, which then offers to sign in. */
async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  try {
    return await call<T>(method, path, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) window.location.href = '/dashboard';
    throw error;
  }
}

function money(amounts: Record<string, number> | null | undefined): string {
  const keys = Object.keys(amounts ?? {});
  if (keys.length === 0) return '0';
  return keys.map((c) => ((amounts?.[c] ?? 0) / 100).toFixed(2) + ' ' + c).join(' + ');
}
function pct(r: number | null | undefined): string {
  return r === null || r === undefined ? '–' : (r * 100).toFixed(1) + '%';
}
function count(n: number, one: string, many: string): string {
  return n + ' ' + (n === 1 ? one : many);
}

// Programs list and routing (#/programs/<id>)
async function loadPrograms(selectId?: number): Promise<void> {
  const res = await api<Answer<'dashboardListPrograms'>>('GET', '/api/dashboard/programs');
  state.programs = res.data.programs;
  const list = clear($('program-list'));
  if (state.programs.length === 0) list.appendChild(el('li', { className: 'muted', text: 'No programs yet.' }));
  for (const p of state.programs) {
    list.appendChild(el('li', {}, [el('a', { href: '#/programs/' + p.id, 'data-program-id': String(p.id), text: p.name })]));
  }
  const target = selectId ? '#/programs/' + selectId : window.location.hash;
  if (target !== window.location.hash)
    window.location.hash = target; // hashchange routes
  else route();
}

function route(): void {
  const match = /^#\/programs\/(\d+)$/.exec(window.location.hash);
  const id = match ? Number(match[1]) : state.programs[0]?.id;
  for (const a of all('#program-list a')) a.className = Number(a.getAttribute('data-program-id')) === id ? 'active' : '';
  $('empty-view').hidden = state.programs.length > 0;
  if (!id) {
    $('program-view').hidden = true;
    return;
  }
  void openProgram(id);
}

async function openProgram(id: number): Promise<void> {
  clear($('pv-newkey'));
  if (state.pendingKey) {
    showNewKey(state.pendingKey.key, state.pendingKey.text);
    state.pendingKey = null;
  }
  for (const target of ['verify-result', 'key-result', 'settings-result', 'processor-result']) clear($(target));
  $('program-view').hidden = false;
  await Promise.all([loadStatus(id), loadReadiness(id), loadPerformance(id)]);
  // The sections' scripts (events.js, partners.js, webhooks.js…) load for the program now open.
  const program = state.program;
  if (program && state.role) announceProgram({ id, domain: program.domain, role: state.role });
}

// New events in the feed (events.js) change the figures: reload them for the program still open.
onFreshEvents((id) => {
  if (state.program?.id !== id) return;
  Promise.all([loadStatus(id), loadReadiness(id), loadPerformance(id)]).catch(() => undefined);
});

// Status, key, settings, processor
async function loadStatus(id: number): Promise<void> {
  const d = (await api<Answer<'dashboardStatus'>>('GET', '/api/tracking/status/' + id)).data;
  const p = d.program;
  state.program = p;
  state.role = d.role;
  $('pv-name').textContent = p.name;
  $('pv-domain').textContent = p.domain;
  $('pv-role').textContent = d.role === 'owner' ? 'Owner' : 'Member';
  $('pv-key').textContent = p.api_token;
  $('pv-snippet').textContent = (app.getAttribute('data-snippet') ?? '').replace('{program_id}', String(p.id));
  $('regenerate-key', HTMLButtonElement).disabled = d.role !== 'owner';
  $('regenerate-owner-only').hidden = d.role === 'owner';
  if (document.activeElement === null || !$('settings-form').contains(document.activeElement)) {
    $('st-window', HTMLInputElement).value = String(p.attribution_window_days);
    $('st-leadauth', HTMLSelectElement).value = p.lead_auth;
    $('st-origins', HTMLTextAreaElement).value = (p.allowed_origins ?? []).join('\n');
    $('st-hold', HTMLInputElement).value = String(p.commission_hold_days);
    $('st-min-payout', HTMLInputElement).value = String(p.min_payout_cents);
  }
  const i = d.integration;
  $('processor-state').textContent = i.processor_connected
    ? 'Connected to Stripe account ' + i.processor_account + '.'
    : 'No Stripe Connect account connected.';
  const connect = document.getElementById('processor-connect');
  if (connect instanceof HTMLAnchorElement) {
    connect.href = '/api/dashboard/programs/' + p.id + '/processor/connect';
    connect.textContent = i.processor_connected ? 'Connect another Stripe account' : 'Connect with Stripe';
    // The row, not the link: the link's button style would show it anyway.
    $('processor-connect-row').hidden = d.role !== 'owner';
  }
  $('processor-disconnect', HTMLButtonElement).disabled = d.role !== 'owner' || !i.processor_connected;
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
  box.appendChild(
    el('p', {
      className: 'muted',
      text:
        'Test events so far: ' +
        count(t.click, 'click', 'clicks') +
        ', ' +
        count(t.lead, 'lead', 'leads') +
        ', ' +
        count(t.sale, 'sale', 'sales') +
        '.',
    }),
  );
}

// Performance: totals, an inline SVG chart by day, partners
async function loadPerformance(id: number): Promise<void> {
  const d = (await api<Answer<'dashboardPerformance'>>('GET', '/api/tracking/performance/' + id + '?days=30')).data;
  const t = d.totals;
  const r = d.conversion_rates;
  const stats = clear($('perf-stats'));
  const figures: [string, string | number][] = [
    ['Clicks', t.clicks],
    ['Leads', t.leads],
    ['Sales', t.sales],
    ['Revenue', money(t.revenue_cents)],
    ['Commissions', money(t.commissions_cents)],
    ['Click → lead', pct(r.click_to_lead)],
    ['Lead → sale', pct(r.lead_to_sale)],
    ['Click → sale', pct(r.click_to_sale)],
  ];
  for (const [label, value] of figures)
    stats.appendChild(el('div', {}, [el('strong', { text: String(value) }), el('span', { className: 'muted', text: label })]));
  $('perf-chart').replaceChildren(chart(d.by_day));
  const rows = clear($('perf-partners'));
  if (d.by_partner.length === 0)
    rows.appendChild(el('tr', {}, [el('td', { colspan: '7', className: 'muted', text: 'No partner traffic yet.' })]));
  for (const p of d.by_partner) {
    const cells = [
      p.partner_name,
      p.clicks,
      p.leads,
      p.sales,
      money(p.revenue_cents),
      money(p.commissions_cents),
      pct(p.conversion_rates.click_to_sale),
    ];
    rows.appendChild(
      el(
        'tr',
        {},
        cells.map((v) => el('td', { text: String(v) })),
      ),
    );
  }
}

type Day = Answer<'dashboardPerformance'>['data']['by_day'][number];

function chart(days: Day[]): SVGSVGElement {
  const NS = 'http://www.w3.org/2000/svg';
  const W = 720;
  const H = 180;
  const pad = 24;
  const n = days.length;
  const max = Math.max(1, ...days.map((d) => Math.max(d.clicks, d.leads, d.sales)));
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  svg.setAttribute('class', 'chart');
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', 'Clicks, leads and sales per day');
  const slot = (W - pad) / n;
  const bw = Math.max(1, slot / 4);
  function add(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
    const node = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    if (text) node.textContent = text;
    svg.appendChild(node);
    return node;
  }
  add('line', { x1: pad, y1: H - pad, x2: W, y2: H - pad, stroke: '#dde2ea' });
  add('text', { x: 0, y: 12, 'font-size': 11, fill: '#5b6576' }, String(max));
  const series = [
    ['clicks', 'var(--click)'],
    ['leads', 'var(--lead)'],
    ['sales', 'var(--sale)'],
  ] as const;
  days.forEach((d, i) => {
    series.forEach(([key, color], j) => {
      const h = (d[key] / max) * (H - 2 * pad);
      const bar = add('rect', { x: pad + i * slot + j * bw, y: H - pad - h, width: bw - 0.5, height: Math.max(0, h), fill: color });
      const tip = document.createElementNS(NS, 'title');
      tip.textContent = d.date + ': ' + d[key] + ' ' + key;
      bar.appendChild(tip);
    });
    if ((n - 1 - i) % 7 === 0) add('text', { x: pad + i * slot, y: H - 6, 'font-size': 10, fill: '#5b6576' }, d.date.slice(5));
  });
  return svg;
}

// Verification
$('run-verification').addEventListener('click', () => {
  void (async () => {
    const id = openProgramId();
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
      box.appendChild(
        el(
          'ul',
          { className: 'steps' },
          d.result.events.map((e) =>
            el('li', {
              text: e.ok
                ? '✓ ' + e.event_type + ' ' + (e.transaction_id || e.customer_key || e.click_id || '')
                : '✗ ' + e.event_type + ': ' + (e.error || 'refused'),
            }),
          ),
        ),
      );
      box.appendChild(el('p', { className: 'muted', text: d.result.chains_remaining + ' verification runs left this hour.' }));
      requestEventsRefresh();
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
        await api('POST', '/api/tracking/test', { program_id: openProgramId(), event_type: type });
        notice('verify-result', 'ok', 'Test ' + type + ' sent; it appears under Events with a "test" badge.');
        requestEventsRefresh();
      } catch (e) {
        notice('verify-result', 'error', messageOf(e));
      }
    })();
  });
}

// Key regeneration (owners only; the server refuses members)
$('regenerate-key').addEventListener('click', () => {
  $('regenerate-confirm').hidden = false;
});
$('regenerate-no').addEventListener('click', () => {
  $('regenerate-confirm').hidden = true;
});
$('regenerate-yes').addEventListener('click', () => {
  void (async () => {
    $('regenerate-confirm').hidden = true;
    try {
      const p = (await api<Answer<'dashboardRegenerateKey'>>('POST', '/api/dashboard/programs/' + openProgramId() + '/regenerate-key', {}))
        .data.program;
      showNewKey(p.api_token, 'New key issued. The old key no longer works.');
      await loadStatus(p.id);
    } catch (e) {
      notice('key-result', 'error', messageOf(e));
    }
  })();
});
function showNewKey(key: string, text: string): void {
  const box = clear($('pv-newkey'));
  box.appendChild(
    el('div', { className: 'card' }, [
      el('p', { className: 'notice ok', text: text + ' Copy it now: it will not be shown again.' }),
      el('code', { className: 'newkey', id: 'new-key-value', text: key }),
    ]),
  );
}

// Settings and processor
onSubmit('settings-form', async () => {
  const origins = $('st-origins', HTMLTextAreaElement)
    .value.split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    const id = openProgramId();
    await api('PATCH', '/api/dashboard/programs/' + id, {
      attribution_window_days: Number($('st-window', HTMLInputElement).value),
      lead_auth: $('st-leadauth', HTMLSelectElement).value,
      allowed_origins: origins.length ? origins : null,
      commission_hold_days: Number($('st-hold', HTMLInputElement).value),
      min_payout_cents: Number($('st-min-payout', HTMLInputElement).value),
    });
    notice('settings-result', 'ok', 'Settings saved.');
    await loadStatus(id);
  } catch (e) {
    notice('settings-result', 'error', messageOf(e));
  }
});
// Connecting is a link to Stripe's consent (GET …/processor/connect); only disconnecting happens here.
async function disconnectProcessor(): Promise<void> {
  try {
    const id = openProgramId();
    await api<Answer<'dashboardConnectProcessor'>>('PUT', '/api/dashboard/programs/' + id + '/processor', { processor_account: null });
    notice('processor-result', 'ok', 'Disconnected.');
    await loadStatus(id);
  } catch (e) {
    notice('processor-result', 'error', messageOf(e));
  }
}
$('processor-disconnect').addEventListener('click', () => void disconnectProcessor());

// New program: the form is on the page only for an account that may create programs (SVC_WORKSPACE_CREATORS).
if (document.getElementById('new-program-form'))
  onSubmit('new-program-form', async () => {
    try {
      const p = (
        await api<Answer<'dashboardCreateProgram', 201>>('POST', '/api/dashboard/programs', {
          name: $('np-name', HTMLInputElement).value,
          domain: $('np-domain', HTMLInputElement).value,
          commission_type: $('np-type', HTMLSelectElement).value,
          commission_rate: Number($('np-rate', HTMLInputElement).value),
        })
      ).data.program;
      notice('new-program-result', 'ok', 'Program created.');
      $('new-program-form', HTMLFormElement).reset();
      state.pendingKey = { key: p.api_token, text: 'Your API key for ' + p.name + '.' };
      await loadPrograms(p.id);
    } catch (e) {
      notice('new-program-result', 'error', messageOf(e));
    }
  });

window.addEventListener('hashchange', route);
loadPrograms().catch((e: unknown) => notice('new-program-result', 'error', messageOf(e)));
