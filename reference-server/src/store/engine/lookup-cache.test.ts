import { describe, expect, it } from 'vitest';
import { LookupCache } from './lookup-cache';

/** A load that answers when told, counting how often it ran. */
function slowLoad(rows: { version: number }[]) {
  const pending: (() => void)[] = [];
  let runs = 0;
  const load = () =>
    new Promise<{ version: number }>((resolve) => {
      const row = rows[runs++]!;
      pending.push(() => resolve(row));
    });
  return { load, answer: () => pending.shift()!(), runs: () => runs };
}

describe('LookupCache', () => {
  it('serves the requests that miss together from one load, and later ones from memory', async () => {
    const cache = new LookupCache(undefined);
    const { load, answer, runs } = slowLoad([{ version: 1 }]);
    const waiting = [cache.get('k', load), cache.get('k', load), cache.get('k', load)];
    answer();
    expect(await Promise.all(waiting)).toEqual([{ version: 1 }, { version: 1 }, { version: 1 }]);
    expect(await cache.get('k', load)).toEqual({ version: 1 });
    expect(runs()).toBe(1);
  });

  it('after a write, a miss does not wait for a load that began before it, and that load is not kept', async () => {
    const cache = new LookupCache(undefined);
    const { load, answer, runs } = slowLoad([{ version: 1 }, { version: 2 }]);
    const before = cache.get('k', load);
    cache.invalidate();
    const after = cache.get('k', load);
    expect(runs()).toBe(2);
    answer();
    answer();
    expect([await before, await after]).toEqual([{ version: 1 }, { version: 2 }]);
    expect(await cache.get('k', load)).toEqual({ version: 2 });
    expect(runs()).toBe(2);
  });

  it('a failed load fails the requests that waited for it, and the next miss reads again', async () => {
    const cache = new LookupCache(undefined);
    let runs = 0;
    const failing = () => {
      runs++;
      return Promise.reject(new Error('database down'));
    };
    await expect(Promise.all([cache.get('k', failing), cache.get('k', failing)])).rejects.toThrow('database down');
    expect(runs).toBe(1);
    expect(await cache.get('k', () => Promise.resolve({ version: 3 }))).toEqual({ version: 3 });
  });
});
