import { describe, expect, it } from 'vitest';
import { utcDay } from './record';

describe('utcDay', () => {
  it('names the UTC day of a time, on either side of midnight and back again', () => {
    const midnight = Date.UTC(2026, 10, 27);
    expect(utcDay(midnight - 1)).toBe('2026-11-26');
    expect(utcDay(midnight)).toBe('2026-11-27');
    expect(utcDay(midnight - 1)).toBe('2026-11-26');
    expect(utcDay(midnight + 86_399_999)).toBe('2026-11-27');
    expect(utcDay(Date.UTC(1969, 11, 31, 12))).toBe('1969-12-31');
  });
});
