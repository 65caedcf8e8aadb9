import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for click ids, drawn from the CSPRNG 256 ids at a time: a `randomBytes` call per click showed in the
 * click route's profile (`pnpm bench`, BENCHMARKS.md). Same source, same 128 bits per id.
 */
const pool = Buffer.alloc(16 * 256);
let offset = pool.length;

/** Base 64 digits in ASCII order, so a prefix written with them sorts as the number it encodes. */
const digits = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** The time as eight sortable digits (2^48 ms: until the year 10889). */
function timePrefix(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 8; i++) {
    out = digits[rest % 64]! + out;
    rest = Math.floor(rest / 64);
  }
  return out;
}

/**
 * A new click id: opaque, URL- and cookie-safe; 128 random bits after the creation time. The time prefix makes
 * each batch's new ids neighbours in the unique indexes on `click_id` (clicks, customers), so a COMMIT writes a
 * few index pages instead of one random page per click and index (docs/performance-notes.md, "third pass").
 */
export function newClickId(now: number): string {
  if (offset === pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + 16);
  offset += 16;
  return `clk_${timePrefix(now)}${id}`;
}
