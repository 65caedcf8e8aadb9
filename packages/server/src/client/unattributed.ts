import type { LeadResponse } from '@svc/types';

let warned = false;

/**
 * One console warning per process for a lead the service recorded without a partner (`attributed: false`,
 * spec/openapi.yaml `LeadResponse`): the classic forgotten cookie, otherwise silent until the first sale answers
 * `no_attribution`.
 */
export function warnUnattributed<R extends LeadResponse>(result: R): R {
  if (result.attributed === false && !warned) {
    warned = true;
    console.warn(
      '[svc] A lead was recorded without a partner (attributed: false): no click_id, and no earlier click of this ' +
        "customer_key. Send the svc_click_id cookie's value as click_id, or its sales answer no_attribution.",
    );
  }
  return result;
}
