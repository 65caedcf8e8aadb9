import { describe, expect, it } from 'vitest';
import { conversionRates } from './performance';

describe('conversion rates', () => {
  it('are ratios of unique customers per stage, null when the denominator is zero', () => {
    expect(conversionRates({ clicks: 4, leads: 2, buyers: 1 })).toEqual({ click_to_lead: 0.5, lead_to_sale: 0.5, click_to_sale: 0.25 });
    expect(conversionRates({ clicks: 0, leads: 0, buyers: 0 })).toEqual({ click_to_lead: null, lead_to_sale: null, click_to_sale: null });
  });
});
