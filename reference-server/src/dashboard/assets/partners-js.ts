/**
 * The Partners section and the partner view (served at /dashboard/assets/partners.js): plain browser JavaScript.
 * The program script (app.js) announces the open program with a `svc:program` event; the partner view loads on
 * its own from GET /api/partner. Kept free of backticks and template placeholders (it lives in a template string).
 */
export const partnersJs = String.raw`(function () {
  'use strict';
  var current = null;

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
    var res = await fetch(path, { method: method, credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    var text = await res.text();
    var json = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(json && json.error ? json.error.message : 'Request failed (' + res.status + ')');
    return json;
  }
  function money(amounts) {
    var keys = Object.keys(amounts || {});
    if (keys.length === 0) return '0';
    return keys.map(function (c) { return (c === 'VND' ? String(amounts[c]) : (amounts[c] / 100).toFixed(2)) + ' ' + c; }).join(' + ');
  }
  function today() { return new Date().toISOString().slice(0, 10); }
  function button(text, className, onClick) {
    var b = el('button', { type: 'button', className: className, text: text });
    b.addEventListener('click', onClick);
    return b;
  }
  function copyButton(url, resultId) {
    return button('Copy', 'secondary small', async function () {
      try { await navigator.clipboard.writeText(url); notice(resultId, 'ok', 'Copied ' + url); }
      catch (e) { notice(resultId, 'warn', 'Copy it by hand: ' + url); }
    });
  }
  function figuresCells(f) {
    var c = f.commissions;
    return [f.clicks, f.leads, f.sales, money(f.revenue_cents), money(c.due_cents), money(c.paid_cents), money(c.reversed_cents), money(c.balance_cents)]
      .map(function (v) { return el('td', { text: String(v) }); });
  }

  // Merchant: the Partners section of the open program
  async function loadPartners() {
    var base = '/api/dashboard/programs/' + current.id;
    var both = await Promise.all([api('GET', base + '/partners'), api('GET', base + '/links')]);
    var partners = both[0].data.partners, links = both[1].data.links;
    var names = {};
    var rows = clear($('partners-body'));
    var select = clear($('ln-partner'));
    if (partners.length === 0) rows.appendChild(el('tr', {}, [el('td', { colspan: '11', className: 'muted', text: 'No partners yet: add your first one below.' })]));
    partners.forEach(function (p) {
      names[p.id] = p.name;
      select.appendChild(el('option', { value: String(p.id), text: p.name }));
      var actions = el('td', {}, [
        button(p.status === 'active' ? 'Suspend' : 'Reactivate', 'secondary small', function () { changePartner(p.id, { status: p.status === 'active' ? 'suspended' : 'active' }); })
      ]);
      if (current.role === 'owner') actions.appendChild(button('Mark paid', 'small', function () { payout(p); }));
      rows.appendChild(el('tr', { 'data-partner-id': String(p.id) }, [
        el('td', {}, [el('strong', { text: p.name }), el('div', { className: 'muted', text: p.email || 'not invited' })]),
        el('td', {}, [el('span', { className: p.status === 'active' ? 'badge ok' : 'badge warn', text: p.status })])
      ].concat(figuresCells(p.figures), [actions])));
    });
    var linkRows = clear($('links-body'));
    if (links.length === 0) linkRows.appendChild(el('tr', {}, [el('td', { colspan: '4', className: 'muted', text: 'No referral links yet.' })]));
    links.forEach(function (l) {
      linkRows.appendChild(el('tr', { 'data-short-link': l.short_link }, [
        el('td', { text: names[l.partner_id] || '#' + l.partner_id }),
        el('td', {}, [el('code', { className: 'link-url', text: l.url }), ' ', copyButton(l.url, 'partners-result')]),
        el('td', {}, [el('span', { className: l.enabled ? 'badge ok' : 'badge warn', text: l.enabled ? 'on' : 'off' })]),
        el('td', {}, [button(l.enabled ? 'Turn off' : 'Turn on', 'secondary small', function () { setLink(base + '/links/' + l.id, !l.enabled, 'partners-result', loadPartners); })])
      ]));
    });
    csvLink();
  }
  async function changePartner(id, body) {
    try { await api('PATCH', '/api/dashboard/programs/' + current.id + '/partners/' + id, body); await loadPartners(); }
    catch (e) { notice('partners-result', 'error', e.message); }
  }
  async function setLink(path, enabled, resultId, reload) {
    try { await api('PATCH', path, { enabled: enabled }); notice(resultId, 'ok', enabled ? 'Link turned on.' : 'Link turned off: visits through it are no longer recorded.'); await reload(); }
    catch (e) { notice(resultId, 'error', e.message); }
  }
  async function payout(p) {
    try {
      var d = (await api('POST', '/api/dashboard/programs/' + current.id + '/payouts', { partner_id: p.id, through: today() })).data;
      var carried = Object.keys(d.carried_cents).length ? ' Carried to the next payout: ' + money(d.carried_cents) + '.' : '';
      notice('partners-result', 'ok', p.name + ': ' + d.commissions_paid + (d.commissions_paid === 1 ? ' commission' : ' commissions') + ' marked paid (' + money(d.paid_cents) + ').' + carried);
      await loadPartners();
    } catch (e) { notice('partners-result', 'error', e.message); }
  }
  function csvLink() {
    var from = $('csv-from').value || today().slice(0, 8) + '01';
    var to = $('csv-to').value || today();
    $('csv-link').setAttribute('href', '/api/dashboard/programs/' + current.id + '/commissions.csv?from=' + from + '&to=' + to);
  }
  $('csv-from').addEventListener('change', csvLink);
  $('csv-to').addEventListener('change', csvLink);
  $('new-partner-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    var email = $('pa-email').value.trim();
    try {
      var p = (await api('POST', '/api/dashboard/programs/' + current.id + '/partners', email ? { name: $('pa-name').value, email: email } : { name: $('pa-name').value })).data;
      $('new-partner-form').reset();
      notice('partners-result', 'ok', 'Partner ' + p.name + ' added. Create a referral link for them.');
      await loadPartners();
      $('ln-partner').value = String(p.id);
    } catch (e) { notice('partners-result', 'error', e.message); }
  });
  $('new-link-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    var short = $('ln-short').value.trim();
    var body = { partner_id: Number($('ln-partner').value) };
    if (short) body.short_link = short;
    try {
      var l = (await api('POST', '/api/dashboard/programs/' + current.id + '/links', body)).data;
      $('ln-short').value = '';
      var box = clear($('partners-result'));
      box.appendChild(el('p', { className: 'notice ok', role: 'status' }, ['Link created. The partner shares: ', el('code', { id: 'new-link-url', text: l.url }), ' ', copyButton(l.url, 'partners-result')]));
      await loadPartners();
    } catch (e) { notice('partners-result', 'error', e.message); }
  });
  document.addEventListener('svc:program', function (ev) {
    current = ev.detail;
    clear($('partners-result'));
    loadPartners().catch(function (e) { notice('partners-result', 'error', e.message); });
  });

  // Partner: their own links and figures
  async function loadPartnerView() {
    var entries = (await api('GET', '/api/partner')).data.partners;
    $('partner-view').hidden = entries.length === 0;
    document.body.classList.toggle('has-partner-view', entries.length > 0);
    var body = clear($('partner-view-body'));
    entries.forEach(function (entry) {
      var table = el('table', {}, [el('thead', {}, [el('tr', {}, ['Clicks', 'Leads', 'Sales', 'Revenue', 'Due', 'Paid', 'Reversed', 'Balance'].map(function (h) { return el('th', { text: h }); }))]),
        el('tbody', {}, [el('tr', {}, figuresCells(entry.partner.figures))])]);
      var links = el('ul', { className: 'partner-links' }, entry.links.map(function (l) {
        return el('li', { 'data-short-link': l.short_link }, [
          el('code', { className: 'link-url', text: l.url }), ' ', copyButton(l.url, 'partner-view-result'), ' ',
          el('span', { className: l.enabled ? 'badge ok' : 'badge warn', text: l.enabled ? 'on' : 'off' }), ' ',
          button(l.enabled ? 'Turn off' : 'Turn on', 'secondary small', function () { setLink('/api/partner/links/' + l.id, !l.enabled, 'partner-view-result', loadPartnerView); })
        ]);
      }));
      if (entry.links.length === 0) links.appendChild(el('li', { className: 'muted', text: 'No links yet: ask ' + entry.program.name + ' for one.' }));
      body.appendChild(el('div', { className: 'card', 'data-program-id': String(entry.program.id) }, [
        el('h3', { text: entry.program.name + ' (' + entry.program.domain + ')' }),
        el('p', { className: 'hint', text: 'You are ' + entry.partner.name + (entry.partner.status === 'suspended' ? ' (suspended: your links do not record visits)' : '') + '.' }),
        table, el('h4', { text: 'Your links' }), links
      ]));
    });
  }
  loadPartnerView().catch(function (e) { notice('partner-view-result', 'error', e.message); });
})();
`;
