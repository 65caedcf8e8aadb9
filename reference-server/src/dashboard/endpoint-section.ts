/**
 * One webhook endpoint's page (its script: client/endpoint.ts): its address, events, state and latest deliveries.
 * The section names the endpoint (`data-endpoint-id`), the page's root the program.
 */
export function endpointSection(programId: number, endpointId: number): string {
  return `<section id="endpoint-detail" data-endpoint-id="${endpointId}" aria-labelledby="page-title">
        <p><a href="/dashboard/programs/${programId}/webhooks">← All endpoints</a></p>
        <div id="endpoint-result" aria-live="polite"></div>
        <div class="card" id="endpoint-summary">
          <h2 class="mono" id="endpoint-url">Endpoint</h2>
          <dl class="facts" id="endpoint-facts"></dl>
        </div>
        <section class="card" aria-labelledby="endpoint-deliveries-title">
          <h2 id="endpoint-deliveries-title">Latest deliveries</h2>
          <div id="endpoint-deliveries-box"></div>
        </section>
      </section>`;
}
