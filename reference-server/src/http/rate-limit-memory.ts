import type { RateLimitStore } from './rate-limit';

/** Counters kept at most: past it the least recently used one goes (made-up keys cannot grow memory). */
export const memoryBucketCap = 100_000;

/**
 * Window counters in this process's memory, bounded as an LRU: a Map iterates in insertion order, so re-inserting
 * a counter on every hit keeps the least recently used first, and evicting it is O(1) — no scan, however many
 * buckets clients invent.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { windowEnd: number; count: number }>();

  constructor(private readonly cap = memoryBucketCap) {}

  async hit(key: string, windowEnd: number): Promise<number> {
    const current = this.counters.get(key);
    const count = current && current.windowEnd === windowEnd ? current.count + 1 : 1;
    this.counters.delete(key);
    this.counters.set(key, { windowEnd, count });
    if (this.counters.size > this.cap) this.counters.delete(this.counters.keys().next().value as string);
    return count;
  }

  async peek(key: string, windowEnd: number): Promise<number> {
    const current = this.counters.get(key);
    return current && current.windowEnd === windowEnd ? current.count : 0;
  }

  /** How many counters are held (tests check the bound). */
  get size(): number {
    return this.counters.size;
  }

  async reset(): Promise<void> {
    this.counters.clear();
  }

  async close(): Promise<void> {}
}
