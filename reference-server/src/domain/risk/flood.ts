/** The window a click flood is counted in, and how long after one event the same link and IP raise no other. */
export const floodWindowMs = 10 * 60_000;
export const floodQuietMs = 60 * 60_000;

/** The link-and-IP pairs remembered at once: past it the oldest is forgotten (memory stays bounded under any traffic). */
const maxPairs = 50_000;

interface Pair {
  /** Times of the latest clicks inside the window, at most threshold + 1 of them. */
  clicks: number[];
  flaggedAt?: number;
}

/**
 * Counts clicks per link and IP in memory, so a click costs no read: the `click_flood` signal. Kept per store (one
 * per server process): on PostgreSQL with several servers each counts the clicks it answered, so a flood spread over
 * servers is seen later or not at all (docs/concepts/risk-signals.md says so).
 */
export class ClickFloods {
  private readonly pairs = new Map<string, Pair>();

  /**
   * Counts a click at `now`; true when it makes more than `threshold` clicks on the link from the IP within the window
   * and no event was raised for that pair in the past hour (the caller records one).
   */
  count(linkId: number, ip: string, threshold: number, now: number): boolean {
    const key = `${linkId}|${ip}`;
    const pair = this.pairs.get(key) ?? { clicks: [] };
    // Re-inserted on every click: the map's order is then least recently clicked first.
    this.pairs.delete(key);
    this.pairs.set(key, pair);
    if (this.pairs.size > maxPairs) this.pairs.delete(this.pairs.keys().next().value!);
    // In place: this runs on every click, and a new array each time was most of its cost.
    const clicks = pair.clicks;
    let kept = 0;
    for (const at of clicks) if (at > now - floodWindowMs && at <= now) clicks[kept++] = at;
    clicks.length = kept;
    clicks.push(now);
    while (clicks.length > threshold + 1) clicks.shift();
    if (clicks.length <= threshold) return false;
    if (pair.flaggedAt !== undefined && now - pair.flaggedAt < floodQuietMs) return false;
    pair.flaggedAt = now;
    return true;
  }
}

const byStore = new WeakMap<object, ClickFloods>();

/** The counter of one store (`deps.db`): tests run several servers in one process, each with its own. */
export function clickFloodsOf(store: object): ClickFloods {
  let floods = byStore.get(store);
  if (!floods) byStore.set(store, (floods = new ClickFloods()));
  return floods;
}
