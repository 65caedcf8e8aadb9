import * as crypto from 'node:crypto';

/**
 * SHA-256 in hex. Node's one-shot `crypto.hash` (Node 20.12 and later) makes no Hash object: a quarter of
 * `createHash(…).update(…).digest()`'s time, and every new customer's click pays it (docs/performance-notes.md,
 * "The hot path, seventh pass"). The same digest either way.
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * What is kept of a visitor's IP to compare a lead's with its click's: a hash, not the address (the risk event's
 * evidence names the address of the request that raised it, which the merchant sees; customers' rows never do).
 */
export function ipHash(ip: string | undefined): string | undefined {
  if (ip === undefined || ip === '') return undefined;
  return sha256Hex(`svc-risk-ip:${ip}`).slice(0, 32);
}
