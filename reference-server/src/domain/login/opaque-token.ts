import { createHash, randomBytes } from 'node:crypto';

/** An opaque random credential: 32 random bytes as 43 base64url characters after the prefix. */
export function newOpaqueToken(prefix: string): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/** Credentials are stored only as their SHA-256 (hex), so a leaked table grants nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
