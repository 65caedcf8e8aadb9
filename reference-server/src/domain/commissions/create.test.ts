import { describe, expect, it } from 'vitest';
import { commissionAmount } from './create';

describe('commissionAmount', () => {
  it('pays percent and fixed once, on the converting sale only (later sales pay 0)', () => {
    expect(commissionAmount('percent', 10, 4900, true)).toBe(490);
    expect(commissionAmount('percent', 10, 4900, false)).toBe(0);
    expect(commissionAmount('fixed', 500, 4900, true)).toBe(500);
    expect(commissionAmount('fixed', 500, 4900, false)).toBe(0);
  });

  it('pays recurring types on every sale', () => {
    expect(commissionAmount('recurring_percent', 20, 1000, false)).toBe(200);
    expect(commissionAmount('recurring_fixed', 250, 1000, false)).toBe(250);
  });

  it('rounds percent half up', () => {
    expect(commissionAmount('percent', 12.5, 4900, true)).toBe(613);
    expect(commissionAmount('percent', 10, 5, true)).toBe(1);
    expect(commissionAmount('percent', 10, 4, true)).toBe(0);
    expect(commissionAmount('percent', 33.333, 100, true)).toBe(33);
    expect(commissionAmount('percent', 1.005, 1000, true)).toBe(10);
  });

  it('stays exact at the caps (100 % of 10^12, half up at the last cent)', () => {
    expect(commissionAmount('percent', 100, 1_000_000_000_000, true)).toBe(1_000_000_000_000);
    expect(commissionAmount('percent', 12.5, 999_999_999_999, true)).toBe(125_000_000_000);
    expect(commissionAmount('recurring_percent', 0.0001, 5_000_000, false)).toBe(5);
  });
});
