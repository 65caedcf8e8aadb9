import * as crypto from 'node:crypto';

/**
 * SHA-256 in hex. Node's one-shot `crypto.hash` (Node 20.12 and later) makes no Hash object: a quarter of
 * `createHash(…).update(…).digest()`'s time, and every new customer's click and every key-bearing request pays it
 * (docs/performance-notes.md, "The hot path, seventh pass"). The same digest either way.
 */
export const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');
