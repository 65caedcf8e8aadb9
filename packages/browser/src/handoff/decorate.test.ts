import { describe, expect, it } from 'vitest';
import { parseLanding } from '../landing/landing';
import { decorateLink, decorateSearch, matchesDomain, type LinkParts } from './decorate';

const handoff = { clickId: 'clk_1', expires: 1_900_000_000 };
const domains = ['app.example.com', 'checkout.example.net'];

/** A link's URL parts, as an anchor exposes them. */
function link(href: string): LinkParts & { href(): string } {
  const url = new URL(href);
  return {
    get protocol() {
      return url.protocol;
    },
    get hostname() {
      return url.hostname;
    },
    get search() {
      return url.search;
    },
    set search(value: string) {
      url.search = value;
    },
    href: () => url.href,
  };
}

describe('matchesDomain', () => {
  it('matches a listed domain and its subdomains only', () => {
    expect(matchesDomain('app.example.com', domains)).toBe(true);
    expect(matchesDomain('eu.checkout.example.net', domains)).toBe(true);
    expect(matchesDomain('example.com', domains)).toBe(false);
    expect(matchesDomain('evilapp.example.com', domains)).toBe(false);
    expect(matchesDomain('app.example.com.evil.test', domains)).toBe(false);
  });
});

describe('decorateSearch', () => {
  it('sets the click id and expiry, keeping other parameters and replacing an earlier hand-off', () => {
    const once = decorateSearch('?plan=pro', handoff);
    expect(once).toBe('?plan=pro&svc_click_id=clk_1&svc_click_exp=1900000000');
    expect(decorateSearch(once, { clickId: 'clk_2', expires: 5 })).toBe('?plan=pro&svc_click_id=clk_2&svc_click_exp=5');
  });

  it('round-trips through the landing parser on the other side', () => {
    expect(parseLanding('https://app.example.com/' + decorateSearch('', handoff))).toEqual({ aff: false, handoff });
  });
});

describe('decorateLink', () => {
  it('decorates links to a hand-off domain', () => {
    const target = link('https://checkout.example.net/pay?cart=3#summary');
    decorateLink(target, domains, handoff);
    expect(target.href()).toBe('https://checkout.example.net/pay?cart=3&svc_click_id=clk_1&svc_click_exp=1900000000#summary');
  });

  it('leaves other domains and non-HTTP links alone', () => {
    for (const href of ['https://other.example.org/?a=1', 'mailto:someone@app.example.com', 'ftp://app.example.com/file']) {
      const target = link(href);
      decorateLink(target, domains, handoff);
      expect(target.href()).toBe(new URL(href).href);
    }
  });
});
