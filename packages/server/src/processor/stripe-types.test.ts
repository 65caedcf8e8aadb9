import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { svcCheckout, withSvcMetadata } from './metadata';

// Type-level: the helpers' output is accepted by the real Stripe SDK's `checkout.sessions.create` params.
describe('Stripe params compatibility', () => {
  it('spreads and merges into SessionCreateParams', () => {
    const attribution = { clickId: 'clk', customerKey: 'u', programId: 1 };
    const spread = {
      mode: 'subscription',
      success_url: 'https://x.test',
      ...svcCheckout(attribution, 'subscription'),
    } satisfies Stripe.Checkout.SessionCreateParams;
    const merged: Stripe.Checkout.SessionCreateParams = withSvcMetadata(
      { mode: 'payment', success_url: 'https://x.test', metadata: { a: 'b' } },
      attribution,
    );
    expect(spread.subscription_data?.metadata).toEqual(spread.metadata);
    expect(merged.metadata).toMatchObject({ a: 'b', svc_customer_key: 'u' });
  });
});
