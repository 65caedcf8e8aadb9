import { describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from './rate-limit';

describe('MemoryRateLimitStore', () => {
  it('holds at most its cap, evicting the least recently used counter', async () => {
    const store = new MemoryRateLimitStore(3);
    const end = 60_000;
    for (const key of ['a', 'b', 'c']) await store.hit(key, end);
    expect(await store.hit('a', end)).toBe(2);
    await store.hit('d', end);
    expect(store.size).toBe(3);
    expect(await store.peek('b', end)).toBe(0);
    expect(await store.peek('a', end)).toBe(2);
    expect(await store.peek('c', end)).toBe(1);
    expect(await store.peek('d', end)).toBe(1);
  });

  it('starts a new count in a new window; peek does not count', async () => {
    const store = new MemoryRateLimitStore();
    expect(await store.hit('k', 60_000)).toBe(1);
    expect(await store.peek('k', 60_000)).toBe(1);
    expect(await store.peek('k', 60_000)).toBe(1);
    expect(await store.hit('k', 120_000)).toBe(1);
    expect(await store.peek('k', 60_000)).toBe(0);
  });
});
