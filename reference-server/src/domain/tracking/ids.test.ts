import { describe, expect, it } from 'vitest';
import { newClickId } from './ids';

describe('newClickId', () => {
  it('is URL- and cookie-safe: clk_, eight time digits, 128 random bits', () => {
    expect(newClickId(Date.UTC(2026, 10, 25))).toMatch(/^clk_[-0-9A-Z_a-z]{8}[-0-9A-Za-z_]{22}$/);
  });

  it('sorts by creation time, so a batch of new ids lands on neighbouring index pages', () => {
    const times = [0, 63, 64, 4095, 4096, Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 1) + 1, Date.UTC(2400, 0, 1)];
    const ids = times.map((ms) => newClickId(ms));
    // Byte order, as SQLite's BINARY collation and PostgreSQL's "C" collation compare them.
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
  });

  it('never repeats within one millisecond', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => newClickId(1_700_000_000_000)));
    expect(ids.size).toBe(5000);
  });
});
