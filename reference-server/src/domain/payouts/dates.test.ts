import { describe, expect, it } from 'vitest';
import { dateBound } from './dates';

describe('dateBound', () => {
  it('takes a UTC day as its first or last millisecond', () => {
    expect(dateBound('2025-03-31', 'start')).toBe(Date.UTC(2025, 2, 31));
    expect(dateBound('2025-03-31', 'end')).toBe(Date.UTC(2025, 3, 1) - 1);
  });

  it('takes a date-time with a zone as it is', () => {
    expect(dateBound('2025-03-31T10:00:00+02:00', 'end')).toBe(Date.UTC(2025, 2, 31, 8));
    expect(dateBound('2025-03-31T10:00:00.5Z', 'start')).toBe(Date.UTC(2025, 2, 31, 10, 0, 0, 500));
  });

  it('refuses what is not a date: impossible days, no zone, other types', () => {
    for (const value of ['2025-02-30', '2025-3-1', '2025-03-31T10:00:00', 'yesterday', '', 20250331, undefined]) {
      expect(dateBound(value, 'start'), String(value)).toBeUndefined();
    }
  });
});
