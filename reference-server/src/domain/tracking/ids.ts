import { randomBytes } from 'node:crypto';

/** A new click id: opaque, URL- and cookie-safe. */
export function newClickId(): string {
  return `clk_${randomBytes(16).toString('base64url')}`;
}
