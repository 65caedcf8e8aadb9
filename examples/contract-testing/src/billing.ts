import { SvcApiError, type Svc } from '@svc/server';

/** The customer's own code under test: what their backend does at signup and when a payment succeeds. */
export interface User {
  id: string;
  email: string;
}

export class Billing {
  constructor(private readonly svc: Svc) {}

  /**
   * At signup, with the visitor's `svc_click_id` cookie (null when cleared or never set): the lead is recorded
   * either way, unattributed without a click (spec/rules.md "Attribution rules", "Cleared cookie").
   */
  async onSignup(user: User, clickId: string | null): Promise<void> {
    await this.svc.track.lead({ customer_key: user.id, email: user.email, ...(clickId ? { click_id: clickId } : {}) });
  }

  /**
   * When the payment processor says a payment succeeded (its webhooks retry, so this runs more than once).
   * Returns the svc sale id, or null when the payment is not an affiliate sale.
   */
  async onPaymentSucceeded(user: User, payment: { id: string; amountCents: number; currency: 'USD' | 'EUR' }): Promise<number | null> {
    try {
      // The payment id is the idempotency key: a second delivery answers 409, which the SDK resolves as `duplicate`.
      const sale = await this.svc.track.sale({
        transaction_id: payment.id,
        amount_cents: payment.amountCents,
        currency: payment.currency,
        customer_key: user.id,
        provider: 'stripe',
      });
      return sale.sale_id;
    } catch (error) {
      // spec/rules.md "Errors": `no_attribution` and an unknown customer mean "not an affiliate sale", not a failure.
      if (error instanceof SvcApiError && error.status === 400) return null;
      throw error;
    }
  }
}
