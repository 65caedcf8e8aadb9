import { describe, expect, it } from 'vitest';
import { cookieDomainFor } from './domain';

describe('cookieDomainFor', () => {
  it('keeps IP addresses, localhost and single labels host-only', () => {
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '::1', 'intranet']) expect(cookieDomainFor(host)).toBeUndefined();
  });

  it('infers the registrable domain conservatively', () => {
    expect(cookieDomainFor('www.shop.com')).toBe('shop.com');
    expect(cookieDomainFor('shop.com')).toBe('shop.com');
    expect(cookieDomainFor('a.b.shop.io')).toBe('shop.io');
    expect(cookieDomainFor('www.shop.co.uk')).toBe('shop.co.uk');
    expect(cookieDomainFor('shop.com.au')).toBe('shop.com.au');
    expect(cookieDomainFor('WWW.Shop.COM.')).toBe('shop.com');
  });

  it('never names a public suffix: shared hosts and bare country registries are host-only', () => {
    expect(cookieDomainFor('myshop.vercel.app')).toBeUndefined();
    expect(cookieDomainFor('me.github.io')).toBeUndefined();
    expect(cookieDomainFor('co.uk')).toBeUndefined();
  });

  it('uses cookieDomain when the host is in it, else stays host-only', () => {
    expect(cookieDomainFor('app.shop.com', '.shop.com')).toBe('shop.com');
    expect(cookieDomainFor('myshop.vercel.app', 'myshop.vercel.app')).toBe('myshop.vercel.app');
    expect(cookieDomainFor('evil.test', 'shop.com')).toBeUndefined();
    expect(cookieDomainFor('notshop.com', 'shop.com')).toBeUndefined();
  });
});
