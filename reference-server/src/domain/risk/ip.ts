import { sha256Hex } from '../sha256';

/**
 * What is kept of a visitor's IP to compare a lead's with its click's: a hash, not the address (the risk event's
 * evidence names the address of the request that raised it, which the merchant sees; customers' rows never do).
 */
export function ipHash(ip: string | undefined): string | undefined {
  if (ip === undefined || ip === '') return undefined;
  return sha256Hex(`svc-risk-ip:${ip}`).slice(0, 32);
}
