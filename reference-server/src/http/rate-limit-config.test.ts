import { describe, expect, it } from 'vitest';
import { readRateLimits } from './rate-limit-config';

describe('SVC_RATE_LIMITS', () => {
  it('unset or empty keeps the defaults; off removes the limits', () => {
    expect(readRateLimits(undefined)).toEqual({ rateLimits: true, rateLimitOverrides: {} });
    expect(readRateLimits('')).toEqual({ rateLimits: true, rateLimitOverrides: {} });
    expect(readRateLimits('off')).toEqual({ rateLimits: false, rateLimitOverrides: {} });
  });

  it('sets the named routes: sale is the bucket sale and refund share, cli covers /cli/auth/* too', () => {
    expect(readRateLimits('click=600, lead=300,sale=1200,readiness=60,cli=120').rateLimitOverrides).toEqual({
      click: 600,
      lead: 300,
      money: 1200,
      readiness: 60,
      cli: 120,
      cliAuth: 120,
    });
  });

  it.each([
    [
      'leads=300',
      /^SVC_RATE_LIMITS: unknown limit "leads=300"; use off, or name=perMinute pairs with names click, lead, sale, readiness, cli/,
    ],
    ['money=5', /unknown limit "money=5"/],
    ['toString=5', /unknown limit "toString=5"/],
    ['lead', /^SVC_RATE_LIMITS: lead must be a whole number of requests per minute from 1 to 1000000; got ""/],
    ['lead=0', /lead must be a whole number .* got "0"/],
    ['lead=1.5', /got "1.5"/],
    ['lead=-3', /got "-3"/],
    ['lead=1e3', /got "1e3"/],
    ['lead=2000000', /got "2000000"/],
    ['lead=3=4', /unknown limit "lead=3=4"/],
    ['On', /unknown limit "On"/],
  ])('refuses %j with one line naming the variable', (value, message) => {
    expect(() => readRateLimits(value)).toThrow(message);
    try {
      readRateLimits(value);
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });
});
