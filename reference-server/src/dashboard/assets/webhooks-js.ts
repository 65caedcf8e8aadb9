/**
 * The Webhooks section (served at /dashboard/assets/webhooks.js): plain browser JavaScript, no inline script (the
 * page's CSP forbids it). The program script (app.js) announces the open program with a `svc:program` event.
 * Kept free of backticks and template placeholders (it lives in a template string).
 */
export const webhooksJs = String.raw`(function () {
  'use strict';
  var current = null;
  var refresh = null;

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
  function notice(kind, text) { clear($('webhooks-result')).appendChild(el('p', { className: 'notice ' + kind, role: kind === 'error' ? 'alert' : 'status', text: text })); }
  async function api(method, path, body) {
    var res = await fetch(path, { method: method, credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    var text = await res.text();
    var json = text ? JSON.parse(text) : null;
    if (!res.ok) throw new Error(json && json.error ? json.error.message : 'Request failed (' + res.status + ')');
    return json;
  }
  function button(text, className, onClick) {
    var b = el('button', { type: 'button', className: className, text: text });
    b.addEventListener('click', onClick);
    return b;
  }
  function when(iso) { return iso ? new Date(iso).toLocaleString() : ''; }
  function base() { return '/api/dashboard/programs/' + current.id + '/webhook-endpoints'; }

  function deliveryState(d) {
    if (d.status === 'delivered') return el('span', { className: 'badge ok', text: 'delivered' });
    if (d.status === 'failed') return el('span', { className: 'badge warn', text: 'failed' });
    return el('span', { className: 'badge', text: d.attempts === 0 ? 'queued' : 'retrying' });
  }
  function deliveriesTable(endpoint) {
    if (endpoint.recent_deliveries.length === 0) return el('p', { className: 'muted', text: 'No deliveries yet.' });
    var rows = endpoint.recent_deliveries.map(function (d) {
      var last = d.last_error || (d.last_response_status ? 'HTTP ' + d.last_response_status : '');
      return el('tr', { 'data-delivery-id': String(d.id), 'data-status': d.status }, [
        el('td', { text: when(d.created_at) }),
        el('td', {}, [el('code', { text: d.event_type })]),
        el('td', {}, [deliveryState(d)]),
        el('td', { text: String(d.attempts) }),
        el('td', { text: d.status === 'pending' ? when(d.next_attempt_at) : '' }),
        el('td', { className: 'muted', text: last })
      ]);
    });
    return el('table', {}, [
      el('thead', {}, [el('tr', {}, ['Queued', 'Event', 'State', 'Attempts', 'Next attempt', 'Last answer'].map(function (h) { return el('th', { text: h }); }))]),
      el('tbody', {}, rows)
    ]);
  }

  async function load() {
    var endpoints = (await api('GET', base())).data;
    var list = clear($('webhooks-list'));
    if (endpoints.length === 0) { list.appendChild(el('p', { className: 'muted', text: 'No endpoints yet.' })); return; }
    endpoints.forEach(function (e) {
      var actions = el('div', { className: 'inline' }, [
        button('Send test event', 'secondary small', function () { test(e); }),
        button(e.enabled ? 'Pause' : 'Resume', 'secondary small', function () { setEnabled(e, !e.enabled); }),
        button('Remove', 'danger small', function () { remove(e); })
      ]);
      list.appendChild(el('div', { className: 'webhook-endpoint', 'data-endpoint-id': String(e.id) }, [
        el('h4', {}, [el('code', { className: 'webhook-url', text: e.url }), ' ',
          el('span', { className: e.enabled ? 'badge ok' : 'badge warn', text: e.enabled ? 'on' : 'paused' })]),
        el('p', { className: 'muted', text: e.events.join(', ') + ' · secret ' + e.secret_hint }),
        actions,
        deliveriesTable(e)
      ]));
    });
  }
  function reloadSoon() {
    if (refresh) clearTimeout(refresh);
    refresh = setTimeout(function () { load().catch(function (err) { notice('error', err.message); }); }, 2500);
  }
  async function test(e) {
    try { await api('POST', base() + '/' + e.id + '/test'); notice('ok', 'Test event queued for ' + e.url + '.'); await load(); reloadSoon(); }
    catch (err) { notice('error', err.message); }
  }
  async function setEnabled(e, enabled) {
    try { await api('PATCH', base() + '/' + e.id, { enabled: enabled }); notice('ok', enabled ? 'Endpoint resumed.' : 'Endpoint paused: events wait until you resume it.'); await load(); }
    catch (err) { notice('error', err.message); }
  }
  async function remove(e) {
    if (!window.confirm('Remove ' + e.url + '? Nothing more is sent to it.')) return;
    try { await api('DELETE', base() + '/' + e.id); notice('ok', 'Endpoint removed.'); await load(); }
    catch (err) { notice('error', err.message); }
  }
  $('new-webhook-form').addEventListener('submit', async function (ev) {
    ev.preventDefault();
    var events = Array.prototype.map.call(document.querySelectorAll('#wh-events input:checked'), function (i) { return i.value; });
    var body = events.length ? { url: $('wh-url').value.trim(), events: events } : { url: $('wh-url').value.trim() };
    try {
      var e = (await api('POST', base(), body)).data;
      $('new-webhook-form').reset();
      var box = clear($('webhooks-result'));
      box.appendChild(el('div', { className: 'notice ok', role: 'status' }, [
        el('p', { text: 'Endpoint added. Its signing secret is shown only now: keep it in your backend (for example SVC_WEBHOOK_SECRET).' }),
        el('code', { id: 'new-webhook-secret', className: 'newkey', text: e.secret })
      ]));
      await load();
    } catch (err) { notice('error', err.message); }
  });
  document.addEventListener('svc:program', function (ev) {
    current = ev.detail;
    clear($('webhooks-result'));
    load().catch(function (err) { notice('error', err.message); });
  });
})();
`;
