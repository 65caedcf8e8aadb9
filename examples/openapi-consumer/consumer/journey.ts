// Compiled with `tsc --strict` against the client @hey-api/openapi-ts generates from the public contract
// (test/generated-client.test.ts writes it to generated/client first): no cast reads an answer here, so a contract
// change that breaks a generated client's narrowing breaks this file's type check.
import { createClient, createConfig } from '../generated/client/client';
import { getReadiness, trackClick, trackLead, trackRefund, trackSale } from '../generated/client/sdk.gen';
import type { JourneyOutcome, Setup } from '../src/journey-types';

/** Click, server lead, sale, the same sale again, refund and readiness, as a team with only the contract writes them. */
export async function runJourney(setup: Setup): Promise<JourneyOutcome> {
  // The key is configured once, as a generated client is: the contract decides where it is sent.
  const client = createClient(createConfig({ baseUrl: setup.baseUrl, auth: () => setup.apiKey, fetch: setup.fetch }));

  const click = succeeded('click', await trackClick({ client, body: { affiliate_url: setup.affiliateUrl } }));
  const lead = succeeded('lead', await trackLead({ client, body: { click_id: click.click_id, customer_key: setup.customerKey } }));
  const saleBody = { transaction_id: setup.transactionId, amount_cents: 4900, currency: 'USD' as const, customer_key: setup.customerKey };
  const sale = succeeded('sale', await trackSale({ client, body: saleBody }));

  const again = await trackSale({ client, body: saleBody });
  if (again.error === undefined) throw new Error('the same transaction_id was recorded twice');
  const refused = again.error;
  // @ts-expect-error: the 409's `sale_id` is not reachable before the error is narrowed to it.
  void refused.error.details.sale_id;
  // The documented rule: the platform envelope has `data`, the typed one has not; then `error.code` names the schema.
  if (!('data' in refused) || refused.error.code !== 'duplicate_transaction') {
    throw new Error(`expected duplicate_transaction, got ${JSON.stringify(refused)}`);
  }
  const duplicateSaleId = refused.error.details.sale_id;

  const refund = succeeded('refund', await trackRefund({ client, body: { transaction_id: setup.transactionId } }));
  const readiness = succeeded('readiness', await getReadiness({ client }));
  return { clickId: click.click_id, lead, saleId: sale.sale_id, duplicateSaleId, refund, readinessProgramId: readiness.program_id };
}

/** The success body, or an error naming the step and what the server answered. */
function succeeded<T>(step: string, result: { data: T | undefined; error: unknown }): T {
  const { data, error } = result;
  if (data === undefined) throw new Error(`${step} failed: ${JSON.stringify(error)}`);
  return data;
}
