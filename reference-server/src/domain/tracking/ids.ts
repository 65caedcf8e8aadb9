import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for click ids, drawn from the CSPRNG 256 ids at a time: one `randomBytes` call per click was 5 % of
 * the click route's CPU (BENCHMARKS.md, "Where a tracking request's time goes"). Same source, same 128 bits per id.
 */
const pool = Buffer.alloc(16 * 256);
let offset = pool.length;

/** A new click id: opaque, URL- and cookie-safe. */
export function newClickId(): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + 16);
  offset += 16;
  return `clk_${id}`;
}
