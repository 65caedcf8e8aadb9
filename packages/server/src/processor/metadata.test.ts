import { describe, expect, it } from 'vitest';
import { svcCheckout, svcMetadata, withSvcMetadata } from './metadata';

const attribution = { clickId: 'clk_1', customerKey: 'user_42', programId: 7 };
const metadata = { svc_click_id: 'clk_1', svc_customer_key: 'user_42', program_id: '7' };

describe('Stripe checkout metadata', () => {
  it('uses the spec keys with string values, leaving out a missing click id', () => {
    expect(svcMetadata(attribution)).toEqual(metadata);
    expect(svcMetadata({ ...attribution, clickId: null })).toEqual({ svc_customer_key: 'user_42', program_id: '7' });
  });

  it('duplicates the metadata into subscription_data for subscriptions, so renewals attribute', () => {
    expect(svcCheckout(attribution, 'subscription')).toEqual({ metadata, subscription_data: { metadata } });
    expect(svcCheckout(attribution)).toEqual({ metadata });
  });

  it('merges into existing params without dropping the caller’s metadata or subscription settings', () => {
    const params = {
      mode: 'subscription' as const,
      success_url: 'https://shop.test/ok',
      metadata: { order: 'A1' },
      subscription_data: { trial_period_days: 14, metadata: { plan: 'pro' } },
    };
    expect(withSvcMetadata(params, attribution)).toEqual({
      mode: 'subscription',
      success_url: 'https://shop.test/ok',
      metadata: { order: 'A1', ...metadata },
      subscription_data: { trial_period_days: 14, metadata: { plan: 'pro', ...metadata } },
    });
    expect(withSvcMetadata({ mode: 'payment' }, attribution)).toEqual({ mode: 'payment', metadata });
  });
});
