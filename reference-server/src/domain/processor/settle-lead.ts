import { ServiceError } from '../../errors/service-error';
import { findCustomerByClick, findCustomerByKey } from '../../store/customers';
import type { Customer, Program } from '../../store/schema';
import type { DomainContext } from '../context';
import { recordLead } from '../tracking/lead';

/**
 * spec/rules.md "States and transitions": a processor payment for a customer with a provisional lead settles it — "same path
 * as the lead endpoint", i.e. a server-mode lead of the connected program (counted and paid per lead, the
 * customer key stored). Any other customer state is left alone: the webhook is not a signup.
 */
export async function settleProvisionalLead(
  deps: DomainContext,
  program: Program,
  ids: { clickId: string | undefined; customerKey: string | undefined },
): Promise<void> {
  const customer = await findRealCustomer(deps, program, ids);
  if (customer?.status !== 'provisional_lead') return;
  try {
    await recordLead(deps, {
      keyProgram: program,
      ...(customer.click_id === null ? {} : { clickId: customer.click_id }),
      ...(ids.customerKey === undefined ? {} : { customerKey: ids.customerKey }),
      mode: { test: false },
    });
  } catch (error) {
    // Settled meanwhile by a concurrent lead or event, or the key names another customer: the lead endpoint's
    // own refusal; the payment is still attributed below, on its own terms.
    if (error instanceof ServiceError && error.status === 400) {
      deps.log?.error({ err: error, program_id: program.id }, 'provisional lead not settled by processor event');
      return;
    }
    throw error;
  }
}

/** The sale path's resolution order (customer key, then click), among real records of the program. */
async function findRealCustomer(
  deps: DomainContext,
  program: Program,
  ids: { clickId: string | undefined; customerKey: string | undefined },
): Promise<Customer | undefined> {
  if (ids.customerKey !== undefined) {
    const byKey = await findCustomerByKey(deps.db, program.id, false, ids.customerKey);
    if (byKey) return byKey;
  }
  if (ids.clickId === undefined) return undefined;
  const byClick = await findCustomerByClick(deps.db, ids.clickId);
  return byClick && byClick.program_id === program.id && byClick.is_test === 0 ? byClick : undefined;
}
