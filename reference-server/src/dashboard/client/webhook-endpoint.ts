/**
 * A webhook endpoint's page (served as /dashboard/assets/webhook-endpoint.js): its address, state and events, and
 * its delivery history. Each delivery shows the body sent and its attempts in a disclosure, and a Resend button. The
 * endpoint is its section's `data-endpoint-id`, the program comes from onProgram (program-event.ts).
 */
import { $, type Answer, button, clear, el, messageOf, notice, when } from './dom';
import { keepingPlace } from './keep-place';
import { api } from './session-api';
import { onProgram, type OpenProgram } from './program-event';

type Page = Answer<'dashboardListWebhookDeliveries'>;
type Delivery = Page['data'][number];
type Attempt = Delivery['attempt_history'][number];

const id = Number($('webhook-endpoint-card').dataset.endpointId);
let current: OpenProgram | null = null;
let cursor: string | null = null;
/** Bumped by every fresh load: an older page of an earlier load is dropped. */
let generation = 0;

function base(programId: number): string {
  return '/api/dashboard/programs/' + programId + '/webhook-endpoints/' + id;
}

function state(d: Delivery): HTMLSpanElement {
  if (d.status === 'delivered') return el('span', { className: 'badge ok', text: 'delivered' });
  if (d.status === 'failed') return el('span', { className: 'badge warn', text: 'failed' });
  return el('span', { className: 'badge', text: d.attempts === 0 ? 'queued' : 'retrying' });
}

function attemptLine(a: Attempt): HTMLLIElement {
  const answer = a.response_status === null ? 'no answer' : 'HTTP ' + a.response_status;
  const lines: HTMLElement[] = [
    el('p', {}, [el('strong', { text: 'Attempt ' + a.attempt + ': ' + answer }), ' · ' + when(a.at, '') + ' · ' + a.duration_ms + ' ms']),
  ];
  if (a.error && a.error !== answer) lines.push(el('p', { className: 'muted', text: a.error }));
  if (a.response_body_excerpt) lines.push(el('pre', { className: 'snippet', text: a.response_body_excerpt }));
  return el('li', { 'data-attempt': String(a.attempt) }, lines);
}

/** The request body, pretty-printed when it is JSON (it always is; the bytes sent are the compact form). */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function deliveryRow(programId: number, d: Delivery): HTMLLIElement {
  const details = el('details', {}, [
    el('summary', { text: 'Request and attempts' }),
    el('h4', { text: 'Request body' }),
    el('pre', { className: 'snippet request-body', text: pretty(d.request_body) }),
    el('h4', { text: 'Attempts' }),
    d.attempt_history.length === 0
      ? el('p', { className: 'muted', text: 'Not attempted yet.' })
      : el('ol', { className: 'attempts' }, d.attempt_history.map(attemptLine)),
  ]);
  const next = d.status === 'pending' && d.next_attempt_at ? ' · next attempt ' + when(d.next_attempt_at, '') : '';
  return el('li', { 'data-delivery-id': String(d.id), 'data-status': d.status, tabindex: '-1' }, [
    el('p', {}, [el('code', { text: d.event_type }), ' ', state(d)]),
    el('p', {
      className: 'muted',
      text: 'Queued ' + when(d.created_at, '') + ' · ' + d.attempts + (d.attempts === 1 ? ' attempt' : ' attempts') + next,
    }),
    el('p', { className: 'mono muted', text: d.webhook_id }),
    details,
    button('Resend', 'secondary', () => resend(programId, d)),
  ]);
}

async function fetchPage(programId: number, after: string | null): Promise<Page> {
  const params = new URLSearchParams({ limit: '20' });
  if (after) params.set('cursor', after);
  return api<Page>('GET', base(programId) + '/deliveries?' + params.toString());
}

async function load(): Promise<void> {
  const program = current;
  const mine = ++generation;
  if (!program) return;
  const [page, endpoints] = await Promise.all([
    fetchPage(program.id, null),
    api<Answer<'dashboardListWebhookEndpoints'>>('GET', '/api/dashboard/programs/' + program.id + '/webhook-endpoints'),
  ]);
  if (mine !== generation) return;
  const endpoint = endpoints.data.find((e) => e.id === id);
  if (!endpoint) {
    notice('webhook-endpoint-result', 'error', 'This endpoint was removed.');
    return;
  }
  $('webhook-endpoint-url').textContent = endpoint.url;
  const facts: [string, string][] = [
    ['State', endpoint.enabled ? 'on' : 'paused'],
    ['Events', endpoint.events.join(', ')],
    ['Signing secret', endpoint.secret_hint],
  ];
  clear($('webhook-endpoint-facts')).append(...facts.flatMap(([term, value]) => [el('dt', { text: term }), el('dd', { text: value })]));
  const list = $('webhook-deliveries');
  keepingPlace(list, 'data-delivery-id', () => clear(list).append(...page.data.map((d) => deliveryRow(program.id, d))));
  cursor = page.next_cursor;
  $('webhook-deliveries-older').hidden = cursor === null;
  $('webhook-deliveries-empty').hidden = page.data.length > 0;
}

async function older(): Promise<void> {
  const program = current;
  if (!program || cursor === null) return;
  const mine = generation;
  const page = await fetchPage(program.id, cursor);
  if (mine !== generation) return;
  const list = $('webhook-deliveries');
  for (const d of page.data) list.appendChild(deliveryRow(program.id, d));
  cursor = page.next_cursor;
  $('webhook-deliveries-older').hidden = cursor === null;
  const first = page.data[0];
  if (first) list.querySelector<HTMLElement>('[data-delivery-id="' + first.id + '"]')?.focus();
}

async function resend(programId: number, d: Delivery): Promise<void> {
  try {
    const again = (await api<Answer<'dashboardResendWebhookDelivery', 202>>('POST', base(programId) + '/deliveries/' + d.id + '/resend'))
      .data;
    notice('webhook-endpoint-result', 'ok', 'Resent ' + d.event_type + ' as delivery ' + again.id + '; it goes out within a few seconds.');
    await load();
  } catch (err) {
    notice('webhook-endpoint-result', 'error', messageOf(err));
  }
}

function reload(): void {
  clear($('webhook-endpoint-result'));
  load().catch((err: unknown) => notice('webhook-endpoint-result', 'error', messageOf(err)));
}

$('webhook-endpoint-refresh').addEventListener('click', reload);
$('webhook-deliveries-older').addEventListener('click', () => {
  older().catch((err: unknown) => notice('webhook-endpoint-result', 'error', messageOf(err)));
});
onProgram((opened) => {
  current = opened;
  reload();
});
