import { describe, expect, it } from 'vitest';
import { parseLanding, pickLandingUrl } from './landing';

describe('parseLanding', () => {
  it('finds a non-empty aff', () => {
    expect(parseLanding('https://shop.example.test/pricing?utm=x&aff=summer-sale#top')).toEqual({ aff: true, handoff: undefined });
  });

  it('asks for nothing without aff, with an empty aff, or for a URL that does not parse', () => {
    expect(parseLanding('https://shop.example.test/')).toBeUndefined();
    expect(parseLanding('https://shop.example.test/?aff=')).toBeUndefined();
    expect(parseLanding('https://shop.example.test/?affiliate=x')).toBeUndefined();
    expect(parseLanding('not a url')).toBeUndefined();
  });

  it('finds a hand-off click id with its expiry', () => {
    expect(parseLanding('https://app.example.com/?svc_click_id=clk_9&svc_click_exp=1900000000')).toEqual({
      aff: false,
      handoff: { clickId: 'clk_9', expires: 1_900_000_000 },
    });
  });

  it('ignores a hand-off without a usable expiry', () => {
    expect(parseLanding('https://app.example.com/?svc_click_id=clk_9')).toBeUndefined();
    expect(parseLanding('https://app.example.com/?svc_click_id=clk_9&svc_click_exp=soon')).toBeUndefined();
  });
});

describe('pickLandingUrl', () => {
  const landed = 'https://shop.example.test/?aff=summer-sale';

  it('keeps the current URL when it carries aff', () => {
    expect(pickLandingUrl(landed, 'https://shop.example.test/other?aff=x')).toBe(landed);
  });

  it('recovers the URL the document loaded from when a router already rewrote location', () => {
    expect(pickLandingUrl('https://shop.example.test/dashboard', landed)).toBe(landed);
  });

  it('keeps the current URL when there is no navigation entry', () => {
    expect(pickLandingUrl('https://shop.example.test/dashboard', undefined)).toBe('https://shop.example.test/dashboard');
  });
});
