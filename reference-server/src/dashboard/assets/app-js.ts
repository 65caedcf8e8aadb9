/**
 * The dashboard script (served at /dashboard/assets/app.js): plain browser JavaScript, no framework, no build step.
 * It only calls the dashboard routes (/api/dashboard/*, /api/tracking/*) with the session cookie.
 * Kept free of backticks and template placeholders because it lives in this template string.
 */
export const appJs = String.raw`(function () {
  'use strict';
  var POLL_MS = 3000;
  var app = document.getElementById('app');
  var state = { programs: [], program: null, role: null, lastEventId: 0, timer: null, pendingKey: null };

  function $(id) { return document.getElementById(id); }
  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (k) {
      if (k === 'text') node.textContent = props[k];
      else if (k === 'className') node.className = props[k];
      else node.setAttribute(k, props[k]);
    });
    (children || []).forEach(function (c) { node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return node;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function notice(target, kind, text) { clear($(target)).appendChild(el('p', { className: 'notice ' + kind, role: kind === 'error' ? 'alert' : 'status', text: text })); }

  async function api(method, path, body) {
    var res = await fetch(path, {
      method: method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body)
    });
    var text = await res.text();
    var json = text ? JSON.parse(text) : null;
    if (res.status === 401) { window.location.href = '/dashboard'; }
    if (!res.ok) {
      var err = new Error(json && json.error && json.error.message ? json.error.message : 'Request failed (' + res.status + ')');
      err.status = res.status;
      throw err;
    }
    return json;
  }

  function money(amounts) {
    var keys = Object.keys(amounts || {});
    if (keys.length === 0) return '0';
    return keys.map(function (c) { return (amounts[c] / 100).toFixed(2) + ' ' + c; }).join(' + ');
  }
  function pct(r) { return r === null || r === undefined ? '–' : (r * 100).toFixed(1) + '%'; }
  function count(n, one, many) { return n + ' ' + (n === 1 ? one : many); }
  function when(iso) { return iso ? new Date(iso).toLocaleString() : 'never'; }

  // Programs list and routing (#/programs/<id>)
  async function loadPrograms(selectId) {
    var res = await api('GET', '/api/dashboard/programs');
    state.programs = res.data.programs;
    var list = clear($('program-list'));
    if (state.programs.length === 0) list.appendChild(el('li', { className: 'muted', text: 'No programs yet.' }));
    state.programs.forEach(function (p) {
      list.appendChild(el('li', {}, [el('a', { href: '#/programs/' + p.id, 'data-program-id': String(p.id), text: p.name })]));
    });
    var target = selectId ? '#/programs/' + selectId : window.location.hash;
    if (target !== window.location.hash) window.location.hash = target; // hashchange routes
    else route();
  }

  function route() {
    var match = /^#\/programs\/(\d+)$/.exec(window.location.hash);
    var id = match ? Number(match[1]) : (state.programs[0] && state.programs[0].id);
    Array.prototype.forEach.call(document.querySelectorAll('#program-list a'), function (a) {
      a.className = Number(a.getAttribute('data-program-id')) === id ? 'active' : '';
    });
    $('empty-view').hidden = state.programs.length > 0;
    if (!id) { $('program-view').hidden = true; return; }
    openProgram(id);
  }

  async function openProgram(id) {
    if (state.timer) clearInterval(state.timer);
    state.lastEventId = 0;
    clear($('events-body'));
    clear($('pv-newkey'));
    if (state.pendingKey) { showNewKey(state.pendingKey.key, state.pendingKey.text); state.pendingKey = null; }
    ['verify-result', 'key-result', 'settings-result', 'processor-result'].forEach(function (t) { clear($(t)); });
    $('program-view').hidden = false;
    await Promise.all([loadStatus(id), loadReadiness(id), loadEvents(id), loadPerformance(id)]);
    // The Partners section (partners.js) loads for the program now open.
    document.dispatchEvent(new CustomEvent('svc:program', { detail: { id: id, domain: state.program.domain, role: state.role } }));
    state.timer = setInterval(function () { poll(id); }, POLL_MS);
  }

  async function poll(id) {
    try {
      var fresh = await loadEvents(id);
      if (fresh > 0) await Promise.all([loadStatus(id), loadReadiness(id), loadPerformance(id)]);
      $('live-badge').className = 'badge ok';
    } catch (e) {
      $('live-badge').className = 'badge warn';
    }
  }

  // Status, key, settings, processor
  async function loadStatus(id) {
    var d = (await api('GET', '/api/tracking/status/' + id)).data;
    var p = d.program;
    state.program = p;
    state.role = d.role;
    $('pv-name').textContent = p.name;
    $('pv-domain').textContent = p.domain;
    $('pv-role').textContent = d.role === 'owner' ? 'Owner' : 'Member';
    $('pv-key').textContent = p.api_token;
    $('pv-snippet').textContent = app.getAttribute('data-snippet').replace('{program_id}', String(p.id));
    $('regenerate-key').disabled = d.role !== 'owner';
    $('regenerate-owner-only').hidden = d.role === 'owner';
    if (document.activeElement === null || !$('settings-form').contains(document.activeElement)) {
      $('st-window').value = p.attribution_window_days;
      $('st-leadauth').value = p.lead_auth;
      $('st-origins').value = (p.allowed_origins || []).join('\n');
    }
    var i = d.integration;
    $('processor-state').textContent = i.processor_connected ? 'Connected to ' + i.processor_account + '.' : 'Not connected.';
    if (document.activeElement !== $('pr-account')) $('pr-account').value = i.processor_account || '';
    var list = clear($('status-checklist'));
    [
      ['Tracker script: a real click from your site', i.tracker_seen, count(d.metrics.clicks, 'click', 'clicks') + ' so far'],
      ['Signups (leads) reported', i.leads_seen, count(d.metrics.leads, 'lead', 'leads') + ' so far'],
      ['Sales reported', i.sales_seen, count(d.metrics.sales, 'sale', 'sales') + ' so far'],
      ['Payment processor connected (optional)', i.processor_connected, i.processor_account || 'not connected', true]
    ].forEach(function (row) {
      var badge = row[1] ? el('span', { className: 'badge ok', text: 'done' }) : el('span', { className: row[3] ? 'badge' : 'badge warn', text: row[3] ? 'optional' : 'not yet' });
      list.appendChild(el('li', {}, [
        el('span', { text: row[0] }),
        el('span', {}, [el('span', { className: 'muted', text: row[2] + ' ' }), badge])
      ]));
    });
    list.appendChild(el('li', {}, [el('span', { text: 'Last event' }), el('span', { className: 'muted', text: when(i.last_event_at) })]));
  }

  async function loadReadiness(id) {
    var r = (await api('GET', '/api/tracking/readiness/' + id)).data;
    var box = clear($('readiness-verdict'));
    var label = {
      ready: 'Ready: real clicks, leads and sales are all arriving from your site.',
      in_progress: 'In progress: some real events have arrived from your site.',
      not_started: 'Not started: no real events from your site yet (test events do not count).'
    }[r.verdict];
    box.appendChild(el('p', { className: 'notice ' + (r.ready ? 'ok' : 'warn') }, [
      el('strong', { text: label }),
      r.next_step ? el('span', { text: ' Next step: ' + r.next_step.message }) : ''
    ]));
    var t = r.test_events;
    box.appendChild(el('p', { className: 'muted', text: 'Test events so far: ' + count(t.click, 'click', 'clicks') + ', ' + count(t.lead, 'lead', 'leads') + ', ' + count(t.sale, 'sale', 'sales') + '.' }));
  }

  // Live events
  async function loadEvents(id) {
    var path = '/api/tracking/events/' + id + '?limit=50' + (state.lastEventId ? '&after_id=' + state.lastEventId : '');
    var events = (await api('GET', path)).data.events;
    var body = $('events-body');
    events.slice().reverse().forEach(function (e) {
      var row = el('tr', { className: state.lastEventId ? 'fresh' : '', 'data-event-type': e.type }, [
        el('td', { text: when(e.occurred_at) }),
        el('td', { text: e.type + (e.provisional ? ' (provisional)' : '') }),
        el('td', { text: e.partner_id === null ? '–' : '#' + e.partner_id }),
        el('td', { className: 'mono', text: e.customer_key || e.click_id || '–' }),
        el('td', { text: e.amount_cents === undefined ? '' : (e.amount_cents / 100).toFixed(2) + ' ' + e.currency }),
        el('td', {}, [e.is_test ? el('span', { className: 'badge test', text: 'test' }) : ''])
      ]);
      body.insertBefore(row, body.firstChild);
    });
    while (body.children.length > 100) body.removeChild(body.lastChild);
    if (events.length > 0) state.lastEventId = Math.max(state.lastEventId, events[0].id);
    $('events-empty').hidden = body.children.length > 0;
    return events.length;
  }

  // Performance: totals, an inline SVG chart by day, partners
  async function loadPerformance(id) {
    var d = (await api('GET', '/api/tracking/performance/' + id + '?days=30')).data;
    var t = d.totals, r = d.conversion_rates;
    var stats = clear($('perf-stats'));
    [['Clicks', t.clicks], ['Leads', t.leads], ['Sales', t.sales], ['Revenue', money(t.revenue_cents)], ['Commissions', money(t.commissions_cents)],
     ['Click → lead', pct(r.click_to_lead)], ['Lead → sale', pct(r.lead_to_sale)], ['Click → sale', pct(r.click_to_sale)]]
      .forEach(function (s) { stats.appendChild(el('div', {}, [el('strong', { text: String(s[1]) }), el('span', { className: 'muted', text: s[0] })])); });
    $('perf-chart').replaceChildren(chart(d.by_day));
    var rows = clear($('perf-partners'));
    if (d.by_partner.length === 0) rows.appendChild(el('tr', {}, [el('td', { colspan: '7', className: 'muted', text: 'No partner traffic yet.' })]));
    d.by_partner.forEach(function (p) {
      rows.appendChild(el('tr', {}, [p.partner_name, p.clicks, p.leads, p.sales, money(p.revenue_cents), money(p.commissions_cents), pct(p.conversion_rates.click_to_sale)]
        .map(function (v) { return el('td', { text: String(v) }); })));
    });
  }

  function chart(days) {
    var NS = 'http://www.w3.org/2000/svg';
    var W = 720, H = 180, pad = 24, n = days.length;
    var max = Math.max(1, Math.max.apply(null, days.map(function (d) { return Math.max(d.clicks, d.leads, d.sales); })));
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
    svg.setAttribute('class', 'chart');
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', 'Clicks, leads and sales per day');
    var slot = (W - pad) / n, bw = Math.max(1, slot / 4);
    function add(tag, attrs, text) {
      var node = document.createElementNS(NS, tag);
      Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
      if (text) node.textContent = text;
      svg.appendChild(node);
      return node;
    }
    add('line', { x1: pad, y1: H - pad, x2: W, y2: H - pad, stroke: '#dde2ea' });
    add('text', { x: 0, y: 12, 'font-size': 11, fill: '#5b6576' }, String(max));
    days.forEach(function (d, i) {
      [['clicks', 'var(--click)'], ['leads', 'var(--lead)'], ['sales', 'var(--sale)']].forEach(function (k, j) {
        var h = (d[k[0]] / max) * (H - 2 * pad);
        var bar = add('rect', { x: pad + i * slot + j * bw, y: H - pad - h, width: bw - 0.5, height: Math.max(0, h), fill: k[1] });
        var tip = document.createElementNS(NS, 'title');
        tip.textContent = d.date + ': ' + d[k[0]] + ' ' + k[0];
        bar.appendChild(tip);
      });
      if ((n - 1 - i) % 7 === 0) add('text', { x: pad + i * slot, y: H - 6, 'font-size': 10, fill: '#5b6576' }, d.date.slice(5));
    });
    return svg;
  }

  // Verification
  $('run-verification').addEventListener('click', async function () {
    var id = state.program.id;
    notice('verify-result', 'warn', 'Running click → lead → sale…');
    try {
      var d = (await api('POST', '/api/tracking/run-verification/' + id, {})).data;
      var box = clear($('verify-result'));
      box.appendChild(el('p', { className: 'notice ' + (d.passed ? 'ok' : 'error'), role: 'status',
        text: d.passed
          ? 'svc itself works: its own synthetic test click, lead and sale were recorded (test mode). This does not check your site; the status card turns green when your site sends real events.'
          : 'Verification failed at one step (see below).' }));
      box.appendChild(el('ul', { className: 'steps' }, d.result.events.map(function (e) {
        return el('li', { text: (e.ok ? '✓ ' : '✗ ') + e.event_type + ' ' + (e.transaction_id || e.customer_key || e.click_id || '') });
      })));
      box.appendChild(el('p', { className: 'muted', text: d.result.chains_remaining + ' verification runs left this hour.' }));
      await poll(id);
    } catch (e) { notice('verify-result', 'error', e.message); }
  });
  Array.prototype.forEach.call(document.querySelectorAll('[data-test-event]'), function (button) {
    button.addEventListener('click', async function () {
      var type = button.getAttribute('data-test-event');
      try {
        await api('POST', '/api/tracking/test', { program_id: state.program.id, event_type: type });
        notice('verify-result', 'ok', 'Test ' + type + ' sent; it appears under Recent events with a "test" badge.');
        await poll(state.program.id);
      } catch (e) { notice('verify-result', 'error', e.message); }
    });
  });

  // Key regeneration (owners only; the server refuses members)
  $('regenerate-key').addEventListener('click', function () { $('regenerate-confirm').hidden = false; });
  $('regenerate-no').addEventListener('click', function () { $('regenerate-confirm').hidden = true; });
  $('regenerate-yes').addEventListener('click', async function () {
    $('regenerate-confirm').hidden = true;
    try {
      var p = (await api('POST', '/api/dashboard/programs/' + state.program.id + '/regenerate-key', {})).data.program;
      showNewKey(p.api_token, 'New key issued. The old key no longer works.');
      await loadStatus(p.id);
    } catch (e) { notice('key-result', 'error', e.message); }
  });
  function showNewKey(key, text) {
    var box = clear($('pv-newkey'));
    box.appendChild(el('div', { className: 'card' }, [
      el('p', { className: 'notice ok', text: text + ' Copy it now: it will not be shown again.' }),
      el('code', { className: 'newkey', id: 'new-key-value', text: key })
    ]));
  }

  // Settings and processor
  $('settings-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    var origins = $('st-origins').value.split('\n').map(function (s) { return s.trim(); }).filter(Boolean);
    try {
      await api('PATCH', '/api/dashboard/programs/' + state.program.id, {
        attribution_window_days: Number($('st-window').value),
        lead_auth: $('st-leadauth').value,
        allowed_origins: origins.length ? origins : null
      });
      notice('settings-result', 'ok', 'Settings saved.');
      await loadStatus(state.program.id);
    } catch (e) { notice('settings-result', 'error', e.message); }
  });
  async function setProcessor(value) {
    try {
      var d = (await api('PUT', '/api/dashboard/programs/' + state.program.id + '/processor', { processor_account: value })).data;
      notice('processor-result', 'ok', d.processor_account ? 'Connected ' + d.processor_account + '.' : 'Disconnected.');
      await loadStatus(state.program.id);
    } catch (e) { notice('processor-result', 'error', e.message); }
  }
  $('processor-form').addEventListener('submit', function (ev) { ev.preventDefault(); setProcessor($('pr-account').value.trim()); });
  $('processor-disconnect').addEventListener('click', function () { setProcessor(null); });

  // New program
  $('new-program-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    try {
      var p = (await api('POST', '/api/dashboard/programs', {
        name: $('np-name').value, domain: $('np-domain').value,
        commission_type: $('np-type').value, commission_rate: Number($('np-rate').value)
      })).data.program;
      notice('new-program-result', 'ok', 'Program created.');
      $('new-program-form').reset();
      state.pendingKey = { key: p.api_token, text: 'Your API key for ' + p.name + '.' };
      await loadPrograms(p.id);
    } catch (e) { notice('new-program-result', 'error', e.message); }
  });

  window.addEventListener('hashchange', route);
  loadPrograms().catch(function (e) { notice('new-program-result', 'error', e.message); });
})();
`;
