import type { components } from './openapi';

export type { paths, components, operations, webhooks } from './openapi';
export * from './catalogue';
export * from './snippet';
export * from './hints';
export * from './fields';

type Schemas = components['schemas'];

/** Named aliases of the spec's schemas, so callers write `ClickRequest` instead of a deep index. */
export type ClickRequest = Schemas['ClickRequest'];
export type ClickResponse = Schemas['ClickResponse'];
export type LeadRequest = Schemas['LeadRequest'];
export type LeadResponse = Schemas['LeadResponse'];
export type SaleRequest = Schemas['SaleRequest'];
export type SaleResponse = Schemas['SaleResponse'];
export type RefundRequest = Schemas['RefundRequest'];
export type RefundResponse = Schemas['RefundResponse'];
export type Readiness = Schemas['Readiness'];
export type ReadinessResponse = Schemas['ReadinessResponse'];
export type Warning = Schemas['Warning'];
export type PlatformError = Schemas['PlatformError'];
export type SalePlatformError = Schemas['SalePlatformError'];
/** The sale's 409: `error.code` is `duplicate_transaction`, `error.details.sale_id` the sale already recorded. */
export type DuplicateTransactionError = Schemas['DuplicateTransactionError'];
/** The readiness 401: `invalid_key`, or `api_key_rotation_required` with `hint` and `docs_url`. */
export type ReadinessUnauthorizedError = Schemas['ReadinessUnauthorizedError'];
export type RateLimitedError = Schemas['RateLimitedError'];
export type RotationRequiredError = Schemas['RotationRequiredError'];
export type LinkDisabledError = Schemas['LinkDisabledError'];
export type Program = Schemas['Program'];
export type Metrics = Schemas['Metrics'];
export type CommissionType = Schemas['CommissionType'];
export type LeadAuth = Schemas['LeadAuth'];
export type Currency = Schemas['Currency'];
export type Provider = Schemas['Provider'];
export type CustomerStatus = Schemas['CustomerStatus'];
export type EventType = Schemas['EventType'];
export type TestEventRequest = Schemas['TestEventRequest'];
export type TestEventResponse = Schemas['TestEventResponse'];
export type CliStatusResponse = Schemas['CliStatusResult'];
export type CliInitRequest = Schemas['CliInitRequest'];
export type CliInitResponse = Schemas['CliInitResult'];
export type CliProgramsResponse = Schemas['CliProgramsResult'];
export type CliAuthStartResponse = Schemas['CliAuthStartResult'];
export type CliAuthPollResponse = Schemas['CliAuthPollResult'];
export type ProcessorEvent = Schemas['ProcessorEvent'];
export type ProcessorMetadata = Schemas['ProcessorMetadata'];
export type WebhookResponse = Schemas['WebhookResponse'];
export type Partner = Schemas['Partner'];
export type PartnerStatus = Schemas['PartnerStatus'];
export type PartnerSummary = Schemas['PartnerSummary'];
export type PartnerFigures = Schemas['PartnerFigures'];
export type PartnerCreateRequest = Schemas['PartnerCreateRequest'];
export type PartnerResponse = Schemas['PartnerResponse'];
export type PartnersResponse = Schemas['PartnersResponse'];
export type ReferralLink = Schemas['ReferralLink'];
export type LinkCreateRequest = Schemas['LinkCreateRequest'];
export type LinkUpdateRequest = Schemas['LinkUpdateRequest'];
export type LinkResponse = Schemas['LinkResponse'];
export type LinksResponse = Schemas['LinksResponse'];
export type WebhookEventType = Schemas['WebhookEventType'];
export type WebhookEndpointCreateRequest = Schemas['WebhookEndpointCreateRequest'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type WebhookEndpointSummary = Schemas['WebhookEndpointSummary'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type WebhookDeliveryDetail = Schemas['WebhookDeliveryDetail'];
export type WebhookAttempt = Schemas['WebhookAttempt'];
export type WebhookDeliveriesPage = Schemas['WebhookDeliveriesPage'];
export type LeadCreatedEvent = Schemas['LeadCreatedEvent'];
export type SaleCreatedEvent = Schemas['SaleCreatedEvent'];
export type CommissionCreatedEvent = Schemas['CommissionCreatedEvent'];
export type CommissionUpdatedEvent = Schemas['CommissionUpdatedEvent'];
export type Commission = Schemas['Commission'];
export type CommissionStatus = Schemas['CommissionStatus'];
export type CommissionsPage = Schemas['CommissionsPage'];
export type SaleRefundedEvent = Schemas['SaleRefundedEvent'];
export type WebhookTestEvent = Schemas['WebhookTestEvent'];
export type PayoutCreatedEvent = Schemas['PayoutCreatedEvent'];
export type Payout = Schemas['Payout'];
export type RiskKind = Schemas['RiskKind'];
export type RiskEvent = Schemas['RiskEvent'];
export type RiskEventsPage = Schemas['RiskEventsPage'];
export type RiskFlaggedEvent = Schemas['RiskFlaggedEvent'];
/** Every outbound webhook body (the top-level `webhooks` of the spec), told apart by `type`. */
export type WebhookEvent =
  | LeadCreatedEvent
  | SaleCreatedEvent
  | CommissionCreatedEvent
  | CommissionUpdatedEvent
  | SaleRefundedEvent
  | PayoutCreatedEvent
  | RiskFlaggedEvent
  | WebhookTestEvent;

/** Enumerations of the spec as runtime values (kept equal to the spec by catalogue.test.ts). */
export const currencies = ['USD', 'EUR', 'VND'] as const satisfies readonly Currency[];
export const providers = [
  'stripe',
  'paddle',
  'lemonsqueezy',
  'paypal',
  'braintree',
  'chargebee',
  'recurly',
  'manual',
] as const satisfies readonly Provider[];
export const commissionTypes = ['percent', 'fixed', 'recurring_percent', 'recurring_fixed'] as const satisfies readonly CommissionType[];
export const customerStatuses = ['clicked', 'provisional_lead', 'lead', 'converted'] as const satisfies readonly CustomerStatus[];
/** The event types a webhook endpoint can receive (an endpoint created without `events` receives all of them). */
export const webhookEventTypes = [
  'lead.created',
  'sale.created',
  'commission.created',
  'commission.updated',
  'sale.refunded',
  'payout.created',
  'risk.flagged',
] as const satisfies readonly WebhookEventType[];
