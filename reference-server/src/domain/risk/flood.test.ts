import { describe, expect, it } from 'vitest';
import { ClickFloods, floodQuietMs, floodWindowMs } from './flood';

describe('ClickFloods', () => {
  it('says so once when a link and IP pass the threshold within the window, again only an hour later', () => {
    const floods = new ClickFloods();
    const t0 = 1_000_000;
    const results = Array.from({ length: 30 }, (_, i) => floods.count(1, 'ip', 10, t0 + i));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(results.indexOf(true)).toBe(10);
    expect(floods.count(2, 'ip', 10, t0)).toBe(false);
    expect(floods.count(1, 'other', 10, t0)).toBe(false);
    const later = t0 + floodQuietMs;
    expect(Array.from({ length: 11 }, (_, i) => floods.count(1, 'ip', 10, later + i)).filter(Boolean)).toHaveLength(1);
  });

  it('forgets clicks older than the window', () => {
    const floods = new ClickFloods();
    for (let i = 0; i < 40; i++) expect(floods.count(1, 'ip', 10, i * (floodWindowMs / 10 + 1))).toBe(false);
  });
});
