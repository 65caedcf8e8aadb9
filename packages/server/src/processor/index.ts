export { svcMetadata, svcCheckout, withSvcMetadata, type SvcCheckoutMetadata, type CheckoutAttribution } from './metadata';
