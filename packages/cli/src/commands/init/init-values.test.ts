import { describe, expect, it } from 'vitest';
import { UsageError } from '../../cli/failures';
import { missingFlags, parseRate, toInitRequest } from './init-values';

const flags = { name: 'Acme', domain: 'acme.com', commissionType: 'percent', commissionRate: '20' };

describe('svc init values', () => {
  it('maps the flags to the spec body with a numeric rate', () => {
    expect(toInitRequest(flags)).toEqual({ name: 'Acme', domain: 'acme.com', commission_type: 'percent', commission_rate: 20 });
    expect(toInitRequest({ ...flags, commissionRate: '7.5' }).commission_rate).toBe(7.5);
  });

  it('names every missing flag', () => {
    expect(missingFlags({ name: 'x', domain: ' ' })).toEqual(['domain', 'commissionType', 'commissionRate']);
    expect(() => toInitRequest({ name: 'x' })).toThrow('Missing required values: --domain, --commission-type, --commission-rate');
  });

  it('refuses an unknown commission type with the service wording', () => {
    expect(() => toInitRequest({ ...flags, commissionType: 'bonus' })).toThrow(
      'Invalid commission_type: bonus. Valid: percent, fixed, recurring_percent, recurring_fixed',
    );
  });

  it('refuses a rate that is not a positive number', () => {
    for (const rate of ['0', '-5', 'abc', '1e3', 'Infinity', '', '5%']) expect(parseRate(rate)).toBeUndefined();
    expect(() => toInitRequest({ ...flags, commissionRate: 'abc' })).toThrow(UsageError);
    expect(parseRate('.5')).toBe(0.5);
  });
});
