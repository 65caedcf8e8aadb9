import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Endpoint signing secrets (spec/openapi.yaml, tag `outbound-webhooks`, "Signature"): `whsec_` + base64 of 24 random
 * bytes, as Standard Webhooks writes them. The server must sign with it, so it cannot be hashed like program keys;
 * it is stored sealed (AES-256-GCM) under a key derived from the server secret, so a copy of the database alone
 * does not hold it when `SVC_SECRET_KEY` is configured.
 */

export const secretPrefix = 'whsec_';

export function newEndpointSecret(): string {
  return `${secretPrefix}${randomBytes(24).toString('base64')}`;
}

/** What the dashboard shows of a secret: the prefix and its last 4 characters. */
export function secretHint(last4: string): string {
  return `${secretPrefix}…${last4}`;
}

function sealingKey(serverKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverKey, 'svc', 'svc outbound webhook endpoint secrets', 32));
}

/** `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function sealSecret(secret: string, serverKey: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(serverKey), iv);
  const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The secret, or undefined when it was sealed under another server secret (or is damaged). */
export function openSecret(sealed: string, serverKey: string): string | undefined {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || tag === undefined || ciphertext === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(serverKey), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
