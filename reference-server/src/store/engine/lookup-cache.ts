import type { Db } from './batch';

/**
 * The hot path's lookups (a link by short code, a program by key hash, a program by id, the program's settings
 * being its row, a partner by id, a program's enabled webhook endpoints) answered from memory (BENCHMARKS.md,
 * "Where a tracking request's time goes"). Correctness rests on invalidation at the driver, not on each write path
 * remembering to call it: `store/db.ts` sees every statement text, and any `insert into`, `update` or `delete from`
 * on `programs`, `partners`, `referral_links` or `webhook_endpoints` empties the cache: when the statement runs,
 * and again when its transaction ends (PostgreSQL: another pooled connection may read the old row between the two). So a regenerated key, a disabled link, a suspended partner or new settings
 * are never served stale by the instance that answered the change, whichever route made it (dashboard settings,
 * key regeneration, link PATCH in the dashboard, partner view or program-key API, partner PATCH, test control).
 *
 * Other instances (PostgreSQL only; SQLite is one process, so this cache alone suffices there) learn of changes by
 * `LISTEN`/`NOTIFY`: the writing connection sends `pg_notify` inside the write's transaction, so it is delivered
 * at commit, usually within milliseconds. Entries also expire after `maxAgeMs` (1 s on PostgreSQL), which bounds
 * staleness across instances at one second even when a notification is lost (listener reconnecting).
 */
export class LookupCache {
  private generation = 0;
  private readonly entries = new Map<string, { value: unknown; at: number }>();
  /** Loads in flight by key: the requests that miss together (an entry just expired) share one read. */
  private readonly loading = new Map<string, Promise<unknown>>();

  constructor(
    /** Entries older than this are read again; undefined: never (one process, every write seen here). */
    private readonly maxAgeMs: number | undefined,
    private readonly limit = 10_000,
  ) {}

  /**
   * The cached value of `key`, else `load()`'s, cached unless a write happened meanwhile. Misses are not cached.
   * A miss while another caller's load of the same key is in flight (and no write happened since it started)
   * waits for that load instead of reading again: on PostgreSQL an entry expiring under load was one round trip
   * per waiting request (BENCHMARKS.md, "The hot path, fifth pass").
   */
  get<T extends object>(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const hit = this.entries.get(key);
    const now = performance.now();
    if (hit && (this.maxAgeMs === undefined || now - hit.at < this.maxAgeMs)) return Promise.resolve(hit.value as T);
    const shared = this.loading.get(key) as Promise<T | undefined> | undefined;
    if (shared) return shared;
    const loaded = this.load(key, load, now);
    this.loading.set(key, loaded);
    return loaded;
  }

  private async load<T extends object>(key: string, load: () => Promise<T | undefined>, now: number): Promise<T | undefined> {
    const generation = this.generation;
    try {
      const value = await load();
      if (value === undefined) return value;
      // Shared between requests: frozen so that no caller can change what another reads.
      Object.freeze(value);
      if (generation === this.generation) {
        if (this.entries.size >= this.limit) this.entries.clear();
        this.entries.set(key, { value, at: now });
      }
      return value;
    } finally {
      if (generation === this.generation) this.loading.delete(key);
    }
  }

  /** Forgets everything; a lookup in flight when this runs does not store its (possibly old) row, nor is it shared. */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.loading.clear();
  }
}

/** `load()` through the store's cache under `key` (store/engine/store-engine.ts), or straight from the database when `db` has none (a transaction). */
export function cachedLookup<T extends object>(db: Db, key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
  const cache = db.engine?.cache;
  return cache ? cache.get(key, load) : load();
}

/** The statements that change what the cache holds: any write to programs, partners, referral_links or webhook_endpoints. */
const cachedTableWrite =
  /\b(?:update|insert\s+into|delete\s+from)\s+"?(?:programs|partners|referral_links|webhook_endpoints)"?(?:[\s(]|$)/i;

const seen = new Map<string, boolean>();

/** Whether a statement changes what the cache holds; remembered per text (the store runs a small fixed set). */
export function writesCachedTables(sqlText: string): boolean {
  let writes = seen.get(sqlText);
  if (writes === undefined) {
    writes = cachedTableWrite.test(sqlText);
    if (seen.size < 2000) seen.set(sqlText, writes);
  }
  return writes;
}
