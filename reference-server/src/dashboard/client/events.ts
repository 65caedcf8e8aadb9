/**
 * The Events section (served as /dashboard/assets/events.js): the program's events feed newest first, with partner
 * names, a sale's refund, and test events marked; filters by type and partner; "Older events" follows `next_cursor`;
 * new events (after the newest shown, same filters) are polled every few seconds. The open program comes from
 * onProgram (program-event.ts).
 */
import { $, type Answer, clear, el, messageOf, notice, when } from './dom';
import { api } from './session-api';
import { onProgram, type OpenProgram } from './program-event';

const pollMs = 3000;
/** Rows kept on screen while the feed runs live: older ones are dropped (the "Older events" pages show them). */
const keptRows = 200;

type Page = Answer<'dashboardEvents'>['data'];
type FeedEvent = Page['events'][number];

let current: OpenProgram | null = null;
let newestId = 0;
let cursor: string | null = null;
let timer: ReturnType<typeof setInterval> | null = null;
/** Bumped by every fresh load: an answer for an older program or filter is dropped. */
let generation = 0;

function query(extra: Record<string, string>): string {
  const params = new URLSearchParams(extra);
  const type = $('events-type', HTMLSelectElement).value;
  const partner = $('events-partner', HTMLSelectElement).value;
  if (type) params.set('type', type);
  if (partner) params.set('partner_id', partner);
  return '?' + params.toString();
}

function fetchPage(programId: number, extra: Record<string, string>): Promise<Page> {
  return api<Answer<'dashboardEvents'>>('GET', '/api/tracking/events/' + programId + query(extra)).then((a) => a.data);
}

const typeNames: Record<FeedEvent['type'], string> = { click: 'Click', lead: 'Lead', sale: 'Sale' };

function money(cents: number, currency: string | undefined): string {
  return (cents / 100).toFixed(2) + ' ' + (currency ?? '');
}

/** One event as a row of the list: what, when, who, and for a sale its amount and refund. */
function row(e: FeedEvent, fresh: boolean): HTMLLIElement {
  const heading = el('p', {}, [
    el('strong', { text: typeNames[e.type] + (e.provisional ? ' (provisional)' : '') }),
    e.amount_cents === undefined ? '' : ' ' + money(e.amount_cents, e.currency),
    e.is_test ? el('span', { className: 'badge test', text: 'test' }) : '',
    e.refunded_at ? el('span', { className: 'badge warn', text: e.refund_reason === 'chargeback' ? 'charged back' : 'refunded' }) : '',
  ]);
  const who = e.partner_id === null ? 'No partner' : (e.partner_name ?? 'Partner #' + e.partner_id);
  const lines = [el('p', { className: 'muted', text: when(e.occurred_at, '') + ' · ' + who })];
  const customer = e.customer_key || e.click_id;
  if (customer) lines.push(el('p', { className: 'mono', text: customer }));
  if (e.refunded_at) {
    const reason = e.refund_reason ? ' (' + e.refund_reason + ')' : '';
    lines.push(el('p', { className: 'muted', text: 'Refunded ' + when(e.refunded_at, '') + reason + '; its commission was reversed.' }));
  }
  const attributes = { className: fresh ? 'fresh' : '', 'data-event-id': String(e.id), 'data-event-type': e.type, tabindex: '-1' };
  return el('li', attributes, [heading, ...lines]);
}

function showEmpty(): void {
  const filtered = $('events-type', HTMLSelectElement).value !== '' || $('events-partner', HTMLSelectElement).value !== '';
  $('events-empty').textContent = filtered
    ? 'No events match these filters.'
    : 'No events yet. Send a test click, or open a referral link on your site.';
  $('events-empty').hidden = $('events-list').children.length > 0;
}

/** The first page for the program and filters now chosen; the live poll starts from its newest event. */
async function load(): Promise<void> {
  if (!current) return;
  const mine = ++generation;
  const page = await fetchPage(current.id, { limit: '50' });
  if (mine !== generation) return;
  const list = clear($('events-list'));
  for (const e of page.events) list.appendChild(row(e, false));
  newestId = page.events[0]?.id ?? 0;
  cursor = page.next_cursor;
  $('events-older').hidden = cursor === null;
  showEmpty();
}

async function older(): Promise<void> {
  if (!current || cursor === null) return;
  const mine = generation;
  const page = await fetchPage(current.id, { limit: '50', cursor });
  if (mine !== generation) return;
  const list = $('events-list');
  for (const e of page.events) list.appendChild(row(e, false));
  cursor = page.next_cursor;
  $('events-older').hidden = cursor === null;
  // Keyboard users continue from the first row this page added.
  const first = page.events[0];
  if (first) list.querySelector<HTMLElement>('[data-event-id="' + first.id + '"]')?.focus();
}

/** New events after the newest shown (same filters), put on top. */
async function poll(): Promise<void> {
  if (!current) return;
  const program = current;
  const mine = generation;
  try {
    const page = await fetchPage(program.id, { limit: '50', ...(newestId ? { after_id: String(newestId) } : {}) });
    if (mine !== generation) return;
    const list = $('events-list');
    for (const e of page.events.slice().reverse()) list.insertBefore(row(e, true), list.firstChild);
    while (list.children.length > keptRows && list.lastChild) list.removeChild(list.lastChild);
    newestId = Math.max(newestId, page.events[0]?.id ?? 0);
    showEmpty();
    $('live-badge').className = 'badge ok';
  } catch {
    $('live-badge').className = 'badge warn';
  }
}

async function loadPartners(program: OpenProgram): Promise<void> {
  const partners = (await api<Answer<'dashboardListPartners'>>('GET', '/api/dashboard/programs/' + program.id + '/partners')).data.partners;
  if (current?.id !== program.id) return;
  const select = $('events-partner', HTMLSelectElement);
  const chosen = select.value;
  select.replaceChildren(
    el('option', { value: '', text: 'All partners' }),
    ...partners.map((p) => el('option', { value: String(p.id), text: p.name })),
  );
  if (partners.some((p) => String(p.id) === chosen)) select.value = chosen;
}

function reload(): void {
  clear($('events-result'));
  load().catch((err: unknown) => notice('events-result', 'error', messageOf(err)));
}

$('events-type').addEventListener('change', reload);
$('events-partner').addEventListener('change', reload);
$('events-older').addEventListener('click', () => {
  older().catch((err: unknown) => notice('events-result', 'error', messageOf(err)));
});
onProgram((opened) => {
  current = opened;
  if (timer) clearInterval(timer);
  $('events-type', HTMLSelectElement).value = '';
  $('events-partner', HTMLSelectElement).value = '';
  reload();
  loadPartners(opened).catch((err: unknown) => notice('events-result', 'error', messageOf(err)));
  timer = setInterval(() => void poll(), pollMs);
});
