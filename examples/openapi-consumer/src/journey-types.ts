/** What the journey needs from the server under test: its address, a program's key and a referral link. */
export interface Setup {
  baseUrl: string;
  apiKey: string;
  affiliateUrl: string;
  customerKey: string;
  transactionId: string;
  fetch: typeof fetch;
}

/** What the journey read from the answers (consumer/journey.ts fills it from the generated client's types). */
export interface JourneyOutcome {
  clickId: string;
  lead: { attributed?: boolean; partner_id?: number };
  saleId: number;
  /** `error.details.sale_id` of the duplicate sale's 409. */
  duplicateSaleId: number | undefined;
  refund: { sale_id: number; already_refunded: boolean };
  readinessProgramId: number;
}

/** consumer/journey.ts, loaded only once its generated client exists. */
export interface JourneyModule {
  runJourney: (setup: Setup) => Promise<JourneyOutcome>;
}
