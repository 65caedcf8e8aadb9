import { describe, expect, it } from 'vitest';
import { domainCandidates } from './domains';

describe('domainCandidates', () => {
  it('lists the candidates from the last two labels up to the whole host', () => {
    expect(domainCandidates('www.shop.example.test')).toEqual(['example.test', 'shop.example.test', 'www.shop.example.test']);
  });

  it('starts at the public suffix itself so that the browser, not a list, refuses it', () => {
    expect(domainCandidates('shop.example.co.uk')).toEqual(['co.uk', 'example.co.uk', 'shop.example.co.uk']);
  });

  it('keeps a two-label host as its only candidate', () => {
    expect(domainCandidates('example.com')).toEqual(['example.com']);
  });

  it.each(['localhost', '127.0.0.1', '10.0.0.12', '[::1]', '[2001:db8::1]'])('gives no candidate for %s (host-only)', (host) => {
    expect(domainCandidates(host)).toEqual([]);
  });
});
