/**
 * svc's metadata on Stripe Checkout sessions and subscriptions.
 *
 * @module @svc/server/stripe
 */
export { svcMetadata, svcCheckout, withSvcMetadata, type SvcCheckoutMetadata, type CheckoutAttribution } from './metadata';
