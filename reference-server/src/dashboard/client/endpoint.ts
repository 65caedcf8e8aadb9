/**
 * A webhook endpoint's page (served as /dashboard/assets/endpoint.js): its address, events, state, signing secret's
 * hint and latest deliveries. The endpoint is its section's `data-endpoint-id`, the program comes from onProgram.
 */
import { $, type Answer, clear, el, messageOf, notice } from './dom';
import { onProgram } from './program-event';
import { api } from './session-api';
import { deliveriesTable } from './webhook-deliveries';

const endpointId = Number($('endpoint-detail').dataset.endpointId);

async function load(programId: number): Promise<void> {
  const endpoints = (
    await api<Answer<'dashboardListWebhookEndpoints'>>('GET', '/api/dashboard/programs/' + programId + '/webhook-endpoints')
  ).data;
  const endpoint = endpoints.find((e) => e.id === endpointId);
  if (!endpoint) {
    notice('endpoint-result', 'error', 'This endpoint was removed.');
    return;
  }
  $('endpoint-url').textContent = endpoint.url;
  const facts: [string, string][] = [
    ['State', endpoint.enabled ? 'on' : 'paused'],
    ['Events', endpoint.events.join(', ')],
    ['Signing secret', endpoint.secret_hint],
  ];
  clear($('endpoint-facts')).append(...facts.flatMap(([term, value]) => [el('dt', { text: term }), el('dd', { text: value })]));
  const deliveries = $('endpoint-deliveries-box');
  deliveries.replaceChildren(deliveriesTable(endpoint));
}

onProgram((program) => {
  load(program.id).catch((e: unknown) => notice('endpoint-result', 'error', messageOf(e)));
});
