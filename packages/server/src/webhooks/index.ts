/**
 * Verifies the webhooks svc sends to your endpoints.
 *
 * @module @svc/server/webhooks
 */
export {
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationErrorCode,
  type WebhookHeaders,
  type VerifyWebhookOptions,
} from './verify';
export type {
  WebhookEvent,
  WebhookEventType,
  LeadCreatedEvent,
  SaleCreatedEvent,
  CommissionCreatedEvent,
  SaleRefundedEvent,
  WebhookTestEvent,
} from '@svc/types';
