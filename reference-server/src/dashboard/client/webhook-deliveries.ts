/** An endpoint's recent deliveries as a table: the Webhooks page (webhooks.ts) and an endpoint's page (endpoint.ts). */
import { type Answer, el, scrollRegion, when } from './dom';

type Endpoint = Answer<'dashboardListWebhookEndpoints'>['data'][number];
type Delivery = Endpoint['recent_deliveries'][number];

function deliveryState(d: Delivery): HTMLSpanElement {
  if (d.status === 'delivered') return el('span', { className: 'badge ok', text: 'delivered' });
  if (d.status === 'failed') return el('span', { className: 'badge warn', text: 'failed' });
  return el('span', { className: 'badge', text: d.attempts === 0 ? 'queued' : 'retrying' });
}
export function deliveriesTable(endpoint: Endpoint): HTMLElement {
  if (endpoint.recent_deliveries.length === 0) return el('p', { className: 'muted', text: 'No deliveries yet.' });
  const rows = endpoint.recent_deliveries.map((d) => {
    const last = d.last_error || (d.last_response_status ? 'HTTP ' + d.last_response_status : '');
    return el('tr', { 'data-delivery-id': String(d.id), 'data-status': d.status }, [
      el('td', { text: when(d.created_at, '') }),
      el('td', {}, [el('code', { text: d.event_type })]),
      el('td', {}, [deliveryState(d)]),
      el('td', { text: String(d.attempts) }),
      el('td', { text: d.status === 'pending' ? when(d.next_attempt_at, '') : '' }),
      el('td', { className: 'muted', text: last }),
    ]);
  });
  const headings = ['Queued', 'Event', 'State', 'Attempts', 'Next attempt', 'Last answer'].map((h) => el('th', { text: h }));
  return scrollRegion(
    'Recent deliveries to ' + endpoint.url,
    el('table', {}, [el('thead', {}, [el('tr', {}, headings)]), el('tbody', {}, rows)]),
  );
}
