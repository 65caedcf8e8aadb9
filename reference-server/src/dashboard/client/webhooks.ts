/**
 * The Webhooks section (served as /dashboard/assets/webhooks.js): add an endpoint and show its signing secret once,
 * list endpoints with their recent deliveries, send a test event, pause and remove; each endpoint's address and its
 * Deliveries link open its own page (webhook-endpoint.ts) with the full history. The program comes from onProgram.
 */
import { $, type Answer, all, api, button, clear, el, messageOf, notice as noticeIn, type NoticeKind, onSubmit } from './dom';
import { keepingPlace } from './keep-place';
import { onProgram, type OpenProgram } from './program-event';
import { deliveriesTable } from './webhook-deliveries';

type Endpoint = Answer<'dashboardListWebhookEndpoints'>['data'][number];

let current: OpenProgram | null = null;
let refresh: ReturnType<typeof setTimeout> | null = null;

function notice(kind: NoticeKind, text: string): void {
  noticeIn('webhooks-result', kind, text);
}
function base(): string {
  if (!current) throw new Error('No program is open.');
  return '/api/dashboard/programs/' + current.id + '/webhook-endpoints';
}

async function load(): Promise<void> {
  const endpoints = (await api<Answer<'dashboardListWebhookEndpoints'>>('GET', base())).data;
  const list = $('webhooks-list');
  keepingPlace(list, 'data-endpoint-id', () => render(clear(list), endpoints));
}
function render(list: HTMLElement, endpoints: Endpoint[]): void {
  if (endpoints.length === 0) {
    list.appendChild(el('p', { className: 'muted', text: 'No endpoints yet.' }));
    return;
  }
  for (const e of endpoints) {
    const actions = el('div', { className: 'inline' }, [
      el('a', {
        className: 'button secondary small',
        href: '/dashboard/programs/' + (current?.id ?? '') + '/webhooks/' + e.id,
        text: 'Deliveries',
      }),
      button('Send test event', 'secondary small', () => test(e)),
      button(e.enabled ? 'Pause' : 'Resume', 'secondary small', () => setEnabled(e, !e.enabled)),
      button('Remove', 'danger small', () => remove(e)),
    ]);
    list.appendChild(
      el('div', { className: 'webhook-endpoint', 'data-endpoint-id': String(e.id) }, [
        el('h4', {}, [
          el('a', { href: '/dashboard/programs/' + (current?.id ?? '') + '/webhooks/' + e.id }, [
            el('code', { className: 'webhook-url', text: e.url }),
          ]),
          ' ',
          el('span', { className: e.enabled ? 'badge ok' : 'badge warn', text: e.enabled ? 'on' : 'paused' }),
        ]),
        el('p', { className: 'muted', text: e.events.join(', ') + ' · secret ' + e.secret_hint }),
        actions,
        deliveriesTable(e),
      ]),
    );
  }
}
function reloadSoon(): void {
  if (refresh) clearTimeout(refresh);
  refresh = setTimeout(() => {
    load().catch((err: unknown) => notice('error', messageOf(err)));
  }, 2500);
}
async function test(e: Endpoint): Promise<void> {
  try {
    await api('POST', base() + '/' + e.id + '/test');
    notice('ok', 'Test event queued for ' + e.url + '.');
    await load();
    reloadSoon();
  } catch (err) {
    notice('error', messageOf(err));
  }
}
async function setEnabled(e: Endpoint, enabled: boolean): Promise<void> {
  try {
    await api('PATCH', base() + '/' + e.id, { enabled });
    notice('ok', enabled ? 'Endpoint resumed.' : 'Endpoint paused: events wait until you resume it.');
    await load();
  } catch (err) {
    notice('error', messageOf(err));
  }
}
async function remove(e: Endpoint): Promise<void> {
  if (!window.confirm('Remove ' + e.url + '? Nothing more is sent to it.')) return;
  try {
    await api('DELETE', base() + '/' + e.id);
    notice('ok', 'Endpoint removed.');
    await load();
  } catch (err) {
    notice('error', messageOf(err));
  }
}
onSubmit('new-webhook-form', async () => {
  const events = all<HTMLInputElement>('#wh-events input:checked').map((i) => i.value);
  const url = $('wh-url', HTMLInputElement).value.trim();
  const body = events.length ? { url, events } : { url };
  try {
    const e = (await api<Answer<'dashboardCreateWebhookEndpoint', 201>>('POST', base(), body)).data;
    $('new-webhook-form', HTMLFormElement).reset();
    const box = clear($('webhooks-result'));
    box.appendChild(
      el('div', { className: 'notice ok', role: 'status' }, [
        el('p', {
          text: 'Endpoint added. Its signing secret is shown only now: keep it in your backend (for example SVC_WEBHOOK_SECRET).',
        }),
        el('code', { id: 'new-webhook-secret', className: 'newkey', text: e.secret }),
      ]),
    );
    await load();
  } catch (err) {
    notice('error', messageOf(err));
  }
});
onProgram((opened) => {
  current = opened;
  clear($('webhooks-result'));
  load().catch((err: unknown) => notice('error', messageOf(err)));
});
