import { createHash } from 'node:crypto';

/**
 * What is kept of a visitor's IP to compare a lead's with its click's: a hash, not the address (the risk event's
 * evidence names the address of the request that raised it, which the merchant sees; customers' rows never do).
 */
export function ipHash(ip: string | undefined): string | undefined {
  if (ip === undefined || ip === '') return undefined;
  return createHash('sha256').update(`svc-risk-ip:${ip}`).digest('hex').slice(0, 32);
}
