/**
 * The events page's recent events (served as /dashboard/assets/recent-events.js): newest first, polled every few
 * seconds for the ones after the newest shown.
 */
import { $, type Answer, clear, el, when } from './dom';
import { onProgram } from './program-event';
import { api } from './session-api';

const POLL_MS = 3000;
let lastEventId = 0;
let timer: ReturnType<typeof setInterval> | undefined;

async function loadEvents(id: number): Promise<void> {
  const path = '/api/tracking/events/' + id + '?limit=50' + (lastEventId ? '&after_id=' + lastEventId : '');
  const events = (await api<Answer<'dashboardEvents'>>('GET', path)).data.events;
  const body = $('events-body');
  for (const e of events.slice().reverse()) {
    const row = el('tr', { className: lastEventId ? 'fresh' : '', 'data-event-type': e.type }, [
      el('td', { text: when(e.occurred_at, 'never') }),
      el('td', { text: e.type + (e.provisional ? ' (provisional)' : '') }),
      el('td', { text: e.partner_id === null ? '–' : '#' + e.partner_id }),
      el('td', { className: 'mono', text: e.customer_key || e.click_id || '–' }),
      el('td', { text: e.amount_cents === undefined ? '' : (e.amount_cents / 100).toFixed(2) + ' ' + e.currency }),
      el('td', {}, [e.is_test ? el('span', { className: 'badge test', text: 'test' }) : '']),
    ]);
    body.insertBefore(row, body.firstChild);
  }
  while (body.children.length > 100 && body.lastChild) body.removeChild(body.lastChild);
  const newest = events[0];
  if (newest) lastEventId = Math.max(lastEventId, newest.id);
  $('events-empty').hidden = body.children.length > 0;
}

async function poll(id: number): Promise<void> {
  try {
    await loadEvents(id);
    $('live-badge').className = 'badge ok';
  } catch {
    $('live-badge').className = 'badge warn';
  }
}

onProgram((opened) => {
  clearInterval(timer);
  lastEventId = 0;
  clear($('events-body'));
  void poll(opened.id);
  timer = setInterval(() => void poll(opened.id), POLL_MS);
});
