import { describe, expect, it } from 'vitest';
import { clickStillAttributes } from './click';
import { saleWithinWindow } from './sale';

const day = 86_400_000;

describe('saleWithinWindow', () => {
  it('compares the click to the signup when one was recorded', () => {
    const customer = { clicked_at: 0, lead_at: 10 * day, converted_at: null };
    expect(saleWithinWindow(customer, 500 * day, 30)).toBe(true);
    expect(saleWithinWindow({ ...customer, lead_at: 31 * day }, 31 * day, 30)).toBe(false);
  });

  it('compares the click to the payment when no signup was recorded', () => {
    const customer = { clicked_at: 0, lead_at: null, converted_at: null };
    expect(saleWithinWindow(customer, 30 * day, 30)).toBe(true);
    expect(saleWithinWindow(customer, 30 * day + 1, 30)).toBe(false);
  });

  it('never re-checks after a conversion', () => {
    expect(saleWithinWindow({ clicked_at: 0, lead_at: null, converted_at: day }, 900 * day, 30)).toBe(true);
  });
});

describe('clickStillAttributes', () => {
  it('holds inside the window only', () => {
    expect(clickStillAttributes(0, 60 * day, 60)).toBe(true);
    expect(clickStillAttributes(0, 60 * day + 1, 60)).toBe(false);
    expect(clickStillAttributes(null, 0, 60)).toBe(false);
  });
});
