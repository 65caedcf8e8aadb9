import { createHash, randomBytes } from 'node:crypto';

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** A new program key; only its hash and last four characters are stored (§Resources/Program, api_token). */
export function newProgramKey(): { key: string; hash: string; last4: string } {
  const key = `svc_live_${randomBytes(32).toString('base64url')}`;
  return { key, hash: hashKey(key), last4: key.slice(-4) };
}

export function maskKey(last4: string): string {
  return `svc_live_…${last4}`;
}
