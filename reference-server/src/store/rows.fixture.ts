/** A plain sale row for the store's tests: program 1, no customer or partner, USD. */
export const saleRow = (transactionId: string, amountCents = 100) => ({
  program_id: 1,
  customer_id: null,
  partner_id: null,
  processor_event_id: transactionId,
  amount_cents: amountCents,
  currency: 'USD' as const,
  is_test: 0 as const,
  provider: null,
  provider_payment_id: null,
  livemode: null,
  source: 'api' as const,
  occurred_at: 1,
  created_at: 1,
  refunded_at: null,
  refund_reason: null,
  refund_note: null,
});
